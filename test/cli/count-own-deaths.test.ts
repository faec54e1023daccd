import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeForum, type FakeForum } from '../../src/fake-forum/server.js';
import type { Tally } from '../../src/model/tally.js';
import { HAMMER_PLAYERS, hammerThread } from '../support/hammer-thread.js';
import { runCli } from './run-cli.js';

/**
 * `votal count` reads Day 2 with the players its own count eliminated on Day 1 dead (issue
 * #24), with no `decide` in the events file: the thread of test/support/hammer-thread.ts
 * (MafiaScum game 1671 post #1110, donbot data 739243d).
 */
let forum: FakeForum;
let url: string;

beforeAll(async () => {
  process.env.VOTAL_ALLOW_PRIVATE_HOSTS = '1';
  forum = await startFakeForum();
  const { thread, add } = hammerThread(forum, 7301);
  add('Moderator', 'Day 2 begins.'); // #6
  add('Eve', '[b]Vote: PB[/b]'); // #7
  add('Prolapsed Brain', '[b]Vote: Eve[/b]'); // #8
  url = thread.url;
});
afterAll(async () => {
  delete process.env.VOTAL_ALLOW_PRIVATE_HOSTS;
  await forum?.close();
});

describe("votal count: the count's own eliminations", () => {
  it('a hammer on Day 1: on Day 2 "Vote: PB" is the living PeaceBringer, and the hammered player does not vote', async () => {
    const r = await runCli([
      'count',
      url,
      '--ruleset',
      'mafiascum-majority',
      '--players',
      HAMMER_PLAYERS.join(','),
      '--hosts',
      'Moderator',
      '--events',
      join(import.meta.dirname, 'fixtures/day-2-starts.yaml'),
      '--format',
      'json',
    ]);
    expect(r.code).toBe(0);
    const tally = JSON.parse(r.stdout) as Tally;
    expect(tally.day).toBe(2);
    expect(tally.dead).toEqual(['Prolapsed Brain']);
    expect(tally.wagons.map((w) => [w.target, w.voters.map((v) => v.player)])).toEqual([['PeaceBringer', ['Eve']]]);
    expect(tally.flags.map((f) => [f.post, f.player, f.kind])).toEqual([[8, 'Prolapsed Brain', 'vote-by-dead']]);
  });
});
