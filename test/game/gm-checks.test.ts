import { describe, expect, it } from 'vitest';
import { foldGame, type PostHistory } from '../../src/game/fold-game.js';
import { CHECK_MARK, gmChecks } from '../../src/game/gm-checks.js';
import type { AuditEntry } from '../../src/model/audit.js';
import type { Body } from '../../src/model/body.js';
import type { GmEvent } from '../../src/model/event.js';
import { GameSettings } from '../../src/model/game-settings.js';
import { Roster } from '../../src/model/roster.js';
import { MAX_COUNT_LINES } from '../../src/parse/gm-count.js';
import { renderVotal } from '../../src/votal/render-votal.js';
import { loadRuleset } from '../../src/rules/load-ruleset.js';
import { b, body, br, color, quote, s } from '../parse/build.js';
import { threadLink, threadOf } from './gm-thread.js';

/**
 * The GM's own counts checked against Votal's, on a small MafiaScum-style Day whose votes
 * the real parser reads. Each moderator slip issue 27 found replaying eleven MafiaScum games
 * (a vote left after an explicit unvote, a voter counted twice, a wagon one short after a
 * replacement, a count that stopped a few posts early) is reported with the post that
 * decides it; a count that agrees reports nothing; Votal's own votals are not checked.
 */
const ruleset = loadRuleset('mafiascum-majority');
const roster = Roster.parse(['Alice', 'Bob', 'Carol', 'Dave', 'Eve', 'Frank', 'Zed'].map((name) => ({ name })));
const GM = 'Mod';
const link = threadLink;

type Entry = [author: string, content: Body];
const votes = (target: string): Body => body(b(`VOTE: ${target}`));
const unvote = (): Body => body(b('UNVOTE'));
const chat = (t: string): Body => body(t);
/** A GM count: lines joined by breaks. */
const count = (...lines: (string | Body[number])[][]): Body =>
  lines.flatMap((l, i) => [...(i ? [br()] : []), ...body(...l)]);

/** The Day (no wagon reaches 4, the majority of 7); `replaceFrank` puts Grace in Frank's slot after post 9. */
function thread(extra: Entry[] = []): Entry[] {
  return [
    [GM, chat('Day 1 begins. With 7 alive, it takes 4 to lynch.')], // 1
    ['Bob', votes('Carol')], // 2
    ['Dave', votes('Carol')], // 3
    ['Eve', votes('Carol')], // 4
    ['Carol', votes('Dave')], // 5
    ['Eve', unvote()], // 6
    ['Frank', votes('Carol')], // 7
    ['Dave', votes('Eve')], // 8
    ['Alice', chat('nice day')], // 9
    ...extra,
  ];
}
const replaceFrank: GmEvent = { kind: 'replace', player: 'Frank', by: 'Grace', at: 9 };

const historiesOf = (entries: Entry[], gmEvents: GmEvent[]) => threadOf(entries, roster, gmEvents, ruleset);

const fold = (histories: PostHistory[], gmEvents: GmEvent[], toPost?: number) =>
  foldGame({
    ruleset,
    roster,
    engine: 'phpbb',
    posts: histories,
    gmEvents,
    now: '2026-03-04T00:00:00Z',
    ...(toPost === undefined ? {} : { toPost }),
  });

function check(entries: Entry[], opts: { events?: GmEvent[]; pasted?: number[]; audit?: AuditEntry[] } = {}) {
  const gmEvents = opts.events ?? [];
  const { posts, histories } = historiesOf(entries, gmEvents);
  const folded = fold(histories, gmEvents);
  return gmChecks({
    game: { roster, engine: 'phpbb', settings: GameSettings.parse({ gm: GM }) },
    ruleset,
    posts,
    log: folded.log,
    gmEvents,
    pastedVotals: new Set(opts.pasted ?? []),
    audit: opts.audit ?? [],
  });
}

/** Votal's count as at post 9, as the GM writes it (MafiaScum's "Name (n): a, b" shape). */
const agreeing = count(
  [b('Vote Count 1.1')],
  [b('Carol'), ' (2): Bob, Frank, ', s('Dave'), ', ', s('Eve')],
  [b('Eve'), ' (1): Dave'],
  [b('Dave'), ' (1): Carol'],
  [b('Not Voting'), ' (3): Alice, Eve, Zed'],
);

describe('the GM count checked against Votal', () => {
  it('a count that agrees with Votal reports nothing', () => {
    const r = check(thread([[GM, agreeing]]));
    expect(r.counts).toHaveLength(1);
    expect(r.counts[0]).toMatchObject({ post: 10, comparedTo: 9, basis: 'before', earlier: 0, differences: [] });
    expect(r.counts[0]!.linesNotRead).toBe(0);
  });

  it('a count in a post longer than the lines the reader reads: the check says how many it did not read', () => {
    const rules = Array.from({ length: MAX_COUNT_LINES }, (_, k) => [`Reminder ${k + 1}: vote in bold.`]);
    const long = [...agreeing, br(), ...count(...rules)];
    const r = check(thread([[GM, long]]));
    expect(r.counts[0]).toMatchObject({ post: 10, differences: [], linesNotRead: 5 });
  });

  it('a vote left on a player after an explicit unvote: named with the unvote post', () => {
    const slip = count(
      [b('Carol'), ' (3): Bob, Frank, Eve, ', s('Dave')],
      [b('Eve'), ' (1): Dave'],
      [b('Dave'), ' (1): Carol'],
      [b('Not Voting'), ' (2): Alice, Zed'],
    );
    const r = check(thread([[GM, slip]]));
    const texts = r.counts[0]!.differences.map((d) => d.text);
    expect(texts).toContain('Your count at #10: Eve is on Carol; Eve unvoted at #6');
    expect(texts).toContain(
      "Your count at #10: Carol's wagon has 3, Votal counts 2: Eve is on Carol; Eve unvoted at #6",
    );
    const voter = r.counts[0]!.differences.find((d) => d.kind === 'voter')!;
    expect(voter.posts).toEqual([{ post: 6, permalink: link(6) }]);
  });

  it('a voter counted twice: named with the vote that stands', () => {
    const slip = count(
      [b('Carol'), ' (3): Bob, Dave, Frank'],
      [b('Eve'), ' (1): Dave'],
      [b('Dave'), ' (1): Carol'],
      [b('Not Voting'), ' (2): Alice, Eve, Zed'],
    );
    const r = check(thread([[GM, slip]]));
    const twice = r.counts[0]!.differences.find((d) => d.kind === 'twice')!;
    expect(twice.text).toBe(
      "Your count at #10: Dave is counted on Carol (name 2 of the line) and Eve (name 1 of the line); Dave's vote at #8 is for Eve",
    );
    expect(twice.posts).toEqual([{ post: 8, permalink: link(8) }]);
    expect(r.counts[0]!.differences.map((d) => d.text)).toContain(
      "Your count at #10: Carol's wagon has 3, Votal counts 2: Dave is counted on Carol (name 2 of the line) and Eve (name 1 of the line); Dave's vote at #8 is for Eve",
    );
  });

  it('a voter counted twice: each place as the GM wrote it, a name read loosely shown as written', () => {
    const slip = count(
      [b('Carol'), ' (3): Bob, Dave, Frank'],
      [b('Eve'), ' (1): Davee'],
      [b('Dave'), ' (1): Carol'],
      [b('Not Voting'), ' (2): Alice, Eve, Zed'],
    );
    const twice = check(thread([[GM, slip]])).counts[0]!.differences.find((d) => d.kind === 'twice')!;
    expect(twice.listed).toEqual([
      { wagon: 'Carol', line: 'Carol (3): Bob, Dave, Frank', written: 'Dave', position: 2, exact: true },
      { wagon: 'Eve', line: 'Eve (1): Davee', written: 'Davee', position: 1, exact: false },
    ]);
    expect(twice.text).toBe(
      'Your count at #10: Dave is counted on Carol (name 2 of the line) and Eve (name 1 of the line, as "Davee"); Dave\'s vote at #8 is for Eve',
    );
  });

  it('a name twice on one wagon is said as such (a double voter: MafiaScum Mini 1908, moderator ThinkBig, post 1275, t=71675, "WhemeStar (3): TwoFace, TwoFace, Ircher")', () => {
    const slip = count(
      [b('Carol'), ' (4): Bob, Bob, Frank'],
      [b('Eve'), ' (1): Dave'],
      [b('Dave'), ' (1): Carol'],
      [b('Not Voting'), ' (2): Alice, Eve, Zed'],
    );
    const twice = check(thread([[GM, slip]])).counts[0]!.differences.find((d) => d.kind === 'twice')!;
    expect(twice.text).toBe(
      "Your count at #10: Bob is counted twice on Carol (names 1 and 2 of the line); Bob's vote at #2 is for Carol",
    );
  });

  it('a double voter written twice on the wagon Votal has them on is no difference (the same count, Bob weighing 2)', () => {
    const slip = count(
      [b('Carol'), ' (4): Bob, Bob, Frank'],
      [b('Eve'), ' (1): Dave'],
      [b('Dave'), ' (1): Carol'],
      [b('Not Voting'), ' (2): Alice, Eve, Zed'],
    );
    const events: GmEvent[] = [{ kind: 'weight', player: 'Bob', weight: 2, hidden: false, at: 1 }];
    const kinds = check(thread([[GM, slip]]), { events }).counts[0]!.differences.map((d) => `${d.kind} ${d.player}`);
    expect(kinds).not.toContain('twice Bob');
  });

  it('a wagon one short after a replacement: the vote made under the old name and the replacement', () => {
    const slip = count(
      [b('Carol'), ' (1): Bob'],
      [b('Eve'), ' (1): Dave'],
      [b('Dave'), ' (1): Carol'],
      [b('Not Voting'), ' (3): Alice, Eve, Zed'],
    );
    const r = check(thread([[GM, slip]]), { events: [replaceFrank] });
    const d = r.counts[0]!.differences;
    expect(d.find((x) => x.kind === 'voter')).toMatchObject({
      player: 'Grace',
      gm: 'nowhere',
      votal: 'Carol',
      text: "Your count at #10: Grace is not on your count; Grace's vote at #7 (posted as Frank) is for Carol",
      posts: [
        { post: 7, permalink: link(7) },
        { post: 9, permalink: link(9) },
      ],
    });
    expect(d.find((x) => x.kind === 'wagon')?.text).toMatch(
      /^Your count at #10: Carol's wagon has 1, Votal counts 2: /,
    );
  });

  it('the old name on a count is the slot, as the count reads it: no difference', () => {
    const withOldName = count(
      [b('Carol'), ' (2): Bob, Frank'],
      [b('Eve'), ' (1): Dave'],
      [b('Dave'), ' (1): Carol'],
      [b('Not Voting'), ' (3): Alice, Eve, Zed'],
    );
    expect(check(thread([[GM, withOldName]]), { events: [replaceFrank] }).counts[0]!.differences).toEqual([]);
  });

  it('a count that stopped a few posts early: says which post it matches and what it leaves out', () => {
    // Votal's count as at post 6 (before Frank's vote and Dave's move), posted after post 11.
    const early = count(
      [b('Carol'), ' (2): Bob, Dave'],
      [b('Dave'), ' (1): Carol'],
      [b('Not Voting'), ' (4): Alice, Eve, Frank, Zed'],
    );
    const r = check(
      thread([
        ['Alice', chat('hm')],
        ['Bob', chat('ok')],
        [GM, early],
      ]),
    );
    const c = r.counts[0]!;
    expect(c).toMatchObject({ post: 12, basis: 'before', comparedTo: 6, earlier: 5 });
    expect(c.differences).toEqual([
      expect.objectContaining({
        kind: 'stopped-early',
        text: "Your count at #12 matches Votal's as at #6, 5 posts before #11: it leaves out Frank's vote for Carol at #7; Dave's vote for Eve at #8",
        posts: [
          { post: 7, permalink: link(7) },
          { post: 8, permalink: link(8) },
        ],
      }),
    ]);
  });

  it('a count that stopped early and has a slip besides: "closest to", and the slip at that post', () => {
    // As at post 6, but with Alice on Dave (she never voted).
    const early = count(
      [b('Carol'), ' (2): Bob, Dave'],
      [b('Dave'), ' (2): Carol, Alice'],
      [b('Not Voting'), ' (3): Eve, Frank, Zed'],
    );
    const c = check(
      thread([
        ['Alice', chat('hm')],
        ['Bob', chat('ok')],
        [GM, early],
      ]),
    ).counts[0]!;
    expect(c.comparedTo).toBe(6);
    expect(c.differences.map((d) => d.text)).toEqual([
      "Your count at #12 is closest to Votal's as at #6, 5 posts before #11: it leaves out Frank's vote for Carol at #7; Dave's vote for Eve at #8",
      "Your count at #12: Dave's wagon has 2, Votal counts 1: Alice is on Dave; Votal has no vote by Alice by #6",
      'Your count at #12: Alice is on Dave; Votal has no vote by Alice by #6',
    ]);
  });

  it('the post a count names ("as of post 6") is the one compared', () => {
    const named = count(
      [b('Vote Count 1.1'), ' (as of post 6)'],
      [b('Carol'), ' (2): Bob, Dave'],
      [b('Dave'), ' (1): Carol'],
      [b('Not Voting'), ' (4): Alice, Eve, Frank, Zed'],
    );
    expect(check(thread([[GM, named]])).counts[0]).toMatchObject({
      comparedTo: 6,
      basis: 'named',
      earlier: 0,
      differences: [],
    });
  });

  it('a player\'s own "vote tally so far" is not a GM count', () => {
    const tally = count(['vote tally so far'], ['Carol (4): Bob, Dave, Eve, Frank'], ['Dave (1): Carol']);
    expect(check(thread([['Alice', tally]])).counts).toEqual([]);
  });

  it("a GM quoting a player's tally is not a GM count", () => {
    const quoted = body(quote('Alice', 'Carol (4): Bob, Dave, Eve, Frank', br(), 'Dave (1): Carol'), 'Noted.');
    expect(check(thread([[GM, quoted]])).counts).toEqual([]);
  });

  it("Votal's own votals are recognised, pasted (found by their words) or marked", () => {
    // BBCode `[color=transparent]votal:12.ab12cd34[/color]`, as the forum renders it.
    const marked = count(['Carol (9): Bob'], ['Dave (9): Eve'], [color('transparent', 'votal:12.ab12cd34')]);
    const r = check(
      thread([
        [GM, slipOf()],
        [GM, marked],
      ]),
      { pasted: [10] },
    );
    expect(r.ownVotals).toEqual([10, 11]);
    expect(r.counts).toEqual([]);
  });

  it("a Votal draft the GM posted, even where its paste is not recognised, agrees with Votal's count", () => {
    const { histories } = historiesOf(thread(), []);
    const bbcode = renderVotal(fold(histories, [], 9).tally, { dialect: 'bbcode-phpbb' });
    // The forum shows the BBCode's text: tags gone, a list item a line of its own.
    const shown = bbcode
      .replace(/\[\*\]/g, '\n')
      .replace(/\[\/?[a-z*]+(?:=[^\]]*)?\]/gi, '')
      .split('\n');
    const r = check(thread([[GM, count(...shown.map((l) => [l]))]]));
    expect(r.counts).toHaveLength(1);
    expect(r.counts[0]!.differences).toEqual([]);
  });

  it("the GM's mark stays with its difference", () => {
    const slip = count([b('Carol'), ' (3): Bob, Frank, Eve'], [b('Eve'), ' (1): Dave'], [b('Dave'), ' (1): Carol']);
    const first = check(thread([[GM, slip]]));
    const key = first.counts[0]!.differences[0]!.key;
    const marked = check(thread([[GM, slip]]), {
      audit: [{ id: 1, gameId: 1, actor: 'gm:mod', action: CHECK_MARK, detail: { key, answer: 'slip' }, at: '' }],
    });
    expect(marked.counts[0]!.differences[0]).toMatchObject({ key, answer: 'slip' });
    expect(marked.counts[0]!.differences.slice(1).every((d) => d.answer === null)).toBe(true);
  });
});

/** A count far from Votal's: checked, it would report much; as a pasted votal it reports nothing. */
function slipOf(): Body {
  return count(['Carol (1): Alice'], ['Alice (1): Carol'], ['Not Voting: Bob']);
}
