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
 * then GM and clock events by time, then in the order given. An event without a time
 * takes the time of the event given just before it at that position (else its post's),
 * so events written in order stay in order. A post seen twice keeps its last reading.
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
  const postTime = new Map(timed.map((p) => [p.post, p.ms]));
  const lastTime = new Map<number, number>();

  const keyed = [
    ...[...posts.values()].map(({ event, index }) => ({
      entry: { position: event.post, event },
      rank: 0,
      ms: 0,
      index,
    })),
    ...gm.map(({ event, index }) => {
      const position = event.at ?? (event.time !== undefined ? positionOfTime(event.time) : 0);
      const own = event.time === undefined ? Number.NaN : Date.parse(event.time);
      const ms = Number.isNaN(own)
        ? (lastTime.get(position) ?? postTime.get(position) ?? Number.NEGATIVE_INFINITY)
        : own;
      lastTime.set(position, ms);
      return { entry: { position, event }, rank: 1, ms, index };
    }),
  ];
  keyed.sort(
    (a, b) => a.entry.position - b.entry.position || a.rank - b.rank || compareMs(a.ms, b.ms) || a.index - b.index,
  );
  return { entries: keyed.map((k) => k.entry), corrections };
}

function compareMs(a: number, b: number): number {
  return a === b ? 0 : a < b ? -1 : 1;
}
