import type { Roster } from '../model/roster.js';
import type { Flag, Outcome, TallyViolation } from '../model/tally.js';
import type { Ruleset } from '../rules/ruleset.js';

/**
 * The state a tally is folded into. Everything is readonly: each `apply*` returns a new
 * state, so a fold can be stopped, replayed or forked (the count "as at post N").
 * Later mechanisms (tie chains, penalty votes, side actions) add fields here.
 */
export interface GameState {
  readonly ruleset: Ruleset;
  /** Roster order; a slot's index is its identity for the whole game (names change). */
  readonly slots: readonly SlotState[];
  readonly day: number;
  readonly phase: Phase;
  /** Each living slot's current lynch vote, by slot index. */
  readonly votes: ReadonlyMap<number, CastVote>;
  readonly flags: readonly Flag[];
  readonly violations: readonly TallyViolation[];
  /** GM corrections by post number (target null = ignore the post's vote); they survive recounts. */
  readonly corrections: ReadonlyMap<number, string | null>;
  readonly postsRead: number;
  readonly asOfPost: number | null;
}

export interface SlotState {
  readonly name: string;
  readonly aliases: readonly string[];
  readonly formerNames: readonly string[];
  readonly alive: boolean;
  /** How much the slot's vote counts (a Mayor's counts twice). */
  readonly weight: number;
  /** The weight is secret. v1 counts it like any weight; a public view must hide it. */
  readonly hiddenWeight: boolean;
  /** Kept for rules that react to them (Detective Conan's arrested/poisoned); unused by v1. */
  readonly status: 'arrested' | 'poisoned' | 'abroad' | 'hindered' | null;
  readonly roles: readonly string[];
}

/** A player slot, or the ruleset's No Lynch / Sleep. */
export type VoteTarget = { readonly kind: 'slot'; readonly slot: number } | { readonly kind: 'no-lynch' };

export interface CastVote {
  readonly target: VoteTarget;
  /** The post the standing vote was cast in (for a GM vote: the post it applies after). */
  readonly post: number;
  readonly permalink: string | null;
  readonly source: 'parsed' | 'gm';
}

/** Who counts and how much: live during the Day, frozen when it closes. */
export interface Board {
  readonly living: readonly number[];
  readonly weights: readonly number[];
}

/**
 * `open`: votes move. `closed`: the Day was decided (threshold, early end, day-end or a GM
 * decision); the board is frozen so night kills do not rewrite the Day's count.
 */
export type Phase =
  | { readonly kind: 'open' }
  | { readonly kind: 'closed'; readonly board: Board; readonly outcome: Outcome };

export function initialState(
  ruleset: Ruleset, roster: Roster, corrections: ReadonlyMap<number, string | null> = new Map(),
): GameState {
  return {
    ruleset,
    slots: roster.map((s) => ({
      name: s.name, aliases: s.aliases, formerNames: s.formerNames, alive: s.alive,
      weight: 1, hiddenWeight: false, status: null, roles: [],
    })),
    day: 1,
    phase: { kind: 'open' },
    votes: new Map(),
    flags: [],
    violations: [],
    corrections,
    postsRead: 0,
    asOfPost: null,
  };
}

export function withFlag(state: GameState, flag: Omit<Flag, 'candidates'> & { candidates?: string[] }): GameState {
  return { ...state, flags: [...state.flags, { candidates: [], ...flag }] };
}

export function withSlot(state: GameState, index: number, change: Partial<SlotState>): GameState {
  return { ...state, slots: state.slots.map((s, i) => (i === index ? { ...s, ...change } : s)) };
}

export function withVote(state: GameState, slot: number, vote: CastVote | null): GameState {
  const votes = new Map(state.votes);
  if (vote) votes.set(slot, vote);
  else votes.delete(slot);
  return { ...state, votes };
}

export function slotName(state: GameState, index: number): string {
  return state.slots[index]?.name ?? `#${index}`;
}
