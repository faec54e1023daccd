import { describe, expect, it } from 'vitest';
import { foldGame } from '../../src/game/fold-game.js';
import { gmChecks } from '../../src/game/gm-checks.js';
import type { AuditEntry } from '../../src/model/audit.js';
import type { Body } from '../../src/model/body.js';
import type { GmEvent } from '../../src/model/event.js';
import { GameSettings } from '../../src/model/game-settings.js';
import { Roster } from '../../src/model/roster.js';
import { loadRuleset } from '../../src/rules/load-ruleset.js';
import { b, body, br } from '../parse/build.js';
import { type ThreadEntry, threadLink, threadOf } from './gm-thread.js';

/**
 * The alive count and threshold a GM's count states ("With 7 alive, it takes 4 to lynch",
 * MafiaScum game 1318 post #417, donbot data 739243d) checked against Votal's: a different
 * alive count names who Votal has alive beyond the GM's count; a threshold the GM's counts
 * state repeatedly that the ruleset cannot give is offered as the game's.
 */
const ruleset = loadRuleset('mafiascum-majority');
const GM = 'Mod';
const names = ['Alice', 'Bob', 'Carol', 'Dave', 'Eve', 'Frank', 'Zed', 'Yan'];
const roster = Roster.parse(names.map((name) => ({ name })));

const votes = (target: string): Body => body(b(`VOTE: ${target}`));
const count = (...lines: string[]): Body => lines.flatMap((l, i) => [...(i ? [br()] : []), ...body(l)]);

function check(entries: ThreadEntry[], gmEvents: GmEvent[] = [], audit: AuditEntry[] = []) {
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
    game: { roster, engine: 'phpbb', settings: GameSettings.parse({ gm: GM }) },
    ruleset,
    posts,
    log: folded.log,
    gmEvents,
    audit,
  });
}

const day: ThreadEntry[] = [
  [GM, body('Day 1 begins.')], // 1
  ['Bob', votes('Carol')], // 2
  ['Dave', votes('Carol')], // 3
  ['Carol', votes('Dave')], // 4
];
/** The count of post 5: Yan is on no line (the GM thinks Yan is dead). */
const gmCount = (stated: string): Body =>
  count('Carol (2): Bob, Dave', 'Dave (1): Carol', 'Not Voting: Alice, Eve, Frank, Zed', '', stated);

const thresholds = (r: ReturnType<typeof check>) =>
  r.counts.flatMap((c) => c.differences.filter((d) => d.kind === 'threshold').map((d) => d.text));

describe("the GM's stated alive count and threshold checked against Votal's", () => {
  it('agreeing numbers say nothing', () => {
    const r = check([...day, [GM, gmCount('With 8 alive, it takes 5 to lynch.')]]);
    expect(r.counts[0]!.differences).toEqual([]);
    expect(r.thresholdProposal).toBeUndefined();
  });

  it('a different alive count names who Votal has alive beyond the count', () => {
    const r = check([...day, [GM, gmCount('With 7 alive, it takes 4 to lynch.')]]);
    expect(thresholds(r)).toEqual([
      'Your count at #5 says 7 alive and 4 to lynch; Votal has 8 alive (who Votal thinks is alive beyond yours: Yan) and needs 5',
    ]);
    const d = r.counts[0]!.differences.find((x) => x.kind === 'threshold')!;
    expect(d).toMatchObject({
      gm: '7 alive, 4 to lynch',
      votal: '8 alive, 5 to lynch',
      posts: [{ post: 5, permalink: threadLink(5) }],
    });
  });

  it('the same alive count and another number: Votal needs its own', () => {
    const r = check([...day, [GM, gmCount('With 8 alive, it takes 4 to lynch.')]]);
    expect(thresholds(r)).toEqual(['Your count at #5 says 8 alive and 4 to lynch; Votal needs 5']);
  });

  it('a threshold stated in two counts that majority cannot give is offered as the game setting', () => {
    const r = check([
      ...day,
      [GM, gmCount('With 8 alive, it takes 4 to lynch.')],
      ['Eve', votes('Carol')],
      [
        GM,
        count(
          'Carol (3): Bob, Dave, Eve',
          'Dave (1): Carol',
          'Not Voting: Alice, Frank, Zed, Yan',
          'With 8 alive, it takes 4 to lynch.',
        ),
      ],
    ]);
    expect(r.thresholdProposal).toMatchObject({
      overrides: { threshold: { kind: 'fraction', numerator: 1, denominator: 2 } },
      posts: [5, 7],
    });
  });

  it('a threshold the GM dismissed is not offered again', () => {
    const entries: ThreadEntry[] = [
      ...day,
      [GM, gmCount('With 8 alive, it takes 4 to lynch.')],
      ['Eve', chat()],
      [GM, gmCount('With 8 alive, it takes 4 to lynch.')],
    ];
    const key = check(entries).thresholdProposal!.key;
    const dismissed: AuditEntry = {
      id: 1,
      gameId: 1,
      actor: 'gm',
      action: 'check.threshold-dismiss',
      detail: { key },
      at: '2026-03-04T00:00:00.000Z',
    };
    expect(check(entries, [], [dismissed]).thresholdProposal).toBeUndefined();
  });

  it('stated numbers that disagree with themselves are shown, not offered', () => {
    const r = check([
      ...day,
      [GM, gmCount('With 8 alive, it takes 4 to lynch.')],
      ['Eve', chat()],
      [GM, gmCount('With 8 alive, it takes 4 to lynch.')],
      ['Eve', chat()],
      [GM, gmCount('With 8 alive, it takes 6 to lynch.')],
    ]);
    expect(thresholds(r)).toHaveLength(3);
    expect(r.thresholdProposal).toBeUndefined();
  });
});

/**
 * A count that states fewer alive than Votal has and leaves a living player off entirely
 * implies that player's death (issue #24, as MafiaScum game 1721's count at #655 says "12
 * alive" and leaves off Not_Mafia, whom the archive has killed that Day; donbot data
 * 739243d): one such player, one alive fewer, is proposed for the GM to record; anything
 * less sure is a note listing who is left off. Never recorded by itself.
 */
describe("deaths the GM's stated alive count implies", () => {
  const deaths = (r: ReturnType<typeof check>) => r.deathProposals ?? [];
  /** The count of post 5 with Zed dropped from its not-voting line too. */
  const twoLeftOff = (stated: string): Body =>
    count('Carol (2): Bob, Dave', 'Dave (1): Carol', 'Not Voting: Alice, Eve, Frank', '', stated);

  it('one living player left off and one alive fewer: their death is proposed after the post the count was compared at', () => {
    const r = check([...day, [GM, gmCount('With 7 alive, it takes 4 to lynch.')]]);
    expect(deaths(r)).toEqual([
      expect.objectContaining({
        countPost: 5,
        permalink: threadLink(5),
        posts: [5],
        stated: 7,
        alive: 8,
        candidates: ['Yan'],
        player: 'Yan',
        at: 4,
        text: "Your count at #5 lists 7 alive and leaves off Yan: record Yan's death?",
      }),
    ]);
  });

  it('several left off: a note listing them, naming no one to record', () => {
    const r = check([...day, [GM, twoLeftOff('With 6 alive, it takes 4 to lynch.')]]);
    expect(deaths(r)).toEqual([
      expect.objectContaining({
        candidates: ['Zed', 'Yan'],
        player: null,
        text: 'Your count at #5 lists 6 alive, Votal has 8; it leaves off Zed, Yan: who died is yours to record',
      }),
    ]);
  });

  it('one left off but two alive fewer: a note, not a proposal', () => {
    const r = check([...day, [GM, gmCount('With 6 alive, it takes 4 to lynch.')]]);
    expect(deaths(r).map((d) => [d.candidates, d.player])).toEqual([[['Yan'], null]]);
  });

  it('a name on the count Votal cannot read may be the one left off: a note, not a proposal', () => {
    const unread = count(
      'Carol (2): Bob, Dave',
      'Dave (1): Carol',
      'Not Voting: Alice, Eve, Frank, Zed, Qwertyuiop',
      '',
      'With 7 alive, it takes 4 to lynch.',
    );
    const r = check([...day, [GM, unread]]);
    expect(r.counts[0]!.differences.some((d) => d.kind === 'unread')).toBe(true);
    expect(deaths(r).map((d) => [d.candidates, d.player])).toEqual([[['Yan'], null]]);
  });

  it('a count without a not-voting line need not name everyone: it implies nothing', () => {
    const noLine = count('Carol (2): Bob, Dave', 'Dave (1): Carol', '', 'With 7 alive, it takes 4 to lynch.');
    expect(deaths(check([...day, [GM, noLine]]))).toEqual([]);
  });

  it('the same player left off by two counts is one proposal, at the first', () => {
    const r = check([
      ...day,
      [GM, gmCount('With 7 alive, it takes 4 to lynch.')],
      ['Eve', chat()],
      [GM, gmCount('With 7 alive, it takes 4 to lynch.')],
    ]);
    expect(deaths(r).map((d) => [d.player, d.countPost, d.posts])).toEqual([['Yan', 5, [5, 7]]]);
  });

  it('once the death is recorded the counts agree: nothing is proposed', () => {
    const kill: GmEvent = { kind: 'kill', player: 'Yan', at: 4 };
    const r = check([...day, [GM, gmCount('With 7 alive, it takes 4 to lynch.')]], [kill]);
    expect(deaths(r)).toEqual([]);
    expect(thresholds(r)).toEqual([]);
  });

  it('a proposal the GM dismissed is not offered again', () => {
    const entries: ThreadEntry[] = [...day, [GM, gmCount('With 7 alive, it takes 4 to lynch.')]];
    const key = deaths(check(entries))[0]!.key;
    const dismissed: AuditEntry = {
      id: 1,
      gameId: 1,
      actor: 'gm',
      action: 'check.death-dismiss',
      detail: { key },
      at: '2026-03-04T00:00:00.000Z',
    };
    expect(deaths(check(entries, [], [dismissed]))).toEqual([]);
  });
});

function chat(): Body {
  return body('hm');
}
