import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { packageRoot } from '../config/package-root.js';
import { Ruleset } from './ruleset.js';
import { RulesetError } from './source-error.js';
import { readYaml } from './yaml-source.js';

/** The folder of the rulesets shipped with Votal. */
export function rulesetsDir(): string {
  return join(packageRoot(), 'rulesets');
}

/** Names of the shipped rulesets (`rulesets/<name>.yaml`), sorted. */
export function listRulesets(): string[] {
  return readdirSync(rulesetsDir())
    .filter((f) => /\.ya?ml$/.test(f))
    .map((f) => f.replace(/\.ya?ml$/, ''))
    .sort();
}

/** A bare name is a shipped ruleset; anything with a slash or a .yaml/.yml ending is a file path. */
export function isRulesetPath(nameOrPath: string): boolean {
  return /[\\/]/.test(nameOrPath) || /\.ya?ml$/i.test(nameOrPath);
}

/** Loads and validates a ruleset by name (`witchhunt`) or path (`./my-game.yaml`). */
export function loadRuleset(nameOrPath: string): Ruleset {
  if (isRulesetPath(nameOrPath)) return parseRuleset(readText(nameOrPath), nameOrPath);
  const names = listRulesets();
  if (!names.includes(nameOrPath)) {
    const message = `unknown ruleset "${nameOrPath}"; available: ${names.join(', ')}`;
    throw new RulesetError([{ file: nameOrPath, line: 1, column: 1, message }], message);
  }
  const file = join(rulesetsDir(), `${nameOrPath}.yaml`);
  return parseRuleset(readFileSync(file, 'utf8'), file);
}

/**
 * Parsed rulesets by their text: the service reads a game's ruleset on every poll and every
 * clock pass, and parsing YAML and validating it was a tenth of a busy service's time.
 * Keyed by content, so an edited file is read afresh; frozen, so no caller can change
 * what the next one gets.
 */
const parsed = new Map<string, Ruleset>();
const MAX_PARSED = 200;

/** Validates ruleset YAML text; `fileName` is only used in error messages. */
export function parseRuleset(text: string, fileName: string): Ruleset {
  const key = `${fileName}\0${createHash('sha256').update(text).digest('hex')}`;
  const known = parsed.get(key);
  if (known) return known;
  const result = readYaml(Ruleset, text, fileName);
  if (!result.ok) throw new RulesetError(result.problems);
  if (parsed.size >= MAX_PARSED) parsed.delete(parsed.keys().next().value!);
  parsed.set(key, deepFreeze(result.value));
  return result.value;
}

function deepFreeze<T>(value: T): T {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (v && typeof v === 'object' && !Object.isFrozen(v)) {
      Object.freeze(v);
      for (const child of Object.values(v)) stack.push(child);
    }
  }
  return value;
}

function readText(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (e) {
    const message = `cannot read ruleset ${basename(path)}: ${(e as Error).message}`;
    throw new RulesetError([{ file: path, line: 1, column: 1, message }], message);
  }
}
