import cron, { type Logger as CronLogger, type ScheduledTask } from 'node-cron';
import { countersOf, draftSettingsOf } from '../game/draft-step.js';
import { gameRuleset } from '../game/game-ruleset.js';
import { pollSettings, type PollSettings } from '../game/poll-settings.js';
import { logOf, type Log } from '../log/log-port.js';
import type { Ruleset, Weekday } from '../rules/ruleset.js';
import type { Game } from '../model/game.js';
import type { Store } from '../store/open-store.js';
import type { PollState } from '../store/polls-repo.js';
import type { Tally } from '../model/tally.js';
import { clockEvents } from '../tally/clock.js';
import { draftReasons } from '../votal/draft-triggers.js';
import type { Poller } from './poller.js';

/**
 * Clock rules, in-process (node-cron 4, `noOverlap`, its logger routed to ours). The cron
 * part only wakes the poller up at the right moment; what is due is decided by the pure
 * functions below, and what happens then is the poll's fold (`foldGame` adds the Day's
 * `check` and `deadline` clock events up to the poll's time, so the decision, a Hammer at
 * a check, or a Filibuster extension at the deadline, is in the saved tally and audited
 * as `tally.decided`).
 *
 * - every minute (UTC): games whose deadline or scheduled check has come since their last
 *   poll, and games whose draft triggers by hours are due, are polled now (`dueNow`);
 * - one cron task per scheduled check of the active games' rulesets, in the ruleset's time
 *   zone (Open Conspiracy's Hammer check: weekdays 12:00 America/Los_Angeles), polls the
 *   games under that ruleset at that moment (`checkCrons`).
 *
 * Several processes may each run a clock: a "poll now" twice is one poll (the queue is
 * keyed by game).
 */
export interface Clock {
  start(): Promise<void>;
  stop(): Promise<void>;
  /** One minute tick now (what the cron task runs); returns the games polled and why. */
  tick(): Promise<DueGame[]>;
}

export interface ClockOptions {
  store: Store;
  poller: Pick<Poller, 'pollNow'>;
  /** The poll clock (ISO 8601). */
  now?: () => string;
  log?: Partial<Log>;
}

export interface DueGame {
  gameId: number;
  reasons: DueReason[];
}

export type DueReason =
  | { kind: 'deadline'; at: string }
  | { kind: 'check'; at: string }
  | { kind: 'draft-hours'; text: string };

/** A cron task for the scheduled checks of some rulesets. */
export interface CheckCron {
  /** Five-field cron expression: minute hour * * weekdays. */
  expression: string;
  timezone: string;
  /** Names of the rulesets whose checks fall then. */
  rulesets: string[];
}

const CRON_DAY: Record<Weekday, number> = { sun: 0, mon: 1, tue: 2, wed: 3, thu: 4, fri: 5, sat: 6 };

/** The cron tasks the rulesets' scheduled checks need (one per distinct time, days and zone). */
export function checkCrons(rulesets: readonly Ruleset[]): CheckCron[] {
  const byKey = new Map<string, CheckCron>();
  for (const r of rulesets) {
    const timezone = r.schedule?.timeZone ?? 'UTC';
    for (const check of r.schedule?.checks ?? []) {
      const [hh, mm] = check.time.split(':').map(Number) as [number, number];
      const days = [...new Set(check.days.map((d) => CRON_DAY[d]))].sort((a, b) => a - b).join(',');
      const expression = `${mm} ${hh} * * ${days}`;
      const key = `${expression}|${timezone}`;
      const entry = byKey.get(key) ?? { expression, timezone, rulesets: [] };
      if (!entry.rulesets.includes(r.name)) entry.rulesets.push(r.name);
      byKey.set(key, entry);
    }
  }
  return [...byKey.values()].sort(
    (a, b) => a.expression.localeCompare(b.expression) || a.timezone.localeCompare(b.timezone),
  );
}

export interface DueInput {
  ruleset: Ruleset;
  settings: PollSettings;
  poll: PollState;
  /** The game's current tally. */
  tally: Tally | null;
  now: string;
}

/**
 * Why a game must be polled now, if it must: its deadline (the current one, after
 * extensions, as the last poll derived it) or a scheduled check came after its last poll
 * (so a clock that was down catches up), or its draft triggers by hours are due.
 */
export function dueNow(input: DueInput): DueReason[] {
  const now = Date.parse(input.now);
  const last = input.poll.lastPolledAt === null ? Number.NEGATIVE_INFINITY : Date.parse(input.poll.lastPolledAt);
  const reasons: DueReason[] = [];
  const day = input.settings.day;
  if (day) {
    const known = input.poll.state.deadline ?? day.deadline;
    const deadline = Date.parse(known);
    if (deadline <= now && deadline > last) reasons.push({ kind: 'deadline', at: new Date(deadline).toISOString() });
    const window = {
      day: day.number,
      start: day.start,
      deadline: new Date(Math.max(deadline, Date.parse(day.deadline))).toISOString(),
    };
    for (const e of clockEvents(input.ruleset, window)) {
      const t = Date.parse(e.time);
      if (e.kind === 'check' && t <= now && t > last) reasons.push({ kind: 'check', at: e.time });
    }
  }
  if (input.tally) {
    const counters = countersOf(input.poll);
    const settings = draftSettingsOf(input.settings);
    if (counters.lastDraftAt !== null && settings.everyHours !== null) {
      const hours = draftReasons({
        before: input.tally,
        after: input.tally,
        newPosts: [],
        now: input.now,
        settings,
        lastDraft: { at: counters.lastDraftAt, votesSinceCount: counters.votesSinceDraft },
      }).filter((r) => r.kind === 'hours');
      for (const r of hours) reasons.push({ kind: 'draft-hours', text: r.text });
    }
  }
  return reasons;
}

export function createClock(opts: ClockOptions): Clock {
  const { store, poller } = opts;
  const log = logOf(opts.log);
  const now = opts.now ?? (() => new Date().toISOString());
  const logger = cronLogger(log);
  let minute: ScheduledTask | null = null;
  const checks = new Map<string, ScheduledTask>();

  const readable = <T extends { game: Game }>(games: readonly T[]) => readableGames(log, games);
  const activeGames = async () => readable((await store.games.list({ status: 'active' })).map((game) => ({ game })));

  const pollNow = async (gameId: number, why: unknown): Promise<void> => {
    try {
      await poller.pollNow(String(gameId));
      log.info({ gameId, why }, 'clock: poll now');
    } catch (error) {
      log.warn({ gameId, err: String(error) }, 'clock: could not ask for a poll');
    }
  };

  const tick = async (): Promise<DueGame[]> => {
    const due: DueGame[] = [];
    // Every active game with its poll state and latest tally in one query, however many games.
    const games = readable(await store.polls.activeGames());
    for (const { game, ruleset, settings, poll, tally } of games) {
      const reasons = dueNow({ ruleset, settings, poll, tally: tally?.tally ?? null, now: now() });
      if (reasons.length === 0) continue;
      due.push({ gameId: game.id, reasons });
      await pollNow(game.id, reasons);
    }
    await refreshChecks(games.map((g) => g.ruleset));
    return due;
  };

  /** Keeps one cron task per scheduled check of the active games' rulesets. */
  const refreshChecks = async (rulesets: readonly Ruleset[]): Promise<void> => {
    if (!minute) return;
    await refreshCheckTasks(checks, checkCrons(rulesets), logger, async (spec) => {
      for (const { game, ruleset, settings } of await activeGames()) {
        if (settings.day && spec.rulesets.includes(ruleset.name))
          await pollNow(game.id, { kind: 'check', cron: spec.expression, timezone: spec.timezone });
      }
    });
  };

  return {
    async start() {
      if (minute) return;
      cron.setLogger(logger);
      minute = cron.schedule(
        '* * * * *',
        async () => {
          try {
            await tick();
          } catch (error) {
            log.error({ err: String(error) }, 'clock tick failed');
          }
        },
        { name: 'votal-clock', timezone: 'UTC', noOverlap: true, logger, unref: true },
      );
      await refreshChecks((await activeGames()).map((g) => g.ruleset));
    },

    async stop() {
      const tasks = [...checks.values(), ...(minute ? [minute] : [])];
      minute = null;
      checks.clear();
      for (const task of tasks) await task.destroy();
    },

    tick,
  };
}

/** One cron task per check in `specs` (by expression and zone): new ones scheduled, gone ones destroyed. */
async function refreshCheckTasks(
  checks: Map<string, ScheduledTask>,
  specs: readonly CheckCron[],
  logger: CronLogger,
  check: (spec: CheckCron) => Promise<void>,
): Promise<void> {
  const wanted = new Map(specs.map((c) => [`${c.expression}|${c.timezone}`, c]));
  for (const [key, task] of checks) {
    if (wanted.has(key)) continue;
    await task.destroy();
    checks.delete(key);
  }
  for (const [key, spec] of wanted) {
    if (checks.has(key)) continue;
    const options = { name: `votal-check ${key}`, timezone: spec.timezone, noOverlap: true, logger, unref: true };
    checks.set(
      key,
      cron.schedule(spec.expression, () => check(spec), options),
    );
  }
}

/** node-cron's logger, routed to ours. */
function cronLogger(log: Log): CronLogger {
  return {
    info: (message) => log.debug({ cron: true }, message),
    warn: (message) => log.warn({ cron: true }, message),
    error: (message, err) => log.error({ cron: true, err: String(err ?? '') }, String(message)),
    debug: (message) => log.debug({ cron: true }, String(message)),
  };
}

type Readable<T> = T & { ruleset: Ruleset; settings: PollSettings };

/** The games whose ruleset and settings read; a bad one shows as the game's poll error, and the clock skips it. */
function readableGames<T extends { game: Game }>(log: Log, games: readonly T[]): Readable<T>[] {
  const out: Readable<T>[] = [];
  for (const g of games) {
    try {
      out.push({ ...g, ruleset: gameRuleset(g.game), settings: pollSettings(g.game.settings) });
    } catch (error) {
      log.debug({ gameId: g.game.id, err: String(error) }, 'clock: game skipped');
    }
  }
  return out;
}

/** The cron tasks a running clock has (names), for the dashboard and tests. */
export function clockTasks(): string[] {
  return [...cron.getTasks().values()].map((t) => t.name ?? t.id);
}
