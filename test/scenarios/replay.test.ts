import { describe, expect, it } from 'vitest';
import { countVotes } from '../../src/tally/count.js';
import { loadThread, positionOf, threadFiles } from './thread-fixture.js';

/**
 * Replay: the tally as at every post of a fixture thread equals a fresh count of the log
 * cut at that post (posts up to it, GM and clock events placed up to it), in both views.
 */
describe('replay of the fixture threads', () => {
  const files = threadFiles();

  it('there is a fixture thread for every seed ruleset', () => {
    expect(files).toEqual(
      expect.arrayContaining(
        ['open-conspiracy', 'onuw-gog', 'detective-conan', 'twg2', 'witchhunt'].map((r) => `${r}.thread.yaml`),
      ),
    );
  });

  it.each(files)('%s: the count as at post N equals a count of the log cut at N, for every N', (file) => {
    const thread = loadThread(file);
    const last = Math.max(...thread.posts.map((p) => p.post));
    for (let n = 0; n <= last; n++) {
      const cut = thread.events.filter((e) => positionOf(e, thread.posts) <= n);
      for (const view of ['gm', 'public'] as const) {
        const base = { ruleset: thread.ruleset, roster: thread.roster, view, explain: true };
        expect(countVotes({ ...base, events: thread.events, toPost: n }), `${file} as at post ${n} (${view})`).toEqual(
          countVotes({ ...base, events: cut }),
        );
      }
    }
  });

  it.each(files)('%s: the count as at the time of each post equals the count as at that post', (file) => {
    const thread = loadThread(file);
    for (const post of thread.posts) {
      if (post.time === null) continue;
      const base = { ruleset: thread.ruleset, roster: thread.roster, events: thread.events, explain: true };
      // Events timed after the post but placed at it (a deadline before the next post) are not yet.
      const timedLater = thread.gm.some(
        (e) =>
          e.kind !== 'correct' &&
          e.time !== undefined &&
          Date.parse(e.time) > Date.parse(post.time!) &&
          positionOf(e, thread.posts) === post.post,
      );
      if (timedLater) continue;
      expect(countVotes({ ...base, toTime: post.time }), `${file} at ${post.time}`).toEqual(
        countVotes({ ...base, toPost: post.post }),
      );
    }
  });
});
