import type { PostReading } from '../../model/action.js';
import type { GmEvent, PostEvent } from '../../model/event.js';
import type { Tally } from '../../model/tally.js';
import { readPost } from '../../parse/read-post.js';
import type { Ruleset } from '../../rules/ruleset.js';
import type { Game } from '../../store/games-repo.js';
import type { Store } from '../../store/open-store.js';
import type { PollState } from '../../store/polls-repo.js';
import type { StoredPost } from '../../store/posts-repo.js';
import type { StoredTally } from '../../store/tallies-repo.js';
import { clockEvents } from '../../tally/clock.js';
import { countVotes } from '../../tally/count.js';
import type { TallyEvent } from '../../tally/log.js';
import { gameRuleset, rulesetVersion } from '../../game/game-ruleset.js';
import { DaySetting } from '../../game/game-settings.js';
import { buildTimeline, type Timeline } from './timeline.js';

/**
 * What the live page shows, read from the store: the public count (the same fold as the
 * poller's, in the public view, so hidden weights and voters and `publish: day-end`
 * votes stay hidden), the Day's timeline, the deadline. Cached per game until anything it
 * is made of changes (a new tally, a GM event, a settings change).
 */
export interface LiveData {
  game: Game;
  title: string;
  tally: Tally;
  timeline: Timeline;
  /** The Day's deadline (after extensions, as the poller last saw it), or null. */
  deadline: string | null;
  timeZone: string | null;
  /** The stored tally it follows (null before the first poll). */
  tallyId: number | null;
  updatedAt: string | null;
  /** Changes whenever the page would. */
  version: string;
}

export type UiStore = Pick<Store, 'games' | 'posts' | 'events' | 'tallies' | 'drafts' | 'audit' | 'readings' | 'polls' | 'sql'>;

interface Inputs {
  ruleset: Ruleset;
  events: TallyEvent[];
  dayPosts: number[];
  day: number | undefined;
}

/** Post events of every stored post (deleted ones too: they were made), read under the game's ruleset. */
export async function postEventsOf(store: UiStore, game: Game, ruleset: Ruleset, posts?: StoredPost[]): Promise<PostEvent[]> {
  const all = posts ?? (await store.posts.postsOf(game.id));
  const cached = await store.readings.forGame(game.id, rulesetVersion(ruleset, game.roster));
  return all.map((p) => {
    const reading: PostReading = cached.get(p.revisionId) ?? readPost({ body: p.body, edit: p.edit }, game.roster, ruleset);
    return { kind: 'post', post: p.number, author: p.author, time: p.postedAt, permalink: p.permalink, reading };
  });
}

/** The Day's clock events up to `now` (deadline, scheduled checks), as the poller folds them. */
export function clockUpTo(ruleset: Ruleset, settings: Record<string, unknown>, deadline: string | null, now: Date): GmEvent[] {
  const day = DaySetting.safeParse(settings.day);
  if (!day.success) return [];
  const events = clockEvents(ruleset, { day: day.data.number, start: day.data.start, deadline: deadline ?? day.data.deadline });
  return events.filter((e) => Date.parse(e.time) <= now.getTime());
}

/** The deadline the poller derived (extensions included), else the GM's setting. */
export function deadlineOf(game: Game, poll: PollState | null): string | null {
  const derived = poll?.state.deadline;
  if (typeof derived === 'string') return derived;
  const day = DaySetting.safeParse(game.settings.day);
  return day.success ? day.data.deadline : null;
}

export function timeZoneOf(game: Game): string | null {
  return typeof game.settings.timeZone === 'string' ? game.settings.timeZone : null;
}

/** The title the GM gave the game, else the one the thread shows (as the poller read it), else the slug. */
export function titleOf(game: Game, poll: PollState | null): string {
  const fromSettings = typeof game.settings.title === 'string' ? game.settings.title : null;
  return fromSettings ?? poll?.threadTitle ?? game.slug;
}

async function inputsOf(store: UiStore, game: Game, latest: StoredTally | null, deadline: string | null, now: Date): Promise<Inputs> {
  const ruleset = gameRuleset(game);
  const posts = await store.posts.postsOf(game.id);
  const gmEvents = (await store.events.list(game.id)).map((e) => e.event);
  const events: TallyEvent[] = [...(await postEventsOf(store, game, ruleset, posts)), ...gmEvents, ...clockUpTo(ruleset, game.settings, deadline, now)];
  const day = latest?.tally.day;
  // The Day's posts: after its day-start event, or made since the Day's start time.
  const starts = gmEvents.flatMap((e) => (e.kind === 'day-start' && e.day === day ? [e.at ?? 0] : []));
  const setting = DaySetting.safeParse(game.settings.day);
  let from = starts.length ? Math.max(...starts) : 0;
  if (!starts.length && setting.success && setting.data.number === day) {
    const startMs = Date.parse(setting.data.start);
    const first = posts.find((p) => p.postedAt !== null && Date.parse(p.postedAt) >= startMs);
    from = first ? first.number - 1 : from;
  }
  const asOf = latest?.tally.asOfPost ?? Number.POSITIVE_INFINITY;
  const dayPosts = posts.map((p) => p.number).filter((n) => n > from && n <= asOf);
  return { ruleset, events, dayPosts, day };
}

const cache = new Map<string, { key: string; data: Promise<LiveData> }>();
const MAX_CACHED = 200;

/** The live page's data for a game (cached until the game, its events or its tally change). */
export async function liveData(store: UiStore, game: Game, now: Date): Promise<LiveData> {
  const [latest, poll, events] = await Promise.all([
    store.tallies.latest(game.id),
    store.polls.get(game.id),
    store.events.list(game.id),
  ]);
  const deadline = deadlineOf(game, poll);
  // Clock events that have passed change the count: they are part of the key.
  const passed = clockUpTo(gameRuleset(game), game.settings, deadline, now).length;
  const key = [latest?.id ?? 0, events.at(-1)?.id ?? 0, events.length, game.updatedAt, passed, poll.threadTitle ?? ''].join(':');
  const hit = cache.get(String(game.id));
  if (hit && hit.key === key) return hit.data;

  const data = (async (): Promise<LiveData> => {
    const inputs = await inputsOf(store, game, latest, deadline, now);
    const common = { ruleset: inputs.ruleset, roster: game.roster, events: inputs.events, engine: game.engine, view: 'public' as const, ...(inputs.day !== undefined ? { day: inputs.day } : {}) };
    const tally = countVotes({ ...common, ...(latest?.tally.asOfPost != null ? { toPost: latest.tally.asOfPost } : {}) });
    const timeline = buildTimeline({ ...common, posts: inputs.dayPosts });
    return {
      game,
      title: titleOf(game, poll),
      tally,
      timeline,
      deadline,
      timeZone: timeZoneOf(game),
      tallyId: latest?.id ?? null,
      updatedAt: latest?.createdAt ?? null,
      version: key,
    };
  })();
  cache.set(String(game.id), { key, data });
  if (cache.size > MAX_CACHED) cache.delete(cache.keys().next().value as string);
  data.catch(() => cache.delete(String(game.id)));
  return data;
}
