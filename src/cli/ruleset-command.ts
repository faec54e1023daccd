import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { listRulesets, loadRuleset, rulesetsDir } from '../rules/load-ruleset.js';
import { CliError } from './exit-codes.js';

/** `votal ruleset check FILE`: prints what the ruleset decides, or file:line:column errors. */
export function runRulesetCheck(file: string): string {
  try {
    const r = loadRuleset(file);
    return `${file}: ok - ${r.title} (${r.name}), threshold ${r.threshold.kind}${r.noLynch ? `, No Lynch as "${r.noLynch.name}"` : ''}\n`;
  } catch (e) {
    throw new CliError((e as Error).message);
  }
}

/**
 * `votal ruleset list`: the shipped rulesets, each with its one-line description (the
 * file's opening comment, else its title), so a GM can pick a `--ruleset` name.
 */
export function runRulesetList(): string {
  const rows = listRulesets().map((name) => {
    const text = readFileSync(join(rulesetsDir(), `${name}.yaml`), 'utf8');
    const comment = text
      .split('\n')
      .find((l) => l.startsWith('#') && !l.includes('yaml-language-server'))
      ?.replace(/^#\s*/, '');
    return [name, comment || loadRuleset(name).title] as const;
  });
  const width = Math.max(...rows.map(([n]) => n.length));
  return (
    rows.map(([n, d]) => `${n.padEnd(width)}  ${d}`).join('\n') +
    '\n\nUse one with --ruleset NAME, or write your own YAML file (check it with: votal ruleset check FILE).\n'
  );
}
