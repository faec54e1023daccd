import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PostReading } from '../../src/model/action.js';
import type { BodyNode } from '../../src/model/body.js';
import { Roster } from '../../src/model/roster.js';
import { readPost } from '../../src/parse/read-post.js';
import { Ruleset } from '../../src/rules/ruleset.js';
import { b, br, roster, rules, text } from './build.js';

/** Strings players (and attackers) type: vote syntax fragments, odd Unicode, long runs. */
const hostile: fc.Arbitrary<string> = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 30 }),
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.constantFrom(
    'Vote: ',
    'unvote',
    '##vote ',
    ';',
    'No-Lynch',
    '(L-2)',
    '[b]',
    '\n',
    '\u200B',
    'Bob',
    'Ali',
    ':',
    '#',
    '(((',
    ' and ',
    'Sleep',
    'é',
    '\u0301',
    '😀',
    '\uD800',
  ),
  fc
    .array(
      fc.constantFrom(
        'vote',
        'Vote',
        ':',
        ' ',
        '#',
        ';',
        'unvote',
        '(',
        ')',
        'a',
        '-',
        '\n',
        'no',
        'lynch',
        'hammer',
        ',',
        'Bob',
      ),
      { maxLength: 40 },
    )
    .map((parts) => parts.join('')),
);

const kids = (tie: (key: string) => fc.Arbitrary<unknown>): fc.Arbitrary<BodyNode[]> =>
  fc.array(tie('node') as fc.Arbitrary<BodyNode>, { maxLength: 5 });

const { node } = fc.letrec((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    hostile.map((t): BodyNode => ({ t: 'text', text: t })),
    fc.constant<BodyNode>({ t: 'br' }),
    hostile.map((src): BodyNode => ({ t: 'image', src })),
    hostile.map((alt): BodyNode => ({ t: 'smilie', alt })),
    hostile.map((t): BodyNode => ({ t: 'code', text: t })),
    fc
      .record({ t: fc.constantFrom('bold', 'italic', 'underline', 'strike'), children: kids(tie) })
      .map((n) => n as BodyNode),
    kids(tie).map((children): BodyNode => ({ t: 'block', children })),
    kids(tie).map((children): BodyNode => ({ t: 'signature', children })),
    fc.tuple(hostile, kids(tie)).map(([color, children]): BodyNode => ({ t: 'color', color, children })),
    fc.tuple(hostile, kids(tie)).map(([size, children]): BodyNode => ({ t: 'size', size, children })),
    fc.tuple(fc.option(hostile), kids(tie)).map(([author, children]): BodyNode => ({ t: 'quote', author, children })),
    fc.tuple(fc.option(hostile), kids(tie)).map(([title, children]): BodyNode => ({ t: 'spoiler', title, children })),
    fc
      .tuple(hostile, fc.constantFrom('internal', 'external', 'mention'), kids(tie))
      .map(([href, kind, children]): BodyNode => ({ t: 'link', href, kind, children })),
  ),
}));

const nonEmpty = hostile.filter((s) => s.length > 0);

const anyRoster = fc
  .array(
    fc.record({
      name: nonEmpty,
      aliases: fc.array(nonEmpty, { maxLength: 2 }),
      formerNames: fc.array(nonEmpty, { maxLength: 2 }),
      alive: fc.boolean(),
    }),
    { maxLength: 6 },
  )
  .map((slots) => Roster.parse(slots));

const anyRuleset = fc
  .record({
    bold: fc.constantFrom('required', 'optional'),
    colon: fc.constantFrom('required', 'optional'),
    ownLine: fc.boolean(),
    spoilers: fc.boolean(),
    emptyVote: fc.constantFrom('unvote', 'ignore', 'review'),
    extraVote: fc.array(nonEmpty, { maxLength: 2 }),
    side: fc.boolean(),
    noLynch: fc.option(fc.array(nonEmpty, { minLength: 1, maxLength: 3 })),
  })
  .map((r) =>
    Ruleset.parse({
      name: 'hostile',
      title: 'Hostile',
      threshold: { kind: 'majority' },
      votes: {
        bold: r.bold,
        colon: r.colon,
        ownLine: r.ownLine,
        spoilers: r.spoilers,
        emptyVote: r.emptyVote,
        keywords: { vote: ['vote', ...r.extraVote], unvote: ['unvote'] },
        side: r.side ? { hammer: ['hammer'], filibuster: ['filibuster'], veto: ['veto'], forgive: ['forgive'] } : {},
      },
      ...(r.noLynch ? { noLynch: { name: 'No Lynch', keywords: r.noLynch } } : {}),
    }),
  );

describe('hostile input', () => {
  it('random bodies, rosters and rulesets never throw and always give a valid reading', () => {
    fc.assert(
      fc.property(
        fc.array(node, { maxLength: 8 }),
        anyRoster,
        anyRuleset,
        fc.option(hostile),
        (body, players, ruleset, marker) => {
          const edit = marker === null ? null : { at: null, by: null, text: marker };
          const reading = readPost({ body, edit }, players, ruleset);
          PostReading.parse(reading);
          if (reading.effect.kind === 'vote') expect(reading.effect.target).not.toBeNull();
          if (reading.effect.kind === 'review') expect(reading.effect.reason).not.toBeNull();
        },
      ),
      { numRuns: 400 },
    );
  }, 180_000);

  it('a tree nested 100 000 deep does not overflow the stack', () => {
    let inner: BodyNode = { t: 'text', text: 'Vote: Bob' };
    for (let k = 0; k < 100_000; k++)
      inner = {
        t: k % 3 === 0 ? 'bold' : k % 3 === 1 ? 'italic' : 'quote',
        children: [inner],
        ...(k % 3 === 2 ? { author: null } : {}),
      } as BodyNode;
    expect(() => readPost({ body: [inner], edit: null }, roster(), rules())).not.toThrow();
  });

  it('200 000 siblings read in one pass', () => {
    const body: BodyNode[] = [];
    for (let k = 0; k < 200_000; k++) body.push(k % 2 ? b('Vote: Zeke') : { t: 'br' });
    const reading = readPost({ body, edit: null }, roster(), rules());
    expect(reading.effect).toEqual({ kind: 'vote', target: 'Zeke', reason: null });
  });
});

/** Bodies of roughly `bytes` characters of own text, each shaped to stress one part of the parser. */
const SHAPES: Record<string, (bytes: number) => BodyNode[]> = {
  'one long bold run after a vote keyword': (n) => [b(`Vote: ${'('.repeat(n)}`)],
  'one long bold run of repeated keywords': (n) => [b('vote '.repeat(Math.ceil(n / 5)))],
  'one bold run of back-to-back unvotes': (n) => [b('unvote '.repeat(Math.ceil(n / 7)))],
  'separators and keywords alternating': (n) => [b('vote; '.repeat(Math.ceil(n / 6)))],
  'many vote lines': (n) => [text('Vote: Bob\n'.repeat(Math.ceil(n / 10)))],
  'many bold groups on one line': (n) =>
    Array.from({ length: Math.ceil(n / 12) }, () => [b('Vote:'), text(' !! ')]).flat(),
  'bold No Lynch groups between punctuation': (n) =>
    Array.from({ length: Math.ceil(n / 12) }, () => [b('no lynch'), text(' ~~ ')]).flat(),
  'a long plain paragraph with names': (n) => [
    text('Bob and Alice said something about Mallory. '.repeat(Math.ceil(n / 44))),
  ],
  'hashes and spaces': (n) => [b(`${'# '.repeat(Math.ceil(n / 2))}vote Bob`)],
  'many tiny text nodes in one bold': (n) => [
    { t: 'bold', children: Array.from({ length: Math.ceil(n / 2) }, () => text('a ')) },
  ],
  'line breaks only': (n) => Array.from({ length: Math.ceil(n / 2) }, () => br()),
};

const ruleset = rules({
  noLynch: { name: 'No Lynch', keywords: ['no lynch'] },
  votes: { side: { hammer: ['hammer'] } },
});

/**
 * The CPU time (ms) this process spends reading the post: unlike the wall clock it does not
 * grow while the process waits for a core, so the ratio below holds on a busy CI machine.
 */
function timeOf(body: BodyNode[]): number {
  const start = process.cpuUsage();
  readPost({ body, edit: null }, roster(), ruleset);
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

describe('time stays roughly linear in the size of the post', () => {
  it.each(Object.keys(SHAPES))(
    '%s: 1 MB vs 10 KB',
    (shape) => {
      const make = SHAPES[shape]!;
      const small = make(10_000);
      const big = make(1_000_000);
      for (let k = 0; k < 3; k++) timeOf(small); // warm up the JIT
      // Best of several runs on both sides: on a busy machine a single run can be descheduled.
      const tSmall = Math.max(Math.min(...Array.from({ length: 7 }, () => timeOf(small))), 0.5); // floored against timer noise
      const tBig = Math.min(...Array.from({ length: 3 }, () => timeOf(big)));
      // 100x the text; allow 30x more than linear for GC and cache effects (quadratic would be ~10 000x).
      expect(tBig).toBeLessThan(tSmall * 100 * 30);
    },
    60_000,
  );
});
