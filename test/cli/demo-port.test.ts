import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';

/** A port something else already holds. */
let taken: Server;
let port: number;
beforeAll(async () => {
  taken = createServer();
  await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
  port = (taken.address() as { port: number }).port;
});
afterAll(async () => {
  await new Promise<void>((resolve) => taken.close(() => resolve()));
});

describe('votal demo on a busy port (as votal serve)', () => {
  it.each([
    ['--port', "Votal's"],
    ['--forum-port', "the stand-in forum's"],
  ])('%s taken (%s port): exit 2 naming the port and the option, no stack, before any database', async (option) => {
    const r = await runCli(['demo', option, String(port), '--once']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `votal: cannot listen on 127.0.0.1:${port}: it is in use; choose another with ${option} (or leave it out for any free port)\n`,
    );
    expect(r.stdout).not.toContain('Stand-in forum thread');
  });
});
