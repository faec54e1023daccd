import type { GmEvent } from '../../model/event.js';
import type { Tally } from '../../model/tally.js';
import type { Game } from '../../model/game.js';
import type { Store } from '../../store/open-store.js';
import type { PollState } from '../../store/polls-repo.js';
import type { PostHead } from '../../store/posts-repo.js';
import { foldGame } from '../../game/fold-game.js';
import { gameRuleset } from '../../game/game-ruleset.js';
import { deadlineOf } from '../../game/poll-settings.js';
import { gmNames } from '../../game/gm-news.js';
import { postHistories } from '../../game/post-histories.js';
import { foldWithOwnDeaths } from '../../game/reading-events.js';
import { buildTimeline, type Timeline } from './timeline.js';

/**
 * What the live page shows, read from the store: the public count (the one count,
 * `foldGame`, in the public view, so hidden weights and voters and `publish: day-end`
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

export type UiStore = Pick<
  Store,
  'games' | 'posts' | 'events' | 'tallies' | 'drafts' | 'audit' | 'readings' | 'polls' | 'sql'
>;

function timeZoneOf(game: Game): string | null {
  return game.settings.timeZone ?? null;
}

/**
 * The title the GM gave the game, else the one the thread shows (as the poller read it),
 * else "New game" until the first read (the slug is an address, not a name).
 */
export function titleOf(game: Game, poll: PollState | null): string {
  return game.settings.title ?? poll?.threadTitle ?? 'New game';
}

/** The Day's posts (for the timeline): after its day-start event, or made since the Day's start time. */
function dayPostsOf(game: Game, gmEvents: readonly GmEvent[], posts: readonly PostHead[], tally: Tally): number[] {
  const day = tally.day;
  const starts = gmEvents.flatMap((e) => (e.kind === 'day-start' && e.day === day ? [e.at ?? 0] : []));
  const setting = game.settings.day;
  let from = starts.length ? Math.max(...starts) : 0;
  if (!starts.length && setting && setting.number === day) {
    const startMs = Date.parse(setting.start);
    const first = posts.find((p) => p.postedAt !== null && Date.parse(p.postedAt) >= startMs);
    from = first ? first.number - 1 : from;
  }
  const asOf = tally.asOfPost ?? Number.POSITIVE_INFINITY;
  return posts.map((p) => p.number).filter((n) => n > from && n <= asOf);
}

const cache = new Map<string, { key: string; data: Promise<LiveData>; valid: { until: number } }>();
const MAX_CACHED = 200;

/**
 * The live page's data for a game: the one count (`foldGame`, as the poller and drafts
 * make it) in the public view, over the posts the last stored tally counted, with the
 * clock at `now`. Cached until the game, its events or its tally change, or the next
 * check or deadline passes.
 */
export async function liveData(store: UiStore, game: Game, now: Date): Promise<LiveData> {
  const [latest, poll, events] = await Promise.all([
    store.tallies.latest(game.id),
    store.polls.get(game.id),
    store.events.list(game.id),
  ]);
  const key = [latest?.id ?? 0, events.at(-1)?.id ?? 0, events.length, game.updatedAt, poll.threadTitle ?? ''].join(
    ':',
  );
  const hit = cache.get(String(game.id));
  if (hit && hit.key === key && now.getTime() < hit.valid.until) return hit.data;

  // How long the data holds is known once it is made: the entry is cached before that.
  const valid = { until: Number.POSITIVE_INFINITY };
  const data = (async (): Promise<LiveData> => {
    const ruleset = gameRuleset(game);
    const gmEvents = events.map((e) => e.event);
    // The posts the stored tally counted: the page follows the poller, never ahead of it.
    const asOf = latest?.tally.asOfPost ?? null;
    // Heads only: postHistories loads a body only where no saved reading stands in for it.
    const posts = (await store.posts.headsOf(game.id)).filter((p) => asOf === null || p.number <= asOf);
    const { folded } = await foldWithOwnDeaths(
      gmEvents,
      async (events) => (await postHistories(store, game, ruleset, events, posts, { save: false })).histories,
      (histories) =>
        foldGame({
          ruleset,
          roster: game.roster,
          engine: game.engine ?? latest?.tally.engine ?? null,
          posts: histories,
          gmEvents,
          day: game.settings.day,
          now: now.toISOString(),
          view: 'public',
          hosts: gmNames(game.settings, posts),
        }),
      { maxRounds: game.roster.length + 2, from: latest?.tally.ownDeaths },
    );
    // The next check or deadline changes the page: the cached data lasts until then.
    valid.until = Math.min(Number.POSITIVE_INFINITY, ...folded.upcoming.map((t) => Date.parse(t)));
    const timeline = buildTimeline({
      ruleset,
      roster: game.roster,
      events: folded.log,
      engine: game.engine,
      view: 'public',
      clock: folded.clock,
      day: folded.tally.day,
      hosts: gmNames(game.settings, posts),
      posts: dayPostsOf(game, gmEvents, posts, folded.tally),
    });
    return {
      game,
      title: titleOf(game, poll),
      tally: folded.tally,
      timeline,
      deadline: folded.deadline ?? deadlineOf(game, poll),
      timeZone: timeZoneOf(game),
      tallyId: latest?.id ?? null,
      updatedAt: latest?.createdAt ?? null,
      version: `${key}:${folded.tally.outcome.status}:${folded.deadline ?? ''}`,
    };
  })();
  const entry = { key, data, valid };
  cache.set(String(game.id), entry);
  if (cache.size > MAX_CACHED) cache.delete(cache.keys().next().value as string);
  entry.data.catch(() => cache.delete(String(game.id)));
  return entry.data;
}
