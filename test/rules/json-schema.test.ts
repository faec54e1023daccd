import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { rulesetSchemaPath, rulesetSchemaText } from '../../src/rules/json-schema.js';

describe('ruleset JSON Schema', () => {
  it('the committed rulesets/ruleset.schema.json equals the one generated from the zod schema', () => {
    // On failure regenerate it with: npx tsx src/rules/json-schema.ts
    expect(readFileSync(rulesetSchemaPath(), 'utf8')).toBe(rulesetSchemaText());
  });

  it('describes the file as written: fields with defaults are optional', () => {
    const schema = JSON.parse(rulesetSchemaText()) as { required: string[]; additionalProperties: boolean };
    expect(schema.required.sort()).toEqual(['name', 'threshold', 'title']);
    expect(schema.additionalProperties).toBe(false);
  });
});
