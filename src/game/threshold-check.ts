import { createHash } from 'node:crypto';
import type { AuditAction, AuditEntry } from '../model/audit.js';
import type { CheckDifference, CheckPost, GmCount, ThresholdProposal } from '../model/gm-count.js';
import type { Tally } from '../model/tally.js';
import { ruleText, statedRule } from '../parse/stated-threshold.js';
import type { Ruleset } from '../rules/ruleset.js';

type Difference = Omit<CheckDifference, 'key' | 'answer'>;

/**
 * The alive count and threshold a GM's count states ("With 7 alive, it takes 4 to lynch")
 * beside Votal's at the cut it was compared at. A different alive count says Votal's living
 * list and the GM's differ (a missed death or replacement): the players Votal has alive that
 * the count names nowhere are listed, when the count has a not-voting line (else it need not
 * name everyone). A different number alone says the game's threshold is not the ruleset's.
 */
export function thresholdDiff(count: GmCount, tally: Tally, prefix: string, post: CheckPost): Difference | null {
  const stated = count.stated;
  if (!stated) return null;
  const alive = tally.players.length;
  const needs = tally.threshold.votes;
  const aliveDiffers = stated.alive !== null && stated.alive !== alive;
  const needsDiffers = needs !== null && stated.toLynch !== needs;
  if (!aliveDiffers && !needsDiffers) return null;
  const says = `${prefix} says ${stated.alive === null ? '' : `${stated.alive} alive and `}${stated.toLynch} to lynch`;
  const parts: string[] = [];
  if (aliveDiffers) parts.push(`Votal has ${alive} alive${beyond(count, tally)}`);
  if (needsDiffers) parts.push(`${aliveDiffers ? 'and ' : 'Votal '}needs ${needs}`);
  return {
    kind: 'threshold',
    player: null,
    gm: `${stated.alive ?? '-'} alive, ${stated.toLynch} to lynch`,
    votal: `${alive} alive, ${needs ?? '-'} to lynch`,
    text: `${says}; ${parts.join(' ')}`,
    posts: [post],
  };
}

/** " (who Votal thinks is alive beyond yours: X, Y)": Votal's living the count names nowhere. */
function beyond(count: GmCount, tally: Tally): string {
  if (count.notVoting === null || count.stated!.alive! > tally.players.length) return '';
  const named = new Set<string>();
  for (const w of count.wagons) {
    if (w.target !== null) named.add(w.target);
    for (const v of w.voters) if (v.player !== null) named.add(v.player);
  }
  for (const v of count.notVoting) if (v.player !== null) named.add(v.player);
  const extra = tally.players.filter((p) => !named.has(p));
  return extra.length === 0 ? '' : ` (who Votal thinks is alive beyond yours: ${extra.join(', ')})`;
}

/** The GM declined a threshold proposal (its `key`): it is not offered again. */
export const THRESHOLD_DISMISS = 'check.threshold-dismiss' satisfies AuditAction;

/** The keys of the threshold proposals the GM dismissed. */
export function dismissedThresholds(audit: readonly AuditEntry[]): Set<string> {
  return new Set(audit.filter((a) => a.action === THRESHOLD_DISMISS).map((a) => String(a.detail['key'])));
}

/**
 * A threshold the GM's counts state repeatedly that the ruleset cannot produce from their
 * alive counts, as a game setting offered to the GM. Statements that disagree with
 * themselves propose nothing: the checks show them.
 */
export function thresholdProposal(counts: readonly GmCount[], ruleset: Ruleset): ThresholdProposal | null {
  const stating = counts.filter((c) => c.stated !== null);
  const rule = statedRule(
    stating.map((c) => c.stated!),
    ruleset.threshold,
  );
  if (rule === null) return null;
  const fitting = stating.filter((c) => c.stated!.alive !== null);
  const first = fitting[0]!;
  const overrides = { threshold: rule };
  return {
    // The rule is the key: a rule dismissed is not offered again, whatever counts state it later.
    key: createHash('sha256').update(JSON.stringify(overrides)).digest('hex').slice(0, 16),
    overrides,
    posts: fitting.map((c) => c.post),
    sentence: first.stated!.sentence,
    text: `Your counts state a threshold of ${ruleText(rule)} (#${fitting.map((c) => c.post).join(', #')}: "${first.stated!.sentence}"); the ruleset asks ${ruleText(ruleset.threshold)}. Set the game's threshold so?`,
  };
}
