/**
 * The GM of a real game in the real-games bench (issue #24): one who accepts what Votal's
 * news reader proposes from the moderators' posts, and who sets the archive's double voters'
 * weight, as a GM using Votal would.
 *
 * - Replacements: every `replace` the news proposes at post p is a GM event at p, never
 *   earlier; the newcomer's name is read in votes from the post after p. The archive's own
 *   names stay known all game (its facts are kept): a proposal that names a player the
 *   archive lacks, or a newcomer the archive has in another slot, disagrees with it and is
 *   not applied (one line each, and counted).
 * - Deaths: a kill or modkill the news proposes inside a Day the archive says the slot died
 *   on (killed or modkilled that Day, not lynched: the lynch ends the Day anyway) is a GM
 *   event at its post. A death the archive does not have then is a disagreement, not applied.
 * - Weights: a slot whose archive role is a double (or triple) voter gets that weight from
 *   each Day's start, a GM `weight` event, the way a GM sets a Mayor's vote in Votal.
 * - Spellings: a poster the archive lacks whose name is a slip of the keys from a slot's
 *   name that has not posted (`rosterSpellings`, src/game/roster-spellings.ts: the archive,
 *   like a GM's list, was typed by hand) replaces that slot from before the first post, as
 *   the GM who accepts the proposal records it.
 */
import { parseFragment } from '../scrapers/fragment.js';
import { adapterOf } from '../scrapers/identify.js';
import { gmNews, type GmNews } from '../src/game/gm-news.js';
import { rosterSpellings, type SpellingProposal } from '../src/game/roster-spellings.js';
import type { Body } from '../src/model/body.js';
import { GmEvent } from '../src/model/event.js';
import { GameSettings } from '../src/model/game-settings.js';
import { Roster } from '../src/model/roster.js';
import { nameKey } from '../src/parse/name-form.js';
import { loadRuleset } from '../src/rules/load-ruleset.js';
import type { HeadOrPost } from '../src/store/posts-repo.js';
import type { ArchiveGame, RawPost } from './donbot-games.js';

const RULESET = 'mafiascum-majority';
const markup = adapterOf('phpbb').descriptor.body;

/**
 * Every moderator post of the game read by `gmNews` as a game reads its stored posts: the
 * roster of the starting players, each proposal taken as the GM would confirm it. The
 * opening post is not read: the material has each post as last edited, and the opening post
 * is the status board, edited all game long with every later death and replacement.
 */
export function newsOf(game: ArchiveGame, posts: readonly RawPost[]): GmNews {
  const roster = Roster.parse(game.slots.map((names) => ({ name: names.at(-1)! })));
  const isHost = new Set(game.moderators.map((m) => m.toLowerCase()));
  const opening = Math.min(...posts.map((p) => p.number));
  const heads = posts.map((p) => {
    const body: Body | undefined = !isHost.has(p.user.toLowerCase())
      ? undefined
      : p.number === opening
        ? []
        : parseFragment(p.content, markup, game.url);
    return {
      number: p.number,
      author: p.user,
      postedAt: null,
      permalink: null,
      deleted: false,
      edit: null,
      ...(body ? { body } : {}),
    } as unknown as HeadOrPost;
  });
  const settings = GameSettings.parse(game.moderators.length > 0 ? { gm: game.moderators.slice(0, 10) } : {});
  const ruleset = loadRuleset(RULESET);
  return gmNews({ game: { ruleset: RULESET, roster, settings }, ruleset, posts: heads, events: [], audit: [] });
}

/**
 * The vote weight an archive role gives ("Town Doublevoter", "Town Miller Double Voter"),
 * or null: the archive writes the count of votes as a word before "voter".
 */
export function roleWeight(role: string): number | null {
  const m = /\b(double|triple|quadruple)[\s-]?voter\b/iu.exec(role);
  return m ? ({ double: 2, triple: 3, quadruple: 4 } as const)[m[1]!.toLowerCase() as 'double'] : null;
}

/**
 * The archive's notes say the game's double voter casts each vote on its own ("doublevoter
 * controls each vote individually", "can put votes on different people", "allowed to
 * distribute just one vote"): two votes, not one vote of weight 2, which Votal cannot hold.
 */
export function votesApart(notes: string): boolean {
  return /double[\s-]?voter[^;]*\b(individual\w*|different|distribut\w*|split\w*|separate\w*)/iu.test(notes);
}

/** A newcomer the news announced that the archive does not name in the slot. */
interface Newcomer {
  slot: number;
  name: string;
  at: number;
}

export interface GmAccepts {
  /** The Day's GM events from the news and the roles: replacements and deaths at their posts, weights at its start. */
  eventsOf(day: number, start: number, end: number): GmEvent[];
  /** The roster votes at post `n` are read with: the Day's, and the newcomers announced before `n`. */
  readingRoster(roster: Roster, n: number): Roster;
  /** The archive's name of the slot (its newest) for any of its names, the archive's or the news's. */
  slotName(name: string): string | undefined;
  /** Where the news and the archive disagree, one line each. */
  disagreements: string[];
  /** What the news added to the archive, one line each. */
  additions: string[];
  /** The posters accepted as a slot's name spelled otherwise, one line each. */
  spellings: string[];
  /** The events accepted: replacements and deaths from the news, double voters' weights. */
  accepted: { replacements: number; deaths: number; weights: number };
  /** Double voters whose two votes the archive says were cast apart: no weight given. */
  votesApart: number;
}

type Accepted = { slot: number; event: GmEvent; at: number };

/** The archive's slot of a name (any of the slot's names; the first slot that has it). */
export function slotFinder(game: ArchiveGame): (name: string) => number | undefined {
  const bySlot = new Map<string, number>();
  game.slots.forEach((names, i) => {
    for (const n of names) if (!bySlot.has(nameKey(n))) bySlot.set(nameKey(n), i);
  });
  return (name) => bySlot.get(nameKey(name));
}

/** What the GM made of the news so far: the events accepted, the newcomers, and each line to report. */
interface Ledger {
  game: ArchiveGame;
  /** The archive's slot of a name, or the news's (a newcomer the archive lacks). */
  slotIndex: (name: string) => number | undefined;
  archiveSlot: (name: string) => number | undefined;
  newsSlot: Map<string, number>;
  /** Each slot's name after the replacements accepted so far (the Day's roster names it by the archive's newest). */
  current: Map<number, string>;
  accepted: Accepted[];
  newcomers: Newcomer[];
  disagreements: string[];
  additions: string[];
  spellings: string[];
}

type Proposal = GmNews['proposals'][number];

/** The archive's name of a slot: its newest. */
const canonicalOf = (game: ArchiveGame, slot: number): string => game.slots[slot]![0]!;

/** A replacement the news proposes, accepted unless the archive lacks the player or has the newcomer elsewhere. */
function acceptReplace(l: Ledger, p: Proposal, e: { player: string; by: string }, where: string): void {
  const { game } = l;
  const slot = l.slotIndex(e.player);
  const byArchive = l.archiveSlot(e.by);
  if (slot === undefined) {
    l.disagreements.push(`${where}: news "${e.by} replaces ${e.player}": the archive has no ${e.player}`);
    return;
  }
  if (byArchive !== undefined && byArchive !== slot) {
    l.disagreements.push(
      `${where}: news "${e.by} replaces ${e.player}": the archive has ${e.by} in another slot (${game.slots[byArchive]!.join(' replaced ')})`,
    );
    return;
  }
  if (byArchive === undefined) {
    l.newsSlot.set(nameKey(e.by), slot);
    l.newcomers.push({ slot, name: e.by, at: p.post });
    l.additions.push(
      `${where}: news "${e.by} replaces ${e.player}", a name the archive lacks (${game.slots[slot]!.join(' replaced ')})`,
    );
  }
  // Named by the slot's name then: the roster's replacement takes the current name only.
  const player = l.current.get(slot) ?? canonicalOf(game, slot);
  l.current.set(slot, e.by);
  l.accepted.push({ slot, at: p.post, event: GmEvent.parse({ kind: 'replace', player, by: e.by, at: p.post }) });
}

/** A Day death the news proposes, accepted when the archive has the slot dying (not lynched) that Day. */
function acceptDeath(l: Ledger, p: Proposal, e: { kind: string; player: string }, day: number, where: string): void {
  const { game } = l;
  const slot = l.slotIndex(e.player);
  if (slot === undefined) {
    l.disagreements.push(`${where}: news "${e.kind} ${e.player}": the archive has no ${e.player}`);
    return;
  }
  // Dead before this Day in the archive too (the Night's kill announced at its start).
  if (game.fates[slot]! < day) return;
  const death = game.deaths[slot]!;
  if (death?.phase === 'day' && death.number === day && death.cause === 'lynch') return;
  if (death?.phase !== 'day' || death.number !== day) {
    l.disagreements.push(
      `${where}: news "${e.kind} ${e.player}" in Day ${day}'s posts: the archive has ${game.fateTexts[slot]}`,
    );
    return;
  }
  l.accepted.push({
    slot,
    at: p.post,
    event: GmEvent.parse({ kind: e.kind, player: canonicalOf(game, slot), at: p.post }),
  });
}

/** A poster accepted as a slot's name spelled otherwise: that slot's replacement from before their first post. */
function acceptSpelling(l: Ledger, s: SpellingProposal): void {
  const { game } = l;
  const slot = l.slotIndex(s.slot);
  if (slot === undefined) return;
  l.newsSlot.set(nameKey(s.poster), slot);
  const at = Math.max(0, s.firstPost - 1);
  l.newcomers.push({ slot, name: s.poster, at });
  l.spellings.push(
    `game ${game.id} #${s.firstPost}: ${s.poster} for ${s.listed} (${game.slots[slot]!.join(' replaced ')})`,
  );
  const player = l.current.get(slot) ?? canonicalOf(game, slot);
  l.current.set(slot, s.poster);
  l.accepted.push({ slot, at, event: GmEvent.parse({ kind: 'replace', player, by: s.poster, at }) });
}

/** Every proposal of the news and every spelling, in thread order, taken into the ledger as the GM would (or reported). */
function readNews(
  game: ArchiveGame,
  posts: readonly RawPost[],
  ends: readonly number[],
  options: { news: boolean; deaths: boolean; spellings: boolean },
): Ledger {
  const archiveSlot = slotFinder(game);
  const newsSlot = new Map<string, number>();
  const l: Ledger = {
    game,
    archiveSlot,
    newsSlot,
    slotIndex: (name) => archiveSlot(name) ?? newsSlot.get(nameKey(name)),
    current: new Map(),
    accepted: [],
    newcomers: [],
    disagreements: [],
    additions: [],
    spellings: [],
  };
  const dayOf = (post: number): number => {
    const i = ends.findIndex((e) => post <= e);
    return i < 0 ? ends.length + 1 : i + 1;
  };
  const news = options.news ? newsOf(game, posts) : { proposals: [] };
  const spelt = options.spellings ? spellingsOf(game, posts, news) : [];
  // In thread order, so each replacement names the slot by its name then.
  const items = [
    ...news.proposals.map((p) => ({ at: p.post, p, s: null })),
    ...spelt.map((s) => ({ at: s.firstPost - 1, p: null, s })),
  ].sort((a, b) => a.at - b.at);
  for (const { p, s } of items) {
    if (s) {
      acceptSpelling(l, s);
      continue;
    }
    if (!p) continue;
    const e = p.event;
    const where = `game ${game.id} #${p.post}`;
    if (e.kind === 'replace') acceptReplace(l, p, e, where);
    else if ((e.kind === 'kill' || e.kind === 'modkill') && options.deaths && p.cause !== 'lynch') {
      acceptDeath(l, p, e, dayOf(p.post), where);
    }
  }
  return l;
}

/** The roster votes at post `n` are read with: the Day's, and the newcomers announced before `n` (kept per roster). */
function readingRosterOf(newcomers: readonly Newcomer[]): GmAccepts['readingRoster'] {
  const cache = new WeakMap<Roster, Map<number, Roster>>();
  return (roster, n) => {
    const known = newcomers.filter((c) => c.at < n);
    if (known.length === 0) return roster;
    let byCount = cache.get(roster);
    if (!byCount) cache.set(roster, (byCount = new Map()));
    const hit = byCount.get(known.length);
    if (hit) return hit;
    const out = roster.map((s, i) => {
      const more = known.filter((c) => c.slot === i).map((c) => c.name);
      return more.length === 0 ? s : { ...s, formerNames: [...s.formerNames, ...more] };
    });
    byCount.set(known.length, out);
    return out;
  };
}

export function gmAccepts(
  game: ArchiveGame,
  posts: readonly RawPost[],
  ends: readonly number[],
  options: { news: boolean; deaths: boolean; weights: boolean; spellings: boolean },
): GmAccepts {
  const l = readNews(game, posts, ends, options);
  const { accepted } = l;
  const voters = game.roles.flatMap((role, slot) => {
    const weight = options.weights ? roleWeight(role) : null;
    return weight === null ? [] : [{ slot, weight }];
  });
  const apart = votesApart(game.notes);
  const weights = apart ? [] : voters;
  return {
    eventsOf(day, start, end) {
      // A replacement before the Day still renames the slot; a death only in it.
      const own = accepted.filter((a) => a.at <= end && (a.event.kind === 'replace' || a.at > start));
      const weighted = weights
        .filter((w) => game.fates[w.slot]! >= day)
        .map((w) => GmEvent.parse({ kind: 'weight', player: canonicalOf(game, w.slot), weight: w.weight, at: start }));
      return [...weighted, ...own.map((a) => a.event)];
    },
    readingRoster: readingRosterOf(l.newcomers),
    slotName(name) {
      const slot = l.slotIndex(name);
      return slot === undefined ? undefined : canonicalOf(game, slot);
    },
    disagreements: l.disagreements,
    additions: l.additions,
    spellings: l.spellings,
    accepted: {
      replacements: accepted.filter((a) => a.event.kind === 'replace').length,
      deaths: accepted.filter((a) => a.event.kind !== 'replace').length,
      weights: weights.length,
    },
    votesApart: apart ? voters.length : 0,
  };
}

/**
 * The spellings Votal proposes with the archive's names as the GM's list (all of a slot's
 * names known from the start, as the bench's GM keeps the archive's facts) and the news's
 * replacements as the game holds them.
 */
function spellingsOf(
  game: ArchiveGame,
  posts: readonly RawPost[],
  news: Pick<GmNews, 'proposals'>,
): SpellingProposal[] {
  const roster = Roster.parse(game.slots.map((names) => ({ name: names.at(-1)!, formerNames: names.slice(0, -1) })));
  const events = news.proposals.flatMap((p) => (p.event.kind === 'replace' ? [{ ...p.event, at: p.post }] : []));
  return rosterSpellings({
    roster,
    events,
    hosts: game.moderators,
    posts: posts.map((p) => ({ number: p.number, author: p.user })),
  });
}

/** The GM's side of the run in a line, with every addition and disagreement when `lines`. */
export function gmSummary(games: readonly GmAccepts[], lines: boolean): string {
  const sum = (f: (g: GmAccepts) => number): number => games.reduce((n, g) => n + f(g), 0);
  const listed = lines
    ? games.flatMap((g) => [
        ...g.additions.map((a) => `news adds: ${a}`),
        ...g.spellings.map((a) => `spelling: ${a}`),
        ...g.disagreements.map((d) => `news disagrees: ${d}`),
      ])
    : [];
  return [
    ...listed,
    `the GM accepted: ${sum((g) => g.accepted.replacements)} replacements from the news (${sum((g) => g.additions.length)} a name the archive lacks), ${sum((g) => g.spellings.length)} posters as a slot's name spelled otherwise, ${sum((g) => g.accepted.deaths)} Day deaths from the news, ${sum((g) => g.accepted.weights)} double voters' weights from the roles (${sum((g) => g.votesApart)} more whose votes the archive says were cast apart: Votal has no such vote); the news disagrees with the archive ${sum((g) => g.disagreements.length)} times, not applied (--news lists them)`,
  ].join('\n');
}
