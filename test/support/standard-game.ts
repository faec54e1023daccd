import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixtureFiles, staleFiles } from '../../scripts/build-fixtures.js';
import type { EngineAdapter, ThreadPage } from '../../scrapers/adapter.js';
import { engineFromHtml } from '../../scrapers/identify.js';
import { DEFAULT_PROFILE } from '../../scrapers/site-profile.js';
import { packageRoot } from '../../src/config/package-root.js';
import { LayoutError, TruncatedPageError } from '../../src/fetch/errors.js';
import type { BodyNode } from '../../src/model/body.js';
import type { EditMarker, Post } from '../../src/model/post.js';
import {
  bodyShape,
  flatText,
  loadGameScript,
  nodesOf,
  scriptShape,
  textOutsideQuotes,
  type GameScript,
  type ScriptNode,
  type ScriptPost,
  type Shape,
} from './game-script.js';
import { readFixtureThread, type FixtureThread, type ThreadRenderer } from './render/index.js';

/**
 * The checks every engine runs on the standard game (fixtures/games/standard-game.yaml as
 * its renderer writes it, fixtures/<engine>/standard-game/): one table of rules, each named
 * case run for every engine that can show what the rule reads. An engine's test file gives
 * its facts (permalinks, edit notice, smilie names, what it cannot show) and keeps only
 * the cases particular to it.
 */

/** The fixture forum's origin (the fake forum in src/fake-forum serves the pages there). */
export const ORIGIN = 'http://forum.test';

/** What the helper read, for an engine's own cases. */
export interface StandardGame {
  script: GameScript;
  thread: FixtureThread;
  /** Each fixture document as read, with the URL it was read at. */
  pages: { url: string; read: ThreadPage }[];
  posts: Post[];
  /** The post the forum numbers `n`. */
  post(n: number): Post;
  read(body: string, url: string): ThreadPage;
}

/** The names of the rules below; `also` adds an engine's own assertions to one of them. */
export type RuleName =
  | 'drift'
  | 'pageUrls'
  | 'layout'
  | 'posts'
  | 'edit'
  | 'bodies'
  | 'bold'
  | 'quote'
  | 'nestedQuotes'
  | 'smilies'
  | 'strike'
  | 'code'
  | 'spoiler'
  | 'links'
  | 'mention'
  | 'colour'
  | 'mounted'
  | 'cutOff';

export interface StandardGameFacts {
  /** How the engine's test file names it ("XenForo 2"). */
  name: string;
  /** Reads one fixture document (default: the adapter, default profile, a clock after the game). */
  read?: (body: string, url: string) => ThreadPage;
  /** JSON API documents, not HTML pages: no HTML fingerprints, no cut-off `</html>`. */
  json?: boolean;
  /**
   * Posts per page of the fixture (default: the script's). Null: the documents are not
   * numbered pages (Discourse's topic + posts.json batches); the engine checks its own.
   */
  perPage?: number | null;
  /**
   * Posts page 1 holds beyond a full page: Vanilla prints the discussion (post 1) above a full
   * page of comments, so its page 1 has one post more than the others.
   */
  firstPageExtra?: number;
  /** Each page states its size (start offsets, page links, a full page's count). */
  statesPageSize?: boolean;
  /** Page URLs are built from the size the pages stated (phpBB's and SMF's start offsets). */
  pageUrlsNeedSize?: boolean;
  /** The post's permalink, as the adapter writes it. */
  permalink: (s: ScriptPost) => string;
  /** What differs from the script for a post (GOG: ids are positions, times are dates). */
  postFacts?: (s: ScriptPost) => Partial<{ id: string; authorId: string | null; at: string }>;
  /** The edit notice of post 13 (compared with toMatchObject; give all three for an exact check). */
  edit: Partial<{ [K in keyof EditMarker]: unknown }>;
  /** The script as the engine lets it be written (vBulletin: no spoiler tag, typed mentions). */
  writes?: (body: ScriptNode[]) => ScriptNode[];
  /** The script's shapes as the engine shows them (emoji names, untitled spoilers). */
  shows?: (shapes: Shape[]) => Shape[];
  /** The read shapes with the engine's styling taken off (vB 3's italic quote text). */
  reads?: (shapes: Shape[]) => Shape[];
  /**
   * The engine's bodies hold no layout whitespace between nodes: the strike and colour rules
   * compare the raw nodes (layout blocks unwrapped). Otherwise they compare bodyShape's tidy form.
   */
  bareBodies?: boolean;
  /** Posts the engine cannot show as written: read as it shows them in the engine's own cases. */
  cannotShow?: number[];
  /** Which document's URL resolves bodies: the post's page (default) or the thread's first document. */
  bodyBase?: 'page' | 'first';
  /** The smilies of posts 4 and 5 as the engine names them (default `:)` and `:D`). */
  smilies?: [string, string];
  /** Quote chrome ("X wrote:", dates) that must not be read as text. */
  quoteChrome?: RegExp;
  /** Code box chrome ("Code:", "Select all") that must not be read as text. */
  codeChrome?: RegExp;
  /** Spoiler: the title it shows (default the script's "secret"), chrome to keep out; false: no spoiler tag. */
  spoiler?: { title?: string; chrome?: RegExp } | false;
  /** The mention of post 17 (`@Bob`); null: no mention tag, the name is typed. */
  mention: { href: string; text: string } | null;
  /** The fixture's links are relative to the board, so it can be served under a path (`/board/...`). */
  mountable?: boolean;
  /** Where the cut-off page check cuts (default page 1, keeping 80%). */
  cut?: { page: number; keep: number };
  /** A page of the engine with no posts (a LayoutError). */
  noPosts?: { html: string; url: string };
  /** Assertions an engine adds to a rule, run after the rule's own in the same case. */
  also?: Partial<Record<RuleName, (game: StandardGame) => void>>;
}

interface Rule {
  name: RuleName;
  title: (f: StandardGameFacts, g: StandardGame) => string;
  /** The posts the rule reads: it is skipped when the engine cannot show one of them. */
  posts?: number[];
  applies?: (f: StandardGameFacts) => boolean;
  check: (g: StandardGame, f: StandardGameFacts, of: { adapter: EngineAdapter; renderer: ThreadRenderer }) => void;
}

const text = (t: string): BodyNode => ({ t: 'text', text: t });
const boldVote = (t: string): BodyNode => ({ t: 'bold', children: [text(t)] });
const boldTexts = (body: readonly BodyNode[]): string[] => nodesOf(body, 'bold').map((b) => flatText(b.children));
const perPageOf = (f: StandardGameFacts, g: StandardGame): number => f.perPage ?? g.script.thread.postsPerPage;

/** The size page URLs are built with: the one the first page stated where the engine needs it. */
const sizeForUrls = (f: StandardGameFacts, g: StandardGame): number | null =>
  f.pageUrlsNeedSize ? g.pages[0]!.read.postsPerPage : null;

/** A body's nodes as they flow, layout blocks (NodeBB's paragraphs) unwrapped; nothing else changed. */
const inFlow = (body: readonly BodyNode[]): BodyNode[] =>
  body.flatMap((n) => (n.t === 'block' ? inFlow(n.children) : [n]));
const flowOf = (f: StandardGameFacts, body: readonly BodyNode[]): unknown[] =>
  f.bareBodies ? inFlow(body) : bodyShape(body);

/** The page post `n` is on: pages of `per`, page 1 holding `firstPageExtra` more. */
function pageOfPost(f: StandardGameFacts, g: StandardGame, n: number): number {
  const per = perPageOf(f, g);
  const first = per + (f.firstPageExtra ?? 0);
  return n <= first ? 1 : 1 + Math.ceil((n - first) / per);
}

/** [page, page count, posts on it, (its stated size)] of every page the script fills. */
function layoutOf(f: StandardGameFacts, g: StandardGame): number[][] {
  const per = perPageOf(f, g);
  const total = g.script.posts.length;
  const count = pageOfPost(f, g, total);
  return Array.from({ length: count }, (_, i) => {
    const onPage = g.script.posts.filter((s) => pageOfPost(f, g, s.n) === i + 1).length;
    return f.statesPageSize ? [i + 1, count, onPage, per] : [i + 1, count, onPage];
  });
}

const RULES: Rule[] = [
  {
    name: 'drift',
    title: () => "the committed fixture pages are what the engine's renderer makes (no drift)",
    check: (g, _f, { adapter, renderer }) => {
      const engine = adapter.descriptor.engine;
      expect(renderer.engine).toBe(engine);
      expect(g.thread.manifest).toMatchObject({ engine, path: renderer.threadPath(g.script) });
      const stale = staleFiles(fixtureFiles(root, [engine])).map((x) => x.path);
      expect(stale, 'run: npx tsx scripts/build-fixtures.ts').toEqual([]);
    },
  },
  {
    name: 'pageUrls',
    title: (f) =>
      "the adapter's page URLs are the fixture forum's page paths" + (f.json ? '' : '; the pages name their engine'),
    applies: (f) => f.perPage !== null,
    check: (g, f, { adapter }) => {
      const ref = adapter.threadRef(new URL(`${ORIGIN}${g.thread.manifest.path}`));
      const urls = g.thread.manifest.pages.map((p) => adapter.pageUrl(ref, p.page, sizeForUrls(f, g)));
      expect(urls).toEqual(g.thread.manifest.pages.map((p) => `${ORIGIN}${p.path}`));
      if (!f.json) expect(engineFromHtml(g.thread.pages[0]!.body)).toBe(adapter.descriptor.engine);
    },
  },
  {
    name: 'layout',
    title: (f, g) => {
      const sizes = layoutOf(f, g).map((row) => row[2]);
      const size = f.statesPageSize ? ' and its size' : '';
      const n = sizes.length;
      return `${n} pages of ${sizes.join(', ')} posts, each saying which page of ${n} it is${size}`;
    },
    applies: (f) => f.perPage !== null,
    check: (g, f) => {
      const expected = layoutOf(f, g);
      expect(
        g.pages.map((p) =>
          f.statesPageSize
            ? [p.read.page, p.read.pageCount, p.read.posts.length, p.read.postsPerPage]
            : [p.read.page, p.read.pageCount, p.read.posts.length],
        ),
      ).toEqual(expected);
      expect(g.pages.map((p) => p.read.title)).toEqual(g.pages.map(() => g.script.thread.title));
    },
  },
  {
    name: 'posts',
    title: () => "every post has the script's number, id, author, user id, time, permalink and page",
    check: (g, f) => {
      const shown = (p: Post) => ({
        n: p.number,
        id: p.id,
        author: p.author,
        authorId: p.authorId,
        at: p.postedAt,
        permalink: p.permalink,
        page: f.perPage === null ? null : p.page,
      });
      expect(g.posts.map(shown)).toEqual(
        g.script.posts.map((s) => ({
          n: s.n,
          id: String(s.id),
          author: s.author,
          authorId: String(g.script.thread.forumUserIds[s.author]),
          at: new Date(s.time).toISOString(),
          permalink: f.permalink(s),
          page: f.perPage === null ? null : pageOfPost(f, g, s.n),
          ...f.postFacts?.(s),
        })),
      );
    },
  },
  {
    name: 'edit',
    title: () => 'only the edited post carries an edit marker, at the edit time',
    check: (g, f) => {
      const edited = g.script.posts.filter((s) => s.edited).map((s) => s.n);
      expect(g.posts.filter((p) => p.edit).map((p) => p.number)).toEqual(edited);
      expect(g.post(edited[0]!).edit).toMatchObject(f.edit);
    },
  },
  {
    name: 'bodies',
    title: (f) => `every post body reads back as the script wrote it${f.cannotShow ? ' (where the engine can)' : ''}`,
    check: (g, f) => {
      const cannot = new Set(f.cannotShow ?? []);
      for (const s of g.script.posts.filter((x) => !cannot.has(x.n))) {
        const onPage = g.pages.find((p) => p.read.posts.some((x) => x.number === s.n))!;
        const base = f.bodyBase === 'first' ? g.pages[0]!.url : onPage.url;
        const read = bodyShape(g.post(s.n).body);
        const expected = scriptShape(f.writes ? f.writes(s.body) : s.body, base);
        expect(f.reads ? f.reads(read) : read, `post ${s.n}`).toEqual(f.shows ? f.shows(expected) : expected);
      }
    },
  },
  {
    name: 'bold',
    title: () => 'a vote in bold is a bold node',
    posts: [2],
    check: (g) => expect(boldTexts(g.post(2).body)).toEqual(['Vote: Bob']),
  },
  {
    name: 'quote',
    title: () => 'a quoted vote stays inside a quote node naming the quoted player',
    posts: [3],
    check: (g) => {
      const quotes = nodesOf(g.post(3).body, 'quote');
      expect(quotes.map((q) => q.author)).toEqual(['Alice']);
      expect(flatText(quotes[0]!.children)).toBe('Vote: Bob');
      expect(textOutsideQuotes(g.post(3).body)).toBe('Why me? Vote: Alice');
    },
  },
  {
    name: 'nestedQuotes',
    title: (f) =>
      'nested quotes keep each author, and neither quote leaks' + (f.quoteChrome ? '; their chrome is not text' : ''),
    posts: [16],
    check: (g, f) => {
      expect(nodesOf(g.post(16).body, 'quote').map((q) => q.author)).toEqual(['Frank', 'Alice']);
      expect(textOutsideQuotes(g.post(16).body)).toBe('Who is Dav?');
      if (f.quoteChrome) expect(flatText(g.post(16).body)).not.toMatch(f.quoteChrome);
    },
  },
  {
    name: 'smilies',
    title: () => 'smilies are not images; a posted picture is an image',
    posts: [4, 5, 6],
    check: (g, f) => {
      const [a, b] = f.smilies ?? [':)', ':D'];
      expect(nodesOf(g.post(4).body, 'smilie')).toEqual([{ t: 'smilie', alt: a }]);
      expect(nodesOf(g.post(5).body, 'smilie')).toEqual([{ t: 'smilie', alt: b }]);
      expect([...nodesOf(g.post(4).body, 'image'), ...nodesOf(g.post(5).body, 'image')]).toEqual([]);
      expect(nodesOf(g.post(6).body, 'image')).toEqual([{ t: 'image', src: 'https://images.example.net/cat.png' }]);
    },
  },
  {
    name: 'strike',
    title: () => 'a struck vote is a strike around the bold vote, first in its post',
    posts: [9],
    check: (g, f) => {
      const struck = { t: 'strike', children: [boldVote('Vote: Alice')] };
      expect(nodesOf(g.post(9).body, 'strike')).toEqual([struck]);
      expect(flowOf(f, g.post(9).body)[0]).toEqual(struck);
    },
  },
  {
    name: 'code',
    title: (f) =>
      'code is a code node and its text appears nowhere else' + (f.codeChrome ? "; its box's chrome is not text" : ''),
    posts: [10, 21],
    check: (g, f) => {
      expect(nodesOf(g.post(10).body, 'code').map((c) => c.text.trim())).toEqual(['Vote: Frank']);
      expect(nodesOf(g.post(21).body, 'code').map((c) => c.text.trim())).toEqual(["console.log('hi')"]);
      const outside = (nodes: readonly BodyNode[]): BodyNode[] =>
        nodes.flatMap((n): BodyNode[] => {
          if (n.t === 'code') return [];
          return 'children' in n ? [{ ...n, children: outside(n.children) } as BodyNode] : [n];
        });
      expect(flatText(outside(g.post(10).body))).toMatch(/^My notes: ?nothing else\.$/);
      if (f.codeChrome) expect(flatText(g.post(10).body)).not.toMatch(f.codeChrome);
    },
  },
  {
    name: 'spoiler',
    title: (f) =>
      'a spoiler is a spoiler node with its title around the bold vote' +
      (f.spoiler && f.spoiler.chrome ? '; its button is not text' : ''),
    posts: [11],
    applies: (f) => f.spoiler !== false,
    check: (g, f) => {
      const spoilers = nodesOf(g.post(11).body, 'spoiler');
      const facts = f.spoiler || {};
      expect(spoilers.map((s) => s.title)).toEqual([facts.title ?? 'secret']);
      expect(bodyShape(spoilers[0]!.children)).toEqual([boldVote('Vote: Dave')]);
      if (facts.chrome) expect(flatText(g.post(11).body)).not.toMatch(facts.chrome);
    },
  },
  {
    name: 'links',
    title: () => 'links are external or internal as the forum marks them',
    posts: [7, 8],
    check: (g) => {
      expect(nodesOf(g.post(7).body, 'link')).toEqual([
        { t: 'link', href: 'https://wiki.example.org/mafia', kind: 'external', children: [text('the wiki')] },
      ]);
      expect(nodesOf(g.post(8).body, 'link')).toEqual([
        {
          t: 'link',
          kind: 'internal',
          children: [text("Alice's post")],
          href: `${ORIGIN}/threads/standard-game.4242/post-9002`,
        },
      ]);
    },
  },
  {
    name: 'mention',
    title: (f) =>
      f.mention
        ? 'a mention is a mention link inside the bold vote'
        : 'no mention tag: the name is typed inside the bold vote',
    posts: [17],
    check: (g, f) => {
      if (!f.mention) {
        expect(boldTexts(g.post(17).body)).toEqual(['Vote: Bob']);
        expect(nodesOf(g.post(17).body, 'link')).toEqual([]);
        return;
      }
      const link = { t: 'link', href: f.mention.href, kind: 'mention', children: [text(f.mention.text)] };
      expect(nodesOf(g.post(17).body, 'bold')[0]!.children).toEqual([text('Vote: '), link]);
      expect(nodesOf(g.post(17).body, 'link')).toEqual([link]);
    },
  },
  {
    name: 'colour',
    title: () => 'coloured text is a colour node around the bold vote',
    posts: [20],
    check: (g, f) => {
      const coloured = { t: 'color', color: '#ff0000', children: [boldVote('Vote: Eve (L-3)')] };
      expect(nodesOf(g.post(20).body, 'color')).toEqual([coloured]);
      expect(flowOf(f, g.post(20).body)).toEqual([coloured]);
    },
  },
  {
    name: 'mounted',
    title: () => 'a board mounted under a path keeps its links under that path',
    applies: (f) => f.mountable === true,
    check: (g, f, { adapter }) => {
      const at = `${ORIGIN}/board${g.thread.pages[1]!.path}`;
      const page = g.read(g.thread.pages[1]!.body, at);
      for (const p of page.posts) expect(p.permalink.startsWith(`${ORIGIN}/board/`), p.permalink).toBe(true);
      expect(adapter.pageUrl(adapter.threadRef(new URL(at)), 2, sizeForUrls(f, g))).toBe(at);
    },
  },
  {
    name: 'cutOff',
    title: (f) =>
      'a page cut off before </html> is an error, never an empty thread' +
      (f.noPosts ? '; so is one without posts' : ''),
    applies: (f) => !f.json,
    check: (g, f) => {
      const { page, keep } = f.cut ?? { page: 1, keep: 0.8 };
      const whole = g.thread.pages[page - 1]!;
      const cut = whole.body.slice(0, Math.floor(whole.body.length * keep));
      expect(() => g.read(cut, `${ORIGIN}${whole.path}`)).toThrow(TruncatedPageError);
      if (f.noPosts) expect(() => g.read(f.noPosts!.html, f.noPosts!.url)).toThrow(LayoutError);
    },
  },
];

const root = packageRoot(import.meta.url);

/** A clock after the whole game: dates the pages print relative to it stay in the past. */
const AFTER_GAME = '2026-03-10T00:00:00Z';

/**
 * Runs the standard game's rules on one engine: `describe('<name> standard game (...)')`
 * with one named case per rule the engine can show. `particular` adds the engine's own
 * cases inside the same describe, with what was read.
 */
export function describeStandardGame(
  adapter: EngineAdapter,
  renderer: ThreadRenderer,
  facts: StandardGameFacts,
  particular?: (game: StandardGame) => void,
): void {
  const engine = adapter.descriptor.engine;
  describe(`${facts.name} standard game (fixtures/${engine}/standard-game)`, () => {
    const script = loadGameScript(join(root, 'fixtures/games/standard-game.yaml'));
    const thread = readFixtureThread(root, engine, 'standard-game');
    const read =
      facts.read ??
      ((body: string, url: string) => adapter.parsePage(body, { url, profile: DEFAULT_PROFILE, now: AFTER_GAME }));
    const pages = thread.pages.map((p) => ({ url: `${ORIGIN}${p.path}`, read: read(p.body, `${ORIGIN}${p.path}`) }));
    const posts = pages.flatMap((p) => p.read.posts);
    const game: StandardGame = {
      script,
      thread,
      pages,
      posts,
      read,
      post: (n) => {
        const found = posts.find((p) => p.number === n);
        if (!found) throw new Error(`${engine}: no post numbered ${n} in fixtures/${engine}/standard-game`);
        return found;
      },
    };

    const cannot = new Set(facts.cannotShow ?? []);
    const run = RULES.filter((r) => (!r.applies || r.applies(facts)) && !r.posts?.some((n) => cannot.has(n)));
    // An engine's added assertions never go unrun because their rule does not apply.
    const idle = Object.keys(facts.also ?? {}).filter((name) => !run.some((r) => r.name === name));
    if (idle.length > 0) throw new Error(`${engine}: \`also\` names rules it does not run: ${idle.join(', ')}`);
    for (const rule of run) {
      it(rule.title(facts, game), () => {
        rule.check(game, facts, { adapter, renderer });
        facts.also?.[rule.name]?.(game);
      });
    }
    particular?.(game);
  });
}
