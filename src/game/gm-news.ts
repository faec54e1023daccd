import { createHash } from 'node:crypto';
import type { GmEvent } from '../model/event.js';
import { readGmPost, rosterNames, type GmProposal, type GmUnread } from '../parse/gm-posts.js';
import { loadGmPhrases, type GmPhrases } from '../rules/gm-phrases.js';
import type { Ruleset } from '../rules/ruleset.js';
import { stableJson } from './game-ruleset.js';
import type { AuditAction, AuditEntry } from '../model/audit.js';
import type { Game } from '../model/game.js';
import type { GameSettings } from '../model/game-settings.js';
import type { StoredGmEvent } from '../store/events-repo.js';
import type { HeadOrPost, PostHead } from '../store/posts-repo.js';
import { bodyOf } from './post-bodies.js';

/**
 * What the GM's own posts announced that the game does not hold yet: each a proposed event
 * the GM confirms with one click (it is then recorded like any GM event) or dismisses.
 * Worked out afresh from the stored posts each time: nothing is stored but the GM's answers.
 */
export interface GmNewsItem extends GmProposal {
  /** Stable across reads: what a dismissal is recorded under. */
  key: string;
  author: string;
  permalink: string | null;
}

export interface GmNewsUnread extends GmUnread {
  key: string;
  author: string;
  permalink: string | null;
}

export interface GmNews {
  /** The GM's forum names read for news. */
  gms: string[];
  proposals: GmNewsItem[];
  unread: GmNewsUnread[];
}

/** The audit action a dismissal is recorded under (detail: `{ key }`). */
export const NEWS_DISMISS = 'news.dismiss' satisfies AuditAction;

export interface GmNewsInput {
  game: Pick<Game, 'ruleset' | 'roster' | 'settings'>;
  ruleset: Ruleset;
  /** Every post; bodies are read only of those `newsReadsBodyOf` names. */
  posts: readonly HeadOrPost[];
  events: readonly StoredGmEvent[];
  /** The game's audit entries with the GM's dismissals (`NEWS_DISMISS`), all of them. */
  audit: readonly AuditEntry[];
}

export function gmNews(input: GmNewsInput): GmNews {
  const { game, ruleset } = input;
  const gms = gmNames(game.settings, input.posts);
  const reads = newsReadsBodyOf(game.settings, input.posts);
  const phrases = phrasesFor(game.ruleset);
  const names = rosterNames(game.roster);
  const zone = game.settings.timeZone ?? ruleset.schedule?.timeZone ?? null;
  const recorded = new Set(input.events.map((e) => sameNews(e.event)));
  const dismissed = new Set(input.audit.filter((a) => a.action === NEWS_DISMISS).map((a) => String(a.detail['key'])));

  const proposals: GmNewsItem[] = [];
  const unread: GmNewsUnread[] = [];
  for (const post of input.posts) {
    if (!reads(post)) continue;
    const reading = readGmPost({ number: post.number, body: bodyOf(post), postedAt: post.postedAt }, names, phrases, {
      timeZone: zone,
    });
    const where = { author: post.author, permalink: post.permalink };
    for (const p of reading.proposals) {
      const key = digest(`${p.post}:${stableJson(p.event)}`);
      if (recorded.has(sameNews(p.event)) || dismissed.has(key)) continue;
      proposals.push({ ...p, key, ...where });
    }
    for (const u of reading.unread) {
      const key = digest(`${u.post}:${u.sentence}`);
      if (!dismissed.has(key)) unread.push({ ...u, key, ...where });
    }
  }
  return { gms, proposals, unread };
}

/** The posts whose bodies news reads: the GM's own that the forum still shows. */
export function newsReadsBodyOf(
  settings: GameSettings,
  posts: readonly Pick<PostHead, 'number' | 'author'>[],
): (post: Pick<PostHead, 'author' | 'deleted'>) => boolean {
  const isGm = new Set(gmNames(settings, posts).map((n) => n.toLowerCase()));
  return (post) => !post.deleted && isGm.has(post.author.toLowerCase());
}

/**
 * Who the GM is on the forum: `settings.gm` (a name, or several for co-hosts), else the
 * author of the thread's first post, who opened the game.
 */
export function gmNames(settings: GameSettings, posts: readonly Pick<PostHead, 'number' | 'author'>[]): string[] {
  const set = settings.gm;
  if (typeof set === 'string') return [set];
  if (set) return set;
  const first = posts.reduce<Pick<PostHead, 'number' | 'author'> | null>(
    (a, p) => (a === null || p.number < a.number ? p : a),
    null,
  );
  return first ? [first.author] : [];
}

/**
 * What makes two events the same news, whatever post they were recorded after: the GM
 * who already recorded "kill Dave" by hand is not asked again.
 */
function sameNews(e: GmEvent): string {
  switch (e.kind) {
    case 'kill':
    case 'modkill':
    case 'revive':
      return `${e.kind}:${e.player.toLowerCase()}`;
    case 'replace':
      return `replace:${e.player.toLowerCase()}:${e.by.toLowerCase()}`;
    case 'day-start':
      return `day-start:${e.day}`;
    case 'day-end':
      return `day-end:${e.at ?? e.time ?? ''}`;
    case 'deadline':
      return `deadline:${Date.parse(e.time)}`;
    default:
      return stableJson(e);
  }
}

const phrasesByRuleset = new Map<string, GmPhrases>();
/** Phrase files are part of the install: read once per ruleset name. */
function phrasesFor(ruleset: string): GmPhrases {
  let p = phrasesByRuleset.get(ruleset);
  if (!p) {
    p = loadGmPhrases(ruleset);
    phrasesByRuleset.set(ruleset, p);
  }
  return p;
}

const digest = (s: string): string => createHash('sha256').update(s).digest('hex').slice(0, 16);
