import type { MatchKind } from '../model/action.js';
import type { Roster } from '../model/roster.js';
import type { Flag, Outcome, RuleDeath, TallyViolation, UntimedPost } from '../model/tally.js';
import type { Ruleset } from '../rules/ruleset.js';
import { VoteBook } from './vote-book.js';

/**
 * The state a tally is folded into. Everything is readonly: each `apply*` returns a new
 * state, so a fold can be stopped, replayed or forked (the count "as at post N").
 * Fields marked "this Day" start over at `day-start`; the rest last the whole game.
 */
export interface GameState {
  readonly ruleset: Ruleset;
  /** Roster order; a slot's index is its identity for the whole game (names change). */
  readonly slots: readonly SlotState[];
  readonly day: number;
  readonly phase: Phase;
  /** Each living slot's current lynch vote, by slot index (this Day). */
  readonly votes: VoteBook<CastVote>;
  /** Each living slot's latest vote that waits for the GM's reading, by slot index (this Day). */
  readonly waiting: VoteBook<WaitingVote>;
  /** Standing Hammer / Filibuster votes by slot (this Day). */
  readonly sideVotes: SideVotes;
  /** Vetoes cast this Day, in order. */
  readonly vetoes: readonly Veto[];
  /** This Day's start, deadline (extensions included) and the checks already fired. */
  readonly clock: DayClock;
  /** How often each extend-day rule has extended this Day. */
  readonly extensions: Readonly<Partial<Record<KeywordKind, number>>>;
  /** Forgive votes of the current Night, by voter slot (they start over at `day-start`). */
  readonly forgiveVotes: ReadonlyMap<number, ForgiveVote>;
  /** The GM's forgiveness ruling for the current Night, as a note, if one was recorded (it replaces the count). */
  readonly forgivenRuling: string | null;
  /** Slots whose powers fail this Day and the following Night (missed vote). */
  readonly powersBlocked: readonly number[];
  /** The seed for a random tie draw this Day, when the GM fixed one. */
  readonly seed: number | null;
  /** Slots the GM revived after this Day was decided: its elimination does not bury them. */
  readonly revivedAtNight: readonly number[];
  /** When each target last led alone this Day (`targetKey`), for the `last-to-lead` tie rule. */
  readonly leads: ReadonlyMap<string, SoleLead>;
  readonly flags: readonly Flag[];
  /** Posts of this Day that vote or act, with no readable time, while a clock rule could apply; newest first. */
  readonly untimed: UntimedList | null;
  readonly violations: readonly TallyViolation[];
  /** What the GM and players should know about this Day (extensions, forgiveness). */
  readonly notes: readonly string[];
  /** Deaths the rules caused, whole game. */
  readonly deaths: readonly RuleDeath[];
  /** GM corrections by post number (target null = ignore the post's vote); they survive recounts. */
  readonly corrections: ReadonlyMap<number, string | null>;
  readonly postsRead: number;
  readonly asOfPost: number | null;
  /** Events folded so far: the order of things that happen at the same post ("most recent"). */
  readonly step: number;
  /** The hosts' forum names (`nameKey`): their posts are the GM's, never a non-player's votes. */
  readonly hosts: ReadonlySet<string>;
}

/**
 * A list that shares its tail: adding a post copies nothing, so a thread whose theme hides
 * every time costs one step per post, not a copy of the list per post.
 */
export interface UntimedList {
  readonly last: UntimedPost;
  readonly before: UntimedList | null;
}

/** The list in thread order. */
export function untimedPosts(list: UntimedList | null): UntimedPost[] {
  const out: UntimedPost[] = [];
  for (let at = list; at !== null; at = at.before) out.push(at.last);
  return out.reverse();
}

/** The current Day's clock, in the game state. */
export interface DayClock {
  /** When the Day started (ms), null when nothing tells. */
  readonly start: number | null;
  /** The Day's deadline now (extensions included), ISO 8601, null when none is known. */
  readonly deadline: string | null;
  /** Every scheduled check up to here (ms) has fired for this Day. */
  readonly firedTo: number;
}

const noClock: DayClock = { start: null, deadline: null, firedTo: Number.NEGATIVE_INFINITY };

export type Status = 'arrested' | 'poisoned' | 'abroad' | 'hindered';

export interface SlotState {
  readonly name: string;
  readonly aliases: readonly string[];
  readonly formerNames: readonly string[];
  readonly alive: boolean;
  /** How much the slot's vote counts (a Mayor's counts twice). */
  readonly weight: number;
  /** The weight is secret: the public view shows 1. */
  readonly hiddenWeight: boolean;
  /** GM `status` events in force (until `clear`); the ruleset says what each does. */
  readonly statuses: readonly Status[];
  readonly roles: readonly string[];
  /** Every penalty vote the slot gained, oldest first (forgiven ones stay, marked). */
  readonly penalties: readonly PenaltyVote[];
  readonly vetoesUsed: number;
  /** Missed phases the inactivity rule counts (a streak, or a total). */
  readonly missed: number;
  /** Made inactive by the rules: the vote is cast by a token holder (the GM enters it). */
  readonly inactive: boolean;
}

export interface PenaltyVote {
  /** The fold step it was gained at: higher is more recent; equal means the same moment. */
  readonly step: number;
  readonly day: number;
  /** Gained while the Day was open (the Day's final count included), not at Night. */
  readonly duringDay: boolean;
  /** The post it was gained at (or after, for GM and clock events). */
  readonly post: number;
  readonly reason: string;
  /** Where it was forgiven, if it was. */
  readonly forgivenAt: number | null;
}

/** A moment a target led alone: the fold step (higher is more recent) and its post. */
export interface SoleLead {
  readonly step: number;
  readonly post: number;
}

/** A player slot, the ruleset's No Lynch / Sleep, or abstaining. */
export type VoteTarget =
  | { readonly kind: 'slot'; readonly slot: number }
  | { readonly kind: 'no-lynch' }
  | { readonly kind: 'abstain' };

export interface CastVote {
  readonly target: VoteTarget;
  /** The post the standing vote was cast in (for a GM vote: the post it applies after). */
  readonly post: number;
  readonly permalink: string | null;
  readonly source: 'parsed' | 'gm';
  /** Counted, but the voter is not published (GM `vote` with hidden). */
  readonly hidden?: boolean;
  /** How the written name became the target (the parser's rung), and the name as written. */
  readonly match?: MatchKind;
  readonly written?: string | null;
  /** A nickname's earlier game (`match` nickname). */
  readonly from?: string;
}

/**
 * A vote Votal could not read (unknown or ambiguous name, malformed), not yet superseded by
 * a later vote or unvote of the same player: until the GM reads it, it may change the Day.
 */
export interface WaitingVote {
  readonly post: number;
  readonly raw: string;
  /** The names it could be; none when it could be anyone. */
  readonly candidates: readonly string[];
  /** The count as the vote was cast (the vote itself not counted): a reading is tried there too. */
  readonly asCast: GameState;
}

export type KeywordKind = 'hammer' | 'filibuster';

/** Where a side vote was cast. */
export interface SideCast {
  readonly post: number;
  readonly permalink: string | null;
}

export type SideVotes = Readonly<Record<KeywordKind, ReadonlyMap<number, SideCast>>>;

export interface Veto extends SideCast {
  readonly by: number;
  readonly target: number;
}

export interface ForgiveVote extends SideCast {
  readonly target: number;
}

/** Who counts and how: the slots as they were, live during the Day, frozen when it closes. */
export interface Board {
  readonly living: readonly number[];
  readonly slots: readonly SlotState[];
}

/**
 * `open`: votes move. `closed`: the Day was decided (threshold, early end, deadline, a side
 * vote, day-end or a GM decision); the board is frozen so night kills and night penalty
 * votes do not rewrite the Day's count.
 */
export type Phase =
  | { readonly kind: 'open' }
  | { readonly kind: 'closed'; readonly board: Board; readonly outcome: Outcome };

const noSideVotes: SideVotes = { hammer: new Map(), filibuster: new Map() };

/** What every Day starts with: no votes, vetoes, extensions, flags or violations yet. */
export function freshDay(day: number, seed: number | null) {
  return {
    day,
    phase: { kind: 'open' } as Phase,
    votes: VoteBook.empty<CastVote>(),
    waiting: VoteBook.empty<WaitingVote>(),
    sideVotes: noSideVotes,
    vetoes: [],
    extensions: {},
    forgiveVotes: new Map(),
    forgivenRuling: null,
    powersBlocked: [],
    seed,
    leads: new Map<string, SoleLead>(),
    revivedAtNight: [] as readonly number[],
    flags: [],
    untimed: null as UntimedList | null,
    violations: [],
  } satisfies Partial<GameState>;
}

export function initialState(
  ruleset: Ruleset,
  roster: Roster,
  corrections: ReadonlyMap<number, string | null> = new Map(),
  hosts: ReadonlySet<string> = new Set(),
): GameState {
  return {
    ruleset,
    slots: roster.map((s) => ({
      name: s.name,
      aliases: s.aliases,
      formerNames: s.formerNames,
      alive: s.alive,
      weight: 1,
      hiddenWeight: false,
      statuses: [],
      roles: [],
      penalties: [],
      vetoesUsed: 0,
      missed: 0,
      inactive: false,
    })),
    ...freshDay(1, null),
    clock: noClock,
    notes: [],
    deaths: [],
    corrections,
    postsRead: 0,
    asOfPost: null,
    step: 0,
    hosts,
  };
}

export function withFlag(state: GameState, flag: Omit<Flag, 'candidates'> & { candidates?: string[] }): GameState {
  return { ...state, flags: [...state.flags, { candidates: [], ...flag }] };
}

export function withNote(state: GameState, note: string): GameState {
  return { ...state, notes: [...state.notes, note] };
}

export function withSlot(state: GameState, index: number, change: Partial<SlotState>): GameState {
  return { ...state, slots: state.slots.map((s, i) => (i === index ? { ...s, ...change } : s)) };
}

export function withVote(state: GameState, slot: number, vote: CastVote | null): GameState {
  const votes = state.votes.with(slot, vote ?? undefined);
  return votes === state.votes ? state : { ...state, votes };
}

export function withWaiting(state: GameState, slot: number, vote: WaitingVote | null): GameState {
  const waiting = state.waiting.with(slot, vote ?? undefined);
  return waiting === state.waiting ? state : { ...state, waiting };
}

export function withSideVote(state: GameState, kind: KeywordKind, slot: number, cast: SideCast | null): GameState {
  const votes = new Map(state.sideVotes[kind]);
  if (cast) votes.set(slot, cast);
  else votes.delete(slot);
  return { ...state, sideVotes: { ...state.sideVotes, [kind]: votes } };
}

export function slotName(state: GameState, index: number): string {
  return state.slots[index]?.name ?? `#${index}`;
}

export function livingCount(state: GameState): number {
  return state.slots.reduce((n, s) => n + (s.alive ? 1 : 0), 0);
}
