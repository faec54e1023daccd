import type { FakeForum } from '../../src/fake-forum/server.js';
import { FakeThread } from '../publish/fake-thread.js';

/**
 * The thread of the count's own eliminations (issue #24): Day 1 on the stand-in forum
 * (XenForo 2, ten posts a page), four of seven players hammer Prolapsed Brain (#2-#5), then
 * the posts each test gives, from #6. "Vote: PB" with PeaceBringer and Prolapsed Brain both
 * playing is MafiaScum game 1671 post #1110 (donbot data 739243d), there after Prolapsed
 * Brain's death.
 */
export const HAMMER_USERS = {
  Moderator: 1,
  Alice: 11,
  Bob: 12,
  Carol: 13,
  Dave: 14,
  Eve: 15,
  PeaceBringer: 16,
  'Prolapsed Brain': 17,
};

/** The game's players: everyone but the Moderator. */
export const HAMMER_PLAYERS = Object.keys(HAMMER_USERS).slice(1);

/** The thread with Day 1's hammer; `add` writes the posts after it (five minutes apart from 18:05 UTC). */
export function hammerThread(
  forum: FakeForum,
  threadId: number,
): { thread: FakeThread; add: (author: string, text: string) => void } {
  const thread = new FakeThread(forum, { engine: 'xenforo2', postsPerPage: 10, users: HAMMER_USERS, threadId });
  const add = (author: string, text: string) => {
    thread.add({ author, body: text });
  };
  add('Moderator', 'Day 1 begins.'); // #1
  for (const voter of ['Alice', 'Bob', 'Carol', 'Dave']) add(voter, '[b]Vote: Prolapsed Brain[/b]'); // #2-#5: 4 of 7, the hammer
  return { thread, add };
}
