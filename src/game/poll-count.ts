import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../config/package-root.js';
import { plainText } from '../model/body.js';
import type { Game } from '../model/game.js';
import { Tally } from '../model/tally.js';
import type { Ruleset } from '../rules/ruleset.js';
import { recordAudit } from '../store/audit-repo.js';
import type { StoredGmEvent } from '../store/events-repo.js';
import { storeOn, type Repos } from '../store/open-store.js';
import type { Queryable, Sql } from '../store/sql.js';
import type { StoredTally } from '../store/tallies-repo.js';
import type { EngineId } from '../model/engine.js';
import { foldGame, type FoldGameResult } from './fold-game.js';
import { rulesetVersion, stableJson } from './game-ruleset.js';
import type { PollSettings } from './poll-settings.js';
import { offersOfCount } from './gm-check-posts.js';
import { gmNames } from './gm-news.js';
import { massDeletion, POLLER_ACTOR, type PollEvent } from './poll-plan.js';
import { clip } from './poll-read.js';
import { postHistories } from './post-histories.js';
import { foldWithOwnDeaths } from './reading-events.js';

type PollStore = Repos & { sql: Sql };

/** Votal's version: a new release counts every game once more (its fold may count differently). */
const VOTAL_VERSION = (
  JSON.parse(readFileSync(join(packageRoot(import.meta.url), 'package.json'), 'utf8')) as { version: string }
).version;

/**
 * Everything the count depends on besides the posts and the clock, as one hash: the
 * ruleset with the game's overrides and roster, the game's settings (the Day's clock among
 * them), the engine, the GM's events (append-only: their ids say which) and Votal's version.
 */
export function countBasis(game: Game, ruleset: Ruleset, engine: string, events: readonly { id: number }[]): string {
  const text = stableJson({
    ruleset: rulesetVersion(ruleset, game.roster),
    settings: game.settings,
    engine,
    events: events.map((e) => e.id),
    votal: VOTAL_VERSION,
  });
  return createHash('sha256').update(text).digest('hex').slice(0, 32);
}

/**
 * Posts a full read did not see get `deleted_at` (kept and counted), audited `post.delete`,
 * with `recountDue` in the same transaction. Refused when it looks like a layout change.
 */
export async function markDeleted(
  store: PollStore,
  game: Game,
  read: { pages: readonly number[]; present: readonly string[] },
  vanished: number,
  seenAt: Date,
): Promise<Extract<PollEvent, { kind: 'swept' }>> {
  const stored = (await store.posts.headsOf(game.id)).filter((p) => !p.deleted);
  const refused = massDeletion(vanished, stored.length);
  if (refused) throw new Error(refused);
  const pages = [...new Set([...stored.map((p) => p.page), ...read.pages])];
  const deleted = await store.sql.transaction(async (tx) => {
    const gone = await storeOn(tx).posts.markMissing(game.id, pages, read.present, seenAt);
    if (gone.length > 0) await storeOn(tx).polls.mergeState(game.id, { recountDue: true });
    for (const post of gone) {
      await recordAudit(tx, {
        gameId: game.id,
        actor: POLLER_ACTOR,
        action: 'post.delete',
        detail: { post: post.number, forumPostId: post.id, author: post.author, text: clip(plainText(post.body)) },
      });
    }
    return gone.length;
  });
  return { kind: 'swept', deleted };
}

export interface CountInput {
  store: PollStore;
  game: Game;
  ruleset: Ruleset;
  settings: PollSettings;
  engine: EngineId;
  events: readonly StoredGmEvent[];
  previous: StoredTally | null;
  /** The count's clock. */
  now: string;
}

/**
 * The one count: every revision read (readings saved for those not read yet), folded with
 * the GM's events and the Day's clock, saved when it differs from the last one; with what
 * the GM's own counts teach at it (`lessons`, kept with the count in the poll state).
 */
export async function countGame(
  input: CountInput,
): Promise<{ event: Extract<PollEvent, { kind: 'counted' }>; tally: StoredTally }> {
  const { store, game, ruleset, previous } = input;
  const gmEvents = input.events.map((e) => e.event);
  // Without bodies: every revision read before has its reading stored; postHistories loads the rest.
  const posts = await store.posts.headsOf(game.id);
  let parsed = 0;
  const { folded, readingEvents } = await foldWithOwnDeaths(
    gmEvents,
    async (events) => {
      const read = await postHistories(store, game, ruleset, events, posts, { save: true });
      parsed += read.parsed;
      return read.histories;
    },
    (histories) =>
      foldGame({
        ruleset,
        roster: game.roster,
        engine: input.engine,
        posts: histories,
        gmEvents,
        day: input.settings.day,
        now: input.now,
        hosts: gmNames(game.settings, posts),
      }),
    { maxRounds: game.roster.length + 2, from: previous?.tally.ownDeaths },
  );
  // What the GM's own counts teach and propose, made once here for the GM's queue to read.
  const { log } = folded;
  const { lessons, proposals } = await offersOfCount({
    store,
    game,
    ruleset,
    heads: posts,
    log,
    gmEvents,
    readingEvents,
  });
  const tally = Tally.parse(folded.tally);
  const changed = !previous || stableJson(previous.tally) !== stableJson(tally);
  const saved = changed ? await saveTally(store, game.id, tally, previous, folded) : previous;
  return {
    event: {
      kind: 'counted',
      tallyId: saved.id,
      tallyChanged: changed,
      parsed,
      deadline: folded.deadline,
      upcoming: folded.upcoming,
      lessons,
      proposals,
    },
    tally: saved,
  };
}

/** The new count, audited `tally.save` (and `tally.decided` when the Day's outcome is new), in one transaction. */
async function saveTally(
  store: PollStore,
  gameId: number,
  tally: Tally,
  previous: StoredTally | null,
  folded: FoldGameResult,
): Promise<StoredTally> {
  return store.sql.transaction(async (tx) => {
    const saved = await storeOn(tx).tallies.save(gameId, tally);
    await recordAudit(tx, {
      gameId,
      actor: POLLER_ACTOR,
      action: 'tally.save',
      detail: {
        tallyId: saved.id,
        asOfPost: tally.asOfPost,
        day: tally.day,
        outcome: tally.outcome.status,
        wagons: tally.wagons.map((w) => ({ target: w.target, total: w.total })),
        flags: tally.flags.length,
        violations: tally.violations.length,
        lateEdits: folded.lateEdits.length,
      },
    });
    await auditDecision(tx, gameId, saved.id, tally, previous);
    return saved;
  });
}

/** `tally.decided`: the Day's outcome is decided, and was not (or another Day). */
async function auditDecision(
  tx: Queryable,
  gameId: number,
  tallyId: number,
  tally: Tally,
  previous: StoredTally | null,
): Promise<void> {
  const was = previous?.tally.outcome;
  if (tally.outcome.status === 'open') return;
  if (was?.status === tally.outcome.status && previous?.tally.day === tally.day) return;
  await recordAudit(tx, {
    gameId,
    actor: POLLER_ACTOR,
    action: 'tally.decided',
    detail: { tallyId, day: tally.day, outcome: tally.outcome },
  });
}
