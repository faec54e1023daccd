import type { Action, PostViolation, ReviewReason } from '../../src/model/action.js';
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
    kind: 'post',
    post: n,
    author,
    time: opts.time ?? null,
    permalink: `https://forum.test/p/${n}`,
    reading: { ...reading, violations: opts.violations ?? reading.violations },
  };
}

function action(kind: Action['kind'], target: string | null, raw: string): Action {
  return {
    kind,
    target,
    match: 'exact' as const,
    raw,
    written: target,
    candidates: [],
    score: null,
    source: 'parsed' as const,
  };
}

export function vote(n: number, author: string, target: string, opts?: PostOptions): PostEvent {
  return post(
    n,
    author,
    {
      actions: [action('vote', target, `Vote: ${target}`)],
      effect: { kind: 'vote', target, reason: null },
      violations: [],
    },
    opts,
  );
}

export function unvote(n: number, author: string, opts?: PostOptions): PostEvent {
  return post(
    n,
    author,
    {
      actions: [action('unvote', null, 'Unvote')],
      effect: { kind: 'unvote', target: null, reason: null },
      violations: [],
    },
    opts,
  );
}

export function review(
  n: number,
  author: string,
  reason: ReviewReason,
  raw: string,
  candidates: string[] = [],
): PostEvent {
  return post(n, author, {
    actions: [
      { ...action('vote', null, raw), match: reason === 'ambiguous-target' ? 'ambiguous' : 'unknown', candidates },
    ],
    effect: { kind: 'review', target: null, reason },
    violations: [],
  });
}

/**
 * A vote the parser read a player's exact name in but sent to the GM (bold talk around a
 * vote: "Confirm vote: Guderian"): the effect names the player, the reason is malformed-vote.
 */
export function doubtful(n: number, author: string, target: string, raw: string): PostEvent {
  return post(n, author, {
    actions: [action('vote', target, raw)],
    effect: { kind: 'review', target, reason: 'malformed-vote' },
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

/**
 * A post with these actions, its effect worked out the way the parser does: the last
 * vote or unvote decides it; side actions never touch it.
 */
export function posted(n: number, author: string, actions: Action[], opts?: PostOptions): PostEvent {
  const last = actions.filter((a) => a.kind === 'vote' || a.kind === 'unvote').at(-1);
  const effect = !last
    ? { kind: 'none' as const, target: null, reason: null }
    : last.kind === 'unvote'
      ? { kind: 'unvote' as const, target: null, reason: null }
      : { kind: 'vote' as const, target: last.target, reason: null };
  return post(n, author, { actions, effect, violations: [] }, opts);
}

/** One action as the parser reads it (target: the canonical name, or null). */
export function act(kind: Action['kind'], target: string | null = null, raw?: string): Action {
  const label = kind[0]!.toUpperCase() + kind.slice(1);
  return action(kind, target, raw ?? (target === null ? `Vote: ${label}` : `${label}: ${target}`));
}

export const hammer = (n: number, author: string, opts?: PostOptions) => posted(n, author, [act('hammer')], opts);
export const filibuster = (n: number, author: string, opts?: PostOptions) =>
  posted(n, author, [act('filibuster')], opts);
export const veto = (n: number, author: string, target: string, opts?: PostOptions) =>
  posted(n, author, [act('veto', target)], opts);
export const forgive = (n: number, author: string, target: string, opts?: PostOptions) =>
  posted(n, author, [act('forgive', target)], opts);

/** "Unvote: Hammer", as the parser reads it: an unvote naming no player. */
export function unvoteKeyword(n: number, author: string, keyword: string, opts?: PostOptions): PostEvent {
  return posted(
    n,
    author,
    [{ ...action('unvote', null, `Unvote: ${keyword}`), written: keyword, match: 'unknown' }],
    opts,
  );
}
