import type { Action } from '../model/action.js';
import type { PostEvent } from '../model/event.js';
import type { FlagKind } from '../model/tally.js';
import type { Ruleset } from '../rules/ruleset.js';
import { activePenalties } from './board.js';
import type { GameState, KeywordKind, SideCast } from './state.js';
import { slotName, withFlag, withSideVote, withSlot } from './state.js';
import { resolveTarget } from './vote-target.js';

/**
 * The side actions of a post, in the order written: Hammer and Filibuster (standing side
 * votes for the Day), veto (cancels one vote on its target today) and forgive (a Night
 * vote to remove a penalty vote). They never touch the lynch vote. An unvote that names
 * Hammer or Filibuster ("Unvote: Hammer") withdraws that side vote.
 */
export function applySideActions(state: GameState, event: PostEvent, author: number | undefined): GameState {
  let s = state;
  for (const action of event.reading.actions) {
    if (action.kind === 'vote') continue;
    if (action.kind === 'unvote') {
      const kind = withdrawnKeyword(s.ruleset, action);
      if (kind && author !== undefined) s = withSideVote(s, kind, author, null);
      continue;
    }
    s = applySide(s, action, event, author);
  }
  return s;
}

/** The side vote an unvote names, if it names one ("Unvote: Hammer"). */
export function withdrawnKeyword(ruleset: Ruleset, action: Action): KeywordKind | undefined {
  if (action.kind !== 'unvote' || action.written === null) return undefined;
  const written = letters(action.written);
  return (['hammer', 'filibuster'] as const).find((kind) =>
    (ruleset.votes.side[kind] ?? []).some((k) => letters(k) === written),
  );
}

function letters(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]/gu, '');
}

type SideKind = 'hammer' | 'filibuster' | 'veto' | 'forgive';

function applySide(state: GameState, action: Action, event: PostEvent, author: number | undefined): GameState {
  const kind = action.kind as SideKind;
  const refuse = (s: GameState, flag: FlagKind) =>
    withFlag(s, {
      post: event.post,
      player: author === undefined ? event.author : slotName(s, author),
      kind: flag,
      raw: action.raw,
      candidates: action.candidates,
    });
  if (author === undefined) return refuse(state, 'vote-by-non-player');
  if (!state.slots[author]?.alive) return refuse(state, 'vote-by-dead');
  const rules = state.ruleset.sideRules;
  if (!rules[kind]) return refuse(state, 'side-action-not-allowed');
  const cast: SideCast = { post: event.post, permalink: event.permalink };
  const open = state.phase.kind === 'open';

  if (kind === 'hammer' || kind === 'filibuster') {
    if (!open) return refuse(state, 'vote-after-decision');
    return state.sideVotes[kind].has(author) ? state : withSideVote(state, kind, author, cast);
  }

  // Veto and forgive name a living player.
  const target = action.target === null ? undefined : resolveTarget(state, action.target);
  if (!target || target.kind !== 'slot')
    return refuse(state, action.match === 'ambiguous' ? 'ambiguous-target' : 'unknown-target');
  if (!state.slots[target.slot]?.alive) return refuse(state, 'vote-for-dead');
  const self = target.slot === author;

  if (kind === 'veto') {
    const rule = rules.veto!;
    if (!open) return refuse(state, 'vote-after-decision');
    if (self && rule.onSelf === 'refused') return refuse(state, 'self-veto');
    const used = state.slots[author]!.vetoesUsed;
    if (used >= rule.perGame) return refuse(state, 'veto-spent');
    const s = withSlot(state, author, { vetoesUsed: used + 1 });
    return { ...s, vetoes: [...s.vetoes, { ...cast, by: author, target: target.slot }] };
  }

  // Forgiveness votes are cast at Night, between a Day's decision and the next Day.
  if (open) return refuse(state, 'side-action-not-allowed');
  if (self && rules.forgive!.onSelf === 'refused') return refuse(state, 'self-forgive');
  if (activePenalties(state.slots[target.slot]!).length === 0) return refuse(state, 'forgive-without-penalty');
  const votes = new Map(state.forgiveVotes);
  votes.set(author, { ...cast, target: target.slot });
  return { ...state, forgiveVotes: votes };
}
