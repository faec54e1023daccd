import { loadRuleset } from '../rules/load-ruleset.js';
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
