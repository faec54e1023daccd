import { describe, expect, it } from 'vitest';
import type { ThreadPage } from '../../scrapers/adapter.js';
import { fluxbb } from '../../scrapers/fluxbb.js';
import { engineFromHtml, engineFromUrl } from '../../scrapers/identify.js';
import { DEFAULT_PROFILE, SiteProfile } from '../../scrapers/site-profile.js';
import { flatText, nodesOf, textOutsideQuotes } from '../support/game-script.js';
import { asFluxbbShows, fluxbbRenderer } from '../support/render/fluxbb.js';
import { describeStandardGame, ORIGIN } from '../support/standard-game.js';

const NOW = '2026-03-10T00:00:00Z';
const parse = (html: string, url: string): ThreadPage =>
  fluxbb.parsePage(html, { url, profile: DEFAULT_PROFILE, now: NOW });

describeStandardGame(
  fluxbb,
  fluxbbRenderer,
  {
    name: 'FluxBB',
    read: parse,
    // "#N" on every post; times "2026-03-02 18:00:00" in the board's zone (UTC).
    permalink: (s) => `${ORIGIN}/viewtopic.php?pid=${s.id}#p${s.id}`,
    edit: { at: '2026-03-03T10:05:00.000Z', by: 'Dave', text: 'Last edited by Dave (2026-03-03 10:05:00)' },
    writes: asFluxbbShows,
    quoteChrome: /wrote:/,
    smilies: ['smile', 'big_smile'],
    spoiler: false,
    mention: null,
    mountable: true,
    noPosts: {
      html: '<!DOCTYPE html><html><body><div id="punviewtopic" class="pun"><div id="msg" class="block"><h2><span>Info</span></h2><div class="box"><div class="inbox"><p>Bad request. The link you followed is incorrect or outdated.</p></div></div></div></div></body></html>',
      url: `${ORIGIN}/viewtopic.php?id=1`,
    },
    also: {
      // The edit note sits inside the message box; it is not the post's text.
      edit: ({ post }) => expect(flatText(post(13).body)).toBe('Unvote Need to think.'),
    },
  },
  ({ post }) => {
    it('no spoiler tag, so the [spoiler] BBCode stays literal around a bold vote', () => {
      expect(nodesOf(post(11).body, 'spoiler')).toEqual([]);
      expect(flatText(post(11).body)).toBe('[spoiler=secret]Vote: Dave[/spoiler]Not voting yet.');
    });
  },
);

describe('FluxBB times (format_time)', () => {
  const one = (when: string): string | null => {
    const html = `<!DOCTYPE html><html><body><div id="punviewtopic" class="pun"><div id="p7" class="blockpost rowodd blockpost1"><h2><span><span class="conr">#1</span> <a href="viewtopic.php?pid=7#p7">${when}</a></span></h2><div class="box"><div class="inbox"><div class="postbody"><div class="postleft"><dl><dt><strong><a href="profile.php?id=3">Ann</a></strong></dt></dl></div><div class="postright"><div class="postmsg"><p>Hi</p></div></div></div></div></div></div></div></body></html>`;
    return fluxbb.parsePage(html, {
      url: 'https://board.example/viewtopic.php?id=9',
      profile: SiteProfile.parse({ timeZone: 'Europe/Berlin' }),
      now: '2026-03-04T15:00:00Z',
    }).posts[0]!.postedAt;
  };

  it.each([
    ['2026-03-02 18:04:00', '2026-03-02T17:04:00.000Z'],
    ['Today 09:30:00', '2026-03-04T08:30:00.000Z'],
    ['Yesterday 23:15:00', '2026-03-03T22:15:00.000Z'],
  ])('"%s" in the board\'s zone (a site profile: Europe/Berlin) is %s', (when, utc) => {
    expect(one(when)).toBe(utc);
  });
});

describe('FluxBB URLs and identification', () => {
  it('the topic is viewtopic.php?id=N; page N is &p=N; a post link names no topic', () => {
    const ref = fluxbb.threadRef(new URL('https://board.example/forum/viewtopic.php?id=77&p=3'));
    expect(ref).toEqual({ engine: 'fluxbb', url: 'https://board.example/forum/viewtopic.php?id=77', id: '77' });
    expect(fluxbb.pageUrl(ref, 1, null)).toBe(ref.url);
    expect(fluxbb.pageUrl(ref, 3, null)).toBe(`${ref.url}&p=3`);
    expect(fluxbb.pageOf(new URL(`${ref.url}&p=3`), null)).toBe(3);
    expect(fluxbb.threadRef(new URL('https://board.example/viewtopic.php?pid=901#p901')).id).toBeNull();
  });

  it("viewtopic.php is phpBB's name too: the URL alone does not decide, the page does", () => {
    expect(engineFromUrl(new URL('https://board.example/viewtopic.php?id=77'))).toBeNull();
    expect(engineFromHtml('<html><body><div id="punviewtopic" class="pun"></div></body></html>')).toBe('fluxbb');
    expect(engineFromHtml('<html><body id="phpbb"></body></html>')).toBe('phpbb');
  });
});

/**
 * A real punBB 1.2 topic page, the engine FluxBB forked (its `#punviewtopic` view), as a
 * browser saved it: "Lighttpd says Insufficient memory (case 4)" on forum.textdrive.com
 * (footer "Powered by PunBB", © 2002–2005), a file in a public GitHub repository (code
 * index id 676680355; the index does not name the repository). This fixture keeps its
 * structure: crumbs as an unclassed `ul` in `div.linkst`, "#N&nbsp;", "Today HH:MM:SS",
 * a quote as punBB 1.2's parser writes it (`blockquote` > `div.incqbox` > `h4` "X wrote:"),
 * the signature beside the message box, and the edit note inside it.
 */
describe('a real punBB 1.2 page (forum.textdrive.com)', () => {
  const post = (id: number, n: number, when: string, uid: number, name: string, msg: string, sig = '') =>
    `<div id="p${id}" class="blockpost rowodd"><h2><span><span class="conr">#${n}&nbsp;</span><a href="http://forum.textdrive.com/viewtopic.php?pid=${id}#p${id}">${when}</a></span></h2><div class="box"><div class="inbox"><div class="postleft"><dl><dt><strong><a href="http://forum.textdrive.com/profile.php?id=${uid}">${name}</a></strong></dt><dd class="usertitle"><strong>Member</strong></dd></dl></div><div class="postright"><h3> Re: Lighttpd says Insufficient memory (case 4)</h3><div class="postmsg">${msg}</div>${sig}</div><div class="clearer"></div></div></div></div>`;
  const html = `<!DOCTYPE html><html dir="ltr"><head><title>TextDrive Community Forum / Lighttpd says Insufficient memory (case 4)</title></head><body><div id="punwrap"><div id="punviewtopic" class="pun"><div class="linkst"><div class="inbox"><p class="pagelink conl">Pages: <strong>1</strong></p><ul><li><a href="http://forum.textdrive.com/index.php">Index</a></li><li>&nbsp;»&nbsp;<a href="http://forum.textdrive.com/viewforum.php?id=4">Troubleshooting</a></li><li>&nbsp;»&nbsp;Lighttpd says Insufficient memory (case 4)</li></ul></div></div>${post(
    62732,
    4,
    'Today 03:46:42',
    1067,
    'geography',
    "<p>I'm resizing it too. But that is not where it dies.</p>",
  )}${post(
    62735,
    5,
    'Today 04:14:08',
    2707,
    'jqshenker',
    '<p></p><blockquote><div class="incqbox"><h4>geography wrote:</h4><p>I\'m resizing it too. But that is not where it dies.</p></div></blockquote><p><br>\nI meant "resizing" as anything to do with RMagick.</p>',
    '<div class="postsignature"><hr><a href="http://soggyslides.textdriven.com/">soggyslides - {abstractisms daily}</a></div>',
  )}${post(
    62801,
    12,
    'Today 21:55:36',
    1097,
    'cch',
    '<p>Yea, now you have to know whether it\'s RMagick specifically.</p><p class="postedit"><em>Last edited by cch (Today 21:56:17)</em></p>',
  )}<div class="postlinksb"><div class="inbox"><p class="pagelink conl">Pages: <strong>1</strong></p></div></div><div id="brdfooter" class="block"><div class="box"><div class="inbox"><p class="conr">Powered by <a href="http://www.punbb.org/">PunBB</a></p></div></div></div></div></div></body></html>`;
  const ctx = {
    url: 'http://forum.textdrive.com/viewtopic.php?id=7356',
    profile: DEFAULT_PROFILE,
    now: '2006-01-20T23:00:00Z',
  };

  it('is read as FluxBB, every post with its number, author, time and the topic title from the crumbs', () => {
    expect(engineFromHtml(html)).toBe('fluxbb');
    const page = fluxbb.parsePage(html, ctx);
    expect(page.title).toBe('Lighttpd says Insufficient memory (case 4)');
    expect([page.page, page.pageCount]).toEqual([1, 1]);
    expect(page.posts.map((p) => [p.number, p.author, p.authorId, p.postedAt])).toEqual([
      [4, 'geography', '1067', '2006-01-20T03:46:42.000Z'],
      [5, 'jqshenker', '2707', '2006-01-20T04:14:08.000Z'],
      [12, 'cch', '1097', '2006-01-20T21:55:36.000Z'],
    ]);
    expect(page.posts[2]!.edit).toEqual({
      at: '2006-01-20T21:56:17.000Z',
      by: 'cch',
      text: 'Last edited by cch (Today 21:56:17)',
    });
    expect(fluxbb.parsePage(html, { ...ctx, wholePage: true })).toEqual(page);
  });

  it("a punBB 1.2 quote is the quoted poster's words, not the quoter's (nor is the signature beside the message)", () => {
    const { body } = fluxbb.parsePage(html, ctx).posts[1]!;
    expect(nodesOf(body, 'quote').map((q) => [q.author, flatText(q.children)])).toEqual([
      ['geography', "I'm resizing it too. But that is not where it dies."],
    ]);
    expect(textOutsideQuotes(body)).toBe('I meant "resizing" as anything to do with RMagick.');
  });
});
