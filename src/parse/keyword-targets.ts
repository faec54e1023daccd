import type { Ruleset } from '../rules/ruleset.js';
import type { KeywordTarget } from './vote-grammar.js';

/** The ruleset's vote targets that are words, not players: No Lynch / Sleep first, then Abstain. */
export function keywordTargets(ruleset: Ruleset): KeywordTarget[] {
  const out: KeywordTarget[] = [];
  if (ruleset.noLynch) out.push(ruleset.noLynch);
  if (ruleset.abstain) out.push(ruleset.abstain);
  return out;
}
