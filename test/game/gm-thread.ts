import type { PostHistory } from '../../src/game/fold-game.js';
import type { Body } from '../../src/model/body.js';
import type { GmEvent } from '../../src/model/event.js';
import type { Roster } from '../../src/model/roster.js';
import type { Ruleset } from '../../src/rules/ruleset.js';
import { readPost } from '../../src/parse/read-post.js';
import { rosterAt } from '../../src/tally/slot-names.js';

/** A post of a small test thread; its number is its place in the list unless given. */
export type ThreadEntry = [author: string, content: Body, number?: number];

export const threadLink = (n: number): string => `https://forum.example/viewtopic.php?p=${1000 + n}#p${1000 + n}`;

/**
 * The thread's posts (a minute apart) and their histories, each read once by the real parser
 * with the roster as it stands at that post: what the GM checks are run on.
 */
export function threadOf(entries: ThreadEntry[], roster: Roster, gmEvents: GmEvent[], ruleset: Ruleset) {
  const posts = entries.map(([author, content, number], i) => ({
    number: number ?? i + 1,
    author,
    postedAt: new Date(Date.UTC(2026, 2, 3, 10, i)).toISOString(),
    permalink: threadLink(i + 1),
    deleted: false,
    body: content,
  }));
  const histories: PostHistory[] = posts.map((p) => ({
    ...p,
    revisions: [
      {
        reading: readPost({ body: p.body, edit: null }, rosterAt(roster, gmEvents, p), ruleset),
        firstSeen: p.postedAt,
        edit: null,
        text: '',
      },
    ],
  }));
  return { posts, histories };
}
