import type { Action, Effect, MatchKind, PostReading } from '../model/action.js';
import type { PostEvent } from '../model/event.js';
import { bookNote, type FlagKind } from '../model/tally.js';
import { castVote } from './cast-vote.js';
import { addPenalty } from './penalties.js';
import { applySideActions, withdrawnKeyword } from './side-actions.js';
import type { GameState } from './state.js';
import { slotName, withFlag, withVote, withWaiting } from './state.js';
import { findSlot, nameKey } from './slot-names.js';

/**
 * One post: its rule violations (and the penalty vote they bring), then its net effect on
 * the author's lynch vote (or the GM's correction of it), then its side actions. Anything
 * that cannot count becomes a flag for the GM.
 */
export function applyPost(state: GameState, logged: PostEvent): GameState {
  // One read of the logged event; the steps below read its fields many times.
  const event: PostEvent = { ...logged };
  let s: GameState = { ...state, postsRead: state.postsRead + 1, asOfPost: event.post };
  const author = findSlot(s.slots, event.author);
  // A host who is not a player posts the Day's vote counts ("No-Lynch (0):", "##Unvote when
  // you want to change votes!"): the GM's posts, read for news elsewhere, never votes.
  if (author === undefined && s.hosts.has(nameKey(event.author))) return s;
  if (author !== undefined) s = withViolations(s, author, event);
  s = applyEffect(s, event, author);
  return applySideActions(s, event, author);
}

function applyEffect(state: GameState, event: PostEvent, author: number | undefined): GameState {
  let s = state;
  const evidence = voteEvidence(event.reading);
  const flag = (st: GameState, kind: FlagKind) =>
    withFlag(st, {
      post: event.post,
      player: author === undefined ? event.author : slotName(st, author),
      kind,
      raw:
        evidence.raw ||
        (event.reading.effect.reason === 'unreadable-post'
          ? 'Votal could not read this post: read it on the forum'
          : ''),
      candidates: evidence.candidates,
      // A name the forum's nickname book made ambiguous says so (the GM sees the book took part).
      ...(evidence.action?.match === 'ambiguous' && evidence.action.from
        ? { note: bookNote(evidence.action.written, evidence.action.from) }
        : {}),
    });

  let effect = event.reading.effect;
  const corrected = s.corrections.has(event.post);
  if (corrected) {
    const target = s.corrections.get(event.post) ?? null;
    effect = target === null ? { kind: 'none', target: null, reason: null } : { kind: 'vote', target, reason: null };
    s = withFlag(s, {
      post: event.post,
      player: author === undefined ? event.author : slotName(s, author),
      kind: 'gm-correction',
      raw: `${evidence.raw || describe(event.reading.effect)} -> ${target ?? '(ignored)'}`,
    });
  } else if (effect.kind === 'unvote' && evidence.action && withdrawnKeyword(s.ruleset, evidence.action)) {
    // "Unvote: Hammer" withdraws the Hammer side vote, not the lynch vote.
    return s;
  }

  if (effect.kind === 'none') return s;
  if (author === undefined) return flag(s, 'vote-by-non-player');
  if (!s.slots[author]?.alive) return flag(s, 'vote-by-dead');
  // Votes sent to the GM are the only votes: one posted in the thread does not count (a GM correction does).
  if (s.ruleset.voteSource === 'gm' && !corrected) return flag(s, 'vote-in-thread');
  if (s.phase.kind === 'closed') return flag(s, 'vote-after-decision');

  // A vote Votal cannot read waits for the GM until the player votes or unvotes again.
  const voter = author;
  const candidates = waitingCandidates(effect, evidence.candidates);
  const unread = (st: GameState, kind: FlagKind) =>
    flag(
      UNREAD.includes(kind)
        ? withWaiting(st, voter, { post: event.post, raw: evidence.raw, candidates, asCast: st })
        : st,
      kind,
    );
  s = withWaiting(s, author, null);
  switch (effect.kind) {
    // The parser could not settle it: the standing vote stays until the GM decides, unless the post unvoted first.
    case 'review':
      return unread(effect.unvoted ? withVote(s, author, null) : s, effect.reason ?? 'malformed-vote');
    case 'unvote':
      return withVote(s, author, null);
    case 'vote':
      return castVote(
        s,
        author,
        effect.target,
        {
          post: event.post,
          permalink: event.permalink,
          source: 'parsed',
          ...(corrected ? { match: 'gm' as const } : readAs(evidence.action)),
        },
        unread,
      );
  }
}

/**
 * What a vote that waits could be. A vote sent to the GM with a name the parser did read
 * (bold talk around a player's exact name, "Confirm vote: Guderian") is that vote or no
 * vote at all: never a vote for anyone else (mafiascum game 1094 post #184).
 */
function waitingCandidates(effect: Effect, candidates: readonly string[]): readonly string[] {
  if (candidates.length > 0 || effect.kind !== 'review' || effect.target === null) return candidates;
  return [effect.target];
}

/** Flags that say Votal could not read the vote (the GM can): such a vote waits. */
const UNREAD: readonly FlagKind[] = [
  'ambiguous-target',
  'unknown-target',
  'not-a-player',
  'malformed-vote',
  'empty-vote',
  'unreadable-post',
];

/**
 * The post's violations as the ruleset treats them (`ignore` drops them). If any is a
 * `penalty`, the author gains one penalty vote for the post, however many it has.
 */
function withViolations(state: GameState, author: number, event: PostEvent): GameState {
  const added = event.reading.violations.flatMap((v) => {
    const consequence = state.ruleset.violations[v.kind];
    return consequence === 'ignore'
      ? []
      : [{ player: slotName(state, author), post: event.post, kind: v.kind, detail: v.detail, consequence }];
  });
  if (!added.length) return state;
  const s = { ...state, violations: [...state.violations, ...added] };
  const penalised = added.filter((v) => v.consequence === 'penalty').map((v) => v.kind);
  return penalised.length
    ? addPenalty(s, author, event.post, `${[...new Set(penalised)].join(', ')} in post ${event.post}`)
    : s;
}

/** The text behind the post's effect: the last vote or unvote the parser read. */
function voteEvidence(reading: PostReading) {
  const action = reading.actions.filter((a) => a.kind === 'vote' || a.kind === 'unvote').at(-1);
  return { action, raw: action?.raw ?? '', candidates: action?.candidates ?? [] };
}

/** How the post's deciding vote named its target, as the parser read it. */
function readAs(action: Action | undefined): { match?: MatchKind; written?: string | null; from?: string } {
  if (!action || action.kind !== 'vote') return {};
  return { match: action.match, written: action.written, ...(action.from ? { from: action.from } : {}) };
}

function describe(effect: Effect): string {
  return effect.target === null ? effect.kind : `${effect.kind} ${effect.target}`;
}
