import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeForum, type FakeForum } from '../../src/fake-forum/server.js';
import { mountThreadFolder } from '../../src/fake-forum/thread-folder.js';
import { runCli } from './run-cli.js';

/*
 * Issue #24: a wrong --players gave a wrong count with exit 0. The list is checked the way
 * the server checks a game's roster; posters and players who do not meet are reported
 * with "did you mean"; GM events naming no player are an error unless --allow-unknown.
 */
const root = join(import.meta.dirname, '../..');
const ruleset = join(root, 'fixtures/games/standard-ruleset.yaml');
const players = 'Alice,Bob,Carol,Dave,Davina,Eve,Frank';

let forum: FakeForum;
let url: string;
let dir: string;
beforeAll(async () => {
  process.env.VOTAL_ALLOW_PRIVATE_HOSTS = '1';
  forum = await startFakeForum();
  url = mountThreadFolder(forum, join(root, 'fixtures/xenforo2/standard-game')).url;
  dir = mkdtempSync(join(tmpdir(), 'votal-players-'));
});
afterAll(async () => {
  delete process.env.VOTAL_ALLOW_PRIVATE_HOSTS;
  await forum?.close();
  rmSync(dir, { recursive: true, force: true });
});

const count = (...args: string[]) => runCli(['count', url, '--ruleset', ruleset, ...args]);
function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

describe('votal count --players is checked like the server roster', () => {
  it.each([
    [
      '";" as a separator is explained',
      'Alice; Bob; Carol',
      '"Alice; Bob; Carol" would be one player with ";" in the name',
    ],
    ['a name listed twice', 'Bob, Bob', '"Bob" is listed twice'],
    ['an alias that is another name', 'Bob, Robert (Bob)', '"Bob" is listed twice'],
    ['an empty name between two commas', 'Alice,,Bob', 'player 2 is empty'],
  ])('%s: exit 2', async (_rule, list, message) => {
    const r = await count('--players', list);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
    expect(r.stdout).toBe('');
  });

  it('a players file with tabs names its line', async () => {
    const path = file('tabs.txt', 'Alice\nBob\tCarol\n');
    const r = await count('--players-file', path);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      `players file ${path}, line 2: "Bob\\tCarol" would be one player with a tab in the name`,
    );
  });

  it('a typed name nobody posted as, and the poster it was meant for, are both reported with "did you mean"', async () => {
    const r = await count('--players', 'Alice,Bob,Carl,Dave,Davina,Eve,Frank');
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('"Carol" posted but is not in the player list (did you mean a player, "Carl"?)');
    expect(r.stderr).toContain('player "Carl" never posted (did you mean a poster, "Carol"?)');
  });

  it('the right list reports only the real non-player, with no guess', async () => {
    const r = await count('--players', players);
    expect(r.code).toBe(0);
    expect(r.stderr.split('\n').filter((l) => l.includes('player list') || l.includes('never posted'))).toEqual([
      'votal: note: "Lurker" posted but is not in the player list',
    ]);
  });
});

describe('votal count --events naming no player', () => {
  it('is an error (exit 2) naming the event, with "did you mean"', async () => {
    const events = file('kill-davna.yaml', '- { at: 20, kind: kill, player: Davna }\n');
    const r = await count('--players', players, '--events', events);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${events}: event 1 (kill) names "Davna", who is not a player`);
    expect(r.stderr).toContain('did you mean a player, "Davina"?');
  });

  it('counts on with --allow-unknown, the event noted', async () => {
    const events = file('kill-zed.yaml', '- { at: 20, kind: kill, player: Zed }\n');
    const r = await count('--players', players, '--events', events, '--allow-unknown');
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('event 1 (kill) names "Zed", who is not a player');
  });
});
