import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type BodyNode, plainText } from '../../src/model/body.js';
import { readGeneric } from '../../scrapers/generic.js';
import { adapterOf, engineFromHtml } from '../../scrapers/identify.js';
import { DEFAULT_PROFILE } from '../../scrapers/site-profile.js';
import { harvestDir } from '../support/harvest-gold.js';

/**
 * The generic reader (adapters off) on pages of engines Votal has adapters for: it reads
 * them as the adapter does (every post, its author, its time, its own text outside quotes
 * and signatures). The pages: the engines' fixture pages (fixtures/README.md) and the real
 * pages of ../shared/forum-samples (SOURCES.md there). Each listed page is one the generic
 * reader reads right; a page it refuses is not listed (a refusal is no wrong reading).
 */
const SAMPLES = dirname(harvestDir);
const PAGES: { page: string; shared?: true; upTo?: number }[] = [
  { page: 'fixtures/invision/standard-game/page-1.html' },
  { page: 'fixtures/mybb/standard-game/page-1.html' },
  { page: 'fixtures/mybb/template-1.8.37/page-1.html' },
  // Three posts, one a guest's printed in span.largetext with no class to know it by; the
  // member's "Posts: 42 Threads: 3 Joined: Jan 2026" box (div.author_statistics) is no name and
  // no message; "<span title="03-03-2026">Today</span>, 08:00 AM" gives the date and the clock beside it.
  { page: 'fixtures/mybb/day-thread/page-2.html' },
  // Three posts, one a guest's; li.poster_ip ("Logged") is no name.
  { page: 'fixtures/smf/day-thread/page-2.html' },
  { page: 'fixtures/phpbb/standard-game/page-1.html' },
  // GOG's quote is a div.quot with span.quot_user_name ("Alice: "): a quoted vote is no vote of the poster's.
  { page: 'fixtures/gog/day-thread/page-1.html' },
  // Its div.info header holds the time and "Post by X" above short messages.
  { page: 'fixtures/proboards/standard-game/page-2.html' },
  { page: 'fixtures/proboards/day-thread/page-2.html' },
  { page: 'fixtures/smf/standard-game/page-1.html' },
  { page: 'fixtures/smf/template-2.1.4/page-1.html' },
  { page: 'fixtures/smf/template-2.1.4-sef/page-1.html' },
  { page: 'fixtures/mybb/template-1.8.37-seo-classic/page-1.html' },
  { page: 'fixtures/vanilla/standard-game/page-1.html' },
  { page: 'fixtures/vanilla/standard-game/page-2.html' },
  { page: 'fixtures/vanilla/standard-game/page-3.html' },
  // Its div.smallfont ("Join Date: Jan 2026 Posts: 114") and div#post_message_N are both "td > div".
  { page: 'fixtures/vbulletin3/standard-game/page-1.html' },
  { page: 'fixtures/vbulletin4/standard-game/page-1.html' },
  { page: 'fixtures/vbulletin5/standard-game/page-1.html' },
  { page: 'fixtures/xenforo2/standard-game/page-1.html' },
  // Short messages beside the author's box with its join date and no link to the author
  // (vBulletin's dl.userinfo_extra, XenForo 2's message-userExtras). Post 5 holds a code box
  // whose "Code:" label the adapters leave out: compared up to post 4.
  { page: 'fixtures/vbulletin4/standard-game/page-3.html', upTo: 4 },
  { page: 'fixtures/vbulletin5/standard-game/page-3.html', upTo: 4 },
  { page: 'fixtures/xenforo2/standard-game/page-3.html', upTo: 4 },
  { page: 'invision/neowin-topic1393830.html', shared: true },
  { page: 'phpbb3/nettally-phpBB.html', shared: true },
  { page: 'vbulletin4/nettally-vBulletin4.html', shared: true },
  { page: 'vbulletin5/nettally-vBulletin5.html', shared: true },
  { page: 'xenforo2/nettally-Xenforo2.html', shared: true },
];
const URL = 'https://forum.example.com/threads/mafia.42/';
const NOW = '2026-06-15T12:00:00Z';
const own = (body: readonly BodyNode[]): BodyNode[] =>
  body
    .filter((n) => n.t !== 'signature' && n.t !== 'quote')
    .map((n) => ('children' in n ? ({ ...n, children: own(n.children) } as BodyNode) : n));
const squash = (s: string): string => s.replace(/[\s\p{P}]+/gu, '');
const seen = (posts: readonly { author: string; postedAt: string | null; body: readonly BodyNode[] }[]) =>
  posts.map((p) => [p.author, p.postedAt, squash(plainText(own(p.body)))]);

describe('the generic reader reads pages of supported engines as their adapters do (issue 23)', () => {
  for (const { page, shared, upTo } of PAGES) {
    const file = shared ? join(SAMPLES, page) : page;
    it.skipIf(shared && !existsSync(file))(page, () => {
      const html = readFileSync(file, 'utf8');
      const ctx = { url: URL, profile: DEFAULT_PROFILE, now: NOW };
      const adapter = adapterOf(engineFromHtml(html)!).parsePage(html, ctx);
      expect(adapter.posts.length).toBeGreaterThan(1);
      const generic = readGeneric(html, ctx).page.posts;
      expect(generic).toHaveLength(adapter.posts.length);
      expect(seen(generic.slice(0, upTo))).toEqual(seen(adapter.posts.slice(0, upTo)));
    });
  }
});
