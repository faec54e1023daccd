import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ThreadPage } from '../../scrapers/adapter.js';
import { adapterFor, adapters } from '../../scrapers/registry.js';
import { parseFragment } from '../../scrapers/fragment.js';
import type { EngineId } from '../../src/model/engine.js';
import { DEFAULT_PROFILE } from '../../scrapers/site-profile.js';
import { plainText, type BodyNode } from '../../src/model/body.js';
import type { Post } from '../../src/model/post.js';
import { packageRoot } from '../../src/config/package-root.js';
import { readFixtureThread } from '../support/render/index.js';

/*
 * Issue #12 item 4: boards that serve HTML without white space between tags (as
 * Cloudflare's minifier did) ran words together across elements: phpBB's "Page 1 of 2"
 * followed by the page list read "Page 1 of 212". Every engine's fixture pages, minified
 * here (white space between tags taken out wherever a block, list or table tag stands on
 * either side, as a minifier may do without changing what a browser shows), must read as
 * the pages do: the same posts, authors, numbers, times, bodies and page count.
 */
const root = packageRoot(import.meta.url);
const NOW = '2026-03-03T12:00:00Z';

/** Tags a browser shows apart from their neighbours: white space beside them shows nothing. */
const BLOCK = new Set([
  'html',
  'head',
  'body',
  'meta',
  'link',
  'title',
  'script',
  'style',
  'noscript',
  'base',
  'address',
  'article',
  'aside',
  'blockquote',
  'br',
  'caption',
  'center',
  'dd',
  'details',
  'div',
  'dl',
  'dt',
  'fieldset',
  'figcaption',
  'figure',
  'footer',
  'form',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'header',
  'hr',
  'li',
  'main',
  'nav',
  'ol',
  'p',
  'section',
  'summary',
  'table',
  'tbody',
  'td',
  'tfoot',
  'th',
  'thead',
  'tr',
  'ul',
]);

/** The HTML with white space between tags removed where a block tag stands on either side (not inside pre, script, textarea). */
function minify(html: string): string {
  return html
    .split(/(<(?:pre|script|style|textarea)\b[\s\S]*?<\/(?:pre|script|style|textarea)>)/i)
    .map((part, i) =>
      i % 2 === 1
        ? part
        : part.replace(
            /(<\/?([a-zA-Z][\w-]*)\b[^<>]*>)\s+(?=<(\/?)([a-zA-Z][\w-]*))/g,
            (m, tag: string, before: string, _slash: string, after: string) =>
              BLOCK.has(before.toLowerCase()) || BLOCK.has(after.toLowerCase()) ? tag : m,
          ),
    )
    .join('');
}

/** JSON engines carry post HTML in strings: minify each string that holds markup. */
function minifyDocument(doc: string): string {
  if (!doc.trimStart().startsWith('{')) return minify(doc);
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return v.includes('<') ? minify(v) : v;
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  return JSON.stringify(walk(JSON.parse(doc)));
}

/** A body's tree with white space folded and blank text left out: what a reader sees, not how the source was laid out. */
function seen(nodes: readonly BodyNode[]): unknown[] {
  const out: unknown[] = [];
  for (const n of nodes) {
    if (n.t === 'text') {
      const t = n.text.replace(/\s+/g, ' ').trim();
      if (t) out.push(t);
    } else if ('children' in n) {
      const { children, ...rest } = n;
      out.push({ ...rest, children: seen(children) });
    } else if (n.t === 'code') {
      out.push({ t: 'code', text: n.text.replace(/\s+/g, ' ').trim() });
    } else {
      out.push(n);
    }
  }
  return out;
}

const words = (body: readonly BodyNode[]): string => plainText(body).replace(/\s+/g, ' ').trim();

function facts(page: ThreadPage): unknown {
  return {
    title: page.title,
    page: page.page,
    pageCount: page.pageCount,
    postsPerPage: page.postsPerPage,
    posts: page.posts.map((p: Post) => ({
      id: p.id,
      number: p.number,
      page: p.page,
      author: p.author,
      authorId: p.authorId,
      postedAt: p.postedAt,
      permalink: p.permalink,
      edit: p.edit && { ...p.edit, text: p.edit.text.replace(/\s+/g, ' ').trim() },
      words: words(p.body),
      body: seen(p.body),
    })),
  };
}

/** Every fixture thread of an engine: fixtures/<engine>/<game>/thread.json. */
function threadsOf(engine: string): string[] {
  const dir = join(root, 'fixtures', engine);
  return existsSync(dir) ? readdirSync(dir).filter((g) => existsSync(join(dir, g, 'thread.json'))) : [];
}

describe('the minifier used here', () => {
  it('takes out white space beside block tags only', () => {
    expect(minify('<div> <b>a</b> <i>b</i> </div>\n<ul>\n <li>1</li>\n <li>2</li>\n</ul><pre> x </pre>')).toBe(
      '<div><b>a</b> <i>b</i></div><ul><li>1</li><li>2</li></ul><pre> x </pre>',
    );
  });
});

describe.each(adapters.map((a) => [a.descriptor.engine, a] as const))(
  '%s: minified pages read the same',
  (engine, adapter) => {
    const games = threadsOf(engine);
    it.each(
      games.flatMap((game) =>
        readFixtureThread(root, engine, game).pages.map((p) => [`${game} page ${p.page}`, p] as const),
      ),
    )('%s', (_, p) => {
      const url = `http://forum.test${p.path}`;
      const parse = (doc: string): ThreadPage => adapter.parsePage(doc, { url, profile: DEFAULT_PROFILE, now: NOW });
      const small = minifyDocument(p.body);
      expect(small.length).toBeLessThan(p.body.length);
      expect(facts(parse(small))).toEqual(facts(parse(p.body)));
    });
  },
);

/** Reads a page as facts, or the error it raised (a page must not fail only when minified). */
function attempt(engine: EngineId, doc: string, url: string): unknown {
  try {
    return facts(adapterFor(engine)!.parsePage(doc, { url, profile: DEFAULT_PROFILE, now: NOW }));
  } catch (error) {
    return `${(error as Error).name}: ${(error as Error).message}`;
  }
}

/** Real pages (../shared/forum-samples, SOURCES.md there), each with the URL it was read from. */
const samples = resolve(root, '../shared/forum-samples');
const REAL: [EngineId, string, string][] = [
  ['phpbb', 'phpbb3/nettally-phpBB.html', 'https://www.ilovephilosophy.com/viewtopic.php?f=1&t=194998&start=25'],
  [
    'xenforo1',
    'xenforo1/nettally-Xenforo1.html',
    'https://forums.sufficientvelocity.com/threads/renascence-a-homura-quest.10402/page-54',
  ],
  ['xenforo2', 'xenforo2/nettally-Xenforo2.html', 'https://xenforo.com/community/threads/a-dark-theme-option.8276/'],
  [
    'xenforo2',
    'xenforo2/revioos-rpgcodex-thread-dom.html',
    'https://rpgcodex.net/forums/threads/a-repository-for-codexian-reviews.150342/',
  ],
  [
    'vbulletin3',
    'vbulletin3/nettally-vBulletin3.html',
    'https://forums.animesuki.com/showthread.php?t=128882&page=152',
  ],
  [
    'vbulletin4',
    'vbulletin4/nettally-vBulletin4.html',
    'http://forums.militarytimes.com/showthread.php/9687-Legendary-military-columnist-author-Bob-Dorr-dies-at-76',
  ],
  [
    'vbulletin5',
    'vbulletin5/nettally-vBulletin5.html',
    'https://fandompost.vbulletin.net/forum/anime-manga-discussions/general-anime-discussions/727744-isekai-quartet-discussion-thread',
  ],
  ['nodebb', 'nodebb/nettally-NodeBB.html', 'https://community.nodebb.org/topic/13803/new-desing-for-nodebb-chat'],
  ['invision', 'invision/neowin-topic1393830.html', 'https://www.neowin.net/forum/topic/1393830-x/'],
  ['invision', 'invision/utorrent-topic86747.html', 'https://forum.utorrent.com/topic/86747-x/'],
  ['smf', 'smf/geekhack-smf2015-topic92066.html', 'https://geekhack.org/index.php?topic=92066.0'],
];
const haveSamples = existsSync(samples);
if (!haveSamples) console.warn(`[minified] real forum samples not found at ${samples}: skipping the real pages`);

describe.skipIf(!haveSamples)('real pages, minified, read the same', () => {
  it.each(REAL)('%s: %s', (engine, file, url) => {
    const page = readFileSync(join(samples, file), 'utf8');
    const plain = attempt(engine, page, url);
    expect(plain).toBeTypeOf('object');
    expect(attempt(engine, minify(page), url)).toEqual(plain);
  });
});

describe('phpBB: "Page 1 of 3" right before the page list', () => {
  // prosilver prints the page number in the pagination box before its list of page
  // links; minified, the text of the two ran together: "Page 1 of 3123" (issue #12).
  const p = readFixtureThread(root, 'phpbb', 'standard-game').pages[0]!;
  const body = p.body.replace(
    /22 posts\s*<ul>/g,
    '22 posts &bull; Page <strong>1</strong> of <strong>3</strong>\n\t\t<ul>',
  );
  const url = `http://forum.test${p.path}`;

  it('reads 3 pages, minified or not', () => {
    expect(body).not.toBe(p.body);
    for (const doc of [body, minify(body)]) {
      expect(attempt('phpbb', doc, url)).toMatchObject({ page: 1, pageCount: 3, postsPerPage: 8 });
    }
  });
});

describe('bodies: table cells never run together', () => {
  // A vote table in a post (a GM's roster, a player's reads), as a minifier leaves it.
  it.each(adapters.map((a) => [a.descriptor.engine, a] as const))('%s', (_, adapter) => {
    const html = '<table><tr><th>Player</th><th>Read</th></tr><tr><td>Alice</td><td>town</td></tr></table>';
    const body = parseFragment(html, adapter.descriptor.body, 'https://forum.example/t/1');
    expect(words(body)).toBe('Player Read Alice town');
    expect(
      words(parseFragment(html.replace(/></g, '>\n<'), adapter.descriptor.body, 'https://forum.example/t/1')),
    ).toBe('Player Read Alice town');
  });
});
