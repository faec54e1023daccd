import { describe, expect, it } from 'vitest';
import { LESSON_DISMISS } from '../../src/game/count-lessons.js';
import { foldGame } from '../../src/game/fold-game.js';
import { gmChecks } from '../../src/game/gm-checks.js';
import type { AuditEntry } from '../../src/model/audit.js';
import type { Body } from '../../src/model/body.js';
import type { GmEvent } from '../../src/model/event.js';
import type { AuthorLesson, CountLesson, NameLesson } from '../../src/model/gm-count.js';
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
const authors = (ls: readonly CountLesson[]): AuthorLesson[] =>
  ls.filter((l): l is AuthorLesson => l.kind === 'author');
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
  opts: { events?: GmEvent[]; audit?: AuditEntry[]; roster?: Roster; gm?: string } = {},
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
    game: { roster, engine: 'phpbb', settings: GameSettings.parse({ gm: [opts.gm ?? GM, 'Wraith'] }) },
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

  // MafiaScum game 1543 post #45 (donbot data 739243d): "Vote: Natirasha", the GM, which the
  // count at #51 puts on the voter's own wagon; learned, it made the GM's counts that player's votes.
  it.each([['Mod'], ['wraith']])(
    'a vote for a GM ("%s") placed on the voter\'s own wagon: the correction is offered, the GM\'s name is not learned',
    (written) => {
      const [l] = check(day(written, 'Dave')).lessons;
      const noAlias = `"${written}" is the GM's name: not learned as a player's`;
      expect(l).toMatchObject({ voter: 'Dave', wagon: 'Dave', written, alias: null, noAlias });
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
 * A count that keeps a waiting vote's voter where their vote stood (or among those not voting,
 * with no vote of theirs) read the post as no change: offered as that reading, which ends the
 * Day's hold, and never as a name (mafiascum game 1642 post #1062, "pseudo vote Acryon",
 * counted by the moderator as the vote that stood; game 1234 post #1602, "Vote: Friendship",
 * which the count at #1603 leaves out).
 */
describe('lessons from the GM count: the waiting vote read as no change', () => {
  /** Dave votes Eve (post 3), then writes `written` (post 4); the count (post 5) is `wagons`. */
  const revote = (written: string, wagons: Record<string, string[]>): Entry[] => [
    [GM, body('Day 1 begins.')], // 1
    ['Bob', votes('Carol')], // 2
    ['Dave', votes('Eve')], // 3
    ['Dave', votes(written)], // 4
    [GM, countOf(wagons)], // 5
  ];

  it('the count keeps the voter on the wagon their vote stood on: offered as the vote that stood, no name', () => {
    const [l, ...rest] = named(check(revote('tyler', { Carol: ['Bob'], Eve: ['Dave'] })).lessons);
    expect(rest).toEqual([]);
    expect(l).toMatchObject({ voter: 'Dave', wagon: 'Eve', post: 4, written: 'tyler', alias: null, reads: 'stands' });
    expect(l!.text).toBe(
      'Your count at #5 puts Dave on Eve; Dave wrote "tyler" at #4. Count it so? (your count keeps Dave\'s vote where it stood)',
    );
  });

  it('the count lists a voter with no vote among those not voting: offered as no vote (wagon null)', () => {
    const [l] = named(check(day('tyler', 'Carol', 'Bob')).lessons);
    expect(l).toMatchObject({ voter: 'Dave', wagon: null, post: 3, alias: null, reads: 'stands' });
    expect(l!.text).toBe(
      'Your count at #4 puts Dave among those not voting; Dave wrote "tyler" at #3. Count it so? (your count keeps Dave not voting)',
    );
  });

  it('a vote that names no one ("VOTE:" and nothing after it), placed by the count: offered, no name', () => {
    const [l] = named(check(day('')).lessons);
    expect(l).toMatchObject({ voter: 'Dave', wagon: 'Eve', post: 3, alias: null, noAlias: 'no name was written' });
  });

  it('a reading as no change says nothing of the name: the same name placed on another player is still learned', () => {
    const entries: Entry[] = [
      ...revote('tyler', { Carol: ['Bob'], Eve: ['Dave'] }),
      ['Frank', votes('tyler')], // 6
      [GM, countOf({ Carol: ['Bob'], Eve: ['Dave'], Zed: ['Frank'] })], // 7
    ];
    expect(named(check(entries).lessons).map((l) => [l.voter, l.wagon, l.alias])).toEqual([
      ['Dave', 'Eve', null],
      ['Frank', 'Zed', 'tyler'],
    ]);
  });

  it.each([
    ['the count puts the voter nowhere', revote('tyler', { Carol: ['Bob'] })],
    ['the count lists the voter as not voting while their vote stands', revote('tyler', { Carol: ['Bob'], Zed: [] })],
  ])('no lesson: %s', (_, entries) => {
    expect(check(entries).lessons).toEqual([]);
  });

  it('accepted (the post corrected to the wagon that stood): the hold is gone and the count agrees', () => {
    const r = check(revote('tyler', { Carol: ['Bob'], Eve: ['Dave'] }), {
      events: [{ kind: 'correct', post: 4, target: 'Eve' }],
    });
    expect(r.lessons).toEqual([]);
    expect(r.counts[0]!.differences).toEqual([]);
  });
});

/**
 * The real shape, MafiaScum game 1101 Day 2 (donbot data 739243d): andrew94 writes "unvote
 * vote zycro" (post #210) for Zyrconium, which the slipped-prefix rung now reads; the moderator's
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

  it('reads "zycro" as Zyrconium (a slipped prefix), so the count at #245 agrees and teaches nothing', () => {
    const r = check(day2, settings);
    expect(r.lessons).toEqual([]);
    expect(r.counts[0]!.differences.filter((d) => d.player === 'andrew94')).toEqual([]);
  });

  it('accepted, the count agrees on andrew94', () => {
    const learned = Roster.parse(roster.map((s) => ({ ...s, aliases: s.name === 'Zyrconium' ? ['zycro'] : [] })));
    const r = check(day2, { roster: learned, events: [{ kind: 'correct', post: 210, target: 'Zyrconium' }] });
    expect(r.lessons).toEqual([]);
    expect(r.counts[0]!.differences.filter((d) => d.player === 'andrew94')).toEqual([]);
  });
});

/**
 * MafiaScum game 1326 Day 1 (donbot data 739243d): pieceofpecanpie's official vote "VOTE: DMS"
 * (post #146); the moderator's count (post #150, verbatim) puts pieceofpecanpie on drmyshotgun,
 * the slot ICEninja later took over (the roster is the archive's: each slot's newest name,
 * earlier ones as former names). This was a lesson until the initials rung (names.ts,
 * "initials from inside a name": dr-my-shotgun) read "DMS" itself: now the count agrees and
 * nothing is left to learn. Game 1101 above keeps a real lesson.
 */
describe('a real MafiaScum count that once taught "DMS" for drmyshotgun', () => {
  const markup = adapterOf('phpbb').descriptor.body;
  const html = (s: string): Body => parseFragment(s, markup, 'https://forum.mafiascum.net/viewtopic.php?t=21622');
  const slots = [
    ['FakeGod', 'johnnywup'],
    ['Rainbowdash', 'Senjai'],
    ['Gooner'],
    ['ICEninja', 'drmyshotgun'],
    ['Equinox', 'Jackal711'],
    ['pieceofpecanpie'],
    ['Hiraki'],
    ['DCLXVI'],
    ['Majiffy', 'NihilisticNinja'],
    ['CryMeARiver'],
    ['sorasgoof'],
    ['ScottBrosius', 'PoliticalClout'],
    ['ProlapsedBrain'],
  ];
  const roster = Roster.parse(slots.map((n) => ({ name: n[0], formerNames: n.slice(1).reverse() })));
  const gm = 'chauchaudotcom';
  const vote146 =
    "Re-he-he-eally don't like the last series of posts by DMS.<br><br>" +
    '<span class="bbvote" title="This is an official vote.">VOTE: DMS</span>';
  const count150 =
    '<div style="display:inline;color:#800000"><br>Johnnywup picked up role pm but did not confirm.  ' +
    "I'm giving him till tomorrow else he will be replaced.<br><br>" +
    '<div style="display:inline;font-weight:bold"><div style="font-size: 150%; line-height: normal; display: inline">Say whhhhhhhhaaaaa:</div></div><br><br>' +
    '<div style="display:inline;text-decoration:underline"><div style="display:inline;font-weight:bold">Voting</div></div><br>' +
    '<div style="display:inline;font-weight:bold"><div style="display:inline;font-style:italic">Political Clout (4) - Hiraki, NihilisticNinja, Senjai, drmyshotgun</div></div><br>' +
    'sorasgoof (2) - Prolapsed Brain, DCLXVI<br>drmyshotgun (2) - sorasgoof, pieceofpecanpie<br>Gooner (1) - CryMeARiver<br><br>' +
    '<div style="display:inline;text-decoration:underline"><div style="display:inline;font-weight:bold">Not Voting</div></div><br>' +
    'Jackal711, johnnywup, Political Clout <br><br>' +
    '<div style="display:inline;font-style:italic">With 13 alive, it takes 7 to lynch.</div><br><br>' +
    'Deadline is in 18 days. April 30, 2012 at 10:00pm PST.<br><br></div>';
  const day1: Entry[] = [
    [gm, body('Day 1 begins.'), 1],
    ['pieceofpecanpie', html(vote146), 146],
    [gm, html(count150), 150],
  ];

  it('reads "DMS" as the slot of drmyshotgun: the count at #150 agrees on pieceofpecanpie, no lesson', () => {
    const r = check(day1, { roster, gm });
    expect(named(r.lessons)).toEqual([]);
    expect(r.counts.map((c) => c.post)).toEqual([150]);
    expect(r.counts[0]!.differences.filter((d) => d.player === 'pieceofpecanpie')).toEqual([]);
  });
});

/**
 * Author lessons (issue #24): a poster who is no player, whose standing votes the GM's counts
 * list under a slot that has not posted, is offered as that slot's replacement; only for two
 * agreeing counts, none disagreeing, one poster and one slot.
 */
describe('author lessons from the GM counts', () => {
  /** Every player but `silent` says hello (posts 2..), so only they have not posted. */
  const hello = (silent: readonly string[]): Entry[] =>
    players.filter((p) => !silent.includes(p)).map((p): Entry => [p, body('hello')]);
  /** Newbie (no player) votes Eve, then Carol; the GM's counts list Zed (silent) with each. */
  const renamed = (opts: { silent?: string[]; voters?: string[]; listed?: string[] } = {}): Entry[] => {
    const voters = opts.voters ?? ['Newbie'];
    const listed = opts.listed ?? ['Zed'];
    return [
      [GM, body('Day 1 begins.')],
      ...hello(opts.silent ?? ['Zed']),
      ...voters.map((v): Entry => [v, votes('Eve')]),
      [GM, countOf({ Eve: listed })],
      ...voters.map((v): Entry => [v, votes('Carol')]),
      [GM, countOf({ Carol: listed })],
    ];
  };
  const COUNTS = [10, 12];

  it('two counts list the silent slot with the poster\'s votes: "Newbie plays Zed" is offered', () => {
    const r = check(renamed());
    expect(r.lessons).toEqual([
      {
        kind: 'author',
        key: expect.stringMatching(/^[0-9a-f]{16}$/),
        countPost: COUNTS[1],
        countPermalink: link(COUNTS[1]!),
        poster: 'Newbie',
        slot: 'Zed',
        wagon: 'Carol',
        post: 11,
        permalink: link(11),
        firstPost: 9,
        agreeing: COUNTS,
        disagreeing: [],
        text:
          'Newbie posts votes and is not a player; Zed has not posted. Your counts at #10 and #12 list Zed ' +
          "where Newbie's vote stood, and none elsewhere. Does Newbie play Zed (renamed or replacement)? " +
          "Accepted, Newbie replaces Zed from #9, Newbie's first post.",
      },
    ]);
  });

  it.each<[string, Entry[]]>([
    ['one count agreeing', renamed().slice(0, -2)],
    [
      'a later count that lists the slot elsewhere',
      [...renamed(), ['Newbie', votes('Frank')], [GM, countOf({ Carol: ['Zed'] })]],
    ],
    ['two posters with the same votes (which one plays Zed?)', renamed({ voters: ['Newbie', 'Stranger'] })],
    [
      'two silent slots listed with the poster (which one does Newbie play?)',
      renamed({ silent: ['Zed', 'Frank'], listed: ['Zed', 'Frank'] }),
    ],
    ['a slot that posted (its own votes are its own)', renamed({ silent: [] })],
  ])('no author lesson: %s', (_, entries) => {
    expect(authors(check(entries).lessons)).toEqual([]);
  });

  it("no author lesson: a silent slot whose votes Votal counts (the GM's vote events)", () => {
    const events: GmEvent[] = [
      { kind: 'vote', player: 'Zed', target: 'Eve', at: 9 },
      { kind: 'vote', player: 'Zed', target: 'Carol', at: 11 },
    ];
    expect(authors(check(renamed(), { events }).lessons)).toEqual([]);
  });

  it('a dismissed author lesson is not offered again', () => {
    const [l] = check(renamed()).lessons;
    const audit: AuditEntry[] = [
      { id: 1, gameId: 1, actor: 'gm', action: LESSON_DISMISS, detail: { key: l!.key }, at: '2026-03-04T00:00:00Z' },
    ];
    expect(check(renamed(), { audit }).lessons).toEqual([]);
  });

  it('accepted (the replacement before the first post): the counts agree and nothing is left to learn', () => {
    const r = check(renamed(), { events: [{ kind: 'replace', player: 'Zed', by: 'Newbie', at: 8 }] });
    expect(r.lessons).toEqual([]);
    expect(r.counts.map((c) => c.differences)).toEqual([[], []]);
  });
});

/**
 * The real case, MafiaScum game 1653 Day 1 (thread 61056, donbot data 739243d): the slot
 * "randomidget" never posts; the forum account was renamed and its posts are by
 * "Randomnamechange", whose votes (kelbris at #6, slandaar at #76) Iknal's counts at #72 and
 * #93 list under randomidget. Every other player's vote up to #93 as posted (quotes and
 * talk left out); the roster is the archive's (the first name of each slot, the others former).
 */
describe('an author lesson from a real MafiaScum game', () => {
  const markup = adapterOf('phpbb').descriptor.body;
  const html = (s: string): Body => parseFragment(s, markup, 'https://forum.mafiascum.net/viewtopic.php?t=61056');
  const slots = [
    ['massive'],
    ['havingfitz'],
    ['Wickedestjr'],
    ['Aristophanes', 'Cheetory6'],
    ['vikingfan'],
    ['FA_Q2'],
    ['OkaPoka', 'Hodor Hodor'],
    ['MonkeyMan576', 'burn_209'],
    ['Kop', 'kelbris'],
    ['Slandaar'],
    ['evilpacman18', 'Saul Goode', 'Flames of Disaster'],
    ['randomidget'],
    ['Aeronaut', 'Formerfish', 'Riblet'],
  ];
  const roster = Roster.parse(slots.map((n) => ({ name: n[0], formerNames: n.slice(1).reverse() })));
  const bold = (t: string) => `<div style="display:inline;font-weight:bold">${t}</div>`;
  const bbvote = (t: string) => `<span class="bbvote" title="This is an official vote.">VOTE: ${t}</span>`;
  const bbunvote = '<span class="bbvote" title="This is an official unvote.">UNVOTE: </span><br> ';
  const count = (lines: string[]) =>
    html(
      bold(
        `<div style="display:inline;color:#0000FF">Vote Count 1.1<br>\n${lines.join('<br>\n')}<br>\n<br>\n` +
          'Not voting: massive; vikingfan; FA_Q2; Hodor Hodor; Slandaar<br>\n<br>\nWith 13 alive it takes 7 to lynch.</div>',
      ),
    );
  const say = (t: string) => html(t);
  const day1: Entry[] = [
    ['Iknal', say('Rules of the Game'), 1],
    ['kelbris', html(bbvote('Hodor Hodor')), 3],
    ['FA_Q2', say('Hello'), 4],
    ['burn_209', say('Hello'), 5],
    ['Randomnamechange', html(`We meet again.<br> ${bbvote('kelbris')}`), 6],
    ['Riblet', say('Hello'), 7],
    ['Wickedestjr', html(bold('Vote: Hodor Hodor')), 8],
    ['Slandaar', say('Hello'), 9],
    ['burn_209', html(bbvote('Slandaar')), 10],
    ['FA_Q2', html(bbvote('Wickedestjr')), 11],
    ['Cheetory6', html(`${bbvote('Slandaar')}<br> Yep.`), 13],
    ['vikingfan', say('Hello'), 36],
    ['Hodor Hodor', say('Whuddup people'), 38],
    ['havingfitz', html(bbvote('randomidget')), 60],
    ['massive', say('So ... can I still random vote?'), 62],
    ['Riblet', html(`Sure<br> <br> ${bold('vote: slandaar')}`), 63],
    ['Wickedestjr', html(bold('Unvote. Vote: kelbris')), 64],
    [
      'kelbris',
      html(
        `<span class="bbvote" title="This is an official unvote.">UNVOTE: Hodor Hodor</span><br> ${bbvote('Slandaar')}`,
      ),
      65,
    ],
    ['Flames of Disaster', html(bbvote('Hodor Hodor')), 68],
    ['FA_Q2', html(bbunvote), 71],
    [
      'Iknal',
      count([
        'Hodor Hodor(1): Flames of Disaster',
        'kelbris(2): Randomidget, Wickedestjr',
        'Slandaar(4): burn_209, Cheetory6, Riblet, Kelbris',
        'randomidget(1): havingfitz',
      ]),
      72,
    ],
    ['Randomnamechange', html(`${bbunvote}${bbvote('slandaar')}`), 76],
    [
      'Iknal',
      count([
        'Hodor Hodor(1): Flames of Disaster',
        'kelbris(2): Wickedestjr',
        'Slandaar(5): burn_209, Cheetory6, Riblet, Kelbris, Randomidget',
        'randomidget(1): havingfitz',
      ]),
      93,
    ],
  ];

  it('offers "Randomnamechange plays randomidget" from the count at #93, both counts agreeing', () => {
    const r = check(day1, { roster, gm: 'Iknal' });
    expect(
      authors(r.lessons).map((l) => [l.countPost, l.poster, l.slot, l.wagon, l.post, l.firstPost, l.agreeing]),
    ).toEqual([[93, 'Randomnamechange', 'randomidget', 'Slandaar', 76, 6, [72, 93]]]);
  });

  it('accepted, both counts agree on randomidget', () => {
    const events: GmEvent[] = [{ kind: 'replace', player: 'randomidget', by: 'Randomnamechange', at: 5 }];
    const r = check(day1, { roster, gm: 'Iknal', events });
    expect(r.lessons).toEqual([]);
    const about = (c: (typeof r.counts)[number]) =>
      c.differences.filter((d) => d.player === 'Randomnamechange' || d.text.includes('randomidget'));
    expect(r.counts.map(about)).toEqual([[], []]);
  });
});
