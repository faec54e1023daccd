import { describe, expect, it } from 'vitest';
import type { PostEvent } from '../../src/model/event.js';
import { readPost } from '../../src/parse/read-post.js';
import { countVotes } from '../../src/tally/count.js';
import { renderText } from '../../src/votal/render-text.js';
import { b, post } from '../parse/build.js';
import { players, plurality } from './log-builders.js';

/*
 * Issue #24: "Vote: Carl" was counted for Carol (`parse` said fuzzy, 0.9533) and the count
 * said nothing about it. Every counted vote carries how its name was read; anything but an
 * exact name or an alias is shown, in the JSON per voter, the text and --explain.
 */
const roster = players('Alice', 'Bob', 'Carol', 'Dana', 'Eve');
const ruleset = plurality();

function read(n: number, author: string, written: string): PostEvent {
  return {
    kind: 'post',
    post: n,
    author,
    time: null,
    permalink: null,
    reading: readPost(post(b(`Vote: ${written}`)), roster, ruleset),
  };
}

const events = [read(4, 'Eve', 'Carl'), read(5, 'Alice', 'Carol'), read(6, 'Bob', 'Dan')];

describe('loose readings of a name are shown', () => {
  it('each voter in the count JSON says how a loose name was read, and a plain one says nothing', () => {
    const t = countVotes({ ruleset, roster, events });
    const carol = t.wagons.find((w) => w.target === 'Carol')!;
    expect(carol.voters.map((v) => [v.player, v.match, v.written])).toEqual([
      ['Eve', 'fuzzy', 'Carl'],
      ['Alice', undefined, undefined],
    ]);
    const dana = t.wagons.find((w) => w.target === 'Dana')!;
    expect(dana.voters.map((v) => [v.player, v.match, v.written])).toEqual([['Bob', 'prefix', 'Dan']]);
  });

  it('the text lists every loose reading as "voter → target (written, how)"', () => {
    const text = renderText(countVotes({ ruleset, roster, events }));
    expect(text).toContain('#4 Eve → Carol (written "Carl", fuzzy)');
    expect(text).toContain('#6 Bob → Dana (written "Dan", prefix)');
    expect(text).not.toContain('Alice → Carol');
  });

  it('--explain says it beside the vote', () => {
    const t = countVotes({ ruleset, roster, events, explain: true });
    const carol = t.wagons.find((w) => w.target === 'Carol')!;
    expect(carol.explain?.map((e) => e.text)).toEqual(['Eve: vote → Carol (written "Carl", fuzzy)', 'Alice: vote']);
  });

  it('a nickname from an earlier game is shown with that game, in the JSON, the text and --explain', () => {
    const known = roster.map((sl) =>
      sl.name === 'Carol' ? { ...sl, nicknames: [{ name: 'Cee', from: 'Mini 12' }] } : sl,
    );
    const vote = { ...read(7, 'Dana', 'Cee'), reading: readPost(post(b('Vote: Cee')), known, ruleset) };
    const t = countVotes({ ruleset, roster: known, events: [vote], explain: true });
    const carol = t.wagons.find((w) => w.target === 'Carol')!;
    expect(carol.voters.map((v) => [v.player, v.match, v.written, v.from])).toEqual([
      ['Dana', 'nickname', 'Cee', 'Mini 12'],
    ]);
    expect(renderText(t)).toContain(`#7 Dana → Carol (written "Cee", nickname from game 'Mini 12')`);
    expect(carol.explain?.map((e) => e.text)).toEqual([
      `Dana: vote → Carol (written "Cee", nickname from game 'Mini 12')`,
    ]);
  });

  it("a name the book's nickname made ambiguous goes to the GM saying the book took part, in the flag and the text", () => {
    // "Cee" is Carol's nickname from Mini 12, and reads as Cecil's initial here too.
    const known = [
      ...roster.map((sl) => (sl.name === 'Carol' ? { ...sl, nicknames: [{ name: 'Cee', from: 'Mini 12' }] } : sl)),
      { ...roster[0]!, name: 'Cee Lo' },
    ];
    const vote = { ...read(7, 'Dana', 'Cee'), reading: readPost(post(b('Vote: Cee')), known, ruleset) };
    const t = countVotes({ ruleset, roster: known, events: [vote] });
    const note = `"Cee" is a nickname from game 'Mini 12' in the forum's book, and another reading fits too`;
    expect(t.flags).toEqual([expect.objectContaining({ post: 7, kind: 'ambiguous-target', note })]);
    expect(renderText(t)).toContain(`(${note})`);
  });
});
