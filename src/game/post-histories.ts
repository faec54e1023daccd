import { plainText } from '../model/body.js';
import type { PostReading } from '../model/action.js';
import type { GmEvent } from '../model/event.js';
import type { Post } from '../model/post.js';
import type { Roster } from '../model/roster.js';
import { readPost } from '../parse/read-post.js';
import type { Ruleset } from '../rules/ruleset.js';
import type { Game } from '../model/game.js';
import { storeOn, type Repos } from '../store/open-store.js';
import type { PostHead } from '../store/posts-repo.js';
import type { Sql } from '../store/sql.js';
import { rosterAt } from '../tally/slot-names.js';
import type { PostHistory, RevisionReading } from './fold-game.js';
import { rulesetVersion } from './game-ruleset.js';

export type HistoryStore = Pick<Repos, 'posts' | 'readings'> & { sql: Sql };

export interface Histories {
  histories: PostHistory[];
  /** Revisions read now (not found among the saved readings). */
  parsed: number;
}

/** A stored post, with or without its current body (`posts.headsOf` leaves it out). */
export type HistoryPost = PostHead & { body?: Post['body'] };

/**
 * Every post with every revision's reading under this ruleset and the roster as the game
 * knew it at that post (a replacement before it adds the new name, the old one still names
 * the slot; a kill or modkill before it marks the slot dead, so a name that fits one living
 * player and only dead ones is the living one's); revisions not read yet are parsed and,
 * with `save`, saved (so a poll that died before this step is caught up). Readings are
 * kept per ruleset + roster version, and the version hashes the alive flags too: a reading
 * made before a death is not reused after it.
 *
 * Posts may come without bodies: a body is only loaded for a revision with no saved
 * reading, and for edited posts (the edit's evidence quotes both versions).
 */
export async function postHistories(
  store: HistoryStore,
  game: Game,
  ruleset: Ruleset,
  gmEvents: readonly GmEvent[],
  posts: readonly HistoryPost[],
  options: { save: boolean },
): Promise<Histories> {
  const book = readingBook(store, game, ruleset, gmEvents);
  // Bodies of never-edited posts that have no reading yet, in one query.
  const unread: number[] = [];
  for (const p of posts) {
    if (p.revisions > 1 || p.body !== undefined) continue;
    if (!(await book.versionOf(p)).saved.has(p.revisionId)) unread.push(p.revisionId);
  }
  const bodies = await store.posts.bodiesOf(unread);

  const out: PostHistory[] = [];
  for (const p of posts) {
    const v = await book.versionOf(p);
    const revisions =
      p.revisions <= 1 ? [onceRead(book, v, p, bodies.get(p.revisionId))] : await editedRevisions(store, book, v, p);
    out.push({
      number: p.number,
      author: p.author,
      postedAt: p.postedAt,
      permalink: p.permalink,
      deleted: p.deleted,
      revisions,
    });
  }
  // New readings are saved together (one commit, not one per post).
  if (options.save && book.fresh.size > 0) {
    await store.sql.transaction(async (tx) => {
      const readings = storeOn(tx).readings;
      for (const f of book.fresh.values()) await readings.save(f.revisionId, f.version, f.reading);
    });
  }
  return { histories: out, parsed: book.fresh.size };
}

/** The readings under one ruleset + roster version: those saved, and those read now. */
interface Version {
  roster: Roster;
  version: string;
  saved: Map<number, PostReading>;
}

/** Where a poll's readings are looked up, and read when they are not saved yet. */
interface ReadingBook {
  /** The version a post is read under (the roster as the game knew it at that post). */
  versionOf(p: HistoryPost): Promise<Version>;
  /** A revision's reading: `known`, saved, read earlier in this pass, else read now. */
  readingOf(
    v: Version,
    revisionId: number,
    body: Post['body'],
    edit: Post['edit'],
    known?: PostReading | null,
  ): PostReading;
  /** Readings made in this pass, by `<version>:<revision>`. */
  fresh: Map<string, { revisionId: number; version: string; reading: PostReading }>;
}

function readingBook(store: HistoryStore, game: Game, ruleset: Ruleset, gmEvents: readonly GmEvent[]): ReadingBook {
  const versions = new Map<string, Version>();
  const fresh: ReadingBook['fresh'] = new Map();
  return {
    fresh,
    async versionOf(p) {
      const roster = rosterAt(game.roster, gmEvents, { number: p.number, postedAt: p.postedAt });
      const version = rulesetVersion(ruleset, roster);
      let known = versions.get(version);
      if (!known) {
        known = { roster, version, saved: await store.readings.forGame(game.id, version) };
        versions.set(version, known);
      }
      return known;
    },
    readingOf(v, revisionId, body, edit, known) {
      const key = `${v.version}:${revisionId}`;
      const cached = known ?? v.saved.get(revisionId) ?? fresh.get(key)?.reading ?? null;
      if (cached) return cached;
      const reading = readPost({ body, edit }, v.roster, ruleset);
      fresh.set(key, { revisionId, version: v.version, reading });
      return reading;
    },
  };
}

/** A never-edited post: its one revision (its text is never quoted: only an edit's evidence is). */
function onceRead(book: ReadingBook, v: Version, p: HistoryPost, loaded: Post['body'] | undefined): RevisionReading {
  const saved = v.saved.get(p.revisionId) ?? null;
  const body = p.body ?? loaded;
  if (!saved && body === undefined) {
    throw new Error(`post ${p.number} (revision ${p.revisionId}) has no stored body to read`);
  }
  return {
    reading: book.readingOf(v, p.revisionId, body ?? [], p.edit, saved),
    firstSeen: p.firstSeen,
    edit: p.edit,
    text: '',
  };
}

/** An edited post: every revision, read, with its text for the edit's evidence. */
async function editedRevisions(
  store: HistoryStore,
  book: ReadingBook,
  v: Version,
  p: HistoryPost,
): Promise<RevisionReading[]> {
  const all = await store.posts.revisionsOf(p.key);
  const revisions: RevisionReading[] = [];
  for (const r of all) {
    const known = v.saved.get(r.id) ?? (await store.readings.get(r.id, v.version));
    revisions.push({
      reading: book.readingOf(v, r.id, r.body, r.edit, known),
      firstSeen: r.firstSeen,
      edit: r.edit,
      text: plainText(r.body),
    });
  }
  // The body the forum shows now is the newest; a post that went back to an earlier
  // body shows that one again, from when it came back.
  const currentIndex = all.findIndex((r) => r.current);
  if (currentIndex >= 0 && currentIndex !== all.length - 1) {
    revisions.push({ ...revisions[currentIndex]!, firstSeen: latestSighting(all, currentIndex, p) });
  }
  return revisions;
}

/** A post went back to an earlier body: it did so after the last sighting of any other body. */
function latestSighting(all: readonly { lastSeen: string }[], index: number, p: HistoryPost): string {
  return (
    all
      .filter((_r, i) => i !== index)
      .map((r) => r.lastSeen)
      .sort()
      .at(-1) ?? p.firstSeen
  );
}
