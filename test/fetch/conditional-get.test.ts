import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeForum, type FakeForum } from '../../src/fake-forum/server.js';
import { FetchedPage } from '../../src/fetch/fetched-page.js';
import { testFetcher } from './support.js';

let f: FakeForum;
afterEach(async () => {
  await f?.close();
});

describe('PageFetcher conditional GETs', () => {
  it('ETag round trip gives notModified on 304', async () => {
    f = await startFakeForum();
    f.route('/t/1', { body: '<p>post 1</p>' });
    const fetcher = testFetcher({ respectRobots: false });

    const first = await fetcher.get(f.url('/t/1'));
    const second = await fetcher.get(f.url('/t/1'), { etag: first.etag, hash: first.hash });

    expect(first.etag).toMatch(/^".+"$/);
    expect(first.notModified).toBe(false);
    expect(f.requests[1]?.headers['if-none-match']).toBe(first.etag);
    expect(second).toMatchObject({ status: 304, notModified: true, body: '', etag: first.etag, hash: first.hash });
  });

  it('sends If-Modified-Since and takes its 304', async () => {
    f = await startFakeForum();
    const lastModified = 'Wed, 01 Jan 2025 00:00:00 GMT';
    f.route('/t/1', { body: 'x', headers: { 'last-modified': lastModified } }, { etag: false });
    const fetcher = testFetcher({ respectRobots: false });

    const first = await fetcher.get(f.url('/t/1'));
    const second = await fetcher.get(f.url('/t/1'), { lastModified: first.lastModified });

    expect(first.lastModified).toBe(lastModified);
    expect(f.requests[1]?.headers['if-modified-since']).toBe(lastModified);
    expect(second).toMatchObject({ status: 304, notModified: true, lastModified });
  });

  it('unchanged body hash gives notModified', async () => {
    f = await startFakeForum();
    f.route('/t/1', { body: '<p>same</p>' }, { etag: false });
    const fetcher = testFetcher({ respectRobots: false });

    const first = await fetcher.get(f.url('/t/1'));
    const second = await fetcher.get(f.url('/t/1'), { hash: first.hash });

    expect(second).toMatchObject({ status: 200, notModified: true, body: '<p>same</p>' });
  });

  it('a changed body is not notModified', async () => {
    f = await startFakeForum();
    f.route('/t/1', [{ body: '<p>one post</p>' }, { body: '<p>one post</p><p>two posts</p>' }], { etag: false });
    const fetcher = testFetcher({ respectRobots: false });
    const first = await fetcher.get(f.url('/t/1'));
    const second = await fetcher.get(f.url('/t/1'), { hash: first.hash });
    expect(second.notModified).toBe(false);
    expect(second.hash).not.toBe(first.hash);
  });

  it('hash is the sha256 of the body and the page matches the FetchedPage schema', async () => {
    f = await startFakeForum();
    f.route('/t/1', { body: '<p>Vote: Ünïcode</p>' });
    const page = await testFetcher({ respectRobots: false }).get(f.url('/t/1'));
    expect(page.hash).toBe(createHash('sha256').update(page.body).digest('hex'));
    expect(FetchedPage.parse(page)).toEqual(page);
    expect(Date.parse(page.fetchedAt)).not.toBeNaN();
  });
});

describe('PageFetcher charset decoding', () => {
  // "Café – “vote” €" in windows-1252 bytes.
  const CP1252 = Buffer.from([
    0x43, 0x61, 0x66, 0xe9, 0x20, 0x96, 0x20, 0x93, 0x76, 0x6f, 0x74, 0x65, 0x94, 0x20, 0x80,
  ]);
  const TEXT = 'Café – “vote” €';

  it('windows-1252 page decodes (charset in Content-Type)', async () => {
    f = await startFakeForum();
    f.route('/t/1', { body: CP1252, contentType: 'text/html; charset=windows-1252' });
    expect((await testFetcher({ respectRobots: false }).get(f.url('/t/1'))).body).toBe(TEXT);
  });

  it('iso-8859-1 label decodes as windows-1252, as browsers do', async () => {
    f = await startFakeForum();
    f.route('/t/1', { body: CP1252, contentType: 'text/html; charset=ISO-8859-1' });
    expect((await testFetcher({ respectRobots: false }).get(f.url('/t/1'))).body).toBe(TEXT);
  });

  it('<meta charset> decides when Content-Type has no charset', async () => {
    f = await startFakeForum();
    const page = Buffer.concat([Buffer.from('<html><head><meta charset="windows-1252"></head><body>'), CP1252]);
    f.route('/t/1', { body: page, contentType: 'text/html' });
    const body = (await testFetcher({ respectRobots: false }).get(f.url('/t/1'))).body;
    expect(body.endsWith(TEXT)).toBe(true);
  });

  it('<meta http-equiv> charset is understood too', async () => {
    f = await startFakeForum();
    const page = Buffer.concat([
      Buffer.from('<html><head><meta http-equiv="Content-Type" content="text/html; charset=iso-8859-1"></head><body>'),
      CP1252,
    ]);
    f.route('/t/1', { body: page, contentType: 'text/html' });
    expect((await testFetcher({ respectRobots: false }).get(f.url('/t/1'))).body.endsWith(TEXT)).toBe(true);
  });

  it('UTF-8 is the default', async () => {
    f = await startFakeForum();
    f.route('/t/1', { body: Buffer.from('Vote: Zoë ✓', 'utf8'), contentType: 'text/html' });
    expect((await testFetcher({ respectRobots: false }).get(f.url('/t/1'))).body).toBe('Vote: Zoë ✓');
  });
});
