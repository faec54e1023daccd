import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PageReport } from '../../src/cli/read-command.js';
import { startFakeForum, type FakeForum } from '../../src/fake-forum/server.js';
import { mountThreadFolder } from '../../src/fake-forum/thread-folder.js';
import { parseSiteProfile } from '../../src/site/load-site-profiles.js';
import { runCli } from './run-cli.js';

/**
 * `votal read` against the stand-in forum: the standard game's fixture threads served as
 * a forum serves them, read through the same fetch path as `votal count`.
 */
const root = join(import.meta.dirname, '../..');

let forum: FakeForum;
let xfUrl: string;
let gogUrl: string;
let phpbbUrl: string;
let discourseUrl: string;
beforeAll(async () => {
  process.env.VOTAL_ALLOW_PRIVATE_HOSTS = '1';
  forum = await startFakeForum();
  xfUrl = mountThreadFolder(forum, join(root, 'fixtures/xenforo2/standard-game')).url;
  // Under a folder, GOG's paths no longer say GOG: the page's own markup must.
  gogUrl = mountThreadFolder(forum, join(root, 'fixtures/gog/standard-game'), '/board').url;
  phpbbUrl = mountThreadFolder(forum, join(root, 'fixtures/phpbb/standard-game')).url;
  discourseUrl = mountThreadFolder(forum, join(root, 'fixtures/discourse/standard-game')).url;
  // The topic's HTML page, as a browser gets it: Votal reads Discourse through its JSON.
  forum.route('/t/standard-game/4242', {
    body: '<!DOCTYPE html><html><head><title>Standard Game - Day 1</title></head><body><noscript>crawler view</noscript></body></html>',
  });
  forum.route('/threads/removed.1/', {
    body: '<!DOCTYPE html><html id="XF"><body><p>This thread has been removed.</p></body></html>',
  });
  forum.route('/talk/village', { body: siteOwnLayout() });
  const page3 = readFileSync(join(root, 'fixtures/xenforo2/standard-game/page-3.html'), 'utf8');
  forum.route('/threads/untimed.5/', { body: page3.replace(/<time[^>]*>[^<]*<\/time>/g, '') });
});
afterAll(async () => {
  delete process.env.VOTAL_ALLOW_PRIVATE_HOSTS;
  await forum?.close();
});

/** A forum of its own (no engine's markup): posts as `section.entry` cards, authors linked to `/people/<name>`. */
function siteOwnLayout(): string {
  const who = ['Alice', 'Bob', 'Carol', 'Alice'];
  const posts = who
    .map(
      (name, i) => `<section class="entry" id="entry-${101 + i}">
  <header class="entry-head"><a class="who" href="/people/${name.toLowerCase()}">${name}</a>
    <a class="stamp" href="/talk/village/entry/${101 + i}"><time datetime="2019-05-15T0${8 + i}:30:00Z">15/05/19 ${10 + i}:30</time></a></header>
  <div class="entry-text"><p>Post ${i + 1} by ${name}. <b>Vote: Bob</b></p></div>
</section>`,
    )
    .join('\n');
  return `<!doctype html><html lang="en-GB"><head><title>Mafia Game 7 - Example Board</title></head><body>
<h1>Mafia Game 7: the village</h1><main id="thread">${posts}</main></body></html>`;
}

const json = async (args: string[]): Promise<PageReport> => {
  const r = await runCli(['read', ...args, '--format', 'json']);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as PageReport;
};

describe('votal read', () => {
  it('--format json: engine and how it was recognised, title, page N of M with the next URL, every post', async () => {
    const r = await json([xfUrl, '--page', '2']);
    expect(r).toMatchObject({
      url: xfUrl,
      pageUrl: `${xfUrl}page-2`,
      engine: 'xenforo2',
      // XenForo 1 and 2 share the thread URL's shape: the page's fingerprint decides.
      recognisedBy: { by: 'fingerprint', detail: 'html#XF' },
      reader: 'adapter',
      title: 'Standard Game - Day 1',
      page: 2,
      pageCount: 3,
      next: `${xfUrl}page-3`,
      warnings: [],
    });
    expect(r.posts.map((p) => p.number)).toEqual([9, 10, 11, 12, 13, 14, 15, 16]);
    expect(r.posts[0]).toMatchObject({ id: '9009', author: 'Bob', postedAt: '2026-03-03T08:00:00.000Z' });
    expect(r.posts[0]!.permalink).toBe(`${xfUrl}post-9009`);
    expect(r.posts.find((p) => p.number === 13)!.edit).toMatchObject({ at: '2026-03-03T10:05:00.000Z' });
    // Quotes are marked, nested ones too; bold and strikes as the vote parser reads them.
    expect(r.posts.find((p) => p.number === 16)!.text).toBe(
      '[quote=Frank]\n[quote=Alice]\n[b]Vote: Davina[/b]\n[/quote]\n[b]Vote: Dav[/b]\n[/quote]\nWho is Dav?',
    );
    expect(r.posts[0]!.text).toBe('[s][b]Vote: Alice[/b][/s]\n[b]Vote: Carol[/b]');
    expect(r.posts[0]!.body[0]).toEqual({
      t: 'strike',
      children: [{ t: 'bold', children: [{ t: 'text', text: 'Vote: Alice' }] }],
    });
  });

  it('text: the same facts for a reader, post by post', async () => {
    const r = await runCli(['read', `${xfUrl}page-3`]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('Engine: xenforo2 (recognised by fingerprint html#XF; read by its adapter)');
    expect(r.stdout).toContain('Pages:  page 3 of 3; the last page');
    expect(r.stdout).toContain('#22 Bob · 2026-03-03T18:00:00.000Z · ');
    expect(r.stdout).toContain('  [b]Vote: Bob[/b]\n  Self-vote, why not.');
    expect(r.stdout).toContain("  Some code: [code]console.log('hi')[/code]");
    expect(r.stdout).toContain('Warnings: none');
  });

  it("a board on its own domain is recognised by the page's fingerprint; GOG's page 1 is /page1", async () => {
    const r = await json([gogUrl]);
    expect(r).toMatchObject({
      engine: 'gog',
      recognisedBy: { by: 'fingerprint', detail: 'div.spot_h .big_post_main .post_text_c' },
      page: 1,
      next: gogUrl.replace(/page1$/, 'page2'),
    });
    expect(r.posts).toHaveLength(8);
  });

  it('--page on an engine whose page URLs need the page size (phpBB start=): the page in hand gives it', async () => {
    const r = await json([phpbbUrl, '--page', '2']);
    expect(r).toMatchObject({ engine: 'phpbb', page: 2, pageCount: 3, pageUrl: `${phpbbUrl}&start=8`, warnings: [] });
    expect(r.posts.map((p) => p.number)).toEqual([9, 10, 11, 12, 13, 14, 15, 16]);
    const fromThird = await json([`${phpbbUrl}&start=16`, '--page', '2']);
    expect(fromThird.posts.map((p) => p.number)).toEqual([9, 10, 11, 12, 13, 14, 15, 16]);
  });

  it("Discourse's HTML topic page holds no posts Votal reads: its topic JSON is read instead, with a note", async () => {
    const r = await runCli(['read', discourseUrl, '--format', 'json']);
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout) as PageReport;
    expect(report).toMatchObject({ engine: 'discourse', pageUrl: forum.url('/t/4242.json') });
    expect(report.posts.map((p) => p.number)).toEqual(Array.from({ length: 22 }, (_, i) => i + 1));
    expect(r.stderr).toContain(`votal: note: ${discourseUrl} holds no posts Votal reads`);
  });

  it('--engine names the engine: recognised "by option"', async () => {
    const r = await json([xfUrl, '--engine', 'xenforo2']);
    expect(r.recognisedBy).toEqual({ by: 'option', detail: '--engine' });
  });

  it('never silent: a post whose time cannot be read is a warning naming it, and says clock rules cannot apply', async () => {
    const r = await json([forum.url('/threads/untimed.5/')]);
    expect(r.posts.map((p) => p.postedAt)).toEqual(Array(6).fill(null));
    expect(r.warnings).toHaveLength(6);
    expect(r.warnings[0]).toBe(
      'post #17 (id 9017): no time could be read from the page; clock rules (deadline, Hammer checks, votes after the end) cannot apply to it',
    );
  });

  it('a page that cannot be read is an error naming its URL (exit 3)', async () => {
    const url = forum.url('/threads/removed.1/');
    const r = await runCli(['read', url]);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(url);
    expect(r.stdout).toBe('');
  });

  it('a page past the last is the forum\'s "not found", naming the URL (exit 3)', async () => {
    const r = await runCli(['read', xfUrl, '--page', '9']);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(`${xfUrl}page-9`);
  });

  it.each([
    ['0', /--page takes a page number from 1: 0/],
    ['two', /--page takes a whole number/],
  ])('a bad --page (%s) is bad input (exit 2)', async (page, message) => {
    const r = await runCli(['read', xfUrl, '--page', page]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
  });

  it('a private address is refused without VOTAL_ALLOW_PRIVATE_HOSTS, as votal count refuses it (exit 2)', async () => {
    delete process.env.VOTAL_ALLOW_PRIVATE_HOSTS;
    try {
      const r = await runCli(['read', xfUrl]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('run with VOTAL_ALLOW_PRIVATE_HOSTS=1');
      expect(r.stderr).toMatch(/private|loopback/i);
    } finally {
      process.env.VOTAL_ALLOW_PRIVATE_HOSTS = '1';
    }
  });

  it('--generic: a forum no adapter reads, read by the generic reader, with the site profile it would store', async () => {
    const url = forum.url('/talk/village');
    const r = await json([url, '--generic']);
    expect(r).toMatchObject({ engine: 'generic', reader: 'generic', recognisedBy: { by: 'option' } });
    expect(r.posts.map((p) => p.author)).toEqual(['Alice', 'Bob', 'Carol', 'Alice']);
    expect(r.generic?.confirm).toMatch(/^Votal found 4 posts by 3 authors on page 1: check three of them/);
    expect(r.generic?.profileYaml).toMatch(/engine: generic/);
    const text = await runCli(['read', url, '--generic']);
    expect(text.stdout).toMatch(/read by the generic reader, not an engine's adapter/);
    expect(text.stdout).toMatch(/The site profile this reading would store/);
  });

  it('--generic --write-profile: the profile it found written to a file, then read with its plain selectors', async () => {
    const url = forum.url('/talk/village');
    const dir = mkdtempSync(join(tmpdir(), 'votal-profile-'));
    try {
      const file = join(dir, 'village.yaml');
      const wrote = await runCli(['read', url, '--generic', '--write-profile', file, '--quiet']);
      expect(wrote.code).toBe(0);
      expect(wrote.stderr).toContain(`wrote the site profile to ${file}`);
      const profile = parseSiteProfile(readFileSync(file, 'utf8'), file);
      expect(profile).toMatchObject({ engine: 'generic', hosts: ['127.0.0.1'] });
      expect(profile.selectors?.post).toMatch(/section\.entry$/);
      // Read again with the profile and no --generic: the stored selectors read the page.
      const again = await json([url, '--site-profile', file]);
      expect(again).toMatchObject({ engine: 'generic' });
      expect(again.posts.map((p) => p.author)).toEqual(['Alice', 'Bob', 'Carol', 'Alice']);
      // A profile someone keeps is never written over.
      const twice = await runCli(['read', url, '--generic', '--write-profile', file, '--quiet']);
      expect(twice.code).toBe(2);
      expect(twice.stderr).toMatch(/exists; Votal does not write over a site profile/);
      // Without --generic there is no finding to write.
      const bare = await runCli(['read', url, '--write-profile', join(dir, 'other.yaml')]);
      expect(bare.code).toBe(2);
      expect(bare.stderr).toMatch(/--write-profile writes what the generic reader found: add --generic/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('--generic with another --engine is bad input (exit 2), naming both', async () => {
    const r = await runCli(['read', forum.url('/talk/village'), '--generic', '--engine', 'xenforo2']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/drop --engine xenforo2, or drop --generic/);
  });
});
