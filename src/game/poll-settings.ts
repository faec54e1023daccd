import type { Game } from '../model/game.js';
import { GameSettingsError, PollSettings, type GameSettings } from '../model/game-settings.js';
import type { PollState } from '../store/polls-repo.js';

export type { DaySetting, PollSettings } from '../model/game-settings.js';

/**
 * The game's settings for polling: the stored ones (src/model/game-settings.ts) with the
 * poller's defaults filled in; a bad value throws a message naming it (shown to the GM).
 */
export function pollSettings(settings: GameSettings): PollSettings {
  const parsed = PollSettings.safeParse(settings);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((i) => `${i.path.join('.') || '(settings)'}: ${i.message}`).join('; ');
  throw new GameSettingsError(null, problems);
}

/** The deadline the poller derived (extensions included), else the GM's setting. */
export function deadlineOf(game: Game, poll: PollState | null): string | null {
  return poll?.state.deadline ?? game.settings.day?.deadline ?? null;
}
