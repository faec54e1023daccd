import { describe, expect, it } from 'vitest';
import { adapters } from '../../scrapers/registry.js';
import { DEFAULT_PROFILE } from '../../scrapers/site-profile.js';
import { LayoutError, LoginRequiredError } from '../../src/fetch/errors.js';
import type { FetchedPage } from '../../src/fetch/fetched-page.js';
import { readThread } from '../../src/thread/read-thread.js';
import { UnsupportedEngineError } from '../../src/thread/unsupported-engine-error.js';

/**
 * The right refusal (issue 23): a page is a login wall only when it has no posts and asks
 * for a login; an engine Votal has no adapter for is named; an older version is named by
 * version; a page chosen by a URL shape another engine shares is not taken for that engine.
 * Pages are served as the forum would, and read as `votal count` reads them.
 */
const page = (url: string, body: string): FetchedPage => ({
  url,
  finalUrl: url,
  status: 200,
  body,
  etag: null,
  lastModified: null,
  hash: 'x',
  notModified: false,
  fetchedAt: '2024-06-19T12:00:00.000Z',
});
const read = (url: string, body: string): Promise<unknown> =>
  readThread(url, { source: { get: async () => page(url, body) }, profile: DEFAULT_PROFILE, lastPage: 1 }).then(
    () => null,
    (e: unknown) => e,
  );

/** The header's quick-login box guest pages carry beside the posts. */
const QUICK_LOGIN = '<form action="/login"><input name="user"><input type="password" name="pass"></form>';

describe('the right refusal', () => {
  it.each([
    // Shapes of their templates as guests see them (shift.ms, proxer.me, community.kaspersky.com).
    [
      'bbPress',
      'https://forum.example.org/topic/cbd-oil-11',
      `<html><body class="topic bbpress">${QUICK_LOGIN}<div id="bbpress-forums"><ul class="forums bbp-replies"><li><div id="post-685965" class="bbp-reply-content">Hello</div></li></ul></div></body></html>`,
    ],
    [
      'Kunena',
      'https://forum.example.org/forum/142-anime/386798-kann-keine-anime',
      `<html><head><link href="/media/kunena/cache/blue_eagle5/css/kunena.css" rel="stylesheet"></head><body>${QUICK_LOGIN}<div class="kmsg">Hallo</div><a href="https://www.kunena.org">Kunena</a></body></html>`,
    ],
    [
      'inSided',
      'https://community.example.org/cloud-11/rootkit-scan-6849',
      '<html><body><div class="qa-topic-post-box">Hi</div><a href="https://www.insided.com" title="Visit inSided.com">Powered by inSided</a></body></html>',
    ],
  ])('a guest page of %s (quick-login box and all) is refused naming the engine', async (name, url, html) => {
    const error = await read(url, html);
    expect(error).toBeInstanceOf(UnsupportedEngineError);
    expect(error).not.toBeInstanceOf(LoginRequiredError);
    expect((error as Error).message).toContain(`${name} is not supported yet`);
    expect((error as Error).message).toContain('votal read <url> --generic');
    expect((error as Error).message).toContain(url);
  });

  it("an SMF 1.1 page with a quick-login box keeps the SMF adapter's own refusal, naming the version", async () => {
    const url = 'https://smf.example.org/index.php?topic=5463.0';
    const html = `<html><body>${QUICK_LOGIN}<table><tr><td><a name="msg123"></a><b>Alice</b></td><td><div class="post">Vote: Bob</div></td></tr></table><span class="smalltext">Powered by SMF 1.1.21</span></body></html>`;
    const error = await read(url, html);
    expect(error).toBeInstanceOf(LayoutError);
    expect(error).not.toBeInstanceOf(LoginRequiredError);
    expect((error as Error).message).toContain('SMF 1.1.21');
    expect((error as Error).message).toContain('a version whose layout Votal does not read');
  });

  it('a page with no posts that asks for a login is still a login wall', async () => {
    const url = 'https://smf.example.org/index.php?topic=5463.0';
    const html = `<html><body><h1>Please log in</h1>${QUICK_LOGIN}</body></html>`;
    expect(await read(url, html)).toBeInstanceOf(LoginRequiredError);
  });

  it("a FluxBB page (viewtopic.php, like phpBB's) is not taken for phpBB", async () => {
    // FluxBB 1.5's viewtopic.tpl as a guest sees it: div#punviewtopic, div.blockpost#pN.
    const url = 'https://fluxbb.example.org/viewtopic.php?id=12';
    const html =
      '<html><body><div id="punviewtopic" class="pun"><div id="brdmain"><div id="p101" class="blockpost rowodd firstpost blockpost1"><h2><span><span class="conr">#1</span> <a href="viewtopic.php?pid=101#p101">Today 10:00:00</a></span></h2><div class="box"><div class="inbox"><div class="postbody"><div class="postleft"><dl><dt><strong><a href="profile.php?id=2">Alice</a></strong></dt></dl></div><div class="postright"><h3>Day 1</h3><div class="postmsg"><p>Vote: Bob</p></div></div></div></div></div></div></div><p id="poweredby">Powered by <a href="https://fluxbb.org/">FluxBB</a></p></div></body></html>';
    const error = await read(url, html);
    if (adapters.some((a) => a.descriptor.engine === ('fluxbb' as never))) {
      // Once the FluxBB adapter is registered it reads the page.
      expect(error).toBeNull();
      return;
    }
    expect(error).toBeInstanceOf(LayoutError);
    expect((error as Error).message).not.toMatch(/no post containers/);
    expect((error as Error).message).toContain("looks like phpBB 3's but the page shows none of its marks");
  });
});
