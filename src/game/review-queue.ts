import type { Effect } from '../model/action.js';
import { plainText, type Body } from '../model/body.js';
import { bodyOf } from './post-bodies.js';
import { isLooseMatch, looseReading, type Flag, type Tally, type TallyViolation } from '../model/tally.js';
import { readPost } from '../parse/read-post.js';
import { rosterAt } from '../tally/slot-names.js';
import { laterVote, TARGET_FLAGS } from '../votal/render-votal.js';
import type { Ruleset } from '../rules/ruleset.js';
import type { AuditEntry } from '../model/audit.js';
import type { StoredGmEvent } from '../store/events-repo.js';
import type { Game } from '../model/game.js';
import type { HeadOrPost, PostHead } from '../store/posts-repo.js';
import { readingEvents } from './reading-events.js';
import { wordDiff, type DiffPart } from './word-diff.js';

/**
 * The GM's review queue: everything the count could not settle on its own, each with the
 * one-click answers that settle it. Every answer that changes the count is a GM `correct`
 * event (it survives recounts). "Accept" keeps a vote the count already counts (a name read
 * loosely, an edit); an item whose vote cannot count offers "Dismiss" instead, never an
 * "Accept" that would change nothing. Both are audit entries (`review.accept`,
 * `review.dismiss`) so the item leaves the queue without touching the count.
 */

export type ReviewKind = 'flag' | 'violation' | 'edit' | 'deleted';

export interface ReviewChoice {
  /** What the button says. */
  label: string;
  /**
   * `correct`: a GM correction with `target` (null: ignore the post's vote); `accept`: the
   * vote stands as counted; `dismiss`: seen, and it does not count. The last two are noted only.
   */
  action: 'correct' | 'accept' | 'dismiss';
  target: string | null;
}

export interface ReviewItem {
  /** Stable within the queue: `<kind>:<post>:<detail>`. */
  key: string;
  kind: ReviewKind;
  post: number;
  player: string | null;
  /** What it is ("ambiguous target", "silent edit"...). */
  title: string;
  /** The evidence: the raw vote, the violation's detail. */
  detail: string;
  permalink: string | null;
  /** Players the GM may pick (ambiguous and unknown targets). */
  pick: string[];
  /** Candidates to show first in the pick list. */
  candidates: string[];
  choices: ReviewChoice[];
  /** For edits: the two bodies, word by word. */
  diff: DiffPart[] | null;
  /** How the GM settled it, when they did. */
  resolved: string | null;
}

const FLAG_TITLES: Partial<Record<Flag['kind'], string>> = {
  'ambiguous-target': 'Ambiguous vote',
  'unknown-target': 'Vote for an unknown name',
  'vote-for-dead': 'Vote for a dead player',
  'malformed-vote': 'Malformed vote',
  'empty-vote': 'Empty vote',
  'no-lynch-not-allowed': 'No-lynch vote not allowed',
  'vote-by-non-player': 'Vote by a non-player',
  'vote-by-dead': 'Vote by a dead player',
  'vote-after-decision': 'Vote after the Day was decided',
  'not-a-player': 'vote for, or GM event naming, someone not in the game',
  'unknown-post': 'Correction of a post that does not exist',
  'vote-in-thread': 'Vote posted in the thread',
  'self-vote': 'Self-vote',
  'unreadable-post': 'Post Votal could not read (read it on the forum)',
};

export interface ReviewInput {
  game: Game;
  ruleset: Ruleset;
  tally: Tally | null;
  /** Every post; current bodies are read only of those `reviewReadsBodyOf` names. */
  posts: readonly HeadOrPost[];
  events: readonly StoredGmEvent[];
  audit: readonly AuditEntry[];
  /** Bodies of earlier revisions of edited posts: post key -> the body before the current one. */
  previousBodies: ReadonlyMap<number, Body>;
}

/**
 * Flags whose vote a GM correction counts as the post cast it: a self-vote, a vote for the
 * dead (once the GM says the target lives), a vote posted in the thread of a game whose
 * votes are sent to the GM (a correction is the GM's word). The queue reads what it says.
 */
const COUNTABLE_FLAGS: ReadonlySet<Flag['kind']> = new Set(['self-vote', 'vote-for-dead', 'vote-in-thread']);

/**
 * What the GM can do about each flag (a GM correction has none: it is the answer). "dismiss": nothing
 * can make it count (a correction only sets a post's lynch vote, and the count refuses a
 * non-player's, a dead player's or a decided Day's vote even when corrected; a refused side
 * action is no lynch vote; a GM event's flag sits at a position, not at a post's vote, so
 * "Ignore this vote" there would drop another post's vote, and on an edit made after the
 * decision it would drop the vote that stood). "correct": a correction counts it (to a
 * player picked, or as cast). One entry per kind, so a new flag kind must say which.
 */
const FLAG_ANSWERS: Record<Exclude<Flag['kind'], 'gm-correction'>, 'correct' | 'dismiss'> = {
  'ambiguous-target': 'correct',
  'unknown-target': 'correct',
  'vote-for-dead': 'correct',
  'malformed-vote': 'correct',
  'empty-vote': 'correct',
  'no-lynch-not-allowed': 'correct',
  'self-vote': 'correct',
  'unreadable-post': 'correct',
  'vote-in-thread': 'correct',
  'vote-by-non-player': 'dismiss',
  'vote-by-dead': 'dismiss',
  'vote-after-decision': 'dismiss',
  'not-a-player': 'dismiss',
  'unknown-post': 'dismiss',
  'missing-vote': 'dismiss',
  'side-action-not-allowed': 'dismiss',
  'veto-spent': 'dismiss',
  'self-veto': 'dismiss',
  'self-forgive': 'dismiss',
  'forgive-without-penalty': 'dismiss',
};

const DISMISS: ReviewChoice = { label: 'Dismiss (it does not count)', action: 'dismiss', target: null };

/**
 * The posts whose current body the queue reads: a vote it may count as cast (self-vote,
 * vote for the dead), an edit (flagged, or any post with more than one body), a deleted
 * post (its text is quoted). Every other item is made from the tally and the post's head.
 */
export function reviewReadsBodyOf(
  tally: Tally | null,
): (post: Pick<PostHead, 'number' | 'revisions' | 'deleted'>) => boolean {
  const flagged = new Set((tally?.flags ?? []).filter((f) => COUNTABLE_FLAGS.has(f.kind)).map((f) => f.post));
  const edits = new Set((tally?.violations ?? []).filter((v) => v.kind === 'edit').map((v) => v.post));
  return (post) => post.deleted || post.revisions > 1 || flagged.has(post.number) || edits.has(post.number);
}

/**
 * The queue: one maker per source of items, in order (flags, loose readings, violations,
 * edits the tally does not mention, deleted posts); an item already made under a key is
 * not made again. Open items first, then by post.
 */
export function reviewQueue(input: ReviewInput): ReviewItem[] {
  const ctx = reviewContext(input);
  const items: ReviewItem[] = [];
  const made = new Set<string>();
  const add = (item: ReviewItem): void => {
    if (made.has(item.key)) return;
    made.add(item.key);
    items.push(item);
  };
  for (const f of input.tally?.flags ?? []) add(flagItem(ctx, f));
  for (const item of looseItems(input.tally, ctx.posts, ctx.pickable, ctx.resolvedBy)) add(item);
  for (const v of input.tally?.violations ?? []) add(violationItem(ctx, v));
  for (const p of input.posts) {
    const edit = made.has(`edit:${p.number}`) ? null : untallied(ctx, p);
    if (edit) add(edit);
    if (p.deleted) add(deletedItem(ctx, p));
  }
  return items.sort((a, b) => Number(a.resolved !== null) - Number(b.resolved !== null) || a.post - b.post);
}

/** What every maker reads: posts by number, the GM's corrections and accepts, who can be picked. */
interface ReviewContext {
  input: ReviewInput;
  posts: ReadonlyMap<number, HeadOrPost>;
  corrections: ReadonlyMap<number, string | null>;
  accepted: ReadonlySet<string>;
  pickable: readonly string[];
  /** A body's effect, read under the roster the count read the post with (replacements, deaths). */
  effectOf: (post: HeadOrPost, body: Body, edit: HeadOrPost['edit']) => Effect;
  resolvedBy: (post: number, key: string) => string | null;
}

function reviewContext(input: ReviewInput): ReviewContext {
  const { tally, ruleset, game } = input;
  const corrections = new Map<number, string | null>();
  for (const e of input.events) if (e.event.kind === 'correct') corrections.set(e.event.post, e.event.target);
  const settled = (action: AuditEntry['action']) =>
    new Set(
      input.audit.filter((a) => a.action === action).map((a) => String((a.detail as { key?: unknown }).key ?? '')),
    );
  const accepted = settled('review.accept');
  const dismissed = settled('review.dismiss');
  const living = tally?.players ?? game.roster.filter((s) => s.alive).map((s) => s.name);
  const noLynch = ruleset.noLynch?.name;
  // The roster the count read with: the GM's events and the count's own deaths (a Day's
  // hammered player is dead on Day 2), so "Count it (X)" names whom the count would.
  const events = readingEvents(
    input.events.map((e) => e.event),
    tally?.ownDeaths ?? [],
  );
  return {
    input,
    posts: new Map(input.posts.map((p) => [p.number, p])),
    corrections,
    accepted,
    pickable: [...living, ...(noLynch ? [noLynch] : [])],
    effectOf: (post, body, edit) =>
      readPost({ body, edit }, rosterAt(game.roster, events, { number: post.number, postedAt: post.postedAt }), ruleset)
        .effect,
    resolvedBy: (post, key) => {
      if (corrections.has(post)) {
        const t = corrections.get(post);
        return t === null ? 'Vote ignored by the GM' : `Counted as a vote for ${t}`;
      }
      return accepted.has(key) ? 'Accepted by the GM' : dismissed.has(key) ? 'Dismissed by the GM' : null;
    },
  };
}

/** The fields every item has the same way: no pick list, no candidates, no diff. */
function plainItem(
  fields: Pick<
    ReviewItem,
    'key' | 'kind' | 'post' | 'player' | 'title' | 'detail' | 'permalink' | 'choices' | 'resolved'
  >,
): ReviewItem {
  return { pick: [], candidates: [], diff: null, ...fields };
}

/** A flag of the count's: a target it could not settle, a vote that cannot count, a GM correction. */
function flagItem(ctx: ReviewContext, f: Flag): ReviewItem {
  const permalink = ctx.posts.get(f.post)?.permalink ?? null;
  if (f.kind === 'gm-correction') {
    const target = ctx.corrections.get(f.post);
    const resolved =
      target === undefined
        ? 'Corrected'
        : target === null
          ? 'Vote ignored by the GM'
          : `Counted as a vote for ${target}`;
    const title = 'Corrected by the GM';
    return plainItem({
      key: `correction:${f.post}`,
      kind: 'flag',
      post: f.post,
      player: f.player,
      title,
      detail: f.raw,
      permalink,
      choices: [],
      resolved,
    });
  }
  const key = `flag:${f.post}:${f.kind}`;
  const target = TARGET_FLAGS.has(f.kind);
  const tally = ctx.input.tally;
  const moot = target && tally ? laterVote(f, tally) : null;
  const choices: ReviewChoice[] = [];
  if (FLAG_ANSWERS[f.kind] === 'dismiss') choices.push(DISMISS);
  else {
    if (COUNTABLE_FLAGS.has(f.kind)) {
      const post = ctx.posts.get(f.post);
      const t = post ? ctx.effectOf(post, bodyOf(post), post.edit).target : null;
      if (t) choices.push({ label: `Count it (${t})`, action: 'correct', target: t });
    }
    choices.push({ label: 'Ignore this vote', action: 'correct', target: null });
  }
  return {
    ...plainItem({
      key,
      kind: 'flag',
      post: f.post,
      player: f.player,
      title: FLAG_TITLES[f.kind] ?? f.kind,
      detail: f.note ? `${f.raw} (${f.note})` : f.raw,
      permalink,
      choices,
      resolved: null,
    }),
    pick: target ? [...ctx.pickable] : [],
    candidates: f.candidates,
    resolved: ctx.resolvedBy(f.post, key) ?? (moot === null ? null : `Moot: ${f.player} voted again in post ${moot}`),
  };
}

/** A rule violation; an edit violation offers the vote before and after the edit. */
function violationItem(ctx: ReviewContext, v: TallyViolation): ReviewItem {
  const post = ctx.posts.get(v.post);
  const isEdit = v.kind === 'edit';
  const key = isEdit ? `edit:${v.post}` : `violation:${v.post}:${v.kind}`;
  const before = post ? ctx.input.previousBodies.get(post.key) : undefined;
  const edit = isEdit && post ? editChoices(ctx, post, before) : null;
  return {
    ...plainItem({
      key,
      kind: isEdit ? 'edit' : 'violation',
      post: v.post,
      player: v.player,
      title: isEdit ? 'Edited post' : `Rule violation: ${v.kind} (${v.consequence})`,
      detail: v.detail,
      permalink: post?.permalink ?? null,
      choices: edit?.choices ?? [{ label: 'Accept', action: 'accept', target: null }],
      resolved: isEdit ? ctx.resolvedBy(v.post, key) : ctx.accepted.has(key) ? 'Accepted by the GM' : null,
    }),
    diff: edit?.diff ?? null,
  };
}

/** An edit's answers: keep the vote it replaced, accept the edit (its vote), ignore its vote. */
function editChoices(
  ctx: ReviewContext,
  post: HeadOrPost,
  before: Body | undefined,
): { choices: ReviewChoice[]; diff: DiffPart[] | null } {
  const now = ctx.effectOf(post, bodyOf(post), post.edit);
  const choices: ReviewChoice[] = [];
  let diff: DiffPart[] | null = null;
  if (before) {
    diff = wordDiff(plainText(before), plainText(bodyOf(post)));
    const was = ctx.effectOf(post, before, null);
    if (was.kind === 'vote' && was.target && was.target !== now.target)
      choices.push({ label: `Keep the original vote (${was.target})`, action: 'correct', target: was.target });
  }
  choices.push(
    now.kind === 'vote' && now.target
      ? { label: `Accept the edit (${now.target})`, action: 'correct', target: now.target }
      : { label: 'Accept the edit', action: 'accept', target: null },
  );
  if (now.kind === 'vote') choices.push({ label: 'Ignore this vote', action: 'correct', target: null });
  return { choices, diff };
}

/**
 * Edits the forum marked are read as `edit` violations by the parser; silent ones by the
 * fold. An edited post the tally does not mention (its ruleset ignores edits) still shows
 * when the edit changes its vote.
 */
function untallied(ctx: ReviewContext, p: HeadOrPost): ReviewItem | null {
  if (p.revisions <= 1) return null;
  const before = ctx.input.previousBodies.get(p.key);
  if (!before) return null;
  const now = ctx.effectOf(p, bodyOf(p), p.edit);
  const was = ctx.effectOf(p, before, null);
  if (now.kind === was.kind && now.target === was.target) return null; // the edit does not touch the vote
  const key = `edit:${p.number}`;
  const choices: ReviewChoice[] = [];
  if (was.kind === 'vote' && was.target)
    choices.push({ label: `Keep the original vote (${was.target})`, action: 'correct', target: was.target });
  choices.push(
    now.kind === 'vote' && now.target
      ? { label: `Accept the edit (${now.target})`, action: 'correct', target: now.target }
      : { label: 'Accept the edit', action: 'accept', target: null },
  );
  return {
    ...plainItem({
      key,
      kind: 'edit',
      post: p.number,
      player: p.author,
      title: p.edit ? 'Edited vote' : 'Silent edit of a vote',
      detail: p.edit ? `edited: ${p.edit.text}` : 'changed without an edit marker',
      permalink: p.permalink,
      choices,
      resolved: ctx.resolvedBy(p.number, key),
    }),
    diff: wordDiff(plainText(before), plainText(bodyOf(p))),
  };
}

/** A deleted post: its text quoted, its vote kept or ignored. */
function deletedItem(ctx: ReviewContext, p: HeadOrPost): ReviewItem {
  const key = `deleted:${p.number}`;
  const now = ctx.effectOf(p, bodyOf(p), p.edit);
  const choices: ReviewChoice[] =
    now.kind === 'vote' && now.target
      ? [
          { label: `Keep counting it (${now.target})`, action: 'correct', target: now.target },
          { label: 'Ignore its vote', action: 'correct', target: null },
        ]
      : [DISMISS];
  return plainItem({
    key,
    kind: 'deleted',
    post: p.number,
    player: p.author,
    title: 'Deleted post',
    detail: `${p.author}: "${clip(plainText(bodyOf(p)))}"`,
    permalink: p.permalink,
    choices,
    resolved: ctx.resolvedBy(p.number, key),
  });
}

/**
 * Votes counted on a loose reading of a name ("Carl" for Carol, fuzzy): once per voter,
 * name as written and Day, at the first post that wrote it, with a one-click correction
 * (count it for someone else, or ignore it) and "Right" to keep the reading.
 */
function looseItems(
  tally: Tally | null,
  posts: ReadonlyMap<number, HeadOrPost>,
  pickable: readonly string[],
  resolvedBy: (post: number, key: string) => string | null,
): ReviewItem[] {
  if (!tally) return [];
  const seen = new Map<string, ReviewItem>();
  for (const w of tally.wagons) {
    for (const v of w.voters) {
      if (!isLooseMatch(v.match)) continue;
      const key = `loose:${tally.day}:${v.player}:${v.written ?? ''}:${w.target}`;
      const known = seen.get(key);
      if (known && known.post <= v.post) continue;
      seen.set(key, {
        key,
        kind: 'flag',
        post: v.post,
        player: v.player,
        title:
          v.match === 'nickname' ? 'Name read by a nickname from an earlier game' : `Name read loosely (${v.match})`,
        detail: `${v.player} → ${w.target} (${looseReading(v.written, v.match, v.from)})`,
        permalink: posts.get(v.post)?.permalink ?? v.permalink,
        pick: [...pickable],
        candidates: [w.target],
        choices: [
          { label: `Right: ${w.target}`, action: 'accept', target: null },
          { label: 'Ignore this vote', action: 'correct', target: null },
        ],
        diff: null,
        resolved: resolvedBy(v.post, key),
      });
    }
  }
  return [...seen.values()];
}

function clip(text: string, max = 200): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
