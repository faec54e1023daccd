import { afterEach, describe, expect, it, vi } from 'vitest';
import { startFakeForum, type FakeForum } from '../../src/fake-forum/server.js';
import { NetworkError, PrivateHostError, UnsupportedUrlError } from '../../src/fetch/errors.js';
import { PageFetcher } from '../../src/fetch/page-fetcher.js';
import {
  assertPublicUrl,
  guardedLookup,
  isPrivateAddress,
  isPrivateNetworkAddress,
  PrivateAddressAtConnect,
} from '../../src/fetch/private-host.js';
import { rejectionOf, testFetcher } from './support.js';

const publicDns = async () => ['93.184.216.34'];

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('private host guard', () => {
  it('loopback URL refused unless allowed', async () => {
    const error = await rejectionOf(assertPublicUrl('http://127.0.0.1:8080/t/1', { allowPrivate: false }));
    expect(error).toBeInstanceOf(PrivateHostError);
    expect(error.message).toContain('http://127.0.0.1:8080/t/1');
    expect(error.message).toContain('VOTAL_ALLOW_PRIVATE_HOSTS=1');

    await expect(assertPublicUrl('http://127.0.0.1:8080/t/1', { allowPrivate: true })).resolves.toBeInstanceOf(URL);
  });

  it('allowPrivate defaults to VOTAL_ALLOW_PRIVATE_HOSTS=1', async () => {
    vi.stubEnv('VOTAL_ALLOW_PRIVATE_HOSTS', '1');
    await expect(assertPublicUrl('http://127.0.0.1/')).resolves.toBeInstanceOf(URL);
    vi.stubEnv('VOTAL_ALLOW_PRIVATE_HOSTS', '0');
    await expect(assertPublicUrl('http://127.0.0.1/')).rejects.toBeInstanceOf(PrivateHostError);
  });

  it.each([
    ['http://10.1.2.3/', 'private 10/8'],
    ['http://172.16.0.1/', 'private 172.16/12'],
    ['http://192.168.1.1/', 'private 192.168/16'],
    ['http://169.254.169.254/latest/meta-data/', 'link-local (cloud metadata)'],
    ['http://100.64.0.1/', 'carrier-grade NAT'],
    ['http://0.0.0.0/', 'unspecified'],
    ['http://2130706433/', 'loopback as a bare number'],
    ['http://0x7f.1/', 'loopback in hex'],
    ['http://[::1]/', 'IPv6 loopback'],
    ['http://[::]/', 'IPv6 unspecified'],
    ['http://[fe80::1]/', 'IPv6 link-local'],
    ['http://[fd12:3456::1]/', 'IPv6 unique-local'],
    ['http://[::ffff:127.0.0.1]/', 'IPv4-mapped loopback'],
    ['http://[64:ff9b::a00:1]/', 'NAT64 of 10.0.0.1'],
    ['http://[2002:c0a8:101::1]/', '6to4 of 192.168.1.1'],
    // Issue #17: forms an attacker got past the guard.
    ['http://[::127.0.0.1]:8080/', 'IPv4-compatible loopback'],
    ['http://[::7f00:1]/', 'IPv4-compatible loopback in hex'],
    ['http://[::ffff:7f00:1]/', 'IPv4-mapped loopback in hex'],
    ['http://[::ffff:0:7f00:1]/', 'IPv4-translated loopback'],
    ['http://[64:ff9b::7f00:1]/', 'NAT64 of 127.0.0.1'],
    ['http://[64:ff9b:1::5db8:d822]/', 'local-use NAT64 (64:ff9b:1::/48)'],
    ['http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/', 'Teredo (2001::/32)'],
    ['http://[2002:5db8:d822::1]/', '6to4 (2002::/16), even of a public IPv4'],
    ['http://[fec0::1]/', 'site-local (fec0::/10)'],
    ['http://[100::1]/', 'discard-only (100::/64)'],
    ['http://[2001:db8::1]/', 'documentation (2001:db8::/32)'],
    ['http://192.0.2.10/', 'documentation (192.0.2.0/24)'],
    ['http://198.51.100.7/', 'documentation (198.51.100.0/24)'],
    ['http://203.0.113.9/', 'documentation (203.0.113.0/24)'],
    ['http://198.19.255.1/', 'benchmarking (198.18.0.0/15)'],
    ['http://[2001:2::1]/', 'benchmarking (2001:2::/48)'],
  ])('refuses %s (%s)', async (url) => {
    await expect(assertPublicUrl(url, { allowPrivate: false, resolve: publicDns })).rejects.toBeInstanceOf(
      PrivateHostError,
    );
  });

  it.each([
    'http://93.184.216.34/',
    'https://[2606:4700:4700::1111]/',
    'https://forum.example/t/1',
    'http://[::ffff:93.184.216.34]/',
    'http://[64:ff9b::5db8:d822]/',
  ])('allows public %s', async (url) => {
    await expect(assertPublicUrl(url, { allowPrivate: false, resolve: publicDns })).resolves.toBeInstanceOf(URL);
  });

  it('hostname resolving to a private address refused', async () => {
    const resolve = async () => ['93.184.216.34', '10.0.0.5'];
    const error = await rejectionOf(assertPublicUrl('https://forum.example/t/1', { allowPrivate: false, resolve }));
    expect(error).toBeInstanceOf(PrivateHostError);
    expect(error.message).toContain('https://forum.example/t/1');
    expect(error.message).toContain('10.0.0.5');
  });

  it('non-http(s) URLs are refused even when private hosts are allowed', async () => {
    for (const url of ['file:///etc/passwd', 'ftp://forum.example/', 'javascript:alert(1)']) {
      await expect(assertPublicUrl(url, { allowPrivate: true })).rejects.toBeInstanceOf(UnsupportedUrlError);
    }
    await expect(assertPublicUrl('not a url', { allowPrivate: true })).rejects.toBeInstanceOf(UnsupportedUrlError);
  });

  it('an unresolvable hostname is a NetworkError, not retried', async () => {
    const resolve = async () => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND nowhere.example'), { code: 'ENOTFOUND' });
    };
    const error = await rejectionOf(assertPublicUrl('https://nowhere.example/', { allowPrivate: false, resolve }));
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).retryable).toBe(false);
  });

  it('isPrivateAddress tells public from private', () => {
    expect(isPrivateAddress('127.0.0.1')).toBe(true);
    expect(isPrivateAddress('::ffff:10.0.0.1')).toBe(true);
    expect(isPrivateAddress('8.8.8.8')).toBe(false);
    expect(isPrivateAddress('2001:4860:4860::8888')).toBe(false);
    expect(isPrivateAddress('fe80::1%eth0')).toBe(true);
  });
});

describe('PageFetcher private host guard', () => {
  let f: FakeForum;
  afterEach(async () => {
    await f?.close();
  });

  it('refuses the fake forum on 127.0.0.1 unless allowPrivateHosts, sending nothing', async () => {
    f = await startFakeForum({ routes: { '/t/1': { body: 'x' } } });
    const error = await rejectionOf(testFetcher({ allowPrivateHosts: false }).get(f.url('/t/1')));
    expect(error).toBeInstanceOf(PrivateHostError);
    expect(f.requests).toHaveLength(0);

    expect((await testFetcher({ allowPrivateHosts: true }).get(f.url('/t/1'))).body).toBe('x');
  });
});

describe('connect-time guard (DNS rebinding)', () => {
  let f: FakeForum;
  afterEach(async () => {
    await f?.close();
  });

  it('a name that passes the first check but resolves to 127.0.0.1 at connect is refused, sending nothing', async () => {
    f = await startFakeForum({ routes: { '/t/1': { body: 'x' } } });
    // The rebinding attack: a public answer for the check, loopback for the connection.
    let asked = 0;
    const rebinding = async () => (++asked === 1 ? ['93.184.216.34'] : ['127.0.0.1']);
    const url = `http://forum.rebind.test:${new URL(f.url('/')).port}/t/1`;
    const error = await rejectionOf(
      testFetcher({ allowPrivateHosts: false, respectRobots: false, retries: 0, resolveHost: rebinding }).get(url),
    );
    expect(error).toBeInstanceOf(PrivateHostError);
    expect(error.message).toContain('127.0.0.1 at connect time');
    expect(asked).toBe(2);
    expect(f.requests).toHaveLength(0);
  });

  it('connections use the injected resolver, so VOTAL_ALLOW_PRIVATE_HOSTS=1 still reaches loopback by name', async () => {
    f = await startFakeForum({ routes: { '/t/1': { body: 'x' } } });
    vi.stubEnv('VOTAL_ALLOW_PRIVATE_HOSTS', '1');
    const url = `http://forum.local.test:${new URL(f.url('/')).port}/t/1`;
    const page = await new PageFetcher({
      minIntervalMs: 0,
      respectRobots: false,
      resolveHost: async () => ['127.0.0.1'],
    }).get(url);
    expect(page.body).toBe('x');
    expect(f.requests).toHaveLength(1);
  });

  it('guardedLookup refuses any private answer and keeps the asked family', async () => {
    const lookup = guardedLookup({ allowPrivate: false, resolve: async () => ['93.184.216.34', '2606:4700::1'] });
    const one = (family: number) =>
      new Promise((done) => lookup('forum.example', { family }, (err, address, fam) => done({ err, address, fam })));
    expect(await one(6)).toEqual({ err: null, address: '2606:4700::1', fam: 6 });
    expect(await one(4)).toEqual({ err: null, address: '93.184.216.34', fam: 4 });
    const mixed = guardedLookup({ allowPrivate: false, resolve: async () => ['93.184.216.34', '::ffff:10.0.0.1'] });
    const err = await new Promise((done) => mixed('forum.example', {}, (e) => done(e)));
    expect(err).toBeInstanceOf(PrivateAddressAtConnect);
  });
});

describe('private networks (where a trusted reverse proxy may sit)', () => {
  it.each([
    ['127.0.0.1', true],
    ['10.1.2.3', true],
    ['172.20.0.1', true],
    ['192.168.1.1', true],
    ['100.64.0.1', true],
    ['169.254.1.1', true],
    ['::1', true],
    ['fd00::1', true],
    ['fe80::1%eth0', true],
    ['::ffff:10.0.0.2', true],
    // Not public, but no proxy of ours: documentation, benchmarking, multicast, public.
    ['203.0.113.7', false],
    ['198.51.100.9', false],
    ['198.18.0.1', false],
    ['224.0.0.1', false],
    ['8.8.8.8', false],
    ['2001:db8::1', false],
    ['::ffff:203.0.113.7', false],
    ['not an address', false],
  ] as const)('%s: %s', (address, expected) => {
    expect(isPrivateNetworkAddress(address)).toBe(expected);
  });
});
