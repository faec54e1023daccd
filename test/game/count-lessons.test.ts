import { describe, expect, it } from 'vitest';
import { LESSON_DISMISS } from '../../src/game/count-lessons.js';
import { foldGame, type PostHistory } from '../../src/game/fold-game.js';
import { gmChecks } from '../../src/game/gm-checks.js';
import type { AuditEntry } from '../../src/model/audit.js';
import type { Body } from '../../src/model/body.js';
import type { GmEvent } from '../../src/model/event.js';
import { GameSettings } from '../../src/model/game-settings.js';
import { Roster } from '../../src/model/roster.js';
import { readPost } from '../../src/parse/read-post.js';
import { loadRuleset } from '../../src/rules/load-ruleset.js';
import { rosterAt } from '../../src/tally/slot-names.js';
import { b, body, br } from '../parse/build.js';

/**
 * What the GM's own counts teach (issue #24): a voter the count places on a wagon whose
 * standing vote Votal could not read is offered as a correction of that post and, for a
 * safe name, as an alias of the wagon's player. Real parser, real fold, real check.
 */
const ruleset = loadRuleset('mafiascum-majority');
const players = ['Alice', 'Bob', 'Carol', 'Caroline', 'Dave', 'Eve', 'Frank', 'Zed'];
const baseRoster = Roster.parse(players.map((name) => ({ name })));
const GM = 'Mod';
const link = (n: number): string => `https://forum.example/viewtopic.php?p=${1000 + n}#p${1000 + n}`;

type Entry = [author: string, content: Body];
const votes = (target: string): Body => body(b(`VOTE: ${target}`));
/** A GM count: lines joined by breaks. */
const count = (...lines: string[][]): Body => lines.flatMap((l, i) => [...(i ? [br()] : []), ...body(...l)]);
/** "Eve (n): a, b" with the other players not voting. */
const countOf = (wagons: Record<string, string[]>): Body => {
  const on = new Set(Object.values(wagons).flat());
  return count(...Object.entries(wagons).map(([t, vs]) => [`${t} (${vs.length}): ${vs.join(', ')}`]), [
    `Not Voting (${players.length - on.size}): ${players.filter((p) => !on.has(p)).join(', ')}`,
  ]);
};

function check(
  entries: Entry[],
  opts: { events?: GmEvent[]; audit?: AuditEntry[]; roster?: Roster } = {},
): ReturnType<typeof gmChecks> {
  const roster = opts.roster ?? baseRoster;
  const gmEvents = opts.events ?? [];
  const posts = entries.map(([author, content], i) => ({
    number: i + 1,
    author,
    postedAt: new Date(Date.UTC(2026, 2, 3, 10, i)).toISOString(),
    permalink: link(i + 1),
    deleted: false,
    body: content,
  }));
  const histories: PostHistory[] = posts.map((p) => ({
    ...p,
    revisions: [
      {
        reading: readPost({ body: p.body, edit: null }, rosterAt(roster, gmEvents, p), ruleset),
        firstSeen: p.postedAt,
        edit: null,
        text: '',
      },
    ],
  }));
  const folded = foldGame({
    ruleset,
    roster,
    engine: 'phpbb',
    posts: histories,
    gmEvents,
    now: '2026-03-04T00:00:00Z',
  });
  return gmChecks({
    game: { roster, engine: 'phpbb', settings: GameSettings.parse({ gm: GM }) },
    ruleset,
    posts,
    log: folded.log,
    gmEvents,
    audit: opts.audit ?? [],
  });
}

/** Bob on Carol, then Dave writes `written` (post 3); the GM's count (post 4) puts Dave on `wagon`. */
const day = (written: string, wagon = 'Eve', dave = 'Dave'): Entry[] => [
  [GM, body('Day 1 begins.')], // 1
  ['Bob', votes('Carol')], // 2
  ['Dave', votes(written)], // 3
  [GM, countOf({ Carol: ['Bob'], [wagon]: [dave] })], // 4
];

describe('lessons from the GM count', () => {
  it('a nickname Votal could not read, placed by the GM: the correction and the alias are offered', () => {
    const r = check(day('tyler'));
    expect(r.lessons).toEqual([
      {
        key: expect.stringMatching(/^[0-9a-f]{16}$/),
        countPost: 4,
        countPermalink: link(4),
        voter: 'Dave',
        wagon: 'Eve',
        post: 3,
        permalink: link(3),
        written: 'tyler',
        raw: 'VOTE: tyler',
        alias: 'tyler',
        noAlias: null,
        text: 'Your count at #4 puts Dave on Eve; Dave wrote "tyler" at #3. Count it so, and read "tyler" as Eve from now on?',
      },
    ]);
  });

  it.each([
    ['a name close to another player ("Alicia", near Alice), placed on Eve', day('Alicia')],
    ['a name that could mean two players ("Car": Carol or Caroline)', day('Car', 'Carol')],
    ['a vote Votal did read (Dave on Carol by Votal, on Eve by the GM): a difference, not a lesson', day('Carol')],
    ['the voter written loosely on the count ("Dav")', day('tyler', 'Eve', 'Dav')],
  ])('no lesson: %s', (_, entries) => {
    expect(check(entries).lessons).toEqual([]);
  });

  it('a name close to the player the GM placed ("Evelyn", near Eve): offered', () => {
    expect(check(day('Evelyn')).lessons.map((l) => [l.voter, l.wagon, l.alias])).toEqual([['Dave', 'Eve', 'Evelyn']]);
  });

  it.each([['him'], ['the guy above'], ['that one']])(
    'a word that points at someone ("%s"): the correction is offered, the name is not learned',
    (written) => {
      const [l] = check(day(written)).lessons;
      const noAlias = `"${written}" points at someone: not learned as a name`;
      expect(l).toMatchObject({ wagon: 'Eve', written, alias: null, noAlias });
      expect(l!.text).toBe(
        `Your count at #4 puts Dave on Eve; Dave wrote "${written}" at #3. Count it so? (${noAlias})`,
      );
    },
  );

  it('a phrase longer than a name: the correction is offered, the phrase is not learned', () => {
    const [l] = check(day('whoever wrote that long rant')).lessons;
    expect(l).toMatchObject({ alias: null, noAlias: '"whoever wrote that long rant" is not a name' });
  });

  it('later counts that place the vote again offer it once, from the first count', () => {
    const entries: Entry[] = [...day('tyler'), ['Alice', body('hm')], [GM, countOf({ Carol: ['Bob'], Eve: ['Dave'] })]];
    expect(check(entries).lessons.map((l) => l.countPost)).toEqual([4]);
  });

  it('two counts that place the post on two wagons: no lesson (the GM was unsure)', () => {
    const entries: Entry[] = [...day('tyler'), [GM, countOf({ Carol: ['Bob'], Frank: ['Dave'] })]];
    expect(check(entries).lessons).toEqual([]);
  });

  it('one name the counts place on two players: the corrections are offered, the name is not learned', () => {
    const entries: Entry[] = [
      ...day('tyler'),
      ['Frank', votes('tyler')], // 5
      [GM, countOf({ Carol: ['Bob'], Eve: ['Dave'], Zed: ['Frank'] })], // 6
    ];
    const r = check(entries).lessons;
    expect(r.map((l) => [l.voter, l.wagon, l.alias, l.noAlias])).toEqual([
      ['Dave', 'Eve', null, 'your counts read "tyler" as two players'],
      ['Frank', 'Zed', null, 'your counts read "tyler" as two players'],
    ]);
  });

  it('a dismissed lesson is not offered again', () => {
    const [l] = check(day('tyler')).lessons;
    const audit: AuditEntry[] = [
      { id: 1, gameId: 1, actor: 'gm', action: LESSON_DISMISS, detail: { key: l!.key }, at: '2026-03-04T00:00:00Z' },
    ];
    expect(check(day('tyler'), { audit }).lessons).toEqual([]);
  });

  it('accepted (the correction and the alias): the count agrees and nothing is left to learn', () => {
    const roster = Roster.parse(players.map((name) => ({ name, aliases: name === 'Eve' ? ['tyler'] : [] })));
    const r = check(day('tyler'), { roster, events: [{ kind: 'correct', post: 3, target: 'Eve' }] });
    expect(r.lessons).toEqual([]);
    expect(r.counts[0]!.differences).toEqual([]);
  });
});
