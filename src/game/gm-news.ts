import { createHash } from 'node:crypto';
import type { GmEvent } from '../model/event.js';
import {
  OPENED_BY_MAJORITY,
  readGmPost,
  rosterNames,
  type GmAside,
  type GmProposal,
  type GmUnread,
} from '../parse/gm-posts.js';
import { loadGmPhrases, type GmPhrases } from '../rules/gm-phrases.js';
import type { Ruleset } from '../rules/ruleset.js';
import { stableJson } from './game-ruleset.js';
import type { AuditAction, AuditEntry } from '../model/audit.js';
import type { Game } from '../model/game.js';
import type { GameSettings } from '../model/game-settings.js';
import type { Slot } from '../model/roster.js';
import type { Body } from '../model/body.js';
import type { EditMarker } from '../model/post.js';
import { nameKey } from '../parse/name-form.js';
import type { StoredGmEvent } from '../store/events-repo.js';
import type { HeadOrPost, PostHead } from '../store/posts-repo.js';
import { bodyOf } from './post-bodies.js';

/**
 * What the GM's own posts announced that the game does not hold yet: each a proposed event
 * the GM confirms with one click (it is then recorded like any GM event) or dismisses.
 * Worked out afresh from the stored posts each time: nothing is stored but the GM's answers.
 */
export interface GmNewsItem extends GmProposal {
  /** Stable across reads: what a dismissal is recorded under. */
  key: string;
  author: string;
  permalink: string | null;
  /** A welcome's slot, from the earlier post that sought its replacement ("Bob has requested a replacement"). */
  sought?: { post: number; sentence: string };
}

export interface GmNewsUnread extends GmUnread {
  key: string;
  author: string;
  permalink: string | null;
}

export interface GmNews {
  /** The GM's forum names read for news. */
  gms: string[];
  proposals: GmNewsItem[];
  unread: GmNewsUnread[];
}

/** The audit action a dismissal is recorded under (detail: `{ key }`). */
export const NEWS_DISMISS = 'news.dismiss' satisfies AuditAction;
/** The audit action a recorded proposal is noted under (detail: `{ key, post, event }`). */
export const NEWS_RECORD = 'news.record' satisfies AuditAction;

/**
 * A post as news reads it: `first` is the body (and the forum's edit mark) Votal first
 * saw, when the post has been edited since; news reads that one, once.
 */
export type NewsPost = HeadOrPost & { first?: { body: Body; edit: EditMarker | null } };

/**
 * A post the forum shows edited, on the first read, this long after it was posted was
 * changed later: what it said at the time is not known (an opening post that grew a phase
 * table or a roster with the game's later events). A quick fix of a typo is not that.
 */
const EDIT_GRACE_MS = 15 * 60_000;

export interface GmNewsInput {
  game: Pick<Game, 'ruleset' | 'roster' | 'settings'>;
  ruleset: Ruleset;
  /** Every post; bodies are read only of those `newsReadsBodyOf` names. */
  posts: readonly NewsPost[];
  events: readonly StoredGmEvent[];
  /** The game's audit entries with the GM's dismissals (`NEWS_DISMISS`), all of them. */
  audit: readonly AuditEntry[];
}

export function gmNews(input: GmNewsInput): GmNews {
  const { game, ruleset } = input;
  const reads = newsReadsBodyOf(game.settings, input.posts);
  const known: Known = {
    phrases: phrasesFor(game.ruleset),
    zone: game.settings.timeZone ?? ruleset.schedule?.timeZone ?? null,
    recorded: new Set(input.events.map((e) => sameNews(e.event))),
    dismissed: new Set(input.audit.filter((a) => a.action === NEWS_DISMISS).map((a) => String(a.detail['key']))),
  };
  const placed = input.events
    .map((e, order) => ({ e: e.event, order }))
    .sort((a, b) => placeOf(a.e) - placeOf(b.e) || a.order - b.order);
  const world = newsWorld(game.roster, ruleset, [...new Set(input.posts.map((p) => p.author))]);
  const news: Pick<GmNews, 'proposals' | 'unread'> = { proposals: [], unread: [] };
  let next = 0;
  for (const post of [...input.posts].sort((a, b) => a.number - b.number)) {
    // GM events placed before this post are part of the game it is read in.
    while (next < placed.length && placeOf(placed[next]!.e) < post.number) world.apply(placed[next++]!.e);
    if (reads(post)) newsOfPost(post, world, known, news);
  }
  return { gms: gmNames(game.settings, input.posts), ...news };
}

/** What the news reader holds for the whole thread: the phrases, the zone, what the GM recorded or dismissed. */
interface Known {
  phrases: GmPhrases;
  zone: string | null;
  recorded: Set<string>;
  dismissed: Set<string>;
}

/** The game as the news knows it post by post. */
interface NewsWorld {
  book(): ReturnType<typeof rosterNames>;
  slotOf(name: string): Slot | undefined;
  isDead(slot: Slot): boolean;
  phase(): { day: number | null; night: boolean };
  apply(e: GmEvent): void;
  /** A slot whose replacement the GM seeks, until it is replaced or dies. */
  seek(slot: Slot, asked: { post: number; sentence: string }): void;
  /** The slots sought, each with the post that sought it. */
  sought(): { slot: Slot; asked: { post: number; sentence: string } }[];
}

/**
 * The roster with every replacement (recorded, or proposed and not dismissed) applied in
 * thread order, who is dead, and the phase.
 */
function newsWorld(roster: readonly Slot[], ruleset: Ruleset, posters: readonly string[]): NewsWorld {
  const slots: Slot[] = roster.map((s) => ({ ...s, aliases: [...s.aliases], formerNames: [...s.formerNames] }));
  const dead = new Set<Slot>();
  const seeking = new Map<Slot, { post: number; sentence: string }>();
  let day: number | null = null;
  let night = false;
  let book = rosterNames(slots, { matching: ruleset.names, posters });
  const slotOf = (name: string): Slot | undefined => {
    const canonical = book.exact(name);
    return canonical === undefined ? undefined : slots.find((s) => s.name === canonical);
  };
  const apply = (e: GmEvent): void => {
    if (e.kind === 'replace') {
      const slot = slotOf(e.player);
      if (!slot || nameKey(slot.name) === nameKey(e.by)) return;
      slot.formerNames.push(slot.name);
      slot.name = e.by;
      seeking.delete(slot);
      book = rosterNames(slots, { matching: ruleset.names, posters });
    } else if (e.kind === 'kill' || e.kind === 'modkill') {
      const slot = slotOf(e.player);
      if (slot) dead.add(slot);
      if (slot) seeking.delete(slot);
    } else if (e.kind === 'revive') {
      const slot = slotOf(e.player);
      if (slot) dead.delete(slot);
    } else if (e.kind === 'day-start') {
      day = e.day;
      night = false;
    } else if (e.kind === 'day-end') {
      night = true;
    }
  };
  return {
    book: () => book,
    slotOf,
    isDead: (slot) => dead.has(slot),
    phase: () => ({ day, night }),
    apply,
    seek: (slot, asked) => {
      if (!dead.has(slot) && !seeking.has(slot)) seeking.set(slot, asked);
    },
    sought: () => [...seeking].map(([slot, asked]) => ({ slot, asked })),
  };
}

/** One GM post read for news as Votal first saw it; what it proposes is applied to the world. */
function newsOfPost(post: NewsPost, world: NewsWorld, known: Known, news: Pick<GmNews, 'proposals' | 'unread'>): void {
  const where = { author: post.author, permalink: post.permalink };
  const seen = post.first ?? { body: bodyOf(post), edit: post.edit };
  const late = editedLater(post.postedAt, seen.edit);
  if (late !== null) {
    const key = digest(`${post.number}:edited`);
    if (!known.dismissed.has(key))
      news.unread.push({
        post: post.number,
        sentence: `post ${post.number}, ${late}`,
        reason:
          'edited after it was posted, before Votal first read it: what it said at the time is not known, so it is not read for news',
        key,
        ...where,
      });
    return;
  }
  const reading = readGmPost(
    { number: post.number, body: seen.body, postedAt: post.postedAt },
    world.book(),
    known.phrases,
    {
      timeZone: known.zone,
      ...world.phase(),
    },
  );
  const deadAlready = (p: GmProposal): boolean => {
    const slot = p.event.kind === 'kill' || p.event.kind === 'modkill' ? world.slotOf(p.event.player) : undefined;
    return slot !== undefined && world.isDead(slot);
  };
  const deaths = reading.proposals.filter((p) => p.event.kind === 'kill' || p.event.kind === 'modkill');
  // A Day opened by the Night's deaths is news only if a death is: a recap in a vote count opens nothing.
  const recapOnly = deaths.length > 0 && deaths.every(deadAlready);
  const ended = endedByLynch(reading.proposals, world, (p) => deadAlready(p) || known.recorded.has(sameNews(p.event)));
  if (ended) reading.proposals.push(ended);
  for (const p of reading.proposals) {
    const key = digest(`${p.post}:${stableJson(p.event)}`);
    // A Day that has begun already is not news again.
    const { day } = world.phase();
    if (p.event.kind === 'day-start' && (p.event.day <= (day ?? 0) || (p.sentence === OPENED_BY_MAJORITY && recapOnly)))
      continue;
    // Nor a Night that has begun ("That's a lynch", then "It is now Night 2"), unless it names a later one.
    const later = p.phase?.kind === 'night' && p.phase.number > (day ?? 0);
    if (p.event.kind === 'day-end' && world.phase().night && !later) continue;
    // A death of a player already dead (recorded, or proposed in an earlier post) is a recap, not news.
    if (deadAlready(p)) continue;
    if (known.dismissed.has(key)) continue;
    world.apply(p.event);
    if (known.recorded.has(sameNews(p.event))) continue;
    news.proposals.push({ ...p, key, ...where });
  }
  for (const u of reading.unread) {
    const key = digest(`${u.post}:${u.sentence}`);
    if (!known.dismissed.has(key)) news.unread.push({ ...u, key, ...where });
  }
  newsOfAsides(reading.asides, world, known, news, where);
}

/**
 * A welcome that names no slot ("Please welcome Junpei") takes the slot whose replacement
 * the GM sought before it ("searching for a replacement for Drchrist"), when one only is
 * sought; with several, the GM is asked which; with none, told of the newcomer.
 */
function newsOfAsides(
  asides: readonly GmAside[],
  world: NewsWorld,
  known: Known,
  news: Pick<GmNews, 'proposals' | 'unread'>,
  where: { author: string; permalink: string | null },
): void {
  for (const a of asides) {
    if (a.kind === 'sought') {
      // A slot this same post replaced ("Ann requested a replacement; Bob replaces Ann") is not sought.
      const slot = world.slotOf(a.player);
      if (slot && slot.name === a.player) world.seek(slot, { post: a.post, sentence: a.sentence });
      continue;
    }
    // A newcomer this post (or an earlier one) already placed in a slot is no news again.
    if (world.slotOf(a.name)) continue;
    const open = world.sought();
    if (open.length !== 1) {
      const reason =
        open.length === 0
          ? `welcomes ${a.name}, but says not whom they replace, and no slot's replacement was asked for`
          : `welcomes ${a.name}, but says not whom they replace: ${open.map((o) => o.slot.name).join(' or ')}, whose replacements were asked for`;
      const key = digest(`${a.post}:${a.sentence}`);
      // A post that says it twice is asked of once.
      if (!known.dismissed.has(key) && !news.unread.some((u) => u.key === key))
        news.unread.push({ post: a.post, sentence: a.sentence, reason, key, ...where });
      continue;
    }
    const { slot, asked } = open[0]!;
    const event: GmEvent = { kind: 'replace', player: slot.name, by: a.name, at: a.post };
    const key = digest(`${a.post}:${stableJson(event)}`);
    if (known.dismissed.has(key)) continue;
    world.apply(event);
    if (known.recorded.has(sameNews(event))) continue;
    news.proposals.push({ post: a.post, sentence: a.sentence, event, sought: asked, key, ...where });
  }
}

/**
 * The Day's lynch ends the Day ("Parama, Vanilla Townie, has been lynched Day 1." and no
 * word of the Night): a Day end at the lynch's post, proposed with it. Not for a lynch
 * already known (a recap), one of another Day, nor in the Night or a post that names a phase.
 */
function endedByLynch(
  proposals: readonly GmProposal[],
  world: NewsWorld,
  known: (p: GmProposal) => boolean,
): GmProposal | null {
  const { day, night } = world.phase();
  if (night || proposals.some((p) => p.event.kind === 'day-end' || p.event.kind === 'day-start')) return null;
  const lynch = proposals.find(
    (p) =>
      p.cause === 'lynch' &&
      !known(p) &&
      (!p.phase || day === null || (p.phase.kind === 'day' && p.phase.number === day)),
  );
  return lynch ? { post: lynch.post, sentence: lynch.sentence, event: { kind: 'day-end', at: lynch.post } } : null;
}

/** How the forum's edit mark says the post was changed after it was posted, or null (not edited, or quickly). */
function editedLater(postedAt: string | null, edit: EditMarker | null): string | null {
  if (!edit) return null;
  const at = edit.at ? Date.parse(edit.at) : Number.NaN;
  const posted = postedAt ? Date.parse(postedAt) : Number.NaN;
  if (Number.isFinite(at) && Number.isFinite(posted) && at - posted <= EDIT_GRACE_MS) return null;
  return edit.at ? `edited ${edit.at}` : `marked "${edit.text.slice(0, 80)}"`;
}

/** Where an event stands in the thread: after post `at`; an unplaced one after every post. */
function placeOf(e: GmEvent): number {
  return 'at' in e && typeof e.at === 'number' ? e.at + 0.5 : Number.MAX_SAFE_INTEGER;
}

/** The posts whose bodies news reads: the GM's own that the forum still shows. */
export function newsReadsBodyOf(
  settings: GameSettings,
  posts: readonly Pick<PostHead, 'number' | 'author'>[],
): (post: Pick<PostHead, 'author' | 'deleted'>) => boolean {
  const isGm = new Set(gmNames(settings, posts).map((n) => n.toLowerCase()));
  return (post) => !post.deleted && isGm.has(post.author.toLowerCase());
}

/**
 * Who the GM is on the forum: `settings.gm` (a name, or several for co-hosts), else the
 * author of the thread's first post, who opened the game; and the forum names of the
 * game's co-host accounts (`settings.cohostForumNames`). Each name once, ignoring case.
 */
export function gmNames(settings: GameSettings, posts: readonly Pick<PostHead, 'number' | 'author'>[]): string[] {
  const cohosts = Object.values(settings.cohostForumNames ?? {});
  const seen = new Set<string>();
  return [...gmSetOrOpener(settings, posts), ...cohosts].filter((n) => {
    const key = n.toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function gmSetOrOpener(settings: GameSettings, posts: readonly Pick<PostHead, 'number' | 'author'>[]): string[] {
  const set = settings.gm;
  if (typeof set === 'string') return [set];
  if (set) return set;
  const first = posts.reduce<Pick<PostHead, 'number' | 'author'> | null>(
    (a, p) => (a === null || p.number < a.number ? p : a),
    null,
  );
  return first ? [first.author] : [];
}

/**
 * What makes two events the same news, whatever post they were recorded after: the GM
 * who already recorded "kill Dave" by hand is not asked again.
 */
function sameNews(e: GmEvent): string {
  switch (e.kind) {
    case 'kill':
    case 'modkill':
    case 'revive':
      return `${e.kind}:${e.player.toLowerCase()}`;
    case 'replace':
      return `replace:${e.player.toLowerCase()}:${e.by.toLowerCase()}`;
    case 'day-start':
      return `day-start:${e.day}`;
    case 'day-end':
      return `day-end:${e.at ?? e.time ?? ''}`;
    case 'deadline':
      return `deadline:${Date.parse(e.time)}`;
    default:
      return stableJson(e);
  }
}

const phrasesByRuleset = new Map<string, GmPhrases>();
/** Phrase files are part of the install: read once per ruleset name. */
function phrasesFor(ruleset: string): GmPhrases {
  let p = phrasesByRuleset.get(ruleset);
  if (!p) {
    p = loadGmPhrases(ruleset);
    phrasesByRuleset.set(ruleset, p);
  }
  return p;
}

const digest = (s: string): string => createHash('sha256').update(s).digest('hex').slice(0, 16);
