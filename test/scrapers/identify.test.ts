import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { adapterOf, engineFromHtml, engineFromUrl } from '../../scrapers/identify.js';
import { adapters } from '../../scrapers/registry.js';
import { SiteProfile } from '../../scrapers/site-profile.js';
import { EngineId } from '../../src/model/engine.js';
import { packageRoot } from '../../src/config/package-root.js';
import { LayoutError } from '../../src/fetch/errors.js';
import { identifyEngine } from '../../src/thread/identify-engine.js';
import { DEFAULT_PROFILE } from '../../scrapers/site-profile.js';
import { readFixtureThread } from '../support/render/index.js';

const root = packageRoot(import.meta.url);
const samples = resolve(root, '../shared/forum-samples');
const haveSamples = existsSync(samples);
if (!haveSamples)
  console.warn(`[identify] real forum samples not found at ${samples}: skipping the real-page fingerprint tests`);

const url = (s: string): URL => new URL(s);

describe('engine from the thread URL', () => {
  it.each([
    ['https://www.ilovephilosophy.com/viewtopic.php?f=1&t=194998&start=25', 'phpbb'],
    ['https://board.example/forum/viewtopic.php?p=2729870#p2729870', 'phpbb'],
  ])('a phpBB viewtopic URL is phpBB: %s', (u, engine) => {
    expect(engineFromUrl(url(u))).toBe(engine);
  });

  it('a hosted forum is known by its host name, whatever the path', () => {
    expect(engineFromUrl(url('https://mafia.proboards.com/thread/123/day-one'))).toBe('proboards');
    expect(engineFromUrl(url('https://www.gog.com/forum/general/forum_mafia_42/page2'))).toBe('gog');
  });

  it('a /threads/slug.id/ path is XenForo 1 or 2: the URL alone names neither, the page decides', () => {
    expect(engineFromUrl(url('https://xenforo.com/community/threads/a-dark-theme-option.8276/'))).toBeNull();
    expect(engineFromUrl(url('https://forum.test/threads/standard-game.4242/page-2'))).toBeNull();
  });

  it('a site profile that names the engine wins over the URL', () => {
    const profile = SiteProfile.parse({ hosts: ['xenforo.com'], engine: 'xenforo2' });
    expect(engineFromUrl(url('https://xenforo.com/community/threads/a-dark-theme-option.8276/'), profile)).toBe(
      'xenforo2',
    );
  });

  it.each(['https://example.com/', 'https://example.com/blog/2024/hello-world', 'https://example.com/forum/'])(
    'a URL no engine claims is unknown (null): %s',
    (u) => {
      expect(engineFromUrl(url(u))).toBeNull();
    },
  );
});

describe('engine from the page HTML', () => {
  const real: [dir: string, file: string, engine: EngineId][] = [
    ['xenforo2', 'nettally-Xenforo2.html', 'xenforo2'],
    ['xenforo2', 'revioos-rpgcodex-thread-dom.html', 'xenforo2'],
    ['phpbb3', 'nettally-phpBB.html', 'phpbb'],
    ['xenforo1', 'nettally-Xenforo1.html', 'xenforo1'],
    ['vbulletin3', 'nettally-vBulletin3.html', 'vbulletin3'],
    ['vbulletin4', 'nettally-vBulletin4.html', 'vbulletin4'],
    ['vbulletin5', 'nettally-vBulletin5.html', 'vbulletin5'],
    ['nodebb', 'nettally-NodeBB.html', 'nodebb'],
    ['smf', 'geekhack-smf2015-topic92066.html', 'smf'],
    ['invision', 'utorrent-topic86747.html', 'invision'],
    ['invision', 'neowin-topic1393830.html', 'invision'],
  ];

  it.skipIf(!haveSamples).each(real)('the real %s page %s is %s', (dir, file, engine) => {
    expect(engineFromHtml(readFileSync(join(samples, dir, file), 'utf8'))).toBe(engine);
  });

  it.each<EngineId>(['xenforo2', 'phpbb'])('the rendered standard game pages are %s', (engine) => {
    for (const page of readFixtureThread(root, engine, 'standard-game').pages)
      expect(engineFromHtml(page.body)).toBe(engine);
  });

  it('<html id="XF"> is XenForo 2', () => {
    expect(
      engineFromHtml('<!DOCTYPE html><html id="XF" data-template="thread_view"><head></head><body></body></html>'),
    ).toBe('xenforo2');
  });

  it('<body id="phpbb"> is phpBB', () => {
    expect(
      engineFromHtml(
        '<!DOCTYPE html><html dir="ltr"><head></head><body id="phpbb" class="section-viewtopic"></body></html>',
      ),
    ).toBe('phpbb');
  });

  it('XenForo 1 (<html id="XenForo">) is not XenForo 2', () => {
    expect(engineFromHtml('<!DOCTYPE html><html id="XenForo" class="Public"><body></body></html>')).not.toBe(
      'xenforo2',
    );
  });

  it.each([
    ['a plain page', '<!DOCTYPE html><html><head><title>Hello</title></head><body><p>Hello</p></body></html>'],
    ['an empty document', ''],
    [
      'a Cloudflare challenge',
      '<!DOCTYPE html><html lang="en-US"><head><title>Just a moment...</title></head><body><div id="challenge-running"></div></body></html>',
    ],
  ])('%s is unknown (null)', (_what, html) => {
    expect(engineFromHtml(html)).toBeNull();
  });
});

describe('adapter lookup', () => {
  it('every registered engine has its adapter', () => {
    for (const a of adapters) expect(adapterOf(a.descriptor.engine)).toBe(a);
  });

  it('the generic reader is looked up by name, never among the adapters identification tries', () => {
    expect(adapterOf('generic').descriptor.engine).toBe('generic');
    expect(adapters.some((a) => a.descriptor.engine === 'generic')).toBe(false);
  });

  it('every engine id has an adapter; the generic reader alone is left out of identification', () => {
    const identified = new Set(adapters.map((a) => a.descriptor.engine));
    expect(EngineId.options.filter((e) => !identified.has(e))).toEqual(['generic']);
  });

  it('an engine without an adapter (a name from outside, e.g. a stored row) is an error listing the supported ones', () => {
    expect(() => adapterOf('bbpress' as EngineId)).toThrow(
      /"bbpress" is not supported yet \(supported: .*xenforo2.*\)/,
    );
  });
});

/**
 * Older versions still online, written after their own templates and copyright lines
 * (docs/fetching.md; no real game thread of these was at hand): a page of one is never
 * read as an empty or half thread, and the error names the version.
 */
describe('older versions are refused by name', () => {
  const page = (head: string, body: string): string =>
    `<!DOCTYPE html><html><head><title>Mafia 3</title>${head}</head><body>${body}</body></html>`;
  const cases: { version: string; engine: EngineId; url: string; html: string; says: RegExp }[] = [
    {
      // SMF 1.1 Display.template.php: posts in table rows, the member name in <b>, the copyright every 1.x page prints.
      version: 'SMF 1.1',
      engine: 'smf',
      url: 'https://bitcointalk.example/index.php?topic=5.0',
      says: /this page is SMF 1\.1\.19 \(the 1\.x table layout\)/,
      html: page(
        '<script type="text/javascript"><!-- // --><![CDATA[ var smf_scripturl = "https://bitcointalk.example/index.php"; // ]]></script>',
        '<form action="https://bitcointalk.example/index.php?action=quickmod2;topic=5.0" method="post" name="quickModForm" id="quickModForm" style="margin: 0;">' +
          '<table cellpadding="0" cellspacing="0" border="0" width="100%" class="bordercolor"><tr><td style="padding: 1px 1px 0 1px;"><a name="msg11"></a>' +
          '<table width="100%" cellpadding="3" cellspacing="0" border="0"><tr><td class="windowbg"><table width="100%" cellpadding="5" cellspacing="0" style="table-layout: fixed;"><tr>' +
          '<td valign="top" width="16%" rowspan="2" style="overflow: hidden;"><b><a href="https://bitcointalk.example/index.php?action=profile;u=3" title="View the profile of Ann">Ann</a></b></td>' +
          '<td valign="top" width="85%" height="100%"><div class="smalltext">&#171; <b>on:</b> January 10, 2015, 08:00:00 PM &#187;</div><hr width="100%" size="1" class="hrcolor" />' +
          '<div class="post"><b>Vote: Ben</b></div></td></tr></table></td></tr></table></td></tr></table></form>' +
          '<span class="smalltext" style="display: inline; visibility: visible; font-family: Verdana, Arial, sans-serif;"><a href="http://www.simplemachines.org/" title="Simple Machines Forum" target="_blank">Powered by SMF 1.1.19</a> | <a href="http://www.simplemachines.org/about/copyright.php" title="Free Forum Software" target="_blank">SMF &copy; 2006-2009, Simple Machines</a></span>',
      ),
    },
    {
      // phpBB 3.0 subsilver2 viewtopic_body.html: tables, <b class="postauthor">, div.postbody.
      version: 'phpBB 3.0 subsilver2',
      engine: 'phpbb',
      url: 'https://old.example/viewtopic.php?f=2&t=7',
      says: /this page is phpBB with the subsilver2 style/,
      html: page(
        '<link rel="stylesheet" href="./style.php?id=2&amp;lang=en" type="text/css" />',
        '<table class="tablebg" width="100%" cellspacing="1"><tr class="row1"><td align="center" valign="middle"><a name="p12"></a><b class="postauthor">Ann</b></td>' +
          '<td width="100%" height="25"><div class="postbody"><span style="font-weight: bold">Vote: Ben</span></div></td></tr></table>' +
          '<div class="copyright">Powered by <a href="http://www.phpbb.com/">phpBB</a> &copy; 2000, 2002, 2005, 2007 phpBB Group</div>',
      ),
    },
    {
      // IP.Board 3.x topic view: div.post_block#post_id_N; the footer names the version.
      version: 'IP.Board 3.4',
      engine: 'invision',
      url: 'https://ipb3.example/topic/99-mafia-3/',
      says: /this page is IP\.Board 3\.4\.9/,
      html: page(
        "<script type='text/javascript'>ipb.vars['base_url'] = 'https://ipb3.example/index.php?';</script>",
        "<div class='post_block hentry clear clearfix column_view' id='post_id_501'><div class='post_wrap'><h3 class='row2'><span class='author vcard'><a hovercard-ref='member' href='https://ipb3.example/user/3-ann/'>Ann</a></span></h3>" +
          "<div class='post_body'><div class='post entry-content '><strong class='bbc'>Vote: Ben</strong></div></div></div></div>" +
          "<p id='copyright'><a href='http://www.invisionpower.com/apps/board/' title='Community Forum Software by Invision Power Services'>Community Forum Software by IP.Board 3.4.9</a></p>",
      ),
    },
    {
      // vBulletin 3.7's footer; a 3.7 showthread the vBulletin 3 adapter finds no posts on is named, not "layout changed".
      version: 'vBulletin 3.7',
      engine: 'vbulletin3',
      url: 'https://vb37.example/showthread.php?t=5',
      says: /this page is vBulletin 3\.7\.4/,
      html: page(
        '<meta name="generator" content="vBulletin 3.7.4" />',
        '<div id="posts"><div class="page"><div id="edit77">Vote: Ben</div></div></div>' +
          '<div align="center"><div class="smallfont" align="center">Powered by vBulletin&reg; Version 3.7.4<br />Copyright &copy;2000 - 2026, Jelsoft Enterprises Ltd.</div></div>',
      ),
    },
  ];

  it.each(cases)(
    '$version: the adapter refuses the page naming the version, with the URL',
    ({ engine, url, html, says }) => {
      const read = (): unknown =>
        adapterOf(engine).parsePage(html, { url, profile: DEFAULT_PROFILE, now: '2026-03-03T12:00:00Z' });
      expect(read).toThrow(LayoutError);
      expect(read).toThrow(says);
      expect(read).toThrow(new URL(url).host);
    },
  );

  it.each(cases.filter((c) => c.engine !== 'vbulletin3'))(
    '$version: a board on its own domain is not taken for a newer engine, and the error names the version',
    async ({ url, html, says }) => {
      expect(engineFromHtml(html)).toBeNull();
      const source = {
        get: async (u: string) => ({
          url: u,
          finalUrl: u,
          status: 200,
          body: html,
          etag: null,
          lastModified: null,
          hash: '',
          notModified: false,
          fetchedAt: '2026-03-03T12:00:00Z',
        }),
      };
      await expect(identifyEngine(new URL(url), source, undefined)).rejects.toThrow(says);
    },
  );

  it('current versions whose layout is read never get an old-version message', () => {
    if (!haveSamples) return;
    const vb38 = readFileSync(join(samples, 'vbulletin3', 'nettally-vBulletin3.html'), 'latin1');
    expect(vb38).toMatch(/Powered by vBulletin&reg; Version 3\.8\.11/);
    const read = (): unknown =>
      adapterOf('vbulletin3').parsePage(
        vb38.replaceAll('post_message_', 'message_').replaceAll('id="post', 'id="entry'),
        {
          url: 'https://forums.animesuki.com/showthread.php?t=1',
          profile: DEFAULT_PROFILE,
          now: '2026-03-03T12:00:00Z',
        },
      );
    expect(read).toThrow(/the forum's layout changed/);
  });
});
