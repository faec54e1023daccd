import type { Logger } from '../log/logger.js';
import type { Flag, Tally } from '../model/tally.js';
import type { Repos } from '../store/open-store.js';
import { GAME_CHANNEL, type GameChange } from '../store/rows.js';
import type { Sql } from '../store/sql.js';
import type { Notifier } from './webhook.js';

/**
 * Turns store changes (`NOTIFY votal_game`) into GM notifications:
 * - a new pending draft -> "waits for approval";
 * - a tally whose outcome became decided (majority) or whose Hammer count reached its
 *   need, compared with the tally before it -> "decision";
 * - flags (votes the GM must rule on) that the previous tally did not have -> "flags".
 * Work is queued per game, in order; errors are logged, never thrown.
 */

export interface WatchOptions {
  sql: Pick<Sql, 'listen'>;
  store: Pick<Repos, 'games' | 'drafts' | 'tallies'>;
  notifier: Notifier;
  log?: Logger;
}

export interface GameWatch {
  /** Resolves when the queued notifications are sent (tests). */
  idle(): Promise<void>;
  stop(): Promise<void>;
}

const flagKey = (f: Flag): string => `${f.post}|${f.kind}|${f.player ?? ''}|${f.raw}`;

/** What became true between two tallies that the GM should hear about. */
export function decisionsBetween(before: Tally | null, after: Tally): string[] {
  const out: string[] = [];
  const decided = (t: Tally | null) => t !== null && t.day === after.day && t.outcome.status === 'majority';
  if (after.outcome.status === 'majority' && !decided(before)) {
    out.push(`majority reached on ${after.outcome.eliminated.join(', ') || after.outcome.leaders.join(', ')}`);
  }
  const hammer = (t: Tally | null) =>
    t !== null &&
    t.day === after.day &&
    (t.sideVotes ?? []).some((s) => s.kind === 'hammer' && s.needs !== null && s.total >= s.needs);
  if (hammer(after) && !hammer(before)) {
    const h = (after.sideVotes ?? []).find((s) => s.kind === 'hammer')!;
    out.push(`Hammer reached (${h.total} of ${h.needs} needed)`);
  }
  return out;
}

export function newFlags(before: Tally | null, after: Tally): Flag[] {
  const seen = new Set((before?.flags ?? []).map(flagKey));
  return after.flags.filter((f) => !seen.has(flagKey(f)));
}

export async function watchGames(opts: WatchOptions): Promise<GameWatch> {
  const queues = new Map<number, Promise<void>>();
  const notifiedDrafts = new Set<number>();
  const seenTallies = new Set<number>();

  const handle = async (change: GameChange): Promise<void> => {
    if (change.kind === 'draft' && change.id !== undefined) {
      if (notifiedDrafts.has(change.id)) return;
      const draft = await opts.store.drafts.get(change.id);
      if (!draft || draft.status !== 'pending') return;
      notifiedDrafts.add(draft.id);
      const game = await opts.store.games.get(draft.gameId);
      if (!game) return;
      const tally = await opts.store.tallies.get(draft.tallyId);
      await opts.notifier.draftPending(game, draft, tally?.tally ?? null);
      return;
    }
    if (change.kind === 'tally' && change.id !== undefined) {
      if (seenTallies.has(change.id)) return;
      seenTallies.add(change.id);
      const game = await opts.store.games.get(change.gameId);
      if (!game) return;
      const [latest, previous] = await opts.store.tallies.list(change.gameId, 2);
      if (!latest || latest.id !== change.id) return; // a newer one is on its way
      for (const what of decisionsBetween(previous?.tally ?? null, latest.tally)) {
        await opts.notifier.decision(game, latest.tally, what);
      }
      const flags = newFlags(previous?.tally ?? null, latest.tally);
      if (flags.length) await opts.notifier.flags(game, latest.tally, flags);
    }
  };

  const unlisten = await opts.sql.listen(GAME_CHANNEL, (payload) => {
    let change: GameChange;
    try {
      change = JSON.parse(payload) as GameChange;
    } catch {
      return;
    }
    const previous = queues.get(change.gameId) ?? Promise.resolve();
    const next = previous
      .then(() => handle(change))
      .catch((error: unknown) => opts.log?.error({ err: error, change }, 'notification failed'));
    queues.set(change.gameId, next);
  });

  return {
    async idle() {
      await Promise.all(queues.values());
    },
    async stop() {
      await unlisten();
      await Promise.all(queues.values());
    },
  };
}
