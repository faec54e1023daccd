/**
 * Votal's news reader (issue #24, "the GM's posts") on complete real MafiaScum games: every
 * moderator post of every game read by `gmNews` (src/game/gm-news.ts), as a game would read
 * it (the roster of the starting players, every proposal taken as the GM would confirm it,
 * so later posts are read with the replacements and deaths proposed before them), scored
 * against the archive of the Computational-Mafia project (bench/donbot-games.ts):
 *
 * - replacements: the archive's "A replaced B" chains; found when a proposal names the
 *   slot's name then and the newcomer (any case, or a letter or two apart where the archive
 *   spells the forum name otherwise), wrong when it names another;
 * - deaths: the archive's "lynched Day 2" / "killed Night 1" / "modkilled Day 3"; found
 *   when a proposal names the slot, then checked for the phase (kind and number) and the
 *   flip (the alignment of the role, Town or Mafia); wrong when the slot survived, or the
 *   proposal names nobody of the archive; a death of a slot the archive says "endgamed"
 *   is counted apart (the game's last post often kills those, the archive words it so);
 * - Day ends: a day-end proposal within `NEAR` posts of the post that ended the Day
 *   (data/transitions.tsv); one far from every such post is wrong;
 * - Day starts: a day-start of Day n between the ends of Days n-1 and n is right.
 *
 * The thread's opening post is not read: the material has each post as last edited, and a
 * game's opening post is its status board, edited all game long with every death and
 * replacement (Votal reads it once, when the game opens, and an edited post not again).
 *
 * A miss the reader sent to the GM unread (with its reason) is counted apart from one it
 * passed over in silence. Nothing is written.
 *
 *   npx tsx bench/real-gm-news.ts [--games N] [--game ID] [--misses] [--wrong] [--news] [--json]
 *     [--material <real-games --json output>]
 *
 * `--news` prints every proposal and unread sentence of the games read.
 * `--material` takes `bench/real-games.ts --json` and says, of its counts that differ for
 * "a name the archive lacks", how many have a voter whose slot the news saw replaced by a
 * name the archive lacks.
 */
import { readFileSync } from 'node:fs';
import { parseFragment } from '../scrapers/fragment.js';
import { adapterOf } from '../scrapers/identify.js';
import type { GmNews } from '../src/game/gm-news.js';
import { sentences } from '../src/parse/gm-posts.js';
import { nameKey } from '../src/parse/name-form.js';
import { ownLines } from '../src/parse/own-text.js';
import {
  type ArchiveGame,
  fromMirror,
  MIRROR,
  mirrorProblem,
  postsOf,
  type RawPost,
  readArchive,
  readTransitions,
  SOURCE,
} from './donbot-games.js';
import { newsOf, slotFinder } from './real-games-gm.js';

const problem = mirrorProblem();
if (problem) {
  console.error(problem);
  process.exit(2);
}

const args = process.argv.slice(2);
const flag = (name: string): boolean => args.includes(name);
const option = (name: string): string | undefined => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};

/** A Day end proposed this many posts from the post that ended the Day is that Day's end. */
const NEAR = 3;
const markup = adapterOf('phpbb').descriptor.body;

type Kind = 'replace' | 'death' | 'day-end' | 'day-start';
const KINDS: readonly Kind[] = ['replace', 'death', 'day-end', 'day-start'];

interface Tally {
  expected: number;
  found: number;
  proposed: number;
  wrong: number;
  /** Misses the reader returned unread, with a reason (the GM is asked). */
  missedUnread: number;
}
const blank = (): Tally => ({ expected: 0, found: 0, proposed: 0, wrong: 0, missedUnread: 0 });
const blankDeath = (): DeathDetail => ({
  phaseRight: 0,
  phaseWrong: 0,
  phaseNone: 0,
  causeRight: 0,
  causeWrong: 0,
  flipGiven: 0,
  flipAgrees: 0,
  onEndgamed: 0,
});

interface DeathDetail {
  phaseRight: number;
  phaseWrong: number;
  phaseNone: number;
  causeRight: number;
  causeWrong: number;
  flipGiven: number;
  flipAgrees: number;
  onEndgamed: number;
}

interface GameScore {
  game: string;
  tallies: Record<Kind, Tally>;
  death: DeathDetail;
  misses: string[];
  wrongs: string[];
  /** Slot index -> newcomers the news read that the archive lacks (for --material). */
  unknownNewcomers: Map<number, { by: string; at: number }[]>;
  /** Slot index -> the names the news knew the slot by. */
  newsNames: Map<number, Set<string>>;
}

const alignment = (role: string): 'mafia' | 'town' | 'other' =>
  /\b(mafia|goon|scum|godfather|wolf|werewolf)\b/iu.test(role)
    ? 'mafia'
    : /\b(town|townie|villager|vanilla)\b/iu.test(role)
      ? 'town'
      : 'other';

function scoreGame(game: ArchiveGame, posts: readonly RawPost[], ends: readonly number[]): GameScore {
  const news = newsOf(game, posts);
  const score: GameScore = {
    game: game.id,
    tallies: { replace: blank(), death: blank(), 'day-end': blank(), 'day-start': blank() },
    death: blankDeath(),
    misses: [],
    wrongs: [],
    unknownNewcomers: new Map(),
    newsNames: new Map(),
  };
  const slotOf = slotFinder(game);
  const sayings = modSentences(game, posts);
  scoreReplacements(game, news, slotOf, score, sayings);
  scoreDeaths(game, news, slotOf, score, sayings);
  scorePhases(game, news, ends, score, sayings);
  if (flag('--news')) {
    for (const p of news.proposals)
      console.log(`news game ${game.id} #${p.post}: ${JSON.stringify(p.event)} "${p.sentence}"`);
    for (const u of news.unread) console.log(`unread game ${game.id} #${u.post}: ${u.reason} "${u.sentence}"`);
  }
  return score;
}

/** The moderators' own sentences, for showing what a miss was written as. */
function modSentences(game: ArchiveGame, posts: readonly RawPost[]): { post: number; text: string }[] {
  const isHost = new Set(game.moderators.map((m) => m.toLowerCase()));
  const out: { post: number; text: string }[] = [];
  const opening = Math.min(...posts.map((p) => p.number));
  for (const p of posts) {
    if (!isHost.has(p.user.toLowerCase()) || p.number === opening) continue;
    for (const line of ownLines(parseFragment(p.content, markup, game.url))) {
      const text = line.map((r) => r.text).join('');
      for (const s of sentences(text)) out.push({ post: p.number, text: s });
    }
  }
  return out;
}

const REPLACE_CUE = /replac|\bsub|\bin for\b|welcome/iu;
const DEATH_CUE =
  /lynch|kill|dead|died|dies|flip|eliminat|execut|hang|hung|shot|murder|slain|modkill|was an? |were an? |removed/iu;

function mentions(text: string, name: string): boolean {
  const at = text.toLowerCase().indexOf(name.toLowerCase());
  if (at < 0) return false;
  const before = text[at - 1];
  const after = text[at + name.length];
  return !(before && /[\p{L}\p{N}]/u.test(before)) && !(after && /[\p{L}\p{N}]/u.test(after));
}

/** The GM's sentences that mention any of the names with the cue: what a miss looked like. */
function said(sayings: readonly { post: number; text: string }[], names: readonly string[], cue: RegExp): string {
  const hits = sayings.filter((s) => cue.test(s.text) && names.some((n) => mentions(s.text, n))).slice(0, 3);
  return hits.length === 0
    ? '(no sentence of the moderators names it)'
    : hits.map((h) => `#${h.post} "${h.text}"`).join(' | ');
}

function unreadNaming(news: GmNews, names: readonly string[]): boolean {
  return news.unread.some((u) => names.some((n) => mentions(u.sentence, n)));
}

function scoreReplacements(
  game: ArchiveGame,
  news: GmNews,
  slotOf: (name: string) => number | undefined,
  score: GameScore,
  sayings: readonly { post: number; text: string }[],
): void {
  const t = score.tallies.replace;
  const expected = new Map<string, { slot: number; old: string; by: string }>();
  game.slots.forEach((names, slot) => {
    for (let i = names.length - 1; i > 0; i--) {
      expected.set(`${slot}:${nameKey(names[i]!)}:${nameKey(names[i - 1]!)}`, {
        slot,
        old: names[i]!,
        by: names[i - 1]!,
      });
    }
  });
  t.expected += expected.size;
  const found = new Set<string>();
  // The news's own names of a slot (a newcomer the archive spells otherwise), in thread order.
  const newsSlot = new Map<string, number>();
  for (const p of news.proposals) {
    if (p.event.kind !== 'replace') continue;
    t.proposed++;
    const slot = slotOf(p.event.player) ?? newsSlot.get(nameKey(p.event.player));
    if (slot !== undefined) newsSlot.set(nameKey(p.event.by), slot);
    const key = spelt(expected, slot, p.event.player, p.event.by);
    if (slot !== undefined) {
      const known = score.newsNames.get(slot) ?? new Set<string>();
      known.add(p.event.by);
      score.newsNames.set(slot, known);
      if (slotOf(p.event.by) === undefined) {
        const list = score.unknownNewcomers.get(slot) ?? [];
        list.push({ by: p.event.by, at: p.post });
        score.unknownNewcomers.set(slot, list);
      }
    }
    if (expected.has(key) && !found.has(key)) {
      found.add(key);
      t.found++;
    } else {
      t.wrong++;
      const why =
        slot === undefined ? 'a player the archive lacks' : `the archive: ${game.slots[slot]!.join(' replaced ')}`;
      score.wrongs.push(
        `replace game ${game.id} #${p.post}: ${p.event.by} for ${p.event.player} (${why}) "${p.sentence}"`,
      );
    }
  }
  for (const [key, e] of expected) {
    if (found.has(key)) continue;
    const unread = unreadNaming(news, [e.old, e.by]);
    if (unread) t.missedUnread++;
    score.misses.push(
      `replace game ${game.id}: ${e.by} for ${e.old}${unread ? ' (unread, asked)' : ''}: ${said(sayings, [e.by, e.old], REPLACE_CUE)}`,
    );
  }
}

/**
 * The expected replacement a proposal names: the same names, or names the archive spells
 * otherwise (a letter or two apart, or one name inside the other: "Rob13" for "Rob14",
 * "Jackal" for "Jackal711"): the archive was typed by hand, the GM's name is the forum's.
 */
function spelt(
  expected: ReadonlyMap<string, { slot: number; old: string; by: string }>,
  slot: number | undefined,
  old: string,
  by: string,
): string {
  const exact = `${slot}:${nameKey(old)}:${nameKey(by)}`;
  if (expected.has(exact) || slot === undefined) return exact;
  const near = (a: string, b: string): boolean =>
    a === b ||
    (Math.min(a.length, b.length) >= 3 && (a.includes(b) || b.includes(a))) ||
    (a.length >= 5 && editDistance(a, b) <= 2);
  for (const [key, e] of expected)
    if (e.slot === slot && near(nameKey(e.old), nameKey(old)) && near(nameKey(e.by), nameKey(by))) return key;
  return exact;
}

function editDistance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 2 || a.length > 60 || b.length > 60) return 3;
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++)
      next.push(Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1)));
    row = next;
  }
  return row[b.length]!;
}

function scoreDeaths(
  game: ArchiveGame,
  news: GmNews,
  slotOf: (name: string) => number | undefined,
  score: GameScore,
  sayings: readonly { post: number; text: string }[],
): void {
  const t = score.tallies.death;
  const d = score.death;
  const dies = game.deaths.flatMap((death, slot) => (death ? [slot] : []));
  t.expected += dies.length;
  const found = new Set<number>();
  const newsSlot = new Map<string, number>();
  for (const p of news.proposals) {
    if (p.event.kind === 'replace') {
      const from = slotOf(p.event.player) ?? newsSlot.get(nameKey(p.event.player));
      if (from !== undefined) newsSlot.set(nameKey(p.event.by), from);
    }
    if (p.event.kind !== 'kill' && p.event.kind !== 'modkill') continue;
    const slot = slotOf(p.event.player) ?? newsSlot.get(nameKey(p.event.player));
    const death = slot === undefined ? null : game.deaths[slot]!;
    if (slot !== undefined && death === null && /endgamed/iu.test(game.fateTexts[slot]!)) {
      d.onEndgamed++;
      continue;
    }
    t.proposed++;
    if (slot === undefined || death === null || found.has(slot)) {
      t.wrong++;
      const why = slot === undefined ? 'a player the archive lacks' : found.has(slot) ? 'again' : game.fateTexts[slot];
      score.wrongs.push(`death game ${game.id} #${p.post}: ${p.event.player} (${why}) "${p.sentence}"`);
      continue;
    }
    found.add(slot);
    t.found++;
    if (!p.phase) d.phaseNone++;
    else if (p.phase.kind === death.phase && p.phase.number === death.number) d.phaseRight++;
    else {
      d.phaseWrong++;
      score.wrongs.push(
        `phase game ${game.id} #${p.post}: ${p.event.player} ${p.phase.kind} ${p.phase.number}, the archive ${game.fateTexts[slot]} "${p.sentence}"`,
      );
    }
    const cause = p.cause === 'lynch' ? 'lynch' : p.cause === 'modkill' ? 'modkill' : 'kill';
    if (p.cause !== undefined && p.cause !== 'kill') cause === death.cause ? d.causeRight++ : d.causeWrong++;
    if (p.flip) {
      d.flipGiven++;
      if (alignment(p.flip) === alignment(game.roles[slot]!)) d.flipAgrees++;
    }
  }
  for (const slot of dies) {
    if (found.has(slot)) continue;
    const names = game.slots[slot]!;
    const unread = unreadNaming(news, names);
    if (unread) t.missedUnread++;
    score.misses.push(
      `death game ${game.id}: ${names[0]} ${game.fateTexts[slot]}${unread ? ' (unread, asked)' : ''}: ${said(sayings, names, DEATH_CUE)}`,
    );
  }
}

const PHASE_CUE = /\b(night|day|lynch\w*)\b/iu;

function scorePhases(
  game: ArchiveGame,
  news: GmNews,
  ends: readonly number[],
  score: GameScore,
  sayings: readonly { post: number; text: string }[],
): void {
  const endT = score.tallies['day-end'];
  const startT = score.tallies['day-start'];
  endT.expected += ends.length;
  startT.expected += ends.length;
  const endsFound = new Set<number>();
  const startsFound = new Set<number>();
  for (const p of news.proposals) {
    if (p.event.kind === 'day-end') {
      endT.proposed++;
      const day = ends.findIndex((e) => Math.abs(e - p.post) <= NEAR);
      if (day >= 0 && !endsFound.has(day)) {
        endsFound.add(day);
        endT.found++;
      } else {
        endT.wrong++;
        score.wrongs.push(`day-end game ${game.id} #${p.post} (Day ends ${ends.join(', ')}) "${p.sentence}"`);
      }
    } else if (p.event.kind === 'day-start') {
      startT.proposed++;
      const n = p.event.day;
      const from = n === 1 ? -1 : (ends[n - 2] ?? Infinity);
      const to = ends[n - 1] ?? Infinity;
      if (n <= ends.length && p.post >= from && p.post < to && !startsFound.has(n)) {
        startsFound.add(n);
        startT.found++;
      } else {
        startT.wrong++;
        score.wrongs.push(
          `day-start game ${game.id} #${p.post}: Day ${n} (Day ends ${ends.join(', ')}) "${p.sentence}"`,
        );
      }
    }
  }
  ends.forEach((end, i) => {
    if (!startsFound.has(i + 1)) {
      const from = i === 0 ? -1 : ends[i - 1]!;
      const near = sayings
        .filter((s) => s.post > from && s.post <= from + 2 * NEAR && PHASE_CUE.test(s.text))
        .slice(0, 3);
      score.misses.push(
        `day-start game ${game.id}: Day ${i + 1} after #${from}: ${near.map((h) => `#${h.post} "${h.text}"`).join(' | ') || '(no sentence of the moderators soon after names a phase)'}`,
      );
    }
    if (endsFound.has(i)) return;
    const near = sayings.filter((s) => Math.abs(s.post - end) <= NEAR && PHASE_CUE.test(s.text)).slice(0, 3);
    score.misses.push(
      `day-end game ${game.id}: Day ${i + 1} ended at #${end}: ${near.map((h) => `#${h.post} "${h.text}"`).join(' | ') || '(no sentence of the moderators near it names a phase)'}`,
    );
  });
}

// ---- the run ----

const games = readArchive(fromMirror('data/archive.txt'));
const transitions = readTransitions(fromMirror('data/transitions.tsv'));
const only = option('--game');
const limit = option('--games') === undefined ? Infinity : Number(option('--games'));
const chosen = games.filter((g) => (only ? g.id === only : true)).slice(0, limit);

const sentenceCache = new Map<string, { post: number; text: string }[]>();
const scores: GameScore[] = [];
const skipped: string[] = [];
const byId = new Map<string, ArchiveGame>();
for (const game of chosen) {
  const ends = transitions.get(game.id) ?? [];
  const posts = postsOf(game);
  if (!posts) {
    skipped.push(`game ${game.id}: no data/posts/${game.thread}.jsonl`);
    continue;
  }
  try {
    scores.push(scoreGame(game, posts, ends));
    byId.set(game.id, game);
  } catch (e) {
    skipped.push(`game ${game.id}: ${(e as Error).message.split('\n')[0]}`);
  }
}

const total = Object.fromEntries(KINDS.map((k) => [k, blank()])) as Record<Kind, Tally>;
const deathTotal = blankDeath();
for (const s of scores) {
  for (const k of KINDS) for (const f of Object.keys(blank()) as (keyof Tally)[]) total[k][f] += s.tallies[k][f];
  for (const f of Object.keys(deathTotal) as (keyof DeathDetail)[]) deathTotal[f] += s.death[f];
}

const pct = (a: number, b: number): string => (b === 0 ? '-' : `${((100 * a) / b).toFixed(1)}%`);
if (flag('--misses')) for (const s of scores) for (const m of s.misses) console.log(`miss: ${m}`);
if (flag('--wrong')) for (const s of scores) for (const w of s.wrongs) console.log(`wrong: ${w}`);
const material = option('--material');
const materialLine = material ? materialExplained(material) : null;

if (flag('--json')) console.log(JSON.stringify({ source: SOURCE, total, death: deathTotal, skipped }, null, 2));
else {
  console.log(`material: ${SOURCE} (${MIRROR})`);
  console.log(`games: ${scores.length}`);
  for (const k of KINDS) {
    const t = total[k];
    console.log(
      `${k}: found ${t.found} of ${t.expected} (recall ${pct(t.found, t.expected)}); proposed ${t.proposed}, wrong ${t.wrong} (precision ${pct(t.proposed - t.wrong, t.proposed)}); missed but sent to the GM unread: ${t.missedUnread}`,
    );
  }
  const d = deathTotal;
  console.log(
    `deaths found: phase right ${d.phaseRight}, wrong ${d.phaseWrong}, not given ${d.phaseNone}; cause (lynch/kill/modkill) right ${d.causeRight}, wrong ${d.causeWrong}; flip given ${d.flipGiven}, its alignment agrees ${d.flipAgrees}; deaths of "endgamed" slots (not scored) ${d.onEndgamed}`,
  );
  const unread = scores.reduce((n, s) => n + s.misses.length, 0);
  console.log(`misses listed: ${unread} (--misses), wrong proposals listed (--wrong)`);
  if (materialLine) console.log(materialLine);
  for (const s of skipped) console.log(`skipped: ${s}`);
}

/**
 * Of the counts `real-games.ts` sets down to "a name the archive lacks" (a voter whose slot
 * never posted under the archive's names that Day), those where the news read a
 * replacement of that slot by a name the archive lacks, who posted.
 */
function materialExplained(file: string): string {
  const run = JSON.parse(readFileSync(file, 'utf8')) as {
    results: {
      game: string;
      counts: { post: number; differences: { kind: string; player: string | null }[] }[];
      causes: (string | null)[];
    }[];
  };
  let counts = 0;
  let explained = 0;
  let announced = 0;
  const scoreOf = new Map(scores.map((s) => [s.game, s]));
  for (const r of run.results) {
    const game = byId.get(r.game);
    const score = scoreOf.get(r.game);
    r.counts.forEach((c, i) => {
      if (r.causes[i] !== 'material') return;
      counts++;
      if (!game || !score) return;
      const slots = c.differences.flatMap((d) => {
        const slot = d.kind === 'voter' && d.player ? slotFinder(game)(d.player) : undefined;
        return slot === undefined ? [] : [slot];
      });
      const newcomers = slots.flatMap((s) => (score.unknownNewcomers.get(s) ?? []).filter((n) => n.at < c.post));
      if (newcomers.length > 0) explained++;
      if (slots.some((s) => said(modSentencesCache(game), game.slots[s]!, REPLACE_CUE).startsWith('#'))) announced++;
    });
  }
  return `"a name the archive lacks" counts (real-games): ${counts}; a voter's slot replaced (as the news read it) by a name the archive lacks before the count: ${explained}; a voter's slot named in a moderator's sentence of replacement: ${announced}`;
}

function modSentencesCache(game: ArchiveGame): { post: number; text: string }[] {
  let s = sentenceCache.get(game.id);
  if (!s) {
    s = modSentences(game, postsOf(game) ?? []);
    sentenceCache.set(game.id, s);
  }
  return s;
}
