import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Body, BodyNode } from '../../src/model/body.js';
import {
  MAX_ROSTER_LINES,
  readOpeningPost,
  readOpeningRoster,
  type OpeningRoster,
} from '../../src/parse/opening-roster.js';

/** Text lines as a body: `**x**` is bold, `@x` a member link, every line break a br. */
function body(text: string): Body {
  const out: BodyNode[] = [];
  text.split('\n').forEach((line, i) => {
    if (i > 0) out.push({ t: 'br' });
    for (const part of line.split(/(\*\*[^*]+\*\*|@\w+)/u)) {
      if (!part) continue;
      if (part.startsWith('**')) out.push({ t: 'bold', children: [{ t: 'text', text: part.slice(2, -2) }] });
      else if (part.startsWith('@'))
        out.push({
          t: 'link',
          href: `/members/${part.slice(1)}.1/`,
          kind: 'mention',
          children: [{ t: 'text', text: part }],
        });
      else out.push({ t: 'text', text: part });
    }
  });
  return out;
}

const read = (text: string, posters: string[] = [], gm = 'Moderator'): OpeningRoster | null =>
  readOpeningRoster(body(text), { gm, posters });

describe("the opening post's player list", () => {
  it.each([
    [
      "a heading, then one name a line (the UI story's opening post)",
      'Day 1 begins.\nPlayers:\nAlice\nBob\nCarol\nDave\n\nMajority is 3.',
      [],
      { names: ['Alice', 'Bob', 'Carol', 'Dave'], shape: 'heading-list' },
    ],
    [
      'a numbered list after "Alive (4):", notes after the names dropped',
      'Alive (4):\n1. Alice\n2) Bob (replaced Zed)\n3. Carol - town\n4. Dave\nSee you in the thread.',
      [],
      { names: ['Alice', 'Bob', 'Carol', 'Dave'], shape: 'heading-list' },
    ],
    [
      'a bulleted list after a blank line under the heading',
      'Roster\n\n• Alice\n• Bob\n• Carol',
      [],
      { names: ['Alice', 'Bob', 'Carol'], shape: 'heading-list' },
    ],
    [
      'the heading with its names between commas, however long the line (issue #28)',
      'Players: Alice, Bob, Carol, Dave, Davina, Eve, Frank, Grace, Heidi and Ivan',
      [],
      {
        names: ['Alice', 'Bob', 'Carol', 'Dave', 'Davina', 'Eve', 'Frank', 'Grace', 'Heidi', 'Ivan'],
        shape: 'heading-line',
      },
    ],
    [
      'names in bold under the heading',
      '**Players**\n**Alice**\n**Bob**\n**Carol**',
      [],
      { names: ['Alice', 'Bob', 'Carol'], shape: 'heading-list' },
    ],
    [
      'member links under the heading, spelled as the forum spells the member',
      'Living players:\n@Alice\n@bob\n@Carol',
      ['Bob'],
      { names: ['Alice', 'Bob', 'Carol'], shape: 'heading-list' },
    ],
    [
      'a comma line without a heading, confirmed by the posters; a listed player who has not posted is proposed',
      'Welcome to the game!\nAlice, Bob, Carol, Zed\nGood luck.',
      ['Alice', 'Bob'],
      { names: ['Alice', 'Bob', 'Carol', 'Zed'], shape: 'comma-line' },
    ],
    [
      'bold names after a heading with words of its own ("Players tonight:")',
      'Players tonight:\n\n**Alice**\n**Bob**\n**Carol**\n**Zed**',
      ['Alice', 'Bob', 'Carol'],
      { names: ['Alice', 'Bob', 'Carol', 'Zed'], shape: 'heading-list' },
    ],
    [
      'a run of bold names with no heading at all, confirmed by the posters',
      'Good luck to\n**Alice**\n**Bob**\n**Carol**\n**Zed**\nMay the best side win!',
      ['Alice', 'Bob', 'Carol'],
      { names: ['Alice', 'Bob', 'Carol', 'Zed'], shape: 'bold-run' },
    ],
    [
      'a run of member links with no heading, confirmed by the links themselves',
      'Good luck to\n@Alice\n@Bob\n@Carol\nMay the best side win!',
      [],
      { names: ['Alice', 'Bob', 'Carol'], shape: 'member-run' },
    ],
    [
      'the GM in the list is not a player',
      'Players:\nModerator\nAlice\nBob\nCarol',
      [],
      { names: ['Alice', 'Bob', 'Carol'], shape: 'heading-list' },
    ],
  ] as const)('%s', (_rule, text, posters, want) => {
    expect(read(text, [...posters])).toEqual(want);
  });

  it.each([
    ['a comma line of words nobody in the thread is', 'Bring snacks, drinks, dice and patience', ['Alice', 'Bob']],
    ['a run of bold headings nobody in the thread is', '**Sides**\n**Roles**\n**Voting**\n**Schedule**', ['Alice']],
    ['two names are not a list', 'Players: Alice, Bob', []],
    ['a heading followed by sentences', 'Players:\nEveryone gets a role PM tonight.\nVote in bold.', []],
  ] as const)('no list: %s', (_rule, text, posters) => {
    expect(read(text, [...posters])).toBeNull();
  });

  // Real opening posts that carry the rules and no player list: nothing in them is read as one.
  const seeds = join(import.meta.dirname, '../../../shared/seeds');
  it.each([
    ['000_a253b44b36effaad.txt', 'Open Conspiracy (ProBoards): numbered win conditions, "living players" in sentences'],
    ['001_4514144397db830e.txt', 'One Night Ultimate Werewolf (GOG): a numbered rules overview'],
    ['002_a82b9663e9ddbf89.txt', 'Detective Conan setup: role lists, "To inactive players:" sample PMs'],
    ['003_e4869d5ced2ed2e8.txt', 'TWG2 Havenburg: role names, one a line'],
    ['004_c3c439086cd64446.txt', 'Witchhunt (Smashboards): "Village Player Types:" and role lines'],
  ])('no list in the real rules post %s (%s)', (file, _what) => {
    let text: string;
    try {
      text = readFileSync(join(seeds, file), 'utf8');
    } catch {
      if (process.env['VOTAL_REQUIRE_SAMPLES'] === '1') throw new Error(`missing ${file} in ../shared/seeds`);
      return;
    }
    // The thread's posters: the real game's players are not known here, so none.
    expect(read(text, [], 'GM')).toBeNull();
  });

  it('bounded: a hostile post of 100,000 one-name lines reads at most 400 lines and 200 names', () => {
    const text = `Players:\n${Array.from({ length: 100_000 }, (_, i) => `P${i}`).join('\n')}`;
    const roster = read(text);
    expect(roster?.names.length).toBeLessThanOrEqual(200);
  });

  it('says how many lines past the bound it did not read: a list after them is not silently lost', () => {
    const rules = Array.from({ length: MAX_ROSTER_LINES }, (_, k) => `Rule ${k + 1}: be nice.`).join('\n');
    const cut = readOpeningPost(body(`${rules}\nPlayers:\nAlice\nBob\nCarol`), { gm: 'Moderator', posters: [] });
    expect(cut).toEqual({ roster: null, linesNotRead: 4 });
    const whole = readOpeningPost(body('Players:\nAlice\nBob\nCarol'), { gm: 'Moderator', posters: [] });
    expect(whole).toEqual({ roster: { names: ['Alice', 'Bob', 'Carol'], shape: 'heading-list' }, linesNotRead: 0 });
  });
});
