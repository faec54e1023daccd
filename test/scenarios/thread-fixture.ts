import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { ViolationKind, type Action } from '../../src/model/action.js';
import type { GmEvent, PostEvent } from '../../src/model/event.js';
import { Roster } from '../../src/model/roster.js';
import { loadEvents } from '../../src/rules/load-events.js';
import { loadRuleset } from '../../src/rules/load-ruleset.js';
import { packageRoot } from '../../src/config/package-root.js';
import type { Ruleset } from '../../src/rules/ruleset.js';
import { RulesetError } from '../../src/rules/source-error.js';
import { readYaml } from '../../src/rules/yaml-source.js';
import { clockEvents } from '../../src/tally/clock.js';
import type { ClockDay } from '../../src/tally/day-clock.js';
import type { TallyEvent } from '../../src/tally/log.js';
import { act, posted } from '../tally/log-builders.js';

/**
 * A fixture thread (fixtures/scenarios/*.thread.yaml): a game's posts as the parser would
 * read them, written compactly, with its `--events` file and the Days' clock windows.
 * The HTML pipeline is not involved: the posts become PostEvents directly.
 *
 * A post's `do` lists its actions in order: "vote Bob", "unvote", "unvote Hammer",
 * "hammer", "filibuster", "veto Bob", "forgive Bob".
 */
const FixturePost = z.strictObject({
  n: z.number().int().positive(),
  by: z.string().min(1),
  time: z.string().datetime({ offset: true }).optional(),
  do: z.array(z.string().min(1)).default([]),
  violations: z.array(ViolationKind).default([]),
});

const ThreadFixture = z.strictObject({
  title: z.string().min(1),
  ruleset: z.string().min(1),
  players: z.array(z.string().min(1)).min(1),
  /** A file in fixtures/events/. */
  events: z.string().optional(),
  /** Each Day's clock window: `clockEvents` lists its checks and deadline. */
  clock: z
    .array(z.strictObject({ day: z.number().int().positive(), start: z.string(), deadline: z.string() }))
    .default([]),
  posts: z.array(FixturePost),
});

export interface Thread {
  file: string;
  title: string;
  ruleset: Ruleset;
  roster: Roster;
  posts: PostEvent[];
  gm: GmEvent[];
  /** Posts, GM events and clock events, in file order. */
  events: TallyEvent[];
  /** The GM's events alone (no listed clock events). */
  gmOnly: GmEvent[];
  /** Each Day's clock as a GM sets it (its first window): the fold runs checks, deadline and extensions itself. */
  days: ClockDay[];
}

const root = packageRoot();
const scenariosDir = join(root, 'fixtures', 'scenarios');
const eventsDir = join(root, 'fixtures', 'events');

export function threadFiles(): string[] {
  return readdirSync(scenariosDir)
    .filter((f) => f.endsWith('.thread.yaml'))
    .sort();
}

export function loadThread(file: string): Thread {
  const path = join(scenariosDir, file);
  const read = readYaml(ThreadFixture, readFileSync(path, 'utf8'), path);
  if (!read.ok) throw new RulesetError(read.problems);
  const f = read.value;
  const ruleset = loadRuleset(f.ruleset);
  const posts = f.posts.map((p) =>
    posted(p.n, p.by, p.do.map(toAction), {
      ...(p.time ? { time: p.time } : {}),
      violations: p.violations.map((kind) => ({ kind, detail: `${kind} in post ${p.n}` })),
    }),
  );
  const gmOnly = f.events ? loadEvents(join(eventsDir, f.events)) : [];
  const gm = [...gmOnly, ...f.clock.flatMap((w) => clockEvents(ruleset, w))];
  const days = f.clock.filter((w, i) => f.clock.findIndex((o) => o.day === w.day) === i);
  return {
    file,
    title: f.title,
    ruleset,
    roster: Roster.parse(f.players.map((name) => ({ name }))),
    posts,
    gm,
    events: [...posts, ...gm],
    gmOnly,
    days,
  };
}

function toAction(text: string): Action {
  const [word = '', ...rest] = text.trim().split(/\s+/);
  const kind = word.toLowerCase();
  const target = rest.length ? rest.join(' ') : null;
  switch (kind) {
    case 'vote':
    case 'veto':
    case 'forgive':
      return act(kind, target);
    case 'hammer':
    case 'filibuster':
      return act(kind);
    case 'unvote':
      // "unvote Hammer": the parser reads an unvote naming no player.
      return target === null
        ? act('unvote', null, 'Unvote')
        : { ...act('unvote', null, `Unvote: ${target}`), written: target, match: 'unknown' };
    default:
      throw new Error(`unknown fixture action "${text}"`);
  }
}

/**
 * Where an event falls in the thread (as the log orders it): a post at its number; a GM
 * or clock event after post `at`, else after the last post made at or before its `time`.
 */
export function positionOf(event: TallyEvent, posts: readonly PostEvent[]): number {
  if (event.kind === 'post') return event.post;
  if (event.kind === 'correct') return 0;
  if (event.at !== undefined) return event.at;
  if (event.time === undefined) return 0;
  const ms = Date.parse(event.time);
  return posts.reduce((last, p) => (p.time !== null && Date.parse(p.time) <= ms && p.post > last ? p.post : last), 0);
}
