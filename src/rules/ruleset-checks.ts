import type { z } from 'zod';

/**
 * Rules that span fields, checked after the shape is valid so a GM who copies a ruleset
 * learns at `votal ruleset check` (with file:line:column) that a rule can never apply.
 */
interface RulesetShape {
  votes: { side: Partial<Record<'hammer' | 'filibuster' | 'veto' | 'forgive', string[] | undefined>> };
  sideRules: {
    hammer?: KeywordRuleShape | undefined;
    filibuster?: KeywordRuleShape | undefined;
    veto?: unknown;
    forgive?: unknown;
  };
  schedule?: { checks: unknown[] } | undefined;
}
interface KeywordRuleShape {
  when: 'check' | 'deadline' | 'always';
  effect: 'end-day' | 'extend-day';
  extendBy?: unknown;
}

export function checkRuleset(r: RulesetShape, ctx: z.RefinementCtx): void {
  for (const kind of ['hammer', 'filibuster', 'veto', 'forgive'] as const) {
    const rule = r.sideRules[kind];
    if (rule === undefined) continue;
    // The parser only reads a side action the grammar has words for.
    if (!r.votes.side[kind]?.length) {
      ctx.addIssue({
        code: 'custom',
        path: ['sideRules', kind],
        message: `needs votes.side.${kind} keywords (how players write it)`,
      });
    }
    if (kind !== 'hammer' && kind !== 'filibuster') continue;
    const k = rule as KeywordRuleShape;
    if (k.effect === 'extend-day' && k.extendBy === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['sideRules', kind, 'effect'],
        message: 'extend-day needs extendBy (how long)',
      });
    }
    if (k.when === 'check' && !r.schedule?.checks.length) {
      ctx.addIssue({
        code: 'custom',
        path: ['sideRules', kind, 'when'],
        message: 'when: check needs schedule.checks (the check times)',
      });
    }
  }
}
