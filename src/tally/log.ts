import type { GmEvent, PostEvent } from '../model/event.js';

/** What a tally folds: posts as read, and GM events. */
export type TallyEvent = PostEvent | GmEvent;

/** A GM event with a place in the thread (corrections have none: they apply to their post). */
export type PlacedGmEvent = Exclude<GmEvent, { kind: 'correct' }>;

export interface LogEntry {
  /** The post number it applies at (GM events: after that post). */
  readonly position: number;
  readonly event: PostEvent | PlacedGmEvent;
}

export interface OrderedLog {
  readonly entries: readonly LogEntry[];
  /** Post number -> the GM's target (null = ignore the post's vote); the last correction wins. */
  readonly corrections: ReadonlyMap<number, string | null>;
}

/**
 * Puts posts and GM events in thread order. A GM event applies after post `at`; one
 * with only a `time` applies after the last post made at or before that time; one with
 * neither applies before the first post. At the same position, the post comes first,
 * then GM events in the order given. A post seen twice keeps its last reading.
 */
export function orderLog(events: readonly TallyEvent[]): OrderedLog {
  const posts = new Map<number, { event: PostEvent; index: number }>();
  const corrections = new Map<number, string | null>();
  const gm: { event: PlacedGmEvent; index: number }[] = [];
  events.forEach((event, index) => {
    if (event.kind === 'post') posts.set(event.post, { event, index });
    else if (event.kind === 'correct') corrections.set(event.post, event.target);
    else gm.push({ event, index });
  });

  const timed = [...posts.values()]
    .map(({ event }) => ({ post: event.post, ms: event.time === null ? Number.NaN : Date.parse(event.time) }))
    .filter((p) => !Number.isNaN(p.ms));
  const positionOfTime = (time: string): number => {
    const ms = Date.parse(time);
    return timed.reduce((last, p) => (p.ms <= ms && p.post > last ? p.post : last), 0);
  };

  const keyed = [
    ...[...posts.values()].map(({ event, index }) => ({ entry: { position: event.post, event }, rank: 0, index })),
    ...gm.map(({ event, index }) => ({
      entry: { position: event.at ?? (event.time !== undefined ? positionOfTime(event.time) : 0), event },
      rank: 1,
      index,
    })),
  ];
  keyed.sort((a, b) => a.entry.position - b.entry.position || a.rank - b.rank || a.index - b.index);
  return { entries: keyed.map((k) => k.entry), corrections };
}
