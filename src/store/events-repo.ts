import { GmEvent } from '../model/event.js';
import { recordAudit } from './audit-repo.js';
import { GAME_CHANNEL, iso, json, one, type GameChange } from './rows.js';
import type { Queryable } from './sql.js';

/** A GM event as recorded: append-only, in the order it was recorded. */
export interface StoredGmEvent {
  id: number;
  gameId: number;
  event: GmEvent;
  createdAt: string;
  createdBy: string;
}

export interface EventsRepo {
  /** Validates and appends one GM event (audited as `event.append`, in the same transaction). */
  append(gameId: number, event: unknown, createdBy: string): Promise<StoredGmEvent>;
  /** The game's GM events in recording order. */
  list(gameId: number): Promise<StoredGmEvent[]>;
}

interface EventRow {
  id: number;
  game_id: number;
  event: GmEvent;
  created_at: Date;
  created_by: string;
}

const toEvent = (r: EventRow): StoredGmEvent => ({
  id: r.id,
  gameId: r.game_id,
  event: r.event,
  createdAt: iso(r.created_at),
  createdBy: r.created_by,
});

export function eventsRepo(db: Queryable): EventsRepo {
  return {
    async append(gameId, input, createdBy) {
      const event = GmEvent.parse(input);
      return db.transaction(async (tx) => {
        const { rows } = await tx.query<EventRow>(
          `INSERT INTO gm_event (game_id, event, created_by) VALUES ($1, $2::jsonb, $3)
           RETURNING id, game_id, event, created_at, created_by`,
          [gameId, json(event), createdBy],
        );
        const stored = toEvent(one(rows, 'gm_event'));
        await recordAudit(tx, {
          gameId,
          actor: createdBy,
          action: 'event.append',
          detail: { eventId: stored.id, event },
        });
        const change: GameChange = { gameId, kind: 'event', id: stored.id };
        await tx.notify(GAME_CHANNEL, JSON.stringify(change));
        return stored;
      });
    },

    async list(gameId) {
      const { rows } = await db.query<EventRow>(
        'SELECT id, game_id, event, created_at, created_by FROM gm_event WHERE game_id = $1 ORDER BY id',
        [gameId],
      );
      return rows.map(toEvent);
    },
  };
}
