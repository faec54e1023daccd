import type { PostViolation, ReviewReason } from '../../src/model/action.js';
import { GmEvent, type PostEvent } from '../../src/model/event.js';
import { Roster } from '../../src/model/roster.js';
import { loadRuleset } from '../../src/rules/load-ruleset.js';
import { Ruleset, type RulesetInput } from '../../src/rules/ruleset.js';

/** Small builders for tally logs: posts as the parser would read them, without the parser. */

export function players(...names: string[]): Roster {
  return Roster.parse(names.map((name) => ({ name })));
}

const loaded = new Map<string, Ruleset>();
/** Shipped rulesets, read once per test file (the fold never changes them). */
function shipped(name: string): Ruleset {
  const ruleset = loaded.get(name) ?? loadRuleset(name);
  loaded.set(name, ruleset);
  return ruleset;
}

export const witchhunt = (): Ruleset => shipped('witchhunt');
export const plurality = (): Ruleset => shipped('plurality');
export const mafiascum = (): Ruleset => shipped('mafiascum-majority');

/** A ruleset from a base file with some fields changed. */
export function variant(name: string, change: Partial<RulesetInput>): Ruleset {
  return Ruleset.parse({ ...shipped(name), ...change });
}

interface PostOptions {
  violations?: PostViolation[];
  time?: string | null;
}

function post(n: number, author: string, reading: PostEvent['reading'], opts: PostOptions = {}): PostEvent {
  return {
    kind: 'post', post: n, author, time: opts.time ?? null, permalink: `https://forum.test/p/${n}`,
    reading: { ...reading, violations: opts.violations ?? reading.violations },
  };
}

function action(kind: 'vote' | 'unvote', target: string | null, raw: string) {
  return {
    kind, target, match: 'exact' as const, raw, written: target, candidates: [], score: null, source: 'parsed' as const,
  };
}

export function vote(n: number, author: string, target: string, opts?: PostOptions): PostEvent {
  return post(n, author, {
    actions: [action('vote', target, `Vote: ${target}`)],
    effect: { kind: 'vote', target, reason: null },
    violations: [],
  }, opts);
}

export function unvote(n: number, author: string, opts?: PostOptions): PostEvent {
  return post(n, author, {
    actions: [action('unvote', null, 'Unvote')],
    effect: { kind: 'unvote', target: null, reason: null },
    violations: [],
  }, opts);
}

export function review(n: number, author: string, reason: ReviewReason, raw: string, candidates: string[] = []): PostEvent {
  return post(n, author, {
    actions: [{ ...action('vote', null, raw), match: reason === 'ambiguous-target' ? 'ambiguous' : 'unknown', candidates }],
    effect: { kind: 'review', target: null, reason },
    violations: [],
  });
}

/** A post with no vote in it (discussion), optionally breaking rules. */
export function chatter(n: number, author: string, opts?: PostOptions): PostEvent {
  return post(n, author, { actions: [], effect: { kind: 'none', target: null, reason: null }, violations: [] }, opts);
}

export function gm(event: Record<string, unknown>): GmEvent {
  return GmEvent.parse(event);
}
