import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeForum, type FakeForum } from '../../src/fake-forum/server.js';
import { Tally } from '../../src/model/tally.js';
import { stringify } from 'yaml';
import { pollGame } from '../../src/game/poll-game.js';
import type { GmEvent } from '../../src/model/event.js';
import { openStore, type Store } from '../../src/store/open-store.js';
import { runCli } from '../cli/run-cli.js';
import {
  newGame,
  PLAYERS,
  STANDARD_RULESET,
  says,
  serve,
  standardScript,
  testSource,
  vote,
  withPosts,
} from '../game/support.js';

/**
 * A replacement mid-Day, given as a GM event (DESIGN.md: "A `replace` event makes the new
 * name a name of the slot for every later post; the old name still names it"). The
 * standard game's Day 1 (22 posts, XenForo 2 markup), then Day 2, in which Zed replaces
 * Carol after post 25: Zed's own vote counts as the slot's, and votes written for "Zed"
 * and for "Carol" both land on the slot's wagon, shown under the new name.
 */
let forum: FakeForum;
let store: Store;
let dir: string;
let url: string;
const events: GmEvent[] = [
  { at: 22, kind: 'day-end' },
  { at: 22, kind: 'kill', player: 'Frank' },
  { at: 23, kind: 'day-start', day: 2 },
  { at: 25, kind: 'replace', player: 'Carol', by: 'Zed' },
];
beforeAll(async () => {
  process.env.VOTAL_ALLOW_PRIVATE_HOSTS = '1';
  forum = await startFakeForum();
  store = await openStore({ dataDir: 'memory://' });
  dir = mkdtempSync(join(tmpdir(), 'votal-replace-'));
  const script = withPosts(standardScript(5151), [
    { author: 'Moderator', body: says('Day 2 begins. Frank was killed.') },
    { author: 'Carol', body: vote('Alice') },
    { author: 'Moderator', body: says('Zed replaces Carol.') },
    { author: 'Zed', body: vote('Eve') },
    { author: 'Alice', body: vote('Zed') },
    // Davina, not Bob: Bob was lynched on Day 1, so he is dead on Day 2 (issue #24).
    { author: 'Davina', body: vote('Carol') },
    { author: 'Dave', body: vote('zed') },
  ]);
  url = serve(forum, script);
  writeFileSync(join(dir, 'events.yaml'), stringify(events));
});
afterAll(async () => {
  delete process.env.VOTAL_ALLOW_PRIVATE_HOSTS;
  await forum?.close();
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('a replacement given as an event', () => {
  it("counts the newcomer's later votes, and votes for the slot under the new and the old name", async () => {
    const r = await runCli([
      'count',
      url,
      '--ruleset',
      STANDARD_RULESET,
      '--players',
      PLAYERS.join(','),
      '--events',
      join(dir, 'events.yaml'),
      '--format',
      'json',
      '--quiet',
    ]);
    // Only the standard game's real non-player is noted (issue #24: posters who match no player);
    // --quiet leaves progress out, never notes.
    expect(r.stderr).toBe('votal: note: "Lurker" posted but is not in the player list\n');
    expect(r.code).toBe(0);
    const tally = Tally.parse(JSON.parse(r.stdout));
    // Seven players less Bob (lynched on Day 1) and Frank (killed in the Night).
    expect(tally).toMatchObject({ day: 2, living: 5 });
    expect(tally.players).not.toContain('Bob');
    expect(tally.players).toContain('Zed');
    expect(tally.wagons.map((w) => [w.target, w.voters.map((v) => [v.player, v.post])])).toEqual([
      [
        'Zed',
        [
          ['Alice', 27],
          ['Davina', 28],
          ['Dave', 29],
        ],
      ],
      ['Eve', [['Zed', 26]]],
    ]);
    expect(tally.flags.filter((f) => f.post > 23)).toEqual([]);
  });

  it('the service, given the same events from the dashboard, counts the same', async () => {
    const cli = Tally.parse(
      JSON.parse(
        (
          await runCli([
            'count',
            url,
            '--ruleset',
            STANDARD_RULESET,
            '--players',
            PLAYERS.join(','),
            '--events',
            join(dir, 'events.yaml'),
            '--format',
            'json',
          ])
        ).stdout,
      ),
    );
    const game = await newGame(store, url);
    for (const e of events) await store.events.append(game.id, e, 'gm:test');
    const poll = await pollGame({ store, source: testSource(), now: () => '2026-03-04T12:00:00.000Z' }, game.id);
    expect(poll.status, poll.reason ?? '').toBe('polled');
    const stored = (await store.tallies.latest(game.id))!.tally;
    expect(stored.wagons.map((w) => [w.target, w.voters.map((v) => [v.player, v.post])])).toEqual([
      [
        'Zed',
        [
          ['Alice', 27],
          ['Davina', 28],
          ['Dave', 29],
        ],
      ],
      ['Eve', [['Zed', 26]]],
    ]);
    expect(stored.wagons).toEqual(cli.wagons);
  });

  it("a vote for the newcomer's name before the replacement is not theirs yet", async () => {
    const r = await runCli([
      'count',
      url,
      '--ruleset',
      STANDARD_RULESET,
      '--players',
      PLAYERS.join(','),
      '--events',
      join(dir, 'events.yaml'),
      '--format',
      'json',
      '--to-post',
      '24',
    ]);
    const tally = Tally.parse(JSON.parse(r.stdout));
    expect(tally.players).toContain('Carol');
    expect(tally.players).not.toContain('Zed');
  });
});
