import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type BodyNode, plainText } from '../../src/model/body.js';
import type { Post } from '../../src/model/post.js';
import { fromForumText, fromIso } from '../../scrapers/forum-time.js';

/**
 * The harvest corpus (../shared/forum-samples/harvest/*.json, its README): real thread
 * pages with hand-made per-post gold, and how a reading is held to it, as issue 23
 * defines "read right": every post, authors equal, times equal to the minute, text equal
 * up to quotes and signatures.
 */
export interface HarvestGold {
  url: string;
  html: string;
  gold_standard_annotation: {
    post_text: { surface_form: string };
    datetime: { surface_form: string };
    user: { surface_form: string };
    post_link?: { surface_form: string };
  }[];
}

/** Beside the repository (../shared/forum-samples); VOTAL_SAMPLES_DIR names another place (a git worktree's). */
export const harvestDir = join(
  process.env.VOTAL_SAMPLES_DIR ?? resolve(join(import.meta.dirname, '../..'), '../shared/forum-samples'),
  'harvest',
);

export function harvestPages(): { file: string; gold: HarvestGold }[] {
  if (!existsSync(harvestDir)) return [];
  return readdirSync(harvestDir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((file) => ({ file, gold: JSON.parse(readFileSync(join(harvestDir, file), 'utf8')) as HarvestGold }));
}

/** What a reader saw of a post beside the Post (the generic reader's evidence). */
export interface Seen {
  post: Post;
  authorHref: string | null;
  timeText: string | null;
  timeFrom: 'attribute' | 'text' | null;
}

const words = (s: string): string[] => s.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

function overlap(a: readonly string[], b: readonly string[]): number {
  const counts = new Map<string, number>();
  for (const w of b) counts.set(w, (counts.get(w) ?? 0) + 1);
  let n = 0;
  for (const w of a) {
    const c = counts.get(w) ?? 0;
    if (c > 0) {
      n++;
      counts.set(w, c - 1);
    }
  }
  return n;
}

/** A profile link or a printed name, compared as the gold records it (README: `user`). */
function authorRight(gold: string, seen: Seen, pageUrl: string): boolean {
  const g = gold.trim();
  // Gold that took each post's quote button for its author (airliners.net 1437935:
  // "./posting.php?mode=quote&f=3&p=21893151") names the post, not the member: held to the post's id.
  const quoted = /[?&]mode=quote\b.*[?&]p=(\d+)/.exec(g)?.[1];
  if (quoted) return seen.post.id === quoted;
  if (/[/?=]|^javascript:/i.test(g)) {
    if (!seen.authorHref) return false;
    const norm = (h: string): string => {
      try {
        const u = new URL(h, pageUrl);
        u.hash = '';
        u.searchParams.delete('sid');
        u.searchParams.delete('s');
        return u.href.replace(/\/$/, '');
      } catch {
        return h;
      }
    };
    return norm(seen.authorHref) === norm(g);
  }
  // Neowin prints a subscriber's group mark before the name ("+Raze", its own <b>): the member is Raze
  // (the page's schema.org data and quote data say so), as the adapters' harvest test holds it.
  const name = seen.post.author.replace(/\s+/g, ' ').trim();
  return [g, g.replace(/^\+/, '')].some((n) => n.replace(/\s+/g, ' ') === name);
}

/**
 * The time as printed: the gold's text read in the page's order, equal to the minute
 * (to the day where the gold shows no clock time). A machine time in UTC may differ from
 * the printed wall time by the board's display zone (the corpus does not record it):
 * whole quarter hours up to 14 hours are that zone. A printed form no date rule reads
 * ("11 days ago") is right when the reader took its time from that very text. Gold copied
 * from a machine attribute with its offset is held to that instant.
 */
function timeRight(gold: string, seen: Seen, now: string): boolean {
  const mine = seen.post.postedAt;
  if (!mine) return false;
  const g = gold.replace(/\s+/g, ' ').trim();
  if (seen.timeText?.replace(/\s+/g, ' ').includes(g)) return true;
  // Gold copied from a machine attribute ("2011-12-03T17:27:18-05:00") is an instant: equal to the minute.
  const exact = /[T ]\d\d:\d\d.*(?:Z|[+-]\d\d:?\d\d)$/.test(g) ? fromIso(g) : null;
  if (exact) return Math.abs(Date.parse(mine) - Date.parse(exact)) < 60_000;
  for (const order of ['dmy', 'mdy'] as const) {
    const iso = fromForumText(g, { timeZone: 'UTC', dateOrder: order, now });
    if (!iso) continue;
    const diff = Math.abs(Date.parse(mine) - Date.parse(iso));
    const clock = /\d:\d\d|\dh\d\d/.test(g);
    if (!clock && diff < 38 * 3_600_000) return true;
    if (diff < 60_000) return true;
    if (seen.timeFrom === 'attribute' && diff <= 14 * 3_600_000 && diff % 900_000 < 60_000) return true;
  }
  return false;
}

/** Text equal up to quotes, signatures and chrome: nothing of the reader's is foreign, and nearly all of the gold is there. */
function textRight(gold: string, post: Post): { right: boolean; precision: number; recall: number } {
  // Up to signatures: the gold may hold the signature or not; the reader marks it as one.
  const own = words(plainText(withoutSignatures(post.body)));
  const mine = words(plainText(post.body));
  const theirs = words(gold);
  if (theirs.length === 0) return { right: mine.length === 0, precision: 1, recall: 1 };
  const precision = own.length === 0 ? 0 : overlap(own, theirs) / own.length;
  const recall = overlap(mine, theirs) / theirs.length;
  return { right: precision >= 0.9 && recall >= 0.8, precision, recall };
}

/** A post's own words: no signature, and no smilie's alt text (the gold's text rendering shows images as nothing). */
function withoutSignatures(body: readonly BodyNode[]): BodyNode[] {
  return body
    .filter((n) => n.t !== 'signature' && n.t !== 'smilie')
    .map((n) => ('children' in n ? ({ ...n, children: withoutSignatures(n.children) } as BodyNode) : n));
}

export interface PageVerdict {
  right: boolean;
  /** The first thing wrong, for the report. */
  why: string | null;
}

/**
 * Gold that stops before the page does (README: "a few gold entries are incomplete"), each
 * checked by hand against the page: the posts after the gold's last are compared by nothing.
 */
const SHORT_GOLD: Record<string, { posts: number; why: string }> = {
  'myparkinsons.org.cgi-bin.forum.topic_show.pl.json': {
    posts: 11,
    why: 'the gold stops after 9 posts; the page shows 11 (ResistanceFutil 2019.08.11 15:55, debspottery1 2019.10.01 10:46)',
  },
};

/**
 * Gold times that contradict the page they annotate, each checked by hand against the page's
 * own machine time: file, post (1-based), the time the page shows.
 */
const GOLD_TIME_ERRATA: Record<string, { post: number; time: string; why: string }[]> = {
  'www.medhelp.org.posts.Heart-Disease.Wolfe-Parkinson-White-Syndrome.show.250747.json': [
    {
      post: 10,
      time: 'Apr 18, 2000',
      why: 'the post\'s <time datetime="2000-04-18T00:00:00-05:00">; the gold repeats post 11\'s "Apr 25, 2000"',
    },
  ],
};

export function judgePage(gold: HarvestGold, all: readonly Seen[], now: string, file = ''): PageVerdict {
  const errata = GOLD_TIME_ERRATA[file] ?? [];
  const golds = gold.gold_standard_annotation.map((g, i) => {
    const fix = errata.find((e) => e.post === i + 1);
    return fix ? { ...g, datetime: { surface_form: fix.time } } : g;
  });
  const short = SHORT_GOLD[file];
  const seen = short && all.length === short.posts ? all.slice(0, golds.length) : all;
  if (seen.length !== golds.length)
    return { right: false, why: `${seen.length} posts read, the gold has ${golds.length}` };
  for (let i = 0; i < golds.length; i++) {
    const g = golds[i]!;
    const s = seen[i]!;
    if (!authorRight(g.user.surface_form, s, gold.url))
      return {
        right: false,
        why: `post ${i + 1}: author "${s.post.author}" (${s.authorHref}), gold "${g.user.surface_form}"`,
      };
    if (!timeRight(g.datetime.surface_form, s, now))
      return {
        right: false,
        why: `post ${i + 1}: time ${s.post.postedAt} ("${s.timeText}"), gold "${g.datetime.surface_form}"`,
      };
    const t = textRight(g.post_text.surface_form, s.post);
    if (!t.right)
      return {
        right: false,
        why: `post ${i + 1}: text precision ${t.precision.toFixed(2)} recall ${t.recall.toFixed(2)}`,
      };
  }
  return { right: true, why: null };
}
