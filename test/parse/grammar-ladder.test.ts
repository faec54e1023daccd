import { describe, expect, it } from 'vitest';
import type { StyledRun } from '../../src/parse/own-text.js';
import {
  CANDIDATE_RUNGS,
  findActions,
  type GrammarExample,
  type GrammarReading,
  LINE_RULES,
} from '../../src/parse/vote-grammar.js';
import { VoteGrammar } from '../../src/rules/ruleset.js';

/*
 * The vote grammar as a ladder (src/parse/vote-grammar.ts): its rules in the order they
 * run, and every rule's own examples read by the whole grammar. A new rule that changes
 * what another rule's example reads fails here, under that rule's name.
 */

const NO_LYNCH = { name: 'No Lynch', keywords: ['no lynch', 'sleep'] };

/** One line from the examples' markup: `**` opens and closes bold, `||` a spoiler. */
function lineOf(markup: string): StyledRun[] {
  const runs: StyledRun[] = [];
  let bold = false;
  let inSpoiler = false;
  for (const piece of markup.split(/(\*\*|\|\|)/u)) {
    if (piece === '**') bold = !bold;
    else if (piece === '||') inSpoiler = !inSpoiler;
    else if (piece !== '') runs.push({ text: piece, bold, strike: false, inSpoiler });
  }
  return runs;
}

function described(read: GrammarReading): string[] {
  const actions = read.actions.map((a) =>
    [
      a.kind,
      a.written,
      a.keywordTarget === null ? null : `= ${a.keywordTarget}`,
      a.doubtful ? '?doubtful' : null,
      a.loose ? '?loose' : null,
      a.marker ? `#${a.marker}` : null,
    ]
      .filter((w) => w !== null)
      .join(' '),
  );
  return [...actions, ...read.rejected.map((r) => `${r.reason}: ${r.raw}`)];
}

function reads(example: GrammarExample): string[] {
  const grammar = VoteGrammar.parse({ side: { hammer: ['hammer'] }, ...example.votes });
  return described(findActions([lineOf(example.line)], grammar, [NO_LYNCH]));
}

describe('the vote grammar ladder', () => {
  it('runs the rules of a line in this order', () => {
    expect(LINE_RULES.map((r) => r.name)).toEqual([
      'typed tag',
      'whole line',
      'bold run',
      'not bold',
      'quoted on the line',
      'written order',
      'marker',
      'own line',
    ]);
  });

  it('reads a candidate by the first of these rungs that applies', () => {
    expect(CANDIDATE_RUNGS.map((r) => r.name)).toEqual([
      'opening keyword',
      'later clause',
      'keyword target alone',
      'doubtful vote',
    ]);
  });

  it('gives every rule and rung its examples', () => {
    for (const rule of [...LINE_RULES, ...CANDIDATE_RUNGS]) expect(rule.examples.length, rule.name).toBeGreaterThan(0);
  });

  describe.each([...LINE_RULES, ...CANDIDATE_RUNGS].map((r) => [r.name, r.examples] as const))(
    '%s: its examples, read by the whole grammar',
    (_name, examples) => {
      it.each(examples.map((e) => [e.line, e] as const))('%s', (_line, example) => {
        expect(reads(example)).toEqual(example.reads);
      });
    },
  );
});
