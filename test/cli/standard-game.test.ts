import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCount } from '../../src/cli/count-command.js';
import { PageFetcher } from '../../src/fetch/page-fetcher.js';
import { startFakeForum, type FakeForum } from '../../src/fake-forum/server.js';
import { mountThreadFolder } from '../../src/fake-forum/thread-folder.js';
import type { Tally } from '../../src/model/tally.js';

/**
 * The standard game, rendered into every engine's markup, must count the same way on
 * every engine: `votal count --format json` field by field against the expected count.
 */
const root = join(import.meta.dirname, '../..');
const shared = JSON.parse(readFileSync(join(root, 'fixtures/games/standard-game.expected.json'), 'utf8')) as Expected;
const engines = readdirSync(join(root, 'fixtures')).filter((e) =>
  existsSync(join(root, 'fixtures', e, 'standard-game', 'thread.json')),
);
const players = 'Alice, Bob, Carol, Dave, Davina, Eve, Frank';

type Expected = Omit<Tally, 'engine' | 'players' | 'outcome' | 'violations' | 'flags'> & {
  outcome: { status: string; eliminated: string[] };
  violations: { player: string; post: number; kind: string; consequence: string }[];
  flags: { post: number; player: string | null; kind: string; candidates?: string[] }[];
};

/** An engine that cannot show a feature (GOG has no spoiler tag) keeps its own expected count. */
function expectedFor(engine: string): Expected {
  const own = join(root, 'fixtures', engine, 'standard-game', 'expected.json');
  if (!existsSync(own)) return shared;
  const o = JSON.parse(readFileSync(own, 'utf8')) as Partial<Expected> & { differences?: unknown };
  return { ...shared, ...Object.fromEntries(Object.entries(o).filter(([k]) => k in shared)) } as Expected;
}

let forum: FakeForum;
beforeAll(async () => {
  process.env.VOTAL_ALLOW_PRIVATE_HOSTS = '1';
  forum = await startFakeForum();
});
afterAll(async () => {
  await forum?.close();
});

describe('the standard game counts the same on every engine', () => {
  it('has fixture threads for XenForo 2 and phpBB at least', () => {
    expect(engines).toEqual(expect.arrayContaining(['xenforo2', 'phpbb']));
  });

  for (const engine of engines) {
    describe(engine, () => {
      let tally: Tally;
      const expected = expectedFor(engine);
      beforeAll(async () => {
        const { url } = mountThreadFolder(forum, join(root, 'fixtures', engine, 'standard-game'), `/${engine}`);
        const source = new PageFetcher({ minIntervalMs: 0, allowPrivateHosts: true });
        tally = (
          await runCount(
            url,
            { ruleset: join(root, 'fixtures/games/standard-ruleset.yaml'), players, format: 'json' },
            source,
          )
        ).tally;
      });

      it('names the engine and ruleset', () => {
        expect(tally.engine).toBe(engine);
        expect(tally.ruleset).toBe(expected.ruleset);
      });
      it('reads every post of every page', () => {
        expect(tally.postsRead).toBe(expected.postsRead);
        expect(tally.asOfPost).toBe(expected.asOfPost);
      });
      it('counts the living and the majority threshold', () => {
        expect(tally.living).toBe(expected.living);
        expect(tally.threshold).toEqual(expected.threshold);
      });
      it('builds each wagon with its voters and their vote posts, in order', () => {
        expect(
          tally.wagons.map((w) => ({
            target: w.target,
            votes: w.votes,
            penalty: w.penalty,
            total: w.total,
            toThreshold: w.toThreshold,
            voters: w.voters.map((v) => ({ player: v.player, post: v.post, weight: v.weight })),
          })),
        ).toEqual(expected.wagons);
      });
      it('links each voter to the post of the vote', () => {
        for (const w of tally.wagons)
          for (const v of w.voters) expect(v.permalink).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
      });
      it('lists who is not voting', () => {
        expect(tally.notVoting).toEqual(expected.notVoting);
      });
      it('reports images (not smilies), outside links (not internal ones), code and the edit marker', () => {
        expect(
          tally.violations.map((v) => ({ player: v.player, post: v.post, kind: v.kind, consequence: v.consequence })),
        ).toEqual(expected.violations);
      });
      it('flags what the GM must decide, never guessing', () => {
        expect(
          tally.flags.map((f) => ({
            post: f.post,
            player: f.player,
            kind: f.kind,
            ...(f.candidates.length ? { candidates: f.candidates } : {}),
          })),
        ).toEqual(expected.flags);
      });
      it('gives the outcome', () => {
        expect({ status: tally.outcome.status, eliminated: tally.outcome.eliminated }).toEqual(expected.outcome);
      });
    });
  }
});
