import { z } from 'zod';

const Instant = z.string().datetime({ offset: true });

/**
 * The current Day's clock, as the GM set it: the fold gets this Day's scheduled checks
 * (Hammer time) and its deadline from it (`clockEvents`), the poller polls faster near the
 * deadline and the clock fires at it.
 */
export const DaySetting = z.object({
  /** The Day's number (clock events of another Day do nothing). */
  number: z.number().int().positive().default(1),
  /** When the Day started (ISO 8601). */
  start: Instant,
  /** Its deadline (ISO 8601); Filibuster extensions are derived from the count, not written here. */
  deadline: Instant,
});
export type DaySetting = z.infer<typeof DaySetting>;

/**
 * What the poller reads from `game.settings` (other keys are left to their owners).
 * Everything has a default, so `{}` is a valid setting.
 */
export const PollSettings = z.looseObject({
  day: DaySetting.optional(),
  /** Read every page again at least this often (edits and deletions on earlier pages). */
  fullReadMinutes: z.number().positive().default(60),
  /** Poll every `intervalSeconds` in the last `minutes` before a deadline or check. */
  nearDeadline: z.object({
    minutes: z.number().positive().default(30),
    intervalSeconds: z.number().int().positive().default(60),
  }).default({ minutes: 30, intervalSeconds: 60 }),
  /** Title and time zone the votal drafts are rendered with. */
  votalTitle: z.string().min(1).optional(),
  timeZone: z.string().min(1).optional(),
  /** A votal template (src/votal/template.ts) for the drafts. */
  votalTemplate: z.string().min(1).optional(),
  /** Draft triggers (src/votal/draft-triggers.ts), passed through as given. */
  drafts: z.unknown().optional(),
});
export type PollSettings = z.infer<typeof PollSettings>;

/** The game's settings for polling; a bad value throws a message naming it (shown to the GM). */
export function pollSettings(settings: Record<string, unknown>): PollSettings {
  const parsed = PollSettings.safeParse(settings);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((i) => `${i.path.join('.') || '(settings)'}: ${i.message}`).join('; ');
  throw new GameSettingsError(`bad game settings: ${problems}`);
}

export class GameSettingsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'GameSettingsError';
  }
}
