import { createHash } from 'node:crypto';
import type { Roster } from '../model/roster.js';
import { loadRuleset } from '../rules/load-ruleset.js';
import { Ruleset } from '../rules/ruleset.js';

/** The part of a game that decides how its posts are read and counted. */
export interface RulesetSource {
  ruleset: string;
  rulesetOverrides: Record<string, unknown>;
}

/**
 * The game's ruleset: the named (or file) ruleset with the game's overrides laid over it
 * (objects merge key by key, anything else replaces), validated again as a whole.
 */
export function gameRuleset(game: RulesetSource): Ruleset {
  const base = loadRuleset(game.ruleset);
  if (Object.keys(game.rulesetOverrides).length === 0) return base;
  return Ruleset.parse(mergeOver(base, game.rulesetOverrides));
}

/**
 * The key readings are cached under (`post_reading.ruleset_version`): a hash of everything
 * reading a post depends on, so a changed ruleset, override or roster reads posts afresh.
 */
export function rulesetVersion(ruleset: Ruleset, roster: Roster): string {
  const digest = createHash('sha256').update(stableJson({ ruleset, roster })).digest('hex').slice(0, 24);
  return `${ruleset.name}@${digest}`;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function mergeOver(base: unknown, over: unknown): unknown {
  if (!isPlainObject(base) || !isPlainObject(over)) return over;
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(over)) out[k] = k in base ? mergeOver(base[k], v) : v;
  return out;
}

/** JSON with object keys sorted: equal values give equal text (jsonb reorders keys). */
export function stableJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    isPlainObject(v)
      ? Object.fromEntries(
          Object.keys(v)
            .sort()
            .map((k) => [k, v[k]]),
        )
      : v,
  );
}
