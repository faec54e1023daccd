import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { rulesetsDir } from './load-ruleset.js';
import { Ruleset } from './ruleset.js';

/** Where the committed JSON Schema lives (editors validate rulesets/*.yaml with it). */
export function rulesetSchemaPath(): string {
  return join(rulesetsDir(), 'ruleset.schema.json');
}

/**
 * The JSON Schema of a ruleset file as a person writes it (`io: 'input'`: fields with
 * defaults are optional), in the exact text committed as rulesets/ruleset.schema.json.
 */
export function rulesetSchemaText(): string {
  const schema = { ...z.toJSONSchema(Ruleset, { io: 'input' }), title: 'Votal ruleset' };
  return `${JSON.stringify(schema, null, 2)}\n`;
}

/** Regenerates the committed schema: `npx tsx src/rules/json-schema.ts`. */
function writeRulesetSchema(path: string = rulesetSchemaPath()): void {
  writeFileSync(path, rulesetSchemaText());
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) writeRulesetSchema();
