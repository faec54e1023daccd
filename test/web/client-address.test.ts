import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { loadEnv } from '../../src/config/env.js';
import { clientAddressOf, rateLimit, type TrustProxy } from '../../src/web/rate-limit.js';

/**
 * Whose address a public request is (issue #14, item 1): the socket's, unless
 * VOTAL_TRUST_PROXY says the socket is our reverse proxy; then the rightmost
 * X-Forwarded-For hop that is not one of our proxies (the hops left of it are the
 * client's own say and can be forged).
 */

async function addressOf(trust: TrustProxy, socket: string, xff?: string): Promise<string> {
  const app = new Hono();
  const of = clientAddressOf(trust);
  app.get('/', (c) => c.text(of(c)));
  const env = { incoming: { socket: { remoteAddress: socket } } };
  return (await app.request('/', { headers: xff === undefined ? {} : { 'x-forwarded-for': xff } }, env)).text();
}

describe('client address', () => {
  it.each([
    // [rule, trust, socket, X-Forwarded-For, client]
    ['off by default: the socket, whatever the header says', false, '127.0.0.1', '203.0.113.7', '127.0.0.1'],
    ['trusted proxy: the hop it saw', 'private', '127.0.0.1', '203.0.113.7', '203.0.113.7'],
    [
      'a forged hop on the left is not the client: the rightmost untrusted is',
      'private',
      '127.0.0.1',
      '6.6.6.6, 203.0.113.7',
      '203.0.113.7',
    ],
    [
      'a chain of our own proxies is walked through',
      'private',
      '10.0.0.2',
      '198.51.100.4, 10.0.0.9, 10.0.0.3',
      '198.51.100.4',
    ],
    [
      'a public socket is not our proxy: its header is ignored',
      'private',
      '198.51.100.9',
      '203.0.113.7',
      '198.51.100.9',
    ],
    ['IPv4-mapped socket addresses are plain IPv4', 'private', '::ffff:127.0.0.1', '203.0.113.7', '203.0.113.7'],
    [
      'a list of proxies trusts those only',
      ['192.0.2.10', '10.1.0.0/16'],
      '192.0.2.10',
      '10.1.2.3, 203.0.113.8',
      '203.0.113.8',
    ],
    ['a list of proxies: any other socket is the client', ['192.0.2.10'], '127.0.0.1', '203.0.113.8', '127.0.0.1'],
    ['no header from a trusted proxy: the proxy', 'private', '127.0.0.1', undefined, '127.0.0.1'],
  ] as const)('%s', async (_rule, trust, socket, xff, client) => {
    expect(await addressOf(trust as TrustProxy, socket, xff)).toBe(client);
  });

  it('behind a trusted proxy, each player has a bucket of their own', async () => {
    const app = new Hono();
    app.use('*', rateLimit({ capacity: 2, perSecond: 0.0001, now: () => 0, keyOf: clientAddressOf('private') }));
    app.get('/', (c) => c.text('ok'));
    const env = { incoming: { socket: { remoteAddress: '127.0.0.1' } } };
    const get = async (ip: string) => (await app.request('/', { headers: { 'x-forwarded-for': ip } }, env)).status;
    expect([await get('203.0.113.1'), await get('203.0.113.1'), await get('203.0.113.1')]).toEqual([200, 200, 429]);
    expect(await get('203.0.113.2')).toBe(200);
  });

  it('VOTAL_TRUST_PROXY: off unless set; 1 trusts private proxies; a list names them; nonsense is an error naming it', () => {
    expect(loadEnv({}).trustProxy).toBeUndefined();
    expect(loadEnv({ VOTAL_TRUST_PROXY: '1' }).trustProxy).toBe('private');
    expect(loadEnv({ VOTAL_TRUST_PROXY: 'off' }).trustProxy).toBeUndefined();
    expect(loadEnv({ VOTAL_TRUST_PROXY: '10.0.0.1, 192.168.0.0/16' }).trustProxy).toEqual([
      '10.0.0.1',
      '192.168.0.0/16',
    ]);
    expect(() => loadEnv({ VOTAL_TRUST_PROXY: 'nginx' })).toThrow(/VOTAL_TRUST_PROXY/);
  });
});
