import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeForum, type FakeForum } from '../../src/fake-forum/server.js';
import { pollGame } from '../../src/game/poll-game.js';
import { Tally } from '../../src/model/tally.js';
import { countVotes } from '../../src/tally/count.js';
import { openStore, type Store } from '../../src/store/open-store.js';
import { liveData } from '../../src/web/ui/game-data.js';
import { runCli } from '../cli/run-cli.js';
import { loadThread, threadFiles, type Thread } from '../scenarios/thread-fixture.js';
import type { GameScript, ScriptNode } from '../support/game-script.js';
import { newGame, serve, standardScript, testClock, testSource, vote, withBody, without } from './support.js';

/**
 * One count (issue #12 item 1): `votal count`, the poller's stored tally, the newest
 * draft and the live page (`/g/:slug` data) say the same of a game. The public view only
 * hides; it never counts differently.
 */
let forum: FakeForum;
let store: Store;
let dir: string;
let nextThread = 8100;
const source = testSource();

beforeAll(async () => {
  process.env.VOTAL_ALLOW_PRIVATE_HOSTS = '1';
  forum = await startFakeForum();
  store = await openStore({ dataDir: 'memory://' });
  dir = mkdtempSync(join(tmpdir(), 'votal-agree-'));
});
afterAll(async () => {
  delete process.env.VOTAL_ALLOW_PRIVATE_HOSTS;
  await store?.close();
  await forum?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** What every surface must agree on: the Day, who is counted, every wagon's total, the outcome. */
function numbers(t: Tally) {
  return {
    day: t.day,
    asOfPost: t.asOfPost,
    living: t.living,
    players: t.players,
    wagons: t.wagons.map((w) => [w.target, w.total]),
    outcome: { status: t.outcome.status, eliminated: t.outcome.eliminated, decidedAt: t.outcome.decidedAt },
    deadline: t.deadline ?? null,
  };
}

describe("the surfaces agree after an edit made once the Day was decided (the poller's replay)", () => {
  it('stored tally, newest draft and live page: Bob is eliminated, the edit flagged', async () => {
    const script = standardScript(nextThread++);
    const url = serve(forum, script);
    const day = { number: 1, start: '2026-03-02T18:00:00Z', deadline: '2026-03-03T20:00:00Z' };
    const game = await newGame(store, url, { day });
    const clock = testClock('2026-03-03T19:00:00Z');
    const deps = { store, source, now: clock.now };
    await pollGame(deps, game.id);
    clock.set('2026-03-03T20:30:00Z');
    await pollGame(deps, game.id);
    serve(forum, withBody(script, 22, vote('Eve')));
    clock.set('2026-03-03T21:00:00Z');
    await pollGame(deps, game.id);

    const stored = (await store.tallies.latest(game.id))!;
    expect(stored.tally.outcome).toMatchObject({ status: 'ended', eliminated: ['Bob'] });
    const live = await liveData(store, (await store.games.get(game.id))!, new Date('2026-03-03T21:00:00Z'));
    expect(numbers(live.tally)).toEqual(numbers(stored.tally));
    expect(live.tally.flags.filter((f) => f.kind === 'vote-after-decision').map((f) => [f.post, f.player])).toEqual([
      [22, 'Bob'],
    ]);
    const draft = (await store.drafts.list(game.id))[0];
    expect(draft).toBeDefined();
    expect(numbers((await store.tallies.get(draft!.tallyId))!.tally).outcome).toEqual(numbers(stored.tally).outcome);
  });
});

describe("the service's surfaces agree on silent edits, deletions, GM corrections and hidden votes", () => {
  it('stored tally and live page count the same; the live page hides only the hidden voter', async () => {
    const script = standardScript(nextThread++);
    const url = serve(forum, script);
    const game = await newGame(store, url, {});
    const clock = testClock('2026-03-03T19:00:00Z');
    const deps = { store, source, now: clock.now };
    await pollGame(deps, game.id);
    // Dave silently edits his unvote (post 13) into a vote for Alice; post 5 is deleted.
    serve(forum, without(withBody(script, 13, vote('Alice')), 5));
    await store.events.append(game.id, { kind: 'correct', post: 14, target: 'Davina' }, 'gm:test');
    await store.events.append(
      game.id,
      { at: 22, kind: 'vote', player: 'Eve', target: 'Frank', hidden: true },
      'gm:test',
    );
    clock.advance(61 * 60_000);
    await pollGame(deps, game.id, { full: true });

    const stored = (await store.tallies.latest(game.id))!.tally;
    expect(stored.violations.some((v) => v.post === 13 && v.kind === 'edit')).toBe(true);
    expect(stored.notes?.some((n) => n.startsWith('Post 5 by Dave was deleted'))).toBe(true);
    const live = (await liveData(store, (await store.games.get(game.id))!, new Date(clock.now()))).tally;
    expect(numbers(live)).toEqual(numbers(stored));
    expect(live.flags.map((f) => [f.post, f.kind])).toEqual(stored.flags.map((f) => [f.post, f.kind]));
    const frank = (t: Tally) => t.wagons.find((w) => w.target === 'Frank')?.voters.map((v) => v.player);
    expect(frank(stored)).toContain('Eve');
    expect(frank(live)).not.toContain('Eve');
    expect(frank(live)).toContain('Hidden');
  });
});

/** A fixture thread's posts as a XenForo 2 thread: each action a bold line, each violation its markup. */
function scriptOf(thread: Thread, id: number): GameScript {
  const base = standardScript(id);
  const start = Date.parse('2026-01-05T12:00:00Z');
  const names = [...new Set([...thread.roster.map((s) => s.name), ...thread.posts.map((p) => p.author)])];
  return {
    ...base,
    ruleset: thread.ruleset.name,
    players: thread.roster.map((s) => s.name),
    thread: {
      ...base.thread,
      title: thread.title,
      forumUserIds: Object.fromEntries(names.map((n, i) => [n, 100 + i])),
    },
    posts: thread.posts.map((p) => {
      const body: ScriptNode[] = [];
      for (const a of p.reading.actions) {
        const text =
          a.kind === 'vote'
            ? `Vote: ${a.target}`
            : a.kind === 'unvote'
              ? a.raw
              : a.target === null
                ? `Vote: ${a.kind[0]!.toUpperCase()}${a.kind.slice(1)}`
                : `${a.kind[0]!.toUpperCase()}${a.kind.slice(1)}: ${a.target}`;
        body.push({ op: 'bold', children: [{ op: 'text', text }] }, { op: 'br' });
      }
      if (body.length === 0) body.push({ op: 'text', text: 'Thinking.' });
      const kinds = p.reading.violations.map((v) => v.kind);
      if (kinds.includes('image')) body.push({ op: 'image', src: 'https://images.example.net/cat.png' });
      if (kinds.includes('code')) body.push({ op: 'code', text: 'x = 1' });
      const time =
        p.time === null ? new Date(start + p.post * 600_000).toISOString() : new Date(Date.parse(p.time)).toISOString();
      const edited = kinds.includes('edit')
        ? { time: new Date(Date.parse(time) + 60_000).toISOString(), by: p.author }
        : null;
      return { n: p.post, id: id * 1000 + p.post, author: p.author, time: time.replace('.000Z', 'Z'), edited, body };
    }),
  } as GameScript;
}

describe('every fixture scenario: votal count, the stored tally, the newest draft and the live page agree', () => {
  const NOW = '2030-01-01T00:00:00.000Z';
  it.each(threadFiles())('%s', async (file) => {
    const thread = loadThread(file);
    const script = scriptOf(thread, nextThread++);
    const url = serve(forum, script);
    const events = join(dir, `${file}.events.yaml`);
    writeFileSync(events, stringify(thread.gm));

    const cli = await runCli([
      'count',
      url,
      '--ruleset',
      thread.ruleset.name,
      '--players',
      thread.roster.map((s) => s.name).join(','),
      '--events',
      events,
      '--format',
      'json',
      '--at-time',
      NOW,
    ]);
    expect(cli.code, cli.stderr).toBe(0);
    const counted = Tally.parse(JSON.parse(cli.stdout));
    expect(counted.postsRead).toBe(thread.posts.length);
    // The rendered thread reads as the fixture's log does: the same outcome as the pure count.
    expect(counted.outcome.eliminated).toEqual(
      countVotes({ ruleset: thread.ruleset, roster: thread.roster, events: thread.events }).outcome.eliminated,
    );

    const game = await store.games.create(
      {
        // A draft after every vote: the newest draft is of the last count.
        threadUrl: url,
        engine: null,
        ruleset: thread.ruleset.name,
        rulesetOverrides: {},
        roster: thread.roster,
        settings: { drafts: { everyNVotes: 1 } },
      },
      'gm:test',
    );
    for (const e of thread.gm) await store.events.append(game.id, e, 'gm:test');
    const poll = await pollGame({ store, source, now: () => NOW }, game.id);
    expect(poll.status, poll.reason ?? '').toBe('polled');
    const stored = (await store.tallies.latest(game.id))!;
    expect(numbers(stored.tally)).toEqual(numbers(counted));
    expect(stored.tally.flags).toEqual(counted.flags);

    const live = await liveData(store, (await store.games.get(game.id))!, new Date(NOW));
    expect(numbers(live.tally)).toEqual(numbers(counted));
    expect(live.tally.view).toBe('public');

    const draft = (await store.drafts.list(game.id))[0];
    expect(draft?.tallyId).toBe(stored.id);
    expect(numbers((await store.tallies.get(draft!.tallyId))!.tally)).toEqual(numbers(counted));
  });
});
