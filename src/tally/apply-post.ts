import type { Effect, PostReading } from '../model/action.js';
import type { PostEvent } from '../model/event.js';
import type { FlagKind } from '../model/tally.js';
import type { GameState } from './state.js';
import { slotName, withFlag, withVote } from './state.js';
import { findSlot } from './slot-names.js';
import { resolveTarget, sameTarget } from './vote-target.js';

/**
 * One post: its rule violations, then its net effect on the author's lynch vote (or the
 * GM's correction of it). Anything that cannot count becomes a flag for the GM.
 */
export function applyPost(state: GameState, event: PostEvent): GameState {
  let s: GameState = { ...state, postsRead: state.postsRead + 1, asOfPost: event.post };
  const author = findSlot(s.slots, event.author);
  if (author !== undefined) s = withViolations(s, author, event);

  const evidence = voteEvidence(event.reading);
  const flag = (st: GameState, kind: FlagKind) => withFlag(st, {
    post: event.post,
    player: author === undefined ? event.author : slotName(st, author),
    kind,
    raw: evidence.raw,
    candidates: evidence.candidates,
  });

  let effect = event.reading.effect;
  if (s.corrections.has(event.post)) {
    const target = s.corrections.get(event.post) ?? null;
    effect = target === null ? { kind: 'none', target: null, reason: null } : { kind: 'vote', target, reason: null };
    s = withFlag(s, {
      post: event.post,
      player: author === undefined ? event.author : slotName(s, author),
      kind: 'gm-correction',
      raw: `${evidence.raw || describe(event.reading.effect)} -> ${target ?? '(ignored)'}`,
    });
  }

  if (effect.kind === 'none') return s;
  if (author === undefined) return flag(s, 'vote-by-non-player');
  if (!s.slots[author]?.alive) return flag(s, 'vote-by-dead');
  if (s.phase.kind === 'closed') return flag(s, 'vote-after-decision');

  switch (effect.kind) {
    // The parser could not settle it: the standing vote stays until the GM decides.
    case 'review': return flag(s, effect.reason ?? 'malformed-vote');
    case 'unvote': return withVote(s, author, null);
    case 'vote': {
      const target = effect.target === null ? undefined : resolveTarget(s, effect.target);
      if (!target) return flag(s, effect.target === null ? 'malformed-vote' : 'unknown-target');
      if (target.kind === 'slot' && !s.slots[target.slot]?.alive) return flag(s, 'vote-for-dead');
      const standing = s.votes.get(author);
      // Voting again for the same target keeps the earlier vote (and its place on the wagon).
      if (standing && sameTarget(standing.target, target)) return s;
      return withVote(s, author, { target, post: event.post, permalink: event.permalink, source: 'parsed' });
    }
  }
}

function withViolations(state: GameState, author: number, event: PostEvent): GameState {
  const added = event.reading.violations.flatMap((v) => {
    const consequence = state.ruleset.violations[v.kind];
    return consequence === 'ignore'
      ? []
      : [{ player: slotName(state, author), post: event.post, kind: v.kind, detail: v.detail, consequence }];
  });
  return added.length ? { ...state, violations: [...state.violations, ...added] } : state;
}

/** The text behind the post's effect: the last vote or unvote the parser read. */
function voteEvidence(reading: PostReading): { raw: string; candidates: string[] } {
  const action = reading.actions.filter((a) => a.kind === 'vote' || a.kind === 'unvote').at(-1);
  return { raw: action?.raw ?? '', candidates: action?.candidates ?? [] };
}

function describe(effect: Effect): string {
  return effect.target === null ? effect.kind : `${effect.kind} ${effect.target}`;
}

