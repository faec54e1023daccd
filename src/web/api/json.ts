import { publicSettings } from '../../config/publish-settings.js';
import { playersNow } from '../../game/players-now.js';
import type { EventRecorded } from '../../app/events.js';
import type { PollLateness } from '../../jobs/schedule.js';
import { readingState, type ReadingState } from '../../game/reading-state.js';
import type { Draft, Publication } from '../../model/draft.js';
import type { Game } from '../../model/game.js';
import type { PublishResult } from '../../publish/publish-draft.js';
import type { ApiDeps } from './deps.js';

/** The JSON shapes the API answers with, shared by its resources (README "HTTP API"). */

/** The schedule's part of a game's JSON: when its poll is due, how late it is now, how late the last one started. */
export function latenessJson(l: PollLateness): Record<string, unknown> {
  const seconds = (ms: number | null) => (ms === null ? null : Math.round(ms / 1000));
  return { dueAt: l.dueAt, late: l.late, lateSeconds: seconds(l.overdueMs), lastLateSeconds: seconds(l.lastLateMs) };
}

export function gameJson(game: Game): Record<string, unknown> {
  return {
    id: game.id,
    slug: game.slug,
    url: game.threadUrl,
    engine: game.engine,
    ruleset: game.ruleset,
    status: game.status,
    players: game.roster,
    pollIntervalSeconds: game.pollIntervalSeconds,
    nextPollAt: game.nextPollAt,
    settings: publicSettings(game.settings),
    createdAt: game.createdAt,
    updatedAt: game.updatedAt,
  };
}

/** The players as the latest count knows them (replacements, deaths); `roster` is the list as the GM set it. */
export async function playersJson(store: ApiDeps['store'], game: Game): Promise<Record<string, unknown>> {
  const [latest, events] = await Promise.all([store.tallies.latest(game.id), store.events.list(game.id)]);
  const players = playersNow(
    game.roster,
    events.map((e) => e.event),
    latest?.tally ?? null,
  );
  return {
    players,
    roster: game.roster,
    alive: players.filter((p) => p.alive).map((p) => p.name),
    dead: players.filter((p) => !p.alive).map((p) => p.name),
  };
}

export function draftJson(draft: Draft, publication: Publication | null): Record<string, unknown> {
  return { ...draft, publication };
}

export function publishJson(result: PublishResult): Record<string, unknown> {
  const base = { status: result.status, draft: draftJson(result.draft, result.publication) };
  switch (result.status) {
    case 'published':
      return { ...base, remote: result.remote, foundExisting: result.foundExisting };
    case 'copy':
      return { ...base, copy: result.text, note: 'no way to post is configured: paste this into the thread' };
    case 'failed':
      return { ...base, error: result.error };
    case 'in-progress':
      return { ...base, note: 'another Votal process is posting this votal right now; its result shows on the draft' };
  }
}

/** A GM event recorded and the recount it caused (`POST .../events`, and a news or queue item recorded). */
export function recordedJson(r: EventRecorded): Record<string, unknown> {
  return {
    event: r.event,
    recounted: r.recounted,
    ...(r.note ? { note: r.note } : {}),
    tallyId: r.tallyId,
    tallyChanged: r.tallyChanged,
    tally: r.tally,
  };
}

/** How far the game's thread is read (`reading` in the news, checks and queue answers). */
export async function readingJson(store: ApiDeps['store'], gameId: number): Promise<ReadingState> {
  const [poll, pages] = await Promise.all([store.polls.get(gameId), store.threadPages.list(gameId)]);
  return readingState(poll, pages);
}
