import { describe, expect, it } from 'vitest';
import { GameEvents } from '../../src/web/live/game-events.js';

/**
 * The fan-out behind `/g/:slug/events` (issue #16, item 6): a change is serialised once and
 * the same bytes go to every stream of the game; heartbeats come from one timer on a
 * fake clock; a client that reads nothing is dropped instead of queueing without end.
 */

function hub(opts: { heartbeatMs?: number; now?: () => number } = {}) {
  let deliver: (payload: string) => void = () => {};
  const events = new GameEvents({
    sql: {
      listen: async (_channel, on) => {
        deliver = on;
        return async () => {};
      },
    },
    ...opts,
  });
  return { events, notify: (change: object) => deliver(JSON.stringify(change)) };
}

async function started(events: GameEvents, gameId: number): Promise<ReadableStreamDefaultReader<Uint8Array>> {
  const reader = events.openStream({ gameId, lastEventId: null, hello: async () => ({ slug: 'g' }) }).getReader();
  const hello = await reader.read();
  expect(new TextDecoder().decode(hello.value)).toMatch(/^event: hello\n/);
  return reader;
}

describe('live fan-out', () => {
  it('builds each change once: every subscriber of the game gets the very same frame', async () => {
    const { events, notify } = hub();
    await events.start();
    const readers = await Promise.all(Array.from({ length: 50 }, () => started(events, 1)));
    const other = await started(events, 2);
    notify({ gameId: 1, kind: 'tally', id: 7 });
    const chunks = await Promise.all(readers.map(async (r) => (await r.read()).value!));
    const first = chunks[0]!;
    expect(new TextDecoder().decode(first)).toMatch(/^event: tally\nid: [a-z0-9]+-1\ndata: \{"kind":"tally","id":7,/);
    for (const chunk of chunks) expect(chunk).toBe(first);
    // Another game's subscriber gets nothing of it; drafts and GM events reach nobody.
    notify({ gameId: 1, kind: 'draft', id: 3 });
    notify({ gameId: 2, kind: 'posts', id: 1 });
    expect(new TextDecoder().decode((await other.read()).value)).toMatch(/^event: posts\n/);
    await events.stop();
    expect(events.streamCount).toBe(0);
  });

  it('beats once per idle stream from one timer, on the given clock', async () => {
    let now = 0;
    const { events } = hub({ heartbeatMs: 20, now: () => now });
    await events.start();
    const reader = await started(events, 1);
    now = 1_000; // the fake clock says the stream has been silent long enough
    expect(new TextDecoder().decode((await reader.read()).value)).toBe(': heartbeat\n\n');
    await events.stop();
  });

  it('drops a subscriber that reads nothing instead of queueing every frame for it', async () => {
    const { events, notify } = hub();
    await events.start();
    const ended: number[] = [];
    const stream = events.openStream({
      gameId: 1,
      lastEventId: null,
      hello: async () => ({}),
      onEnd: () => ended.push(1),
    });
    const reader = stream.getReader();
    await reader.read();
    for (let i = 0; i < 200; i++) notify({ gameId: 1, kind: 'tally', id: i });
    expect(ended).toEqual([1]);
    expect(events.streamCount).toBe(0);
    await events.stop();
  });
});
