import { z } from 'zod';
import { EngineId } from './engine.js';
import { GameSettings } from './game-settings.js';
import { Roster } from './roster.js';

/** `archived`: kept whole and reachable, not polled, off the dashboard's main list. */
export const GameStatus = z.enum(['active', 'paused', 'finished', 'archived']);
export type GameStatus = z.infer<typeof GameStatus>;

/** A game's public name in `/g/:slug`. */
export const Slug = z.string().regex(/^[a-z0-9][a-z0-9-]{0,63}$/, 'lower-case letters, digits and -, at most 64');
export type Slug = z.infer<typeof Slug>;

/** What the store's `games.create` accepts. */
export const NewGame = z.strictObject({
  /** Public name in `/g/:slug`. Default: made from the thread URL plus a random suffix. */
  slug: Slug.optional(),
  threadUrl: z.url({ protocol: /^https?$/ }),
  engine: EngineId.nullable().default(null),
  ruleset: z.string().min(1),
  rulesetOverrides: z.record(z.string(), z.unknown()).default({}),
  roster: Roster,
  pollIntervalSeconds: z.number().int().positive().default(300),
  nextPollAt: z.date().nullable().default(null),
  settings: GameSettings.default({}),
});
export type NewGame = z.input<typeof NewGame>;

/** One watched game thread: its roster, ruleset and settings. */
export const Game = z.object({
  id: z.number().int(),
  slug: Slug,
  threadUrl: z.string(),
  engine: EngineId.nullable(),
  ruleset: z.string().min(1),
  rulesetOverrides: z.record(z.string(), z.unknown()),
  roster: Roster,
  status: GameStatus,
  pollIntervalSeconds: z.number().int().positive(),
  nextPollAt: z.string().nullable(),
  settings: GameSettings,
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Game = z.infer<typeof Game>;
