import { describe, expect, it } from 'vitest';
import { PostReading, type Effect } from '../../src/model/action.js';
import { readPost, type PostInput } from '../../src/parse/read-post.js';
import type { RulesetInput } from '../../src/rules/ruleset.js';
import { b, br, edited, img, post, quote, roster, rules } from './build.js';

interface Case {
  name: string;
  post: PostInput;
  rules?: Partial<RulesetInput>;
  effect: Effect;
}

const review = (reason: Effect['reason'], target: string | null = null): Effect => ({ kind: 'review', target, reason });

const cases: Case[] = [
  {
    name: 'a post without votes has no effect',
    post: post('just chatting about Bob'),
    effect: { kind: 'none', target: null, reason: null },
  },
  {
    name: 'a vote sets the lynch vote',
    post: post(b('Vote: Zeke')),
    effect: { kind: 'vote', target: 'Zeke', reason: null },
  },
  { name: 'an unvote clears it', post: post(b('Unvote')), effect: { kind: 'unvote', target: null, reason: null } },
  { name: 'vote for dead player is review', post: post(b('Vote: Eve')), effect: review('vote-for-dead', 'Eve') },
  { name: 'unknown name is review', post: post(b('Vote: Nobodyhere')), effect: review('unknown-target') },
  { name: 'ambiguous name is review', post: post(b('Vote: Ali')), effect: review('ambiguous-target') },
  { name: 'empty vote is review', post: post(b('Vote:')), effect: review('empty-vote') },
  {
    name: 'an unreadable last vote is not replaced by an earlier good one',
    post: post(b('Vote: Zeke'), br(), b('Vote: Ali')),
    effect: review('ambiguous-target'),
  },
  {
    name: 'a good last vote settles an earlier unreadable one',
    post: post(b('Vote: Ali'), br(), b('Vote: Zeke')),
    effect: { kind: 'vote', target: 'Zeke', reason: null },
  },
  {
    name: 'side actions do not touch the lynch vote',
    post: post(b('Vote: Zeke'), br(), b('Veto Ali')),
    rules: { votes: { side: { veto: ['veto'] } } },
    effect: { kind: 'vote', target: 'Zeke', reason: null },
  },
  {
    name: 'only side actions: no effect',
    post: post(b('Hammer')),
    rules: { votes: { side: { hammer: ['hammer'] } } },
    effect: { kind: 'none', target: null, reason: null },
  },
  {
    name: 'No Lynch vote targets the ruleset name',
    post: post(b('Vote: no lynch')),
    rules: { noLynch: { name: 'No Elimination', keywords: ['no lynch', 'no elimination'] } },
    effect: { kind: 'vote', target: 'No Elimination', reason: null },
  },
  {
    name: 'a quoted vote does not touch the lynch vote',
    post: post(quote('Ann', b('Vote: Zeke')), 'lol'),
    effect: { kind: 'none', target: null, reason: null },
  },
];

describe('readPost', () => {
  it.each(cases)('$name', (c) => {
    expect(readPost(c.post, roster(), rules(c.rules ?? {})).effect).toEqual(c.effect);
  });

  it('keeps the evidence of each action', () => {
    const reading = readPost(post(b('Vote: Mallroy (L-2)')), roster(), rules());
    expect(reading.actions).toEqual([
      {
        kind: 'vote',
        target: 'Mallory',
        match: 'fuzzy',
        raw: 'Vote: Mallroy (L-2)',
        written: 'Mallroy',
        candidates: [],
        score: expect.any(Number),
        source: 'parsed',
      },
    ]);
  });

  it('lists the candidates of an ambiguous vote', () => {
    const reading = readPost(post(b('Vote: Ali')), roster(), rules());
    expect(reading.actions[0]).toMatchObject({ match: 'ambiguous', target: null, candidates: ['Alice', 'Alicia'] });
  });

  it('combines rule violations and format violations (which can be turned off)', () => {
    const p = edited('edited', img('a.png'), 'Vote: Zeke');
    expect(readPost(p, roster(), rules()).violations).toEqual([
      { kind: 'image', detail: 'a.png' },
      { kind: 'edit', detail: 'edited' },
      { kind: 'format', detail: 'vote not in bold: Vote: Zeke' },
    ]);
    expect(readPost(p, roster(), rules(), { formatViolations: false }).violations).toEqual([
      { kind: 'image', detail: 'a.png' },
      { kind: 'edit', detail: 'edited' },
    ]);
  });

  it('matches the PostReading contract', () => {
    const reading = readPost(post(b('Unvote; Vote: Ali'), br(), b('Vote: Eve')), roster(), rules());
    expect(PostReading.parse(reading)).toEqual(reading);
  });
});

describe('withdrawing a side vote', () => {
  const oc = rules({ votes: { side: { hammer: ['hammer'], filibuster: ['filibuster'] } } });
  it('"Unvote: Hammer" withdraws the Hammer vote and leaves the lynch vote alone', () => {
    const r = readPost(post(b('Unvote: Hammer')), roster(), oc);
    expect(r.actions).toEqual([
      expect.objectContaining({ kind: 'unvote', written: 'Hammer', target: 'Hammer', match: 'keyword' }),
    ]);
    expect(r.effect).toEqual({ kind: 'none', target: null, reason: null });
  });
  it('"Unvote; Vote: Hammer" is still an unvote followed by a Hammer vote', () => {
    const r = readPost(post(b('Unvote; Vote: Hammer')), roster(), oc);
    expect(r.actions.map((a) => a.kind)).toEqual(['unvote', 'hammer']);
    expect(r.effect.kind).toBe('unvote');
  });
});
