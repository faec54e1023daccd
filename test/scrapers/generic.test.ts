import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LayoutError } from '../../src/fetch/errors.js';
import { type BodyNode, plainText } from '../../src/model/body.js';
import type { Post } from '../../src/model/post.js';
import { parseSiteProfile } from '../../src/site/load-site-profiles.js';
import { adapterOf, engineFromHtml, engineFromUrl } from '../../scrapers/identify.js';
import { GenericRefusal, generic, readGeneric } from '../../scrapers/generic.js';
import { confirmation, profileFromReading, readGenerically } from '../../scrapers/generic-profile.js';
import { adapterFor, adapters } from '../../scrapers/registry.js';
import { DEFAULT_PROFILE, SiteProfile } from '../../scrapers/site-profile.js';
import { adapterProfile } from '../../src/site/site-profile-entry.js';
import { harvestDir, harvestPages } from '../support/harvest-gold.js';
import { nodesOf, textOutsideQuotes } from '../support/game-script.js';
import { vbulletin3 } from '../../scrapers/vbulletin3.js';

/**
 * A site-specific forum layout written for this test (no engine's markup): posts as
 * `section.entry` cards, the author a link to `/people/<name>`, the time a `<time>` with a
 * machine attribute on some posts and only text ("15/05/19 10:30", day first) on others.
 */
const URL1 = 'https://board.example.org/talk/village?page=1';
interface Entry {
  id: number;
  who: string;
  iso?: string;
  shown: string;
  body: string;
  edit?: string;
}
const ENTRIES: Entry[] = [
  {
    id: 101,
    who: 'Alice',
    iso: '2019-05-15T08:30:00Z',
    shown: '15/05/19 10:30',
    body: '<p>Day 1 begins. <b>Vote: Bob</b></p>',
  },
  {
    id: 102,
    who: 'Bob',
    shown: '15/05/19 11:02',
    body: '<blockquote class="quote"><cite>Alice wrote:</cite>Vote: Bob</blockquote><p>Not me. <s>Vote: Carol</s> <strong>Vote: Dave</strong></p>',
  },
  {
    id: 103,
    who: 'Carol',
    iso: '2019-05-15T10:15:00Z',
    shown: '15/05/19 12:15',
    body: '<p>See <a href="https://wiki.example.com/x">rules</a> <img src="/smilies/smile.gif" alt=":)"> and <details><summary>Spoiler</summary>Vote: Eve</details></p>',
    edit: 'Last edited by Carol; 15/05/19 12:20',
  },
  { id: 104, who: 'Alice', shown: '15/05/19 13:40', body: '<p>Vote: Carol</p><pre>code here</pre>' },
];
function page(entries: readonly Entry[], opts: { pager?: boolean; sidebar?: number; single?: boolean } = {}): string {
  const posts = entries
    .map(
      (e) => `<section class="entry" id="entry-${e.id}">
  <header class="entry-head"><a class="who" href="/people/${e.who.toLowerCase()}">${e.who}</a>
    <a class="stamp" href="/talk/village/entry/${e.id}">${e.iso ? `<time datetime="${e.iso}">${e.shown}</time>` : `<span>${e.shown}</span>`}</a></header>
  <div class="entry-text">${e.body}</div>
  ${e.edit ? `<div class="edit-note">${e.edit}</div>` : ''}
  <footer class="entry-tools"><a href="/report/${e.id}">Report</a></footer>
</section>`,
    )
    .join('\n');
  const side = Array.from(
    { length: opts.sidebar ?? 0 },
    (_, i) => `<div class="entry-tools"><a class="who" href="/people/lurker${i}">lurker${i}</a></div>`,
  ).join('');
  const pager = opts.pager
    ? '<div class="pages"><span>1</span> <a href="/talk/village?page=2">2</a> <a href="/talk/village?page=3">3</a> <a rel="next" href="/talk/village?page=2">Next</a></div>'
    : '';
  return `<!doctype html><html lang="en-GB"><head><title>Thread 42 - Example Board</title></head><body>
<div class="top"><a href="/login">Log in</a></div>
<h1>Mafia Game 7: the village</h1>${pager}
<main id="thread">${posts}</main>${side ? `<div class="column">${side}</div>` : ''}
</body></html>`;
}
const ctx = { url: URL1, profile: DEFAULT_PROFILE, now: '2019-05-16T00:00:00Z' };

describe('never chosen silently', () => {
  it('identification never picks it: not among the identified adapters, no host, path or fingerprint', () => {
    expect(adapters.map((a) => a.descriptor.engine)).not.toContain('generic');
    expect(engineFromHtml(page(ENTRIES))).not.toBe('generic');
    expect(engineFromUrl(new URL(URL1))).toBeNull();
    expect(generic.descriptor).toMatchObject({ hosts: [], threadPaths: [], fingerprints: [] });
  });
  it('chosen by name (--engine generic) or by a site profile with engine generic', () => {
    expect(adapterOf('generic')).toBe(generic);
    expect(adapterFor('generic')).toBe(generic);
    expect(engineFromUrl(new URL(URL1), SiteProfile.parse({ engine: 'generic' }))).toBe('generic');
  });
});

describe('the generic reader on a site-specific layout', () => {
  const r = readGeneric(page(ENTRIES, { pager: true }), ctx);
  const posts = r.page.posts;

  it('finds every post, in order, by its author link', () => {
    expect(posts.map((p) => p.author)).toEqual(['Alice', 'Bob', 'Carol', 'Alice']);
    expect(posts.map((p) => p.authorId)).toEqual(['alice', 'bob', 'carol', 'alice']);
    expect(posts.map((p) => p.number)).toEqual([1, 2, 3, 4]);
    expect(r.page.title).toBe('Mafia Game 7: the village');
  });

  it('time: the machine attribute where there is one, else the text in the order the page shows (day first)', () => {
    expect(posts.map((p) => p.postedAt)).toEqual([
      '2019-05-15T08:30:00.000Z',
      '2019-05-15T11:02:00.000Z',
      '2019-05-15T10:15:00.000Z',
      '2019-05-15T13:40:00.000Z',
    ]);
    expect(r.evidence.map((e) => e.timeFrom)).toEqual(['attribute', 'text', 'attribute', 'text']);
  });

  it("permalink and id: the post's own link, its number", () => {
    expect(posts.map((p) => p.permalink)).toEqual(
      [101, 102, 103, 104].map((n) => `https://board.example.org/talk/village/entry/${n}`),
    );
    expect(posts.map((p) => p.id)).toEqual(['101', '102', '103', '104']);
  });

  it('body through the shared builder: quotes with their author, bold, strike, links, smilies, spoilers, code', () => {
    const nodes = (i: number): string => JSON.stringify(posts[i]!.body);
    expect(nodes(0)).toContain('{"t":"bold","children":[{"t":"text","text":"Vote: Bob"}]}');
    expect(posts[1]!.body.find((n) => n.t === 'quote')).toMatchObject({ t: 'quote', author: 'Alice' });
    expect(nodes(1)).toContain('"t":"strike"');
    expect(nodes(2)).toContain('"kind":"external"');
    expect(nodes(2)).toContain('{"t":"smilie","alt":":)"}');
    expect(nodes(2)).toContain('"t":"spoiler"');
    expect(nodes(3)).toContain('{"t":"code","text":"code here"}');
    expect(plainText(posts[1]!.body)).not.toContain('Report');
  });

  it("a quote's author line naming the quoted post's time after \"wrote\" gives the name alone (forum.ebaumsworld.com 42095, phpBB 3.2's cite)", () => {
    const cite =
      '<cite><a href="/people/alice">Alice</a> wrote: <a href="/talk/village/entry/101">↑</a><div class="responsive-hide">Wed May 15, 2019 10:30 am</div></cite>';
    const r = readGeneric(page(ENTRIES).replace('<cite>Alice wrote:</cite>', cite), ctx);
    const quote = r.page.posts[1]!.body.find((n) => n.t === 'quote');
    expect(quote).toMatchObject({ t: 'quote', author: 'Alice' });
    // The header stays as quoted text, as the page shows it (the harvest gold of 78519 keeps it): inside the quote, never the poster's.
    expect(plainText([quote!]).replace(/\s+/g, ' ')).toContain('Alice wrote: ↑ Wed May 15, 2019 10:30 am');
    expect(plainText(r.page.posts[1]!.body.filter((n) => n.t !== 'quote'))).not.toContain('wrote');
  });

  it('edit note where the post shows one', () => {
    expect(posts.map((p) => p.edit?.text ?? null)).toEqual([null, null, 'Last edited by Carol; 15/05/19 12:20', null]);
  });

  it('pagination from page-number links and rel=next: the count and the URLs to ask for', () => {
    expect(r.page).toMatchObject({ page: 1, pageCount: 3 });
    expect(r.page.pageUrls).toEqual({
      2: 'https://board.example.org/talk/village?page=2',
      3: 'https://board.example.org/talk/village?page=3',
    });
    expect(generic.pageOf(new URL('https://board.example.org/talk/village?page=3'), null)).toBe(3);
    expect(generic.threadRef(new URL(URL1)).url).toBe('https://board.example.org/talk/village');
  });

  it('scores its finding: every block with an author, a body and a time, times in order, authors repeating', () => {
    expect(r.finding.measures).toMatchObject({ blocks: 4, withAuthor: 4, withBody: 4, withTime: 4, authors: 3 });
    expect(r.finding.score).toBeGreaterThanOrEqual(0.75);
  });
});

/** The page with a block of another kind before post 103. */
const readWithBefore103 = (block: string) =>
  readGeneric(
    page(ENTRIES).replace('<section class="entry" id="entry-103">', `${block}<section class="entry" id="entry-103">`),
    ctx,
  );

describe('ad slots are not posts', () => {
  it('a block with neither text nor a time is left out, and the GM is told (futura-sciences\' "Publicité")', () => {
    const ad =
      '<section class="entry"><header class="entry-head"><a class="who" href="/people/ads">Publicité</a></header><div class="entry-text"> </div></section>';
    const r = readWithBefore103(ad);
    expect(r.page.posts.map((p) => [p.number, p.author])).toEqual([
      [1, 'Alice'],
      [2, 'Bob'],
      [3, 'Carol'],
      [4, 'Alice'],
    ]);
    expect(r.notes).toContainEqual(expect.stringMatching(/"Publicité" with neither text nor a time was left out/));
  });
});

describe("the author's box is not the body", () => {
  it("of blocks of one shape, the message, not the box that links to the author again with rank and post count (digitalfernsehen's XenForo 1 user block)", () => {
    const box = (who: string): string =>
      `<div class="entry-side"><a href="/people/${who.toLowerCase()}">${who}</a> Village elder of the old board since the spring of 2007, 1,234 posts, 567 likes, from the far side of the river valley</div>`;
    const html = page(ENTRIES).replace(
      /(<section class="entry" id="entry-\d+">\s*<header class="entry-head"><a class="who" href="\/people\/(\w+)">)/g,
      (_, head: string, who: string) => head.replace('<header', `${box(who)}<header`),
    );
    expect(html.match(/entry-side/g)).toHaveLength(4);
    const r = readGeneric(html, ctx);
    const bodies = (posts: readonly { body: Parameters<typeof plainText>[0] }[]): string[] =>
      posts.map((p) => plainText(p.body).trim());
    expect(bodies(r.page.posts)).toEqual(bodies(readGeneric(page(ENTRIES), ctx).page.posts));
    expect(bodies(r.page.posts)[0]).toContain('Day 1 begins.');
  });

  it('a profile column that links to the author again is never the message, however short the messages; a post of a video alone has an empty message (forum.ebaumsworld.com 42095, a phpBB theme)', () => {
    const column = (who: string): string =>
      `<div class="entry-side"><div class="row">Username <a href="/people/${who}">${who[0]!.toUpperCase()}${who.slice(1)}</a></div><div class="row">Posts 7416</div><div class="row">Location: ${who} lives where I left off, far out past the river</div></div>`;
    const short: Entry[] = [
      { ...ENTRIES[0]!, body: 'Vote: Bob' },
      { ...ENTRIES[1]!, body: '^^' },
      { ...ENTRIES[2]!, body: '<div class="video"><iframe src="https://www.youtube.com/embed/x"></iframe></div>' },
      { ...ENTRIES[3]!, body: 'Unvote. Vote: Carol' },
    ];
    const html = page(short).replace(
      /(<section class="entry" id="entry-\d+">\s*<header class="entry-head"><a class="who" href="\/people\/(\w+)">)/g,
      (_, head: string, who: string) => head.replace('<header', `${column(who)}<header`),
    );
    expect(html.match(/entry-side/g)).toHaveLength(4);
    const r = readGeneric(html, ctx);
    expect(r.page.posts.map((p) => [p.author, plainText(p.body).trim()])).toEqual([
      ['Alice', 'Vote: Bob'],
      ['Bob', '^^'],
      ['Carol', ''],
      ['Alice', 'Unvote. Vote: Carol'],
    ]);
    expect(r.finding.measures.withBody).toBe(4);
  });
});

describe('signatures', () => {
  const signed = (sig: (who: string) => string): string =>
    page(ENTRIES).replace(
      /(<a class="who" href="\/people\/(\w+)">[\s\S]*?<div class="entry-text">[\s\S]*?<\/div>)/g,
      (all: string, _: string, who: string) => `${all}${sig(who)}`,
    );
  const own = (r: ReturnType<typeof readGeneric>): string[] =>
    r.page.posts.map((p) => plainText(p.body.filter((n) => n.t !== 'signature')).trim());
  const unsigned = own(readGeneric(page(ENTRIES), ctx));

  it("a signature beside the message is the post's, marked as one (www.airliners.net 1428699's div.signature)", () => {
    const r = readGeneric(
      signed((who) => `<div class="signature">So... ${who} asks when the DC-9s retire?</div>`),
      ctx,
    );
    expect(own(r)).toEqual(unsigned);
    expect(
      r.page.posts.map((p) => p.body.filter((n) => n.t === 'signature').map((n) => plainText([n]).trim())),
    ).toEqual(ENTRIES.map((e) => [`So... ${e.who.toLowerCase()} asks when the DC-9s retire?`]));
  });

  it('so is a block opening with the separator line, without a class (skyscraperpage.com 242327, vBulletin 3)', () => {
    const r = readGeneric(
      signed((who) => `<div>__________________<br>${who}: Hamilton Tiger-Cats since 1869</div>`),
      ctx,
    );
    expect(own(r)).toEqual(unsigned);
    expect(r.page.posts.every((p) => plainText(p.body).includes('Hamilton Tiger-Cats since 1869'))).toBe(true);
  });

  it('a signature longer than the message does not widen the message to the box holding both (www.msworld.org 143493)', () => {
    const long = (who: string): string =>
      `<blockquote class="signature"><div>~ ${who}, volunteer moderator since June 2012. Symptoms began in January 2002, diagnosed in October 2003 after twenty-one months of limbo, ruling out a great many other things along the way.</div></blockquote>`;
    const r = readGeneric(signed(long), ctx);
    expect(own(r)).toEqual(unsigned);
    expect(r.page.posts.every((p) => p.body.at(-1)?.t === 'signature')).toBe(true);
  });

  it('a signature in a blockquote inside the message is a signature, not a quote (www.msworld.org 143493, vBulletin 4)', () => {
    const html = page(ENTRIES).replace(
      /(<div class="entry-text">[\s\S]*?)(<\/div>)/g,
      (_, text: string, end: string) =>
        `${text}<blockquote class="signature">Moderator since June 2012</blockquote>${end}`,
    );
    const r = readGeneric(html, ctx);
    const nodes = (body: readonly BodyNode[], t: BodyNode['t']): BodyNode[] =>
      body.flatMap((n) => [...(n.t === t ? [n] : []), ...('children' in n ? nodes(n.children, t) : [])]);
    for (const p of r.page.posts) {
      expect(plainText(nodes(p.body, 'quote'))).not.toContain('Moderator since');
      expect(plainText(nodes(p.body, 'signature'))).toContain('Moderator since');
    }
  });
});

describe('confidence: the generic reader refuses rather than guesses', () => {
  const cases: [string, string, RegExp][] = [
    ['one post: no repetition to trust', page(ENTRIES.slice(0, 1)), /none repeated at the same place/],
    ['no author anywhere', '<html><body><p>Hello</p><p>World</p></body></html>', /no author links/],
    [
      'a mark of a post outside the posts found (a post anchor): posts it would miss',
      page(ENTRIES).replace('</main>', '</main><div class="pinned"><div id="entry-555">Pinned: the rules</div></div>'),
      /1 more mark\(s\) of a post outside them/,
    ],
    [
      'an author link with a time outside the posts found, beside them',
      page(ENTRIES).replace(
        '</main>',
        '</main><div class="later"><div><header class="entry-head"><a class="who" href="/people/zed">Zed</a> <a class="stamp" href="/x"><span>16/05/19 09:00</span></a></header><p>Late</p></div></div>',
      ),
      /1 more mark\(s\) of a post outside them/,
    ],
    [
      // shift.ms (bbPress): the topic starter's header holds its author and, elsewhere, its time.
      'a first post in a box of another shape, its time not where the posts found show theirs',
      page(ENTRIES).replace(
        '<main id="thread">',
        '<div class="starter"><div class="starter-head"><span class="by"><a class="who" href="/people/dora">Dora</a></span><p class="when">14/05/19 09:00</p></div><p>The rules</p></div><main id="thread">',
      ),
      /1 more mark\(s\) of a post outside them/,
    ],
  ];
  it.each(cases)('%s', (_, html, why) => {
    expect(() => readGeneric(html, ctx)).toThrow(GenericRefusal);
    expect(() => readGeneric(html, ctx)).toThrow(why);
    expect(() => readGeneric(html, ctx)).toThrow(URL1);
  });

  it("times in order either way: newest first is a board's choice, a shuffle lowers the confidence", () => {
    const at = (days: number[]): Entry[] =>
      ENTRIES.map((e, i) => ({ ...e, iso: undefined, shown: `${days[i]}/05/19 10:30` }));
    const newestFirst = readGeneric(page(at([18, 17, 16, 15])), ctx).finding;
    const shuffled = readGeneric(page(at([15, 18, 16, 17])), ctx).finding;
    expect(newestFirst.measures.timesInOrder).toBe(1);
    expect(shuffled.measures.timesInOrder).toBeCloseTo(2 / 3);
    expect(shuffled.score).toBeLessThan(newestFirst.score);
  });
});

describe('what it learns is kept: a site profile of plain selectors', () => {
  const html = page(ENTRIES, { pager: true });
  const result = readGenerically(html, ctx);

  it('the profile YAML loads as sites/<host>.yaml and names the engine, host and selectors', () => {
    const entry = parseSiteProfile(result.yaml, 'sites/board.example.org.yaml');
    expect(entry).toMatchObject({ engine: 'generic', hosts: ['board.example.org'] });
    expect(entry.selectors).toEqual(result.profile.selectors);
    expect(result.profile.selectors?.post).toBe('main#thread > section.entry');
  });

  it('a profile with selectors reads the same posts with plain selectors', () => {
    const profile = adapterProfile(parseSiteProfile(result.yaml, 'sites/board.example.org.yaml'));
    const again = generic.parsePage(html, { ...ctx, profile });
    expect(again.posts).toEqual(result.reading.page.posts);
  });

  it('a layout change: selectors that find no posts are a LayoutError naming the URL', () => {
    const profile = profileFromReading(result.reading, URL1, DEFAULT_PROFILE);
    const changed = html.replaceAll('class="entry"', 'class="card"');
    expect(() => generic.parsePage(changed, { ...ctx, profile })).toThrow(LayoutError);
    expect(() => generic.parsePage(changed, { ...ctx, profile })).toThrow(
      /no posts where the site profile says.*board\.example\.org/s,
    );
  });

  it('the GM confirms the first page once: how many posts by how many authors, and three to check', () => {
    expect(confirmation(result.reading)).toEqual({
      message:
        'Votal found 4 posts by 3 authors on page 1: check three of them (posts 1, 2, 4) before the game is polled',
      check: [1, 2, 4],
    });
  });
});

describe('the opening post and the thread header (issue 26, the harvest pages)', () => {
  it("an opening post in a box of the posts' kind laid out otherwise, above them, is post 1 (shift.ms, bbPress's topic)", () => {
    const opening =
      '<section class="entry opening"><div class="topic-head"><div class="by"><span><a class="who" href="/people/dora">Dora</a></span> <span class="when">14/05/19 09:00</span></div></div><div class="topic-main"><div class="topic-text"><p>The rules: vote in bold.</p></div></div></section>';
    const r = readGeneric(page(ENTRIES).replace('<main id="thread">', `${opening}<main id="thread">`), ctx);
    expect(r.page.posts.map((p) => [p.number, p.author])).toEqual([
      [1, 'Dora'],
      [2, 'Alice'],
      [3, 'Bob'],
      [4, 'Carol'],
      [5, 'Alice'],
    ]);
    expect(plainText(r.page.posts[0]!.body).trim()).toBe('The rules: vote in bold.');
    expect(r.page.posts[0]!.postedAt).not.toBeNull();
  });

  it('a header naming the first post\'s author and time above the posts is no missed post (Invision\'s "By RobMan, July 25")', () => {
    const head = (who: string): string =>
      `<div class="intro"><div class="thread-head"><a class="who" href="/people/${who}">${who}</a> <time datetime="2019-05-15T08:30:00Z">15/05/19</time></div></div>`;
    expect(readGeneric(page(ENTRIES).replace('<main', `${head('alice')}<main`), ctx).page.posts).toHaveLength(4);
    // Another member's name and a time there is a post the reading would miss.
    expect(() => readGeneric(page(ENTRIES).replace('<main', `${head('zed')}<main`), ctx)).toThrow(
      /1 more mark\(s\) of a post outside them/,
    );
  });

  it('a block without the time the others show is refused, not read (neowin\'s "Our sponsors" box)', () => {
    const untimed = ENTRIES.map((e) => (e.id === 104 ? { ...e, shown: '' } : e));
    expect(() => readGeneric(page(untimed), ctx)).toThrow(/1 without the time the others show/);
  });
});

const haveSamples = existsSync(harvestDir);
if (!haveSamples && process.env.VOTAL_REQUIRE_SAMPLES === '1') throw new Error(`no harvest samples at ${harvestDir}`);

describe('more layouts found (issue 26, the harvest pages)', () => {
  it('a guest\'s post, its name printed where members\' posts link theirs, is a post (paradisi.de 186517\'s "maya", kiwifarms\' "RP 520")', () => {
    const guest = page(ENTRIES).replace(
      '<a class="who" href="/people/bob">Bob</a>',
      '<span class="who username">Bob</span>',
    );
    const r = readGeneric(guest, ctx);
    expect(r.page.posts.map((p) => [p.author, p.authorId])).toEqual([
      ['Alice', 'alice'],
      ['Bob', null],
      ['Carol', 'carol'],
      ['Alice', 'alice'],
    ]);
    expect(r.evidence[1]!.authorHref).toBeNull();
  });

  it("page menus of links do not crowd the posts out of those read (paradisi.de's category lists)", () => {
    const menu = (n: number): string =>
      `<ul class="menu">${Array.from({ length: 6 }, (_, i) => `<li><a href="/people/topic${n}-${i}">Topic ${n}.${i}</a></li>`).join('')}</ul>`;
    const menus = Array.from({ length: 14 }, (_, n) => menu(n)).join('');
    const r = readGeneric(page(ENTRIES).replace('<main', `<div class="menus">${menus}</div><main`), ctx);
    expect(r.page.posts.map((p) => p.author)).toEqual(['Alice', 'Bob', 'Carol', 'Alice']);
  });

  /** amsel.de's MS forum: a post is three table rows (author and date, message, a reply button). */
  const rows = (entries: readonly Entry[]): string =>
    `<html lang="de"><body><h1>Forum</h1><table id="forum_themaflach">${entries
      .map(
        (
          e,
        ) => `<tr id="m${e.id}"><td rowspan="3" class="bg_7"><p><a href="index.php?user_profile=${e.id % 7}">${e.who}</a></p><p>${e.shown}</p></td><td class="bg_7"><strong>Reisen per StreetView?</strong></td></tr>
<tr><td class="forum_message bg_7">${e.body}</td></tr>
<tr><td class="bg_7"><a href="index.php?refer=${e.id}" class="navigation">Antworten</a></td></tr>`,
      )
      .join('\n')}</table></body></html>`;
  const dated = ENTRIES.map((e, i) => ({ ...e, shown: `1${5 + i}.05.2019, 10:30` }));

  it('a post of several table rows is read as one post: author, date, message (amsel.de)', () => {
    const r = readGeneric(rows(dated), { ...ctx, url: 'https://www.example.de/forum?mnr=1' });
    expect(r.page.posts.map((p) => p.author)).toEqual(['Alice', 'Bob', 'Carol', 'Alice']);
    expect(plainText(r.page.posts[0]!.body).trim()).toBe('Day 1 begins. Vote: Bob');
    expect(r.page.posts.map((p) => p.postedAt?.slice(0, 10))).toEqual([
      '2019-05-15',
      '2019-05-16',
      '2019-05-17',
      '2019-05-18',
    ]);
    expect(r.finding.selectors.rows).toBe(3);
  });

  it("rows are grouped only where the rows between hold no post's author: guests' posts between members' are never read as one post with them", () => {
    const guests = rows(dated).replace(
      /<a href="index\.php\?user_profile=\d+">(Alice)<\/a>/g,
      '<span class="username">$1</span>',
    );
    expect(guests.match(/class="username"/g)).toHaveLength(2);
    const read = (): number =>
      readGeneric(guests, { ...ctx, url: 'https://www.example.de/forum?mnr=1' }).page.posts.length;
    expect(read).toThrow(GenericRefusal);
  });

  it('the stored profile of a post of several rows reads the same posts with plain selectors', () => {
    const url = 'https://www.example.de/forum?mnr=1';
    const html = rows(dated);
    const result = readGenerically(html, { ...ctx, url });
    const profile = adapterProfile(parseSiteProfile(result.yaml, 'sites/www.example.de.yaml'));
    expect(profile.selectors?.rows).toBe(3);
    expect(generic.parsePage(html, { ...ctx, url, profile }).posts).toEqual(result.reading.page.posts);
  });

  it('text the board repeats at the same place in every post is never the message (neowin\'s "Share this post" menu)', () => {
    const menu =
      '<div class="share-menu"><h4>Share this post</h4><h5>Link to post</h5><h5>Share on other sites</h5><ul><li>Reddit</li><li>Twitter</li><li>Facebook</li><li>Pinterest</li></ul></div>';
    const short = ENTRIES.map((e) => ({ ...e, body: `<p>${e.who} says hi</p>` }));
    const html = page(short).replace(/<footer class="entry-tools">/g, `${menu}<footer class="entry-tools">`);
    expect(readGeneric(html, ctx).page.posts.map((p) => plainText(p.body).trim())).toEqual([
      'Alice says hi',
      'Bob says hi',
      'Carol says hi',
      'Alice says hi',
    ]);
  });

  it('an advertisement dressed as a post, with neither the time nor the post id all others show, is left out with a note (neowin\'s "Our Sponsors")', () => {
    const ad =
      '<section class="entry"><header class="entry-head"><a class="who" href="/people/advertising">Advertising</a></header><div class="entry-text">Our Sponsors: the best deals of the week</div><footer class="entry-tools"><a href="/ads">Report</a></footer></section>';
    const r = readWithBefore103(ad);
    expect(r.page.posts.map((p) => p.author)).toEqual(['Alice', 'Bob', 'Carol', 'Alice']);
    expect(r.notes).toContainEqual(expect.stringMatching(/"Advertising" with neither the time nor the post id/));
  });

  it('a printed name beside badges is the schema.org name, not the badges (neowin\'s "OP" button and reputation)', () => {
    const named = page(ENTRIES).replace(
      /<a class="who" href="\/people\/(\w+)">(\w+)<\/a>/g,
      '<h3 class="author"><button title="Topic Starter">OP</button><strong itemprop="name">$2</strong> <span title="reputation">12</span></h3>',
    );
    expect(readGeneric(named, ctx).page.posts.map((p) => p.author)).toEqual(['Alice', 'Bob', 'Carol', 'Alice']);
  });

  it("an edit note's time is not the post's, and one member writing every post is no label (wordreference's moderator team)", () => {
    const one = ENTRIES.map((e, i) => ({
      ...e,
      who: 'Team',
      edit: `Last edited by a moderator: <time datetime="2019-08-28T12:3${i}:00Z">Aug 28, 2019</time>`,
    }));
    const html = page(one).replaceAll('class="edit-note"', 'class="message-lastEdit"');
    const r = readGeneric(html, ctx);
    expect(r.page.posts.map((p) => p.postedAt)).toEqual(
      readGeneric(page(ENTRIES), ctx).page.posts.map((p) => p.postedAt),
    );
    expect(r.page.posts.map((p) => p.author)).toEqual(['Team', 'Team', 'Team', 'Team']);
  });

  it.skipIf(!haveSamples)(
    "an avatar drawn as the name's first letter links the profile but is not the name (harvest: forum.wordreference.com adding-accent-marks, XenForo's default avatar)",
    () => {
      const { gold } = harvestPages().find((p) =>
        p.file.startsWith('forum.wordreference.com.threads.adding-accent-marks'),
      )!;
      const r = readGeneric(gold.html, { url: gold.url, profile: DEFAULT_PROFILE, now: '2020-06-15T12:00:00Z' });
      expect(r.page.posts.map((p) => p.author)).toEqual(Array(4).fill('The WR Moderator Team'));
      // The posts' own times (June 2007), not the moderator's edits (August 2019).
      expect(r.page.posts.map((p) => p.postedAt?.slice(0, 7))).toEqual(Array(4).fill('2007-06'));
    },
  );
});

/**
 * Quotes with no quote class, known by their caption. The markup is vBulletin 3.8's, as the
 * real page ../shared/forum-samples/vbulletin3/nettally-vBulletin3.html prints it (AnimeSuki,
 * post 5768670): "Quote:" over a table whose first line is "Originally Posted by <strong>X</strong>".
 */
describe('quotes known by their caption, not their classes (vBulletin 3, issue 26)', () => {
  const vb3Quote = (who: string | null, words: string): string =>
    `<div style="margin:20px; margin-top:5px; "><div class="smallfont" style="margin-bottom:2px">Quote:</div><table cellpadding="6" cellspacing="0" border="0" width="100%"><tr><td class="alt2" style="border:1px inset">${
      who
        ? `<div>Originally Posted by <strong>${who}</strong> <a href="showthread.php?p=5768621#post5768621" rel="nofollow"><img class="inlineimg" src="viewpost.gif" alt="View Post" /></a></div><div style="font-style:italic">${words}</div>`
        : words
    }</td></tr></table></div>`;
  const withBody = (body: string): string => page(ENTRIES.map((e) => (e.id === 102 ? { ...e, body } : e)));

  it('a vote in a "Quote: / Originally Posted by X" block is quoted, X its author, the header kept as quoted text', () => {
    const r = readGeneric(withBody(`${vb3Quote('Alice', 'Vote: Bob')}Not me. <b>Vote: Dave</b>`), ctx);
    const body = r.page.posts[1]!.body;
    expect(nodesOf(body, 'quote').map((q) => q.author)).toEqual(['Alice']);
    expect(plainText(nodesOf(body, 'quote')).replace(/\s+/g, ' ')).toContain(
      'Quote: Originally Posted by Alice Vote: Bob',
    );
    expect(textOutsideQuotes(body)).not.toContain('Bob');
    expect(textOutsideQuotes(body)).toContain('Vote: Dave');
  });

  it('vBulletin 5\'s "Originally posted by X View Post" (its link\'s text after the name) names X (forum-samples/vbulletin5/nettally-vBulletin5.html)', () => {
    const vb5 =
      '<div class="bbcode_container"><div class="bbcode_quote"><div class="quote_container"><div class="bbcode_postedby">Originally posted by <strong>Alice</strong> <a href="showthread.php?p=9#post9" title="View Post">View Post</a></div><div class="message">Vote: Bob</div></div></div></div>Not me.';
    const body = readGeneric(withBody(vb5), ctx).page.posts[1]!.body;
    expect([...new Set(nodesOf(body, 'quote').map((q) => q.author))]).toEqual(['Alice']);
    expect(textOutsideQuotes(body)).not.toContain('Bob');
  });

  it("a caption with no name is a quote without an author; other languages' captions are quotes too", () => {
    const unnamed = readGeneric(withBody(`${vb3Quote(null, 'Vote: Bob')}Mine.`), ctx).page.posts[1]!.body;
    expect(nodesOf(unnamed, 'quote').map((q) => q.author)).toEqual([null]);
    expect(textOutsideQuotes(unnamed)).not.toContain('Bob');
    const german = `<div><div>Zitat von Alice:</div><div class="inhalt">Vote: Bob</div></div>Ich nicht.`;
    const said = `<div><div><strong>Alice</strong> said:</div><div>Vote: Bob</div></div>Not me.`;
    for (const body of [german, said]) {
      const b = readGeneric(withBody(body), ctx).page.posts[1]!.body;
      expect(
        nodesOf(b, 'quote').map((q) => q.author),
        body,
      ).toEqual(['Alice']);
      expect(textOutsideQuotes(b), body).not.toContain('Bob');
    }
  });

  it("a block holding a caption, a quote and the poster's own words is no quote: the reply stays the poster's", () => {
    const body = `<div><div>Alice wrote:</div><div>I am the cop.</div><div>Vote: Bob</div></div>`;
    const b = readGeneric(withBody(body), ctx).page.posts[1]!.body;
    expect(nodesOf(b, 'quote')).toEqual([]);
    expect(textOutsideQuotes(b)).toContain('Vote: Bob');
    // A caption alone with nothing under it is a line of the post, not a quote.
    const alone = readGeneric(withBody('<div><div>Quote:</div></div><p>Vote: Bob</p>'), ctx).page.posts[1]!.body;
    expect(textOutsideQuotes(alone)).toContain('Vote: Bob');
  });

  const VB3 = new URL('../../../shared/forum-samples/vbulletin3/nettally-vBulletin3.html', import.meta.url);
  const haveVb3 = existsSync(VB3);
  if (!haveVb3 && process.env.VOTAL_REQUIRE_SAMPLES === '1') throw new Error(`missing sample ${VB3.pathname}`);
  const quotesOf = (posts: readonly Post[]): (string | null)[][] =>
    posts.map((p) => nodesOf(p.body, 'quote').map((q) => q.author));

  it.skipIf(!haveVb3)(
    'the real vBulletin 3 page read with adapters off: every quote the vBulletin 3 adapter reads, with its author (nettally-vBulletin3.html)',
    () => {
      const html = new TextDecoder('windows-1252').decode(readFileSync(VB3));
      const at = {
        url: 'https://forums.animesuki.com/showthread.php?t=128882&page=152',
        profile: DEFAULT_PROFILE,
        now: '2017-07-03T18:00:00Z',
      };
      const generic = readGeneric(html, at).page.posts;
      const adapter = vbulletin3.parsePage(html, at).posts;
      expect(generic.map((p) => p.id)).toEqual(adapter.map((p) => p.id));
      expect(quotesOf(generic)).toEqual(quotesOf(adapter));
      expect(quotesOf(generic).flat().length).toBeGreaterThanOrEqual(20);
      for (const p of generic) expect(textOutsideQuotes(p.body), p.id).not.toMatch(/Originally Posted by/);
    },
  );

  it.skipIf(!haveSamples)(
    "the harvest corpus' vBulletin 3 pages read with adapters off: the same quotes as the adapter's (skyscraperpage.com)",
    () => {
      const pages = harvestPages().filter(({ file }) => file.startsWith('skyscraperpage.com'));
      expect(pages).toHaveLength(2);
      let quoted = 0;
      for (const { file, gold } of pages) {
        const at = { url: gold.url, profile: DEFAULT_PROFILE, now: '2020-06-15T12:00:00Z' };
        const generic = readGeneric(gold.html, at).page.posts;
        expect(quotesOf(generic), file).toEqual(quotesOf(vbulletin3.parsePage(gold.html, at).posts));
        quoted += quotesOf(generic).flat().length;
      }
      // 242327 quotes six posts (its gold: "Quote: Originally Posted by dc_denizen ..."); the other page none.
      expect(quoted).toBe(6);
    },
  );
});

describe("the post's time line is never in its message (issue 23, the harvest pages)", () => {
  /**
   * www.airliners.net 1437935 (a phpBB prosilver theme): the box holding the subject
   * ("Re: <thread title>"), the time line and the message outweighs the message itself where
   * messages are short, and a message holding the time line leaves no time outside it.
   */
  const prosilver = (posts: readonly [string, string, string][]): string =>
    `<html lang="en"><body><h1>Mafia Game 7: the village</h1><div class="postlist">${posts
      .map(
        (
          [who, shown, text],
          i,
        ) => `<div class="post has-profile"><a class="st-anchor" id="p${900 + i}">&nbsp;</a><div class="inner">
<dl class="postprofile"><dt class="profile-main"><a href="./memberlist.php?mode=viewprofile&amp;u=${i % 3}" class="username">${who}</a></dt>
<dd class="profile-joined"><strong>Joined:</strong> <span class="timestamp">Thu Feb 05, 2015 3:42 pm</span></dd></dl>
<div class="postbody"><div id="post_content${900 + i}"><h3><a href="#p${900 + i}">Re: Mafia Game 7: the village, Day 1 and its votes</a></h3>
<ul class="post-buttons"><li><a href="./posting.php?mode=quote&amp;p=${900 + i}" class="button"><span>Quote</span></a></li></ul>
<p class="author"><span class="timestamp">${shown}</span></p><div class="content">${text}</div></div></div></div></div>`,
      )
      .join('\n')}</div></body></html>`;
  const POSTS: [string, string, string][] = [
    ['Alice', 'Tue Dec 31, 2019 2:22 pm', 'Day 1 begins: vote by bolding a name.'],
    ['Bob', 'Thu Jan 02, 2020 8:48 pm', 'Vote: Carol'],
    ['Carol', 'Thu Jan 02, 2020 10:15 pm', '^^'],
    ['Alice', 'Sat Jan 04, 2020 6:23 am', 'Unvote'],
  ];

  it('with short messages, the message is the content alone and every post has its time (www.airliners.net 1437935)', () => {
    const r = readGeneric(prosilver(POSTS), { ...ctx, url: 'https://forum.example.net/viewtopic.php?t=7' });
    expect(r.page.posts.map((p) => [p.author, p.postedAt, plainText(p.body).trim()])).toEqual([
      ['Alice', '2019-12-31T14:22:00.000Z', 'Day 1 begins: vote by bolding a name.'],
      ['Bob', '2020-01-02T20:48:00.000Z', 'Vote: Carol'],
      ['Carol', '2020-01-02T22:15:00.000Z', '^^'],
      ['Alice', '2020-01-04T06:23:00.000Z', 'Unvote'],
    ]);
  });
});

describe("a post's own link is never its author (issue 23, the forum samples)", () => {
  it('a post-number link into a thread whose slug holds "author" is the post\'s link, not a profile (vBulletin 4, forum-samples/vbulletin4/nettally-vBulletin4.html)', () => {
    const html = page(ENTRIES).replace(
      /(<header class="entry-head">)(<a class="who")/g,
      (_, head: string, who: string, at: number) =>
        `${head}<a name="post${at}" class="postcounter" href="/showthread.php/42-Legendary-columnist-author-dies?p=${at}&amp;viewfull=1#post${at}">#${at}</a>${who}`,
    );
    expect(html.match(/postcounter/g)).toHaveLength(4);
    const r = readGeneric(html, ctx);
    expect(r.page.posts.map((p) => p.author)).toEqual(['Alice', 'Bob', 'Carol', 'Alice']);
  });
});

describe('the instant a post block carries beats a wall time printed in an unknown zone (issue 23)', () => {
  /** vBulletin 5 (forum-samples/vbulletin5/nettally-vBulletin5.html): li[data-node-publishdate] is the epoch; the <time> has no offset. */
  const vb5 = (posts: readonly [string, number, string][]): string =>
    `<html lang="en"><body><h1>Mafia Game 7</h1><ul class="conversation-list">${posts
      .map(
        ([who, epoch, text], i) =>
          `<li class="b-post" data-node-id="${700 + i}" data-node-publishdate="${epoch}"><a id="post${700 + i}" class="anchor"></a>
<div class="b-userinfo"><div class="author"><strong><a href="https://board.example.net/member/${i % 3}-${who.toLowerCase()}">${who}</a></strong></div></div>
<div class="b-post__body"><div class="b-post__timestamp"><time itemprop="dateCreated" datetime="${new Date((epoch - 7 * 3600) * 1000).toISOString().slice(0, 19)}">04-09-2019, 10:37 AM</time></div>
<div class="b-post__content"><div class="js-post__content-text">${text}</div></div></div></li>`,
      )
      .join('\n')}</ul></body></html>`;
  it('vBulletin 5: the epoch on li[data-node-publishdate], not the <time datetime> without an offset', () => {
    const r = readGeneric(
      vb5([
        ['Alice', 1554824243, 'Day 1 begins.'],
        ['Bob', 1554828939, 'Vote: Carol'],
        ['Carol', 1554835218, 'Vote: Bob'],
      ]),
      { ...ctx, url: 'https://board.example.net/forum/mafia/42-game-7' },
    );
    expect(r.page.posts.map((p) => [p.author, p.postedAt])).toEqual([
      ['Alice', '2019-04-09T15:37:23.000Z'],
      ['Bob', '2019-04-09T16:55:39.000Z'],
      ['Carol', '2019-04-09T18:40:18.000Z'],
    ]);
  });
});

describe('profile links in every query style, the member id from its key (issue 23)', () => {
  const cases: [string, (len: number) => string][] = [
    [
      'SMF\'s ";"-separated query with a session id before it (forum-samples/smf/geekhack-smf2015-topic92066.html)',
      (len) => `https://board.example.org/index.php?PHPSESSID=ab12&amp;action=profile;u=${len}`,
    ],
    [
      "vBulletin 3's session id before u= (skyscraperpage.com 242327: every member's id was the session's 34)",
      (len) => `member.php?s=9662e8e3bce945dae5473ccf18a2cf34&amp;u=${len}`,
    ],
  ];
  for (const [name, href] of cases)
    it(name, () => {
      const html = page(ENTRIES).replace(
        /<a class="who" href="\/people\/(\w+)">/g,
        (_, who: string) => `<a class="who" href="${href(who.length)}" title="View the profile of ${who}">`,
      );
      const r = readGeneric(html, ctx);
      expect(r.page.posts.map((p) => [p.author, p.authorId])).toEqual([
        ['Alice', '5'],
        ['Bob', '3'],
        ['Carol', '5'],
        ['Alice', '5'],
      ]);
    });
});

describe("an author's name without the board's marks (issue 23)", () => {
  it('a member group\'s mark in an element of its own before the name ("<b>+</b>Raze") is not the name (neowin.net 1393830, Invision: schema.org and quote data name "Raze")', () => {
    const html = page(ENTRIES).replace(
      /<a class="who" href="\/people\/(\w+)">(\w+)<\/a>/g,
      (_, id: string, who: string) =>
        `<a class="who" href="/people/${id}"><span class="group-subscriber-2"><b>+</b>${who}</span></a>`,
    );
    expect(readGeneric(html, ctx).page.posts.map((p) => p.author)).toEqual(['Alice', 'Bob', 'Carol', 'Alice']);
  });
});

describe("hidden menus are never the message, however short the messages (issue 23, the engines' fixtures)", () => {
  const short: Entry[] = [
    { ...ENTRIES[0]!, body: 'Vote: Bob' },
    { ...ENTRIES[1]!, body: '^^' },
    { ...ENTRIES[2]!, body: 'Fine.' },
    { ...ENTRIES[3]!, body: 'Unvote' },
  ];
  const beside = (box: (who: string) => string): string =>
    page(short).replace(
      /(<section class="entry" id="entry-\d+">\s*<header class="entry-head"><a class="who" href="\/people\/(\w+)">)/g,
      (_, head: string, who: string) => head.replace('<header', `${box(who)}<header`),
    );
  const cases: [string, (who: string) => string][] = [
    [
      "a hidden menu of the author's links (vBulletin 3's div.vbmenu_popup, fixtures/vbulletin3/standard-game/page-3.html)",
      (who) =>
        `<div class="entry-menu" style="display:none"><a href="/search?author=${who}">Find More Posts by ${who}</a></div>`,
    ],
  ];
  for (const [name, box] of cases)
    it(name, () => {
      const html = beside(box);
      expect(html).not.toBe(page(short));
      expect(readGeneric(html, ctx).page.posts.map((p) => [p.author, plainText(p.body).trim()])).toEqual([
        ['Alice', 'Vote: Bob'],
        ['Bob', '^^'],
        ['Carol', 'Fine.'],
        ['Alice', 'Unvote'],
      ]);
    });
});

describe('guests and clocks printed without the markup the others have (issue 23, fixtures/mybb/day-thread/page-2.html)', () => {
  it("a guest's name printed with no class where members' posts hold their profile link is a post (MyBB's span.largetext)", () => {
    const html = page(ENTRIES)
      .replace(
        /<a class="who" href="\/people\/(\w+)">(\w+)<\/a>/g,
        '<b class="big"><a class="who" href="/people/$1">$2</a></b>',
      )
      .replace('<b class="big"><a class="who" href="/people/bob">Bob</a></b>', '<b class="big">Bob</b>');
    const r = readGeneric(html, ctx);
    expect(r.page.posts.map((p) => [p.author, p.authorId])).toEqual([
      ['Alice', 'alice'],
      ['Bob', null],
      ['Carol', 'carol'],
      ['Alice', 'alice'],
    ]);
  });
  it('a date attribute without its clock takes the clock printed beside it ("<span title="03-03-2026">Today</span>, 08:00 AM")', () => {
    const html = page(ENTRIES.map((e) => ({ ...e, iso: undefined }))).replace(
      /<span>15\/05\/19 (\d\d:\d\d)<\/span>/g,
      (_, clock: string) => `<span><span title="15/05/2019">Today</span>, ${clock}</span>`,
    );
    expect(html.match(/title="15\/05\/2019"/g)).toHaveLength(4);
    expect(readGeneric(html, ctx).page.posts.map((p) => p.postedAt)).toEqual([
      '2019-05-15T10:30:00.000Z',
      '2019-05-15T11:02:00.000Z',
      '2019-05-15T12:15:00.000Z',
      '2019-05-15T13:40:00.000Z',
    ]);
  });
});
