import type { Action, Effect, PostReading, PostViolation, ReviewReason } from '../model/action.js';
import { plainText, type BodyNode } from '../model/body.js';
import type { EditMarker } from '../model/post.js';
import type { Roster } from '../model/roster.js';
import type { Ruleset } from '../rules/ruleset.js';
import { isKeywordPhrase, keywordLetters } from './keyword.js';
import { nameKey, stripDecorations } from './name-form.js';
import { type NameResolution, nameResolver, type NameResolver, type ResolveOptions } from './names.js';
import { ownLines } from './own-text.js';
import { ruleViolations } from './rule-checks.js';
import { keywordTargets } from './keyword-targets.js';
import { findActions, type RejectReason, type WrittenAction } from './vote-grammar.js';

/*
 * One post read the way a moderator reads it: its actions in order, the net effect on
 * the poster's lynch vote, and the rule violations. Pure: no clock, network or store.
 *
 * The last vote or unvote decides the effect (side actions never touch the lynch vote).
 * When that deciding vote cannot be counted as written (ambiguous or unknown name, a
 * dead player, an empty "Vote:") the effect is `review` with the reason: the GM decides.
 */

/** What reading needs of a post: its neutral body and the forum's edit marker. */
export interface PostInput {
  body: readonly BodyNode[];
  edit: EditMarker | null;
}

/**
 * Common ways to write "nobody": when the ruleset has no No Lynch, a vote for one of
 * these is a request the GM must refuse, not an unknown player.
 */
const COMMON_NO_LYNCH = [
  'no lynch',
  'no elimination',
  'no elim',
  'no execution',
  'no exec',
  'no exe',
  'sleep',
  'no one',
  'nobody',
].map(keywordLetters);

/**
 * "Vote: No One", "VOTE: No one." (mafiascum games 1540 post #51, 1827 post #2451): a vote
 * for nobody, which moderators count as No Lynch where the ruleset has one. Read only when
 * the words name no player (a player called "Nobody Special" keeps "Vote: Nobody").
 */
const NOBODY = ['no one', 'noone', 'nobody', 'no body'].map(keywordLetters);

const REJECTION_TEXT: Record<RejectReason, string> = {
  'not-bold': 'vote not in bold',
  'no-colon': 'vote without a colon',
  'not-own-line': 'vote not on a line of its own',
  'in-spoiler': 'vote inside a spoiler',
  'no-marker': "vote without the ruleset's marker",
  quoted: 'vote inside quotation marks',
  announced: 'vote announced, not cast',
};

interface Reading {
  action: Action;
  /** Why this action, if it decides the post, needs the GM. */
  review: ReviewReason | null;
}

export interface ReadOptions {
  /**
   * Report vote-shaped text the grammar refused (not bold, no colon, not on its own line,
   * inside a spoiler) as `format` violations, so a refused vote is never silent. On by
   * default; the ruleset's `violations.format` (default `ignore`) says what it costs.
   */
  formatViolations?: boolean;
}

export function readPost(post: PostInput, roster: Roster, ruleset: Ruleset, options: ReadOptions = {}): PostReading {
  // A post the adapter could not read is the GM's to read: never a silent "no vote".
  if (post.body.some((n) => n.t === 'unreadable')) {
    return { actions: [], effect: { kind: 'review', target: null, reason: 'unreadable-post' }, violations: [] };
  }
  const lines = ownLines(post.body);
  const found = findActions(lines, ruleset.votes, keywordTargets(ruleset));
  const resolve = resolverFor(roster, ruleset);
  const members = mentionedMembers(post.body);
  const readings = found.actions.flatMap((w) => readAction(w, resolve, ruleset, members) ?? []);

  const voteSpans = [...found.actions, ...found.rejected].map((a) => a.span);
  const violations: PostViolation[] = ruleViolations(post, roster, ruleset, { lines, voteSpans });
  if (options.formatViolations ?? true) {
    for (const r of found.rejected)
      violations.push({ kind: 'format', detail: `${REJECTION_TEXT[r.reason]}: ${r.raw}` });
  }

  return { actions: readings.map((r) => r.action), effect: effectOf(readings, ruleset), violations };
}

/**
 * One resolver per roster and ruleset: a thread's posts share them, and building the
 * players' name forms (accents, acronyms) for every post cost more than reading it.
 */
const resolvers = new WeakMap<Roster, WeakMap<Ruleset['names'], NameResolver>>();
function resolverFor(roster: Roster, ruleset: Ruleset): NameResolver {
  let byRules = resolvers.get(roster);
  if (!byRules) resolvers.set(roster, (byRules = new WeakMap()));
  let resolve = byRules.get(ruleset.names);
  if (!resolve) byRules.set(ruleset.names, (resolve = nameResolver(roster, ruleset.names)));
  return resolve;
}

function readAction(
  w: WrittenAction,
  resolve: NameResolver,
  ruleset: Ruleset,
  members: ReadonlySet<string>,
): Reading | null {
  if (w.doubtful) {
    // Bold talk with "vote" in it: nothing, unless a player's exact name follows the keyword
    // or the vote is written in its own form ("**Confirm vote: gandy**"): then the GM reads it.
    const name = resolve(w.written ?? '', { trailingWords: true });
    if (name.match === 'exact' || name.match === 'alias')
      return { action: actionOf(w, name.written, name.target, name.match, [], null), review: 'malformed-vote' };
    if (!w.colon) return null;
    const action = actionOf(w, name.written, name.target, name.match, name.candidates, name.score);
    return { action, review: 'malformed-vote' };
  }
  if (w.keywordTarget !== null) {
    return { action: actionOf(w, w.written, w.keywordTarget, 'keyword', [], null), review: null };
  }
  if (w.written === null) {
    return { action: actionOf(w, null, null, 'none', [], null), review: w.kind === 'vote' ? 'empty-vote' : null };
  }
  const name = withPurpose(w, resolve, { trailingWords: !ruleset.votes.ownLine });
  if (w.loose && name.match === 'unknown') return null;
  if (w.kind === 'vote' && name.match === 'unknown' && ruleset.noLynch && isKeywordPhrase(name.written, NOBODY))
    return { action: actionOf(w, name.written, ruleset.noLynch.name, 'keyword', [], null), review: null };
  const action = {
    ...actionOf(w, name.written, name.target, name.match, name.candidates, name.score),
    ...(name.from ? { from: name.from } : {}),
  };
  if (w.kind !== 'vote') return { action, review: null };
  return { action, review: reviewOf(name.match, name.alive, name.written, ruleset, members) };
}

/** What a vote is for, written before the name: "Vote to Hammer: hiplop", "Vote: lynch dragonspawn". */
const VOTE_PURPOSE = /^(?:to\s+)?(?:lynch|hammer|eliminate)\b\s*[:：]?\s*/iu;

/**
 * The vote's name, read past a word saying what the vote is for when the whole is no
 * one's name (mafiascum game 1161 post #812, game 1666 post #186); "Lynch Mob" stays a
 * player's name where there is one.
 */
function withPurpose(w: WrittenAction, resolve: NameResolver, options: ResolveOptions): NameResolution {
  const written = w.written ?? '';
  const name = resolve(written, options);
  if (w.kind !== 'vote' || name.match !== 'unknown') return name;
  const purpose = VOTE_PURPOSE.exec(written);
  if (!purpose || purpose[0].length === written.length) return name;
  const rest = resolve(written.slice(purpose[0].length), options);
  return rest.match === 'unknown' ? name : rest;
}

function actionOf(
  w: WrittenAction,
  written: string | null,
  target: string | null,
  match: Action['match'],
  candidates: string[],
  score: number | null,
): Action {
  return { kind: w.kind, target, match, raw: w.raw, written, candidates, score, source: 'parsed' };
}

function reviewOf(
  match: Action['match'],
  alive: boolean | null,
  written: string,
  ruleset: Ruleset,
  members: ReadonlySet<string>,
): ReviewReason | null {
  if (match === 'ambiguous') return 'ambiguous-target';
  if (match === 'unknown') {
    if (!ruleset.noLynch && isKeywordPhrase(written, COMMON_NO_LYNCH)) return 'no-lynch-not-allowed';
    // A mention link names a real forum member: one who is not in the game is not a typo.
    return members.has(nameKey(written)) ? 'not-a-player' : 'unknown-target';
  }
  // Dead players still resolve: the vote is recorded, and the GM sees it was for the dead.
  if (alive === false) return 'vote-for-dead';
  return null;
}

/** The members the post's own text mentions by link (`@Name`), as name keys. */
function mentionedMembers(body: readonly BodyNode[]): Set<string> {
  const out = new Set<string>();
  const pending: BodyNode[] = [];
  const enter = (nodes: readonly BodyNode[]): void => {
    for (let i = nodes.length - 1; i >= 0; i--) pending.push(nodes[i]!);
  };
  enter(body);
  while (pending.length > 0) {
    const node = pending.pop()!;
    if (node.t === 'link' && node.kind === 'mention') {
      const key = nameKey(stripDecorations(plainText(node.children)));
      if (key !== '') out.add(key);
    } else if ('children' in node && node.t !== 'quote' && node.t !== 'signature') {
      enter(node.children);
    }
  }
  return out;
}

function effectOf(readings: readonly Reading[], ruleset: Ruleset): Effect {
  const sideWords = [...(ruleset.votes.side.hammer ?? []), ...(ruleset.votes.side.filibuster ?? [])].map(
    keywordLetters,
  );
  // "Unvote: Hammer" withdraws a side vote and leaves the lynch vote alone.
  const unvotes = (a: Action): boolean =>
    a.kind === 'unvote' && !(a.written !== null && sideWords.length > 0 && isKeywordPhrase(a.written, sideWords));
  for (let i = readings.length - 1; i >= 0; i--) {
    const { action, review } = readings[i]!;
    if (unvotes(action)) return { kind: 'unvote', target: null, reason: null };
    if (action.kind !== 'vote') continue;
    if (review) {
      // "Unvote: Ann / Vote: (unreadable)": the unvote is certain and applies while the GM
      // reads the vote; the old vote must not stand in the meantime.
      const unvoted = readings.slice(0, i).some((r) => unvotes(r.action));
      return { kind: 'review', target: action.target, reason: review, ...(unvoted ? { unvoted: true } : {}) };
    }
    return { kind: 'vote', target: action.target, reason: null };
  }
  return { kind: 'none', target: null, reason: null };
}
