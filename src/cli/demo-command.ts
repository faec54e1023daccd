import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { startFakeForum, type FakeForum } from '../fake-forum/server.js';
import { mountThreadFolder } from '../fake-forum/thread-folder.js';
import { packageRoot } from '../rules/package-root.js';

export interface Demo {
  forum: FakeForum;
  /** The standard game's thread URL on each engine the demo serves. */
  threads: Record<string, string>;
  command: string;
  /** The ruleset file the sample game is counted under. */
  ruleset: string;
}

/**
 * `votal demo`: a local stand-in forum serving the standard fixture game in every
 * engine's markup, so a newcomer can run a count with no forum of their own.
 */
export async function startDemo(port = 0): Promise<Demo> {
  const fixtures = join(packageRoot(), 'fixtures');
  const forum = await startFakeForum({ port });
  const threads: Record<string, string> = {};
  for (const engine of readdirSync(fixtures)) {
    const dir = join(fixtures, engine, 'standard-game');
    if (existsSync(join(dir, 'thread.json'))) threads[engine] = mountThreadFolder(forum, dir, `/${engine}`).url;
  }
  const url = threads.xenforo2 ?? Object.values(threads)[0] ?? forum.url('/');
  const command = `VOTAL_ALLOW_PRIVATE_HOSTS=1 npx votal count ${url} --ruleset fixtures/games/standard-ruleset.yaml `
    + `--players "Alice, Bob, Carol, Dave, Davina, Eve, Frank"`;
  return { forum, threads, command, ruleset: join(fixtures, 'games/standard-ruleset.yaml') };
}
