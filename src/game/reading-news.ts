import type { Log } from '../log/log-port.js';
import { GAME_CHANNEL, type GameChange } from '../store/rows.js';
import type { Sql } from '../store/sql.js';
import { progressSentence, ReadPace, type ReadProgress } from '../thread/read-progress.js';

/**
 * A poll's read told as it goes, on the game's channel (kind `progress`): the dashboard and
 * the live page show "Reading page 12 of 60, about 50 s left" from the same progress and
 * pace as the CLI's progress line. Fire and forget: progress is for the eye, and a notice
 * that cannot be sent never slows or breaks the read.
 */
export function readingNews(
  sql: Pick<Sql, 'notify'>,
  gameId: number,
  log?: Pick<Log, 'warn'>,
  now?: () => number,
): (p: ReadProgress) => void {
  const pace = new ReadPace(now);
  return (p) => {
    const leftMs = pace.note(p);
    const change: GameChange = {
      gameId,
      kind: 'progress',
      reading: {
        page: p.page,
        pageCount: p.pageCount,
        pageCountKnown: p.pageCountKnown,
        phase: p.phase,
        leftMs,
        text: progressSentence(p, leftMs),
      },
    };
    sql.notify(GAME_CHANNEL, JSON.stringify(change)).catch((error: unknown) => {
      log?.warn({ err: error, gameId }, 'read progress not announced');
    });
  };
}
