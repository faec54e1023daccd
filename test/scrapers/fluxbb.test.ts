import { describe, expect, it } from 'vitest';
import type { ThreadPage } from '../../scrapers/adapter.js';
import { fluxbb } from '../../scrapers/fluxbb.js';
import { engineFromHtml, engineFromUrl } from '../../scrapers/identify.js';
import { DEFAULT_PROFILE, SiteProfile } from '../../scrapers/site-profile.js';
import { flatText, nodesOf } from '../support/game-script.js';
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
