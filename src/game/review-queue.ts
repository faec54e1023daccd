import type { Effect } from '../model/action.js';
import { plainText, type Body } from '../model/body.js';
import { bodyOf } from './post-bodies.js';
import { isLooseMatch, looseReading, type Flag, type Tally, type TallyViolation } from '../model/tally.js';
import { readPost } from '../parse/read-post.js';
import { laterVote, TARGET_FLAGS } from '../votal/render-votal.js';
import type { Ruleset } from '../rules/ruleset.js';
import type { AuditEntry } from '../model/audit.js';
import type { StoredGmEvent } from '../store/events-repo.js';
import type { Game } from '../model/game.js';
import type { HeadOrPost, PostHead } from '../store/posts-repo.js';
import { wordDiff, type DiffPart } from './word-diff.js';

/**
 * The GM's review queue: everything the count could not settle on its own, each with the
 * one-click answers that settle it. Every answer that changes the count is a GM `correct`
 * event (it survives recounts); "accept" on something that is not a vote is an audit
 * entry (`review.accept`) so the item leaves the queue without touching the count.
 */

export type ReviewKind = 'flag' | 'violation' | 'edit' | 'deleted';

export interface ReviewChoice {
  /** What the button says. */
  label: string;
  /** `correct`: a GM correction with `target` (null: ignore the post's vote); `accept`: noted only. */
  action: 'correct' | 'accept';
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

/** Flags whose vote can never count: "Accept" would change nothing, so it is not offered. */
const UNCOUNTABLE_FLAGS: ReadonlySet<Flag['kind']> = new Set(['vote-by-non-player']);

/** Flags whose answer may count the vote the post casts, so the queue reads what it says. */
const COUNTABLE_FLAGS: ReadonlySet<Flag['kind']> = new Set(['self-vote', 'vote-for-dead']);

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

export function reviewQueue(input: ReviewInput): ReviewItem[] {
  const { tally, ruleset, game } = input;
  const posts = new Map(input.posts.map((p) => [p.number, p]));
  const corrections = new Map<number, string | null>();
  for (const e of input.events) if (e.event.kind === 'correct') corrections.set(e.event.post, e.event.target);
  const accepted = new Set(
    input.audit
      .filter((a) => a.action === 'review.accept')
      .map((a) => String((a.detail as { key?: unknown }).key ?? '')),
  );
  const living = tally?.players ?? game.roster.filter((s) => s.alive).map((s) => s.name);
  const noLynch = ruleset.noLynch?.name;
  const pickable = [...living, ...(noLynch ? [noLynch] : [])];
  const effectOf = (body: Body, edit: HeadOrPost['edit']): Effect =>
    readPost({ body, edit }, game.roster, ruleset).effect;
  const resolvedBy = (post: number, key: string): string | null => {
    if (corrections.has(post)) {
      const t = corrections.get(post);
      return t === null ? 'Vote ignored by the GM' : `Counted as a vote for ${t}`;
    }
    return accepted.has(key) ? 'Accepted by the GM' : null;
  };
  const items: ReviewItem[] = [];

  for (const f of tally?.flags ?? []) {
    if (f.kind === 'gm-correction') {
      const target = corrections.get(f.post);
      items.push({
        key: `correction:${f.post}`,
        kind: 'flag',
        post: f.post,
        player: f.player,
        title: 'Corrected by the GM',
        detail: f.raw,
        permalink: posts.get(f.post)?.permalink ?? null,
        pick: [],
        candidates: [],
        choices: [],
        diff: null,
        resolved:
          target === undefined
            ? 'Corrected'
            : target === null
              ? 'Vote ignored by the GM'
              : `Counted as a vote for ${target}`,
      });
      continue;
    }
    const key = `flag:${f.post}:${f.kind}`;
    const target = TARGET_FLAGS.has(f.kind);
    const moot = target && tally ? laterVote(f, tally) : null;
    const choices: ReviewChoice[] = [];
    if (COUNTABLE_FLAGS.has(f.kind)) {
      const post = posts.get(f.post);
      const t = post ? effectOf(bodyOf(post), post.edit).target : null;
      if (t) choices.push({ label: `Count it (${t})`, action: 'correct', target: t });
    }
    choices.push({ label: 'Ignore this vote', action: 'correct', target: null });
    // "Accept" must count what it accepts: a non-player's vote cannot count, so there is none.
    if (!target && !UNCOUNTABLE_FLAGS.has(f.kind)) choices.push({ label: 'Accept', action: 'accept', target: null });
    items.push({
      key,
      kind: 'flag',
      post: f.post,
      player: f.player,
      title: FLAG_TITLES[f.kind] ?? f.kind,
      detail: f.raw,
      permalink: posts.get(f.post)?.permalink ?? null,
      pick: target ? pickable : [],
      candidates: f.candidates,
      choices,
      diff: null,
      resolved: resolvedBy(f.post, key) ?? (moot === null ? null : `Moot: ${f.player} voted again in post ${moot}`),
    });
  }

  items.push(...looseItems(tally, posts, pickable, resolvedBy));

  const violationKey = (v: TallyViolation): string => `violation:${v.post}:${v.kind}`;
  for (const v of tally?.violations ?? []) {
    const post = posts.get(v.post);
    const isEdit = v.kind === 'edit';
    const key = isEdit ? `edit:${v.post}` : violationKey(v);
    if (items.some((i) => i.key === key)) continue;
    const before = post ? input.previousBodies.get(post.key) : undefined;
    const choices: ReviewChoice[] = [];
    let diff: DiffPart[] | null = null;
    if (isEdit && post) {
      const now = effectOf(bodyOf(post), post.edit);
      if (before) {
        diff = wordDiff(plainText(before), plainText(bodyOf(post)));
        const was = effectOf(before, null);
        if (was.kind === 'vote' && was.target && was.target !== now.target) {
          choices.push({ label: `Keep the original vote (${was.target})`, action: 'correct', target: was.target });
        }
      }
      choices.push(
        now.kind === 'vote' && now.target
          ? { label: `Accept the edit (${now.target})`, action: 'correct', target: now.target }
          : { label: 'Accept the edit', action: 'accept', target: null },
      );
      if (now.kind === 'vote') choices.push({ label: 'Ignore this vote', action: 'correct', target: null });
    } else {
      choices.push({ label: 'Accept', action: 'accept', target: null });
    }
    items.push({
      key,
      kind: isEdit ? 'edit' : 'violation',
      post: v.post,
      player: v.player,
      title: isEdit ? 'Edited post' : `Rule violation: ${v.kind} (${v.consequence})`,
      detail: v.detail,
      permalink: post?.permalink ?? null,
      pick: [],
      candidates: [],
      choices,
      diff,
      resolved: isEdit ? resolvedBy(v.post, key) : accepted.has(key) ? 'Accepted by the GM' : null,
    });
  }

  // Edits the forum marked are read as `edit` violations by the parser; silent ones by the
  // fold. An edited post the tally does not mention (its ruleset ignores edits) still shows.
  for (const p of input.posts) {
    if (p.revisions <= 1 || items.some((i) => i.key === `edit:${p.number}`)) continue;
    const before = input.previousBodies.get(p.key);
    if (!before) continue;
    const now = effectOf(bodyOf(p), p.edit);
    const was = effectOf(before, null);
    if (now.kind === was.kind && now.target === was.target) continue; // the edit does not touch the vote
    const key = `edit:${p.number}`;
    const choices: ReviewChoice[] = [];
    if (was.kind === 'vote' && was.target)
      choices.push({ label: `Keep the original vote (${was.target})`, action: 'correct', target: was.target });
    choices.push(
      now.kind === 'vote' && now.target
        ? { label: `Accept the edit (${now.target})`, action: 'correct', target: now.target }
        : { label: 'Accept the edit', action: 'accept', target: null },
    );
    items.push({
      key,
      kind: 'edit',
      post: p.number,
      player: p.author,
      title: p.edit ? 'Edited vote' : 'Silent edit of a vote',
      detail: p.edit ? `edited: ${p.edit.text}` : 'changed without an edit marker',
      permalink: p.permalink,
      pick: [],
      candidates: [],
      choices,
      diff: wordDiff(plainText(before), plainText(bodyOf(p))),
      resolved: resolvedBy(p.number, key),
    });
  }

  for (const p of input.posts) {
    if (!p.deleted) continue;
    const key = `deleted:${p.number}`;
    const now = effectOf(bodyOf(p), p.edit);
    const choices: ReviewChoice[] = [];
    if (now.kind === 'vote' && now.target) {
      choices.push({ label: `Keep counting it (${now.target})`, action: 'correct', target: now.target });
      choices.push({ label: 'Ignore its vote', action: 'correct', target: null });
    } else {
      choices.push({ label: 'Accept', action: 'accept', target: null });
    }
    items.push({
      key,
      kind: 'deleted',
      post: p.number,
      player: p.author,
      title: 'Deleted post',
      detail: `${p.author}: "${clip(plainText(bodyOf(p)))}"`,
      permalink: p.permalink,
      pick: [],
      candidates: [],
      choices,
      diff: null,
      resolved: resolvedBy(p.number, key),
    });
  }
  return items.sort((a, b) => Number(a.resolved !== null) - Number(b.resolved !== null) || a.post - b.post);
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
        title: `Name read loosely (${v.match})`,
        detail: `${v.player} → ${w.target} (${looseReading(v.written, v.match)})`,
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
