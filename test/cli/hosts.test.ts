import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeForum, type FakeForum } from '../../src/fake-forum/server.js';
import { Tally } from '../../src/model/tally.js';
import { says, standardScript, withPosts } from '../game/support.js';
import type { ScriptNode } from '../support/game-script.js';
import { vbulletin4Renderer } from '../support/render/vbulletin4.js';
import { runCli } from './run-cli.js';

/*
 * Issue #24: on two TeamLiquid games (vBulletin-style markup, `##vote`) the hosts' own
 * posts were flagged as votes by a non-player: a host's vote count ("No-Lynch (0):") and
 * a co-host's "##Unvote when you want to change votes!". `votal count --hosts` names the
 * GM and co-hosts; their posts are the hosts', never a non-player's. Here the standard game
 * (fixtures/games/standard-game.yaml) in vBulletin 4 markup, with the two posts the issue
 * quotes added at its end, under plurality with votes bold or not (as the game's rules).
 */
const root = join(import.meta.dirname, '../..');
const players = 'Alice,Bob,Carol,Dave,Davina,Eve,Frank';

let forum: FakeForum;
let url: string;
let dir: string;
let ruleset: string;
beforeAll(async () => {
  process.env.VOTAL_ALLOW_PRIVATE_HOSTS = '1';
  forum = await startFakeForum();
  const script = withPosts(standardScript(4_324), [
    { author: 'Moderator', body: lines('Vote count 1.1', 'Bob (2): Carol, Bob', 'No-Lynch (0):') },
    { author: 'CoHost', body: says('##Unvote when you want to change votes!') },
  ]);
  const pages = vbulletin4Renderer.render(script);
  for (const page of pages) forum.route(page.path, { body: page.body });
  url = forum.url(vbulletin4Renderer.threadPath(script));
  dir = mkdtempSync(join(tmpdir(), 'votal-hosts-'));
  ruleset = join(dir, 'teamliquid.yaml');
  const plurality = readFileSync(join(root, 'rulesets/plurality.yaml'), 'utf8');
  writeFileSync(ruleset, plurality.replace(/^ {2}bold: required$/m, '  bold: optional'));
});
afterAll(async () => {
  delete process.env.VOTAL_ALLOW_PRIVATE_HOSTS;
  await forum?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function count(...args: string[]): Promise<Tally> {
  const r = await runCli(['count', url, '--ruleset', ruleset, '--players', players, '--format', 'json', ...args]);
  expect(r.code).toBe(0);
  return Tally.parse(JSON.parse(r.stdout));
}
/** Lines of text, as a host writes a vote count. */
function lines(...texts: string[]): ScriptNode[] {
  return texts.flatMap((text, i) => [...(i ? [{ op: 'br' } as const] : []), ...says(text)]);
}
const nonPlayers = (t: Tally) => t.flags.filter((f) => f.kind === 'vote-by-non-player').map((f) => f.player);

describe('votal count --hosts: the hosts are never non-players', () => {
  it("by default only the opening poster is a host: the co-host's reminder is a non-player's vote", async () => {
    const t = await count();
    expect(t.postsRead).toBe(24);
    expect(nonPlayers(t)).toEqual(['Lurker', 'CoHost']);
  });

  it("the GM and the co-host named: their vote count and reminder are the hosts' (names read ignoring case), and the count is the same", async () => {
    const [plain, hosted] = [await count(), await count('--hosts', 'Moderator, cohost')];
    expect(nonPlayers(hosted)).toEqual(['Lurker']);
    expect(hosted.wagons).toEqual(plain.wagons);
    expect(hosted.notVoting).toEqual(plain.notVoting);
  });
});
