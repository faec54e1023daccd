import { describe, expect, it } from 'vitest';
import { LESSON_DISMISS } from '../../src/game/count-lessons.js';
import { foldGame } from '../../src/game/fold-game.js';
import { gmChecks } from '../../src/game/gm-checks.js';
import type { AuditEntry } from '../../src/model/audit.js';
import type { Body } from '../../src/model/body.js';
import type { GmEvent } from '../../src/model/event.js';
import type { CountLesson, NameLesson } from '../../src/model/gm-count.js';
import { GameSettings } from '../../src/model/game-settings.js';
import { Roster } from '../../src/model/roster.js';
import { loadRuleset } from '../../src/rules/load-ruleset.js';
import { parseFragment } from '../../scrapers/fragment.js';
import { adapterOf } from '../../scrapers/identify.js';
import { b, body, br } from '../parse/build.js';
import { type ThreadEntry, threadLink, threadOf } from './gm-thread.js';

/**
 * What the GM's own counts teach (issue #24): a voter the count places on a wagon whose
 * standing vote Votal could not read is offered as a correction of that post and, for a
 * safe name, as an alias of the wagon's player. Real parser, real fold, real check.
 */
const ruleset = loadRuleset('mafiascum-majority');
const players = ['Alice', 'Bob', 'Carol', 'Caroline', 'Dave', 'Eve', 'Frank', 'Zed'];
const baseRoster = Roster.parse(players.map((name) => ({ name })));
const GM = 'Mod';
const link = threadLink;

type Entry = ThreadEntry;
const named = (ls: readonly CountLesson[]): NameLesson[] => ls.filter((l): l is NameLesson => l.kind === 'name');
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
  const { posts, histories } = threadOf(entries, roster, gmEvents, ruleset);
  const folded = foldGame({
    ruleset,
    roster,
    engine: 'phpbb',
    posts: histories,
    gmEvents,
    now: '2026-03-04T00:00:00Z',
  });
  return gmChecks({
    game: { roster, engine: 'phpbb', settings: GameSettings.parse({ gm: [GM, 'Wraith'] }) },
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
        kind: 'name',
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
    expect(named(check(day('Evelyn')).lessons).map((l) => [l.voter, l.wagon, l.alias])).toEqual([
      ['Dave', 'Eve', 'Evelyn'],
    ]);
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
    expect(named(r).map((l) => [l.voter, l.wagon, l.alias, l.noAlias])).toEqual([
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

/**
 * The real shape, MafiaScum game 1101 Day 2 (donbot data 739243d): andrew94 writes "unvote
 * vote zycro" (post #210) for Zyrconium, a name no rung of the ladder reads; the moderator's
 * Votecount 2.1 (post #245, italic names, bold numbers, struck withdrawn votes) puts andrew94
 * on Zyrconium. The markup is phpBB's as the bench's adapter reads it; the roster is the
 * archive's Day 2 (the first name of each slot, later names as former ones).
 */
describe('lessons from a real MafiaScum count', () => {
  const markup = adapterOf('phpbb').descriptor.body;
  const html = (s: string): Body => parseFragment(s, markup, 'https://forum.mafiascum.net/viewtopic.php?t=1');
  const slots = [
    ['PranaDevil', 'Trendall'],
    ['andrew94'],
    ['brokenscraps'],
    ['kikuchiyo'],
    ['Sundy'],
    ['Zyrconium'],
    ['nachomamma8', 'tylerjarvis'],
    ['havingfitz'],
    ['Xtoxm', 'Looker', 'Lateralus22'],
    ['lewarcher82', 'ArielT'],
  ];
  const roster = Roster.parse(slots.map((n) => ({ name: n[0], formerNames: n.slice(1).reverse() })));
  const bold = (t: string) => `<div style="display:inline;font-weight:bold">${t}</div>`;
  const it_ = (t: string) => `<div style="display:inline;font-style:italic">${t}</div>`;
  const struck = (t: string) => `<div style="display:inline-flex;text-decoration:line-through">${it_(t)}</div>`;
  const line = (name: string, n: number, voters: string) => `${it_(`${name} ${bold(`(${n})`)}:`)} ${voters}<br>`;
  const votecount = html(
    `<div style="display:inline;color:#0000FF">${bold('Votecount 2.1')}<br><br>` +
      line('Trendall', 3, 'brokenscraps, Sundy, Lateralus22') +
      line('andrew94', 0, struck('Zyrconium')) +
      line('tylerjarvis', 0, `${struck('havingfitz')}, ${struck('andrew94')}`) +
      line('havingfitz', 1, 'Zyrconium') +
      line('Zyrconium', 3, 'andrew94, kikuchiyo, havingfitz') +
      `<br>${line('Not Voting', 3, 'ArielT, tylerjarvis, Trendal')}<br>With 10 alive it takes ${bold('6')} to lynch.</div>`,
  );
  const vote = (t: string) => html(bold(`Vote: ${t}`));
  const day2: Entry[] = [
    ['Wraith', body('Day 2 begins.'), 200],
    ['brokenscraps', vote('Trendall'), 201],
    ['Sundy', vote('Trendall'), 202],
    ['Lateralus22', vote('Trendall'), 203],
    ['kikuchiyo', vote('Zyrconium'), 204],
    ['havingfitz', vote('Zyrconium'), 205],
    ['Zyrconium', vote('havingfitz'), 206],
    ['andrew94', html(`i alraedy said i was v/la on most of day 1 .<br>${bold(' unvote vote zycro ')}`), 210],
    ['Wraith', votecount, 245],
  ];
  const settings = { roster };

  it('offers "zycro" as Zyrconium, from the count at #245', () => {
    const r = check(day2, settings);
    expect(named(r.lessons).map((l) => [l.countPost, l.voter, l.wagon, l.post, l.written, l.alias])).toEqual([
      [245, 'andrew94', 'Zyrconium', 210, 'zycro', 'zycro'],
    ]);
    expect(r.counts[0]!.differences.some((d) => d.kind === 'voter' && d.player === 'andrew94')).toBe(true);
  });

  it('accepted, the count agrees on andrew94', () => {
    const learned = Roster.parse(roster.map((s) => ({ ...s, aliases: s.name === 'Zyrconium' ? ['zycro'] : [] })));
    const r = check(day2, { roster: learned, events: [{ kind: 'correct', post: 210, target: 'Zyrconium' }] });
    expect(r.lessons).toEqual([]);
    expect(r.counts[0]!.differences.filter((d) => d.player === 'andrew94')).toEqual([]);
  });
});
