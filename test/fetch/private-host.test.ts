import { afterEach, describe, expect, it, vi } from 'vitest';
import { startFakeForum, type FakeForum } from '../../src/fake-forum/server.js';
import { NetworkError, PrivateHostError, UnsupportedUrlError } from '../../src/fetch/errors.js';
import { assertPublicUrl, isPrivateAddress } from '../../src/fetch/private-host.js';
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
  ])('refuses %s (%s)', async (url) => {
    await expect(assertPublicUrl(url, { allowPrivate: false, resolve: publicDns })).rejects.toBeInstanceOf(
      PrivateHostError,
    );
  });

  it.each(['http://93.184.216.34/', 'https://[2606:4700:4700::1111]/', 'https://forum.example/t/1'])(
    'allows public %s',
    async (url) => {
      await expect(assertPublicUrl(url, { allowPrivate: false, resolve: publicDns })).resolves.toBeInstanceOf(URL);
    },
  );

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
