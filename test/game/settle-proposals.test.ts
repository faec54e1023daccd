import { describe, expect, it } from 'vitest';
import { settleProposals } from '../../src/game/gm-checks.js';
import type { AuditAction, AuditEntry } from '../../src/model/audit.js';
import type { CountProposals, DeathProposal, ThresholdProposal } from '../../src/model/gm-count.js';

/**
 * What the poll kept of the GM's counts' proposals (`LastCount.proposals`) as the GM's queue
 * offers it: less what the GM answered, and less a threshold the game already has (accepted,
 * before the recount that stops proposing it).
 */
const HALF = { kind: 'fraction', numerator: 1, denominator: 2 };
const threshold: ThresholdProposal = {
  key: 'a'.repeat(16),
  overrides: { threshold: HALF },
  posts: [23, 24],
  sentence: 'With 8 alive, it takes 4 to lynch.',
  text: 'Your counts state a threshold of half of the living, rounded up',
};
const death = (player: string, key: string): DeathProposal => ({
  key,
  countPost: 25,
  permalink: null,
  posts: [25],
  stated: 7,
  alive: 8,
  candidates: [player],
  player,
  at: 24,
  text: `Your count at #25 lists 7 alive and leaves off ${player}: record ${player}'s death?`,
});
const gina = death('Gina', 'b'.repeat(16));
const hal = death('Hal', 'c'.repeat(16));
const proposed: CountProposals = { threshold, deaths: [gina, hal] };
const answer = (action: AuditAction, key: string): AuditEntry => ({
  id: 1,
  gameId: 1,
  actor: 'gm',
  action,
  detail: { key },
  at: '2026-03-03T20:00:00.000Z',
});

describe('settleProposals', () => {
  const cases: [string, Record<string, unknown>, AuditEntry[], CountProposals][] = [
    ['nothing answered: everything proposed', {}, [], proposed],
    [
      'a threshold dismissed is not offered',
      {},
      [answer('check.threshold-dismiss', threshold.key)],
      { threshold: null, deaths: [gina, hal] },
    ],
    [
      "a threshold the game's overrides already hold is not offered",
      { threshold: HALF, dayLength: 2 },
      [],
      { threshold: null, deaths: [gina, hal] },
    ],
    ['a different threshold in the overrides leaves it offered', { threshold: { kind: 'majority' } }, [], proposed],
    ['a death recorded is not offered', {}, [answer('check.death-record', gina.key)], { threshold, deaths: [hal] }],
    ['a death dismissed is not offered', {}, [answer('check.death-dismiss', hal.key)], { threshold, deaths: [gina] }],
    ["another action's key settles nothing", {}, [answer('check.lesson-dismiss', gina.key)], proposed],
  ];
  it.each(cases)('%s', (_rule, overrides, audit, offered) => {
    expect(settleProposals(proposed, overrides, audit)).toEqual(offered);
  });
});
