import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeForum, type FakeForum } from '../../src/fake-forum/server.js';
import { pollGame, type PollDeps } from '../../src/game/poll-game.js';
import { openStore, type Store } from '../../src/store/open-store.js';
import {
  counts,
  newGame,
  pagePath,
  PLAYERS,
  ROOT,
  says,
  serve,
  standardScript,
  testClock,
  testSource,
  vote,
  withBody,
  without,
  withPosts,
} from './support.js';

const expected = JSON.parse(readFileSync(join(ROOT, 'fixtures/games/standard-game.expected.json'), 'utf8')) as {
  wagons: { target: string; total: number; voters: { player: string; post: number }[] }[];
  notVoting: string[];
  violations: { player: string; post: number; kind: string }[];
};

let forum: FakeForum;
let store: Store;
let nextThread = 7000;
const source = testSource();

beforeAll(async () => {
  forum = await startFakeForum();
  store = await openStore({ dataDir: 'memory://' });
});
afterAll(async () => {
  await store?.close();
  await forum?.close();
});

/** A fresh game on its own thread of the standard game. */
async function setup(settings: Record<string, unknown> = {}, extra: Parameters<typeof newGame>[3] = {}) {
  const script = standardScript(nextThread++);
  const url = serve(forum, script);
  const game = await newGame(store, url, settings, extra);
  const clock = testClock('2026-03-03T19:00:00Z');
  const deps: PollDeps = { store, source, now: clock.now };
  return { script, url, game, clock, deps };
}

describe('pollGame on the standard game (PGlite)', () => {
  it('a first poll stores every post and a tally', async () => {
    const { game, deps, script } = await setup();
    const r = await pollGame(deps, game.id);
    expect(r.status).toBe('polled');
    expect(r.added).toBe(22);
    expect(r.fullRead).toBe(true);
    expect(r.pages.read).toEqual([1, 2, 3]);

    const posts = await store.posts.postsOf(game.id);
    expect(posts.map((p) => p.number)).toEqual([...Array(22).keys()].map((i) => i + 1));
    expect((await store.threadPages.list(game.id)).map((p) => p.page)).toEqual([1, 2, 3]);
    expect((await store.games.get(game.id))?.engine).toBe('xenforo2');

    const tally = (await store.tallies.latest(game.id))!.tally;
    expect(tally.postsRead).toBe(22);
    expect(
      tally.wagons.map((w) => ({
        target: w.target,
        total: w.total,
        voters: w.voters.map((v) => ({ player: v.player, post: v.post })),
      })),
    ).toEqual(
      expected.wagons.map((w) => ({
        target: w.target,
        total: w.total,
        voters: w.voters.map((v) => ({ player: v.player, post: v.post })),
      })),
    );
    expect(tally.notVoting).toEqual(expected.notVoting);
    expect(tally.violations.map((v) => ({ player: v.player, post: v.post, kind: v.kind }))).toEqual(
      expected.violations.map((v) => ({ player: v.player, post: v.post, kind: v.kind })),
    );

    const actions = (await store.audit.list({ gameId: game.id })).map((a) => a.action);
    expect(actions).toEqual(expect.arrayContaining(['poll.read', 'tally.save']));
    const state = await store.polls.get(game.id);
    expect(state).toMatchObject({
      lastError: null,
      polls: 1,
      pageCount: 3,
      threadTitle: script.thread.title,
      leaseOwner: null,
    });
  });

  it('a second poll of an unchanged thread changes nothing', async () => {
    const { game, deps, script } = await setup();
    await pollGame(deps, game.id);
    const before = await counts(store, game.id);
    const mark = forum.requests.length;
    deps.now = () => '2026-03-03T19:05:00.000Z';
    const r = await pollGame(deps, game.id);
    expect(r).toMatchObject({
      status: 'polled',
      added: 0,
      edited: 0,
      deleted: 0,
      restored: 0,
      parsed: 0,
      tallyChanged: false,
      draft: null,
    });
    expect(r.pages).toEqual({ fromCache: [1, 2], unchanged: [3], read: [] });
    expect(await counts(store, game.id)).toEqual(before);
    // Only the last page was asked about, with its validator, and it answered 304.
    const asked = forum.requests.slice(mark).filter((q) => q.path.startsWith(pagePath(script, 1)));
    expect(asked.map((q) => [q.path, q.status])).toEqual([[pagePath(script, 3), 304]]);
    expect(asked[0]!.headers['if-none-match']).toBeTruthy();
  });

  it('new posts on the last page are counted', async () => {
    const { game, deps, script, clock } = await setup();
    await pollGame(deps, game.id);
    const more = withPosts(script, [
      { author: 'Dave', body: vote('Alice') },
      { author: 'Eve', body: says('Still thinking.') },
      { author: 'Alice', body: vote('Bob') }, // post 25: page 4
    ]);
    serve(forum, more);
    clock.advance(5 * 60_000);
    const r = await pollGame(deps, game.id);
    expect(r).toMatchObject({ status: 'polled', added: 3, fullRead: false, tallyChanged: true });
    expect(r.pages.read).toEqual([3, 4]);
    expect(r.pages.fromCache).toEqual([1, 2]);
    const tally = (await store.tallies.latest(game.id))!.tally;
    expect(tally.asOfPost).toBe(25);
    expect(tally.wagons.find((w) => w.target === 'Alice')?.voters.map((v) => [v.player, v.post])).toEqual([
      ['Dave', 23],
    ]);
    expect(tally.wagons.find((w) => w.target === 'Bob')?.voters.map((v) => [v.player, v.post])).toEqual([
      ['Carol', 17],
      ['Bob', 22],
      ['Alice', 25],
    ]);
    expect(tally.notVoting).toEqual([]);
    expect((await store.posts.postsOf(game.id)).length).toBe(25);
  });

  it('an edit without a marker is a new revision and an edit violation with both versions', async () => {
    const { game, deps, script, clock } = await setup();
    await pollGame(deps, game.id);
    // Post 22 (Bob, last page) changes its vote with no "last edited" line.
    serve(forum, withBody(script, 22, vote('Eve')));
    clock.advance(5 * 60_000);
    const r = await pollGame(deps, game.id);
    expect(r).toMatchObject({ status: 'polled', edited: 1, added: 0, tallyChanged: true });

    const post = (await store.posts.post(game.id, '9022'))!;
    expect(post.revisions).toBe(2);
    const revisions = await store.posts.revisionsOf(post.key);
    expect(revisions.map((x) => [x.edit, x.current])).toEqual([
      [null, false],
      [null, true],
    ]);

    const audit = (await store.audit.list({ gameId: game.id })).find((a) => a.action === 'post.edit')!;
    expect(audit.detail).toMatchObject({ post: 22, author: 'Bob', silent: true });
    expect((audit.detail.before as { text: string }).text).toContain('Vote: Bob');
    expect((audit.detail.after as { text: string }).text).toContain('Vote: Eve');

    const tally = (await store.tallies.latest(game.id))!.tally;
    const edit = tally.violations.find((v) => v.post === 22 && v.kind === 'edit')!;
    expect(edit).toMatchObject({ player: 'Bob', consequence: 'flag' });
    expect(edit.detail).toMatch(/without an edit marker.*before: ".*Vote: Bob.*".*after: ".*Vote: Eve.*"/);
    // Before any decision an edit counts.
    expect(tally.wagons.find((w) => w.target === 'Eve')?.voters.map((v) => v.player)).toEqual(['Davina', 'Bob']);
  });

  it('an edit on an earlier page shows on the next full read', async () => {
    const { game, deps, script, clock } = await setup();
    await pollGame(deps, game.id);
    serve(forum, withBody(script, 2, vote('Carol'))); // Alice, page 1
    clock.advance(5 * 60_000);
    const quick = await pollGame(deps, game.id);
    expect(quick).toMatchObject({ edited: 0, fullRead: false });
    clock.advance(5 * 60_000);
    const full = await pollGame(deps, game.id, { full: true });
    expect(full).toMatchObject({ edited: 1, fullRead: true });
    expect((await store.posts.post(game.id, '9002'))?.revisions).toBe(2);
  });

  it('a deleted post is flagged, not dropped', async () => {
    const { game, deps, script, clock } = await setup();
    await pollGame(deps, game.id);
    serve(forum, without(script, 22)); // Bob's self-vote disappears from page 3
    clock.advance(5 * 60_000);
    const r = await pollGame(deps, game.id);
    expect(r).toMatchObject({ status: 'polled', deleted: 1, fullRead: true });
    const posts = await store.posts.postsOf(game.id);
    expect(posts).toHaveLength(22);
    expect(posts.filter((p) => p.deleted).map((p) => p.number)).toEqual([22]);
    const tally = (await store.tallies.latest(game.id))!.tally;
    // Still counted...
    expect(tally.wagons.find((w) => w.target === 'Bob')?.voters.map((v) => [v.player, v.post])).toEqual([
      ['Carol', 17],
      ['Bob', 22],
    ]);
    // ...and flagged.
    expect(tally.notes).toEqual(expect.arrayContaining([expect.stringMatching(/Post 22 by Bob was deleted/)]));
    const audit = (await store.audit.list({ gameId: game.id })).find((a) => a.action === 'post.delete');
    expect(audit?.detail).toMatchObject({ post: 22, author: 'Bob' });

    // A third poll of the same thread changes nothing more.
    const c = await counts(store, game.id);
    clock.advance(5 * 60_000);
    await pollGame(deps, game.id);
    expect(await counts(store, game.id)).toEqual(c);
  });

  it('a vote changed by an edit after the decision does not change the result', async () => {
    const day = { number: 1, start: '2026-03-02T18:00:00Z', deadline: '2026-03-03T20:00:00Z' };
    const { game, deps, script, clock } = await setup({ day });
    const open = await pollGame(deps, game.id);
    expect(open.tally?.tally.outcome.status).toBe('open');
    expect(open.deadline).toBe('2026-03-03T20:00:00.000Z');

    clock.set('2026-03-03T20:30:00Z'); // the deadline has passed: Bob leads, Bob goes
    const decided = await pollGame(deps, game.id);
    expect(decided.fullRead).toBe(true); // every page read again once the deadline passed
    const result = decided.tally!.tally.outcome;
    expect(result).toMatchObject({ status: 'ended', eliminated: ['Bob'] });

    // Bob now edits his post 22 from "Vote: Bob" to "Vote: Eve": Eve would lead 2-1.
    serve(forum, withBody(script, 22, vote('Eve')));
    clock.set('2026-03-03T21:00:00Z');
    const after = await pollGame(deps, game.id);
    expect(after.edited).toBe(1);
    const tally = after.tally!.tally;
    expect(tally.outcome).toMatchObject({ status: 'ended', eliminated: ['Bob'] });
    expect(tally.wagons.find((w) => w.target === 'Bob')?.voters.map((v) => v.player)).toEqual(['Carol', 'Bob']);
    const flag = tally.flags.find((f) => f.kind === 'vote-after-decision' && f.post === 22);
    expect(flag?.player).toBe('Bob');
    expect(flag?.raw).toMatch(/a vote for Eve.*a vote for Bob stands/);
    // The edit itself is kept as evidence.
    expect((await store.posts.post(game.id, '9022'))?.revisions).toBe(2);
  });

  it('a page that fails to parse leaves the last tally', async () => {
    const { game, deps, script, clock } = await setup();
    await pollGame(deps, game.id);
    const tallyBefore = await store.tallies.latest(game.id);
    const c = await counts(store, game.id);

    // Page 3 comes back as a page without posts (a changed layout).
    forum.route(pagePath(script, 3), {
      body: '<!DOCTYPE html><html><body><p>Something else entirely</p></body></html>',
    });
    clock.advance(5 * 60_000);
    const r = await pollGame(deps, game.id);
    expect(r.status).toBe('failed');
    expect(r.reason).toMatch(/no post containers/);
    expect((await store.tallies.latest(game.id))?.id).toBe(tallyBefore?.id);
    expect(await store.posts.postsOf(game.id)).toHaveLength(22);
    const state = await store.polls.get(game.id);
    expect(state.lastError).toMatch(/no post containers/);
    expect(state.errorsInRow).toBe(1);
    expect((await counts(store, game.id)).audit).toBe(c.audit + 1);
    expect((await store.audit.list({ gameId: game.id, limit: 1 }))[0]?.action).toBe('poll.error');

    // The same failure again is not audited twice; once the page is back, the error clears.
    clock.advance(5 * 60_000);
    await pollGame(deps, game.id);
    expect((await counts(store, game.id)).audit).toBe(c.audit + 1);
    serve(forum, script);
    clock.advance(5 * 60_000);
    const ok = await pollGame(deps, game.id);
    expect(ok.status).toBe('polled');
    expect((await store.polls.get(game.id)).lastError).toBeNull();
    expect((await store.tallies.latest(game.id))?.id).toBe(tallyBefore?.id);
  });

  it('a draft is created when five new votes arrive', async () => {
    const drafts = { everyNVotes: 5, everyHours: null, onLMinus1: false, onMajority: false, onDeadline: false };
    const { game, deps, script, clock } = await setup({ drafts });
    const first = await pollGame(deps, game.id);
    expect(first.draft).not.toBeNull(); // six standing votes on the first read
    expect(first.draft?.dialect).toBe('bbcode-xenforo');
    expect(first.draft?.body).toContain('Bob');

    let s = withPosts(script, [
      { author: 'Dave', body: vote('Alice') },
      { author: 'Alice', body: vote('Eve') },
      { author: 'Eve', body: vote('Frank') },
      { author: 'Frank', body: vote('Alice') },
    ]);
    serve(forum, s);
    clock.advance(5 * 60_000);
    const four = await pollGame(deps, game.id);
    expect(four.draft).toBeNull();

    s = withPosts(s, [{ author: 'Carol', body: vote('Dave') }]);
    serve(forum, s);
    clock.advance(5 * 60_000);
    const five = await pollGame(deps, game.id);
    expect(five.draft).not.toBeNull();
    expect(five.draftReasons.join(' ')).toMatch(/5 votes and unvotes/);
    expect(five.draft?.tallyId).toBe(five.tally?.id);
    expect((await store.drafts.list(game.id)).map((d) => d.id)).toEqual([five.draft!.id, first.draft!.id]);
    const reasons = (await store.audit.list({ gameId: game.id })).filter((a) => a.action === 'draft.reasons');
    expect(reasons).toHaveLength(2);
  });

  it('paused, finished and unknown games are not polled', async () => {
    const { game, deps } = await setup();
    await store.games.setStatus(game.id, 'paused', 'gm:test');
    expect(await pollGame(deps, game.id)).toMatchObject({ status: 'skipped', reason: 'paused' });
    await store.games.setStatus(game.id, 'finished', 'gm:test');
    expect(await pollGame(deps, game.id)).toMatchObject({ status: 'skipped', reason: 'finished' });
    expect(await pollGame(deps, 999_999)).toMatchObject({ status: 'skipped', reason: 'not-found' });
    expect(await store.posts.postsOf(game.id)).toHaveLength(0);
  });

  it('a second poll of a game while one runs is refused (the lease)', async () => {
    const { game, deps, script } = await setup();
    serve(forum, script, { delayMs: 300 });
    const [a, b] = await Promise.all([
      pollGame(deps, game.id),
      new Promise((r) => setTimeout(r, 50)).then(() => pollGame(deps, game.id)),
    ]);
    expect([a.status, b.status].sort()).toEqual(['busy', 'polled']);
    expect(PLAYERS).toHaveLength(7);
  });
});
