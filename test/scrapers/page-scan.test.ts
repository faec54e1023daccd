import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import fc from 'fast-check';
import { parseDocument } from 'htmlparser2';
import { is } from 'css-select';
import { isTag, type AnyNode, type Document, type Element } from 'domhandler';
import { describe, expect, it } from 'vitest';
import { adapters } from '../../scrapers/registry.js';
import { engineFromHtml, engineFromUrl } from '../../scrapers/identify.js';
import { compileRegions, scanPage, type PageRegion } from '../../scrapers/page-scan.js';
import { DEFAULT_PROFILE } from '../../scrapers/site-profile.js';
import type { EngineAdapter, PageContext, ThreadPage } from '../../scrapers/adapter.js';
import { packageRoot } from '../../src/config/package-root.js';

/**
 * The page scan runs htmlparser2's own parser and builds, inside its regions, exactly the
 * tree htmlparser2 builds for the whole page; every adapter must read the same page from
 * its regions as from the whole page. Checked on every real page we have: the samples,
 * the harvest corpus (../shared/forum-samples/harvest, field `html`) and the fixtures.
 */
const root = packageRoot(import.meta.url);
const samplesDir = resolve(root, '../shared/forum-samples');
const haveSamples = existsSync(samplesDir);
if (!haveSamples)
  console.warn(`[page-scan] real forum samples not found at ${samplesDir}: skipping the real-page comparisons`);

/** A node as text, with everything an adapter could read: names, attributes, text, order. */
function shape(node: AnyNode, out: string[] = []): string[] {
  if (node.type === 'text') out.push(`text ${JSON.stringify(node.data)}`);
  else if (node.type === 'comment') out.push(`comment ${JSON.stringify(node.data)}`);
  else if (node.type === 'directive') out.push(`directive ${node.name} ${JSON.stringify(node.data)}`);
  else if ('name' in node) {
    out.push(`<${node.name} ${JSON.stringify(node.attribs)} ${node.type}`);
    for (const c of node.children) shape(c, out);
    out.push(`</${node.name}>`);
  }
  return out;
}

/** Every element at the top of the document: what a scan with the region `*` builds. */
const fullTree = (html: string): string[] =>
  parseDocument(html, { decodeEntities: true, lowerCaseAttributeNames: true })
    .children.filter((n) => n.type === 'tag' || n.type === 'script' || n.type === 'style')
    .flatMap((n) => shape(n));
const everything = compileRegions(['*']);
const scanTree = (html: string): string[] => scanPage(html, everything).children.flatMap((n) => shape(n));
const scan = (html: string, regions: PageRegion[]): Document => scanPage(html, compileRegions(regions));

/** Random markup: tags, stray ends, quotes, references, raw text, foreign content. */
const piece = fc.oneof(
  fc.constantFrom(
    '<div>',
    '</div>',
    '<p>',
    '</p>',
    '<b class="x">',
    '</b>',
    '<li>',
    '<ul>',
    '</ul>',
    '<td>',
    '<tr>',
    '<table>',
    '</table>',
    '<br>',
    '</br>',
    '<img src=a>',
    '<script>',
    '</script>',
    '<style>',
    '<title>',
    '</title>',
    '<svg>',
    '</svg>',
    '<g/>',
    '<!--',
    '-->',
    '<!x>',
    '<?p>',
    '</>',
    '</ >',
    '< ',
    '<',
    '>',
    '/',
    '"',
    "'",
    '=',
    '&amp;',
    '&lt',
    '&#65;',
    '&bogus;',
    ' ',
    '\n',
    'a',
    'é',
    '<span title="a>b">',
    "<i x='1' y=2 z>",
    '<A HREF=X>',
    '</A>',
    '<select>',
    '<option>',
    '<![CDATA[x]]>',
    '</3>',
  ),
  fc.string({ maxLength: 3 }),
);
// Pages cut off inside a tag, comment or script are refused before any post is read
// (page-checks), and htmlparser2 keeps odd bits of them as text: markup ends cleanly here.
const END = '<b id="end">end</b>';
const endsCleanly = (html: string): boolean => {
  const tree = fullTree(html);
  const at = tree.lastIndexOf('<b {"id":"end"} tag');
  return at >= 0 && tree[at + 1] === 'text "end"' && tree[at + 2] === '</b>';
};

describe('the page scan builds what htmlparser2 builds', () => {
  const cases: [string, string][] = [
    [
      'nested elements and attributes',
      '<div id="a" class="x y"><p>one <b>two</b></p><span data-x=1>three</span></div>',
    ],
    ['upper-case names are lowered', '<DIV CLASS="A"><B>x</B></DIV>'],
    ['the first of two same-named attributes wins', '<a href="1" HREF="2">x</a>'],
    ['attributes without value, unquoted and spaced', '<input disabled value = five name=a/b><a b c= "d">x</a>'],
    ['a quoted value may hold > and the other quote', `<a title="1 > 0" alt='it"s'>x</a>`],
    [
      'entities in text and attributes',
      '<p title="&amp;&lt;x&gt; &copy">a &amp; b &lt; c &notit; &#x41;&#66; &amp</p>',
    ],
    ['a stray end tag is ignored and text around it joins', '<div>a</span>b</div>'],
    ['an end tag closes every element opened inside it', '<div><span><b>x</div>y'],
    [
      'implied ends: p, li, td, option',
      '<p>a<p>b<div>c</div><ul><li>1<li>2</ul><table><tr><td>x<td>y<tr><td>z</table><select><option>a<option>b</select>',
    ],
    ['a stray </p> is an empty paragraph, a stray </br> a break', '<div>a</p>b</br>c</div>'],
    ['void elements never hold children', '<div><img src=x>text<br>more<hr></div>'],
    [
      'script, style and textarea are raw text; title decodes entities',
      '<div><script>if (a<b) { x = "</div>" }</script><style>p>b{}</style><textarea><b>&amp;</b></textarea><title>a &amp; b</title></div>',
    ],
    ['a raw-text end tag needs a space or > after its name', '<div><script>a</scriptx>b</script>c</div>'],
    ['comments, short comments and bogus comments', '<div><!-- a --><!--><!---><!-- b -- c -->x</3 >y</div>'],
    ['declarations and instructions inside an element', '<div><!DOCTYPE html><?xml version="1.0"?>x</div>'],
    ['CDATA is a comment in HTML', '<div><![CDATA[ a < b ]]>x</div>'],
    ['</> is text', '<div>a</>b</ >c</div>'],
    ['a < that starts no tag is text', '<div>1 < 2 <3 <<b>x</b></div>'],
    ['self-closing syntax counts only in svg and math', '<div/><span>x</span><svg><path/><g/></svg><p>after</p>'],
    ['a written-self-closing script is not raw text', '<div><script src=x /><b>bold</b></div>'],
    ['/ before > is self-closing, inside an unquoted value it is not', '<svg><a href=x/><b/></svg>'],
    ['a tag never closed swallows the rest', '<div>a<span class="x'],
    // Found by the random case below: the second Parser that re-read region tags lost them.
    ["an end tag with a < inside keeps the next tag's attributes", '</A <div><b id="end">end</b>'],
    ['names lower-case as toLowerCase does, beyond ASCII too', '<div><xÉ Áb="1" Ab=2>x</xé><P>y</xÉ></div>'],
  ];
  it.each(cases)('%s', (_name, html) => {
    expect(scanTree(html)).toEqual(fullTree(html));
  });

  it('on random markup', () => {
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), (pieces) => {
        const html = pieces.join('') + END;
        fc.pre(endsCleanly(html));
        expect(scanTree(html)).toEqual(fullTree(html));
      }),
      { numRuns: 3000 },
    );
  });

  // Outside what is kept the scan's tokenizer decodes no character references: the
  // regions (and a part inside one) must still start and end where htmlparser2 says.
  it('on random markup, regions and parts among unkept markup', () => {
    const regions: PageRegion[] = [{ selector: 'span', parts: ['b.x'] }, 'i[y]', 'title'];
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), (pieces) => {
        const html = pieces.join('') + END;
        fc.pre(endsCleanly(html));
        expect(regionTree(html, regions)).toEqual(wholeRegions(html, regions));
      }),
      { numRuns: 3000 },
    );
  });
});

describe('regions and parts', () => {
  const page = [
    '<html><head><title>T &amp; U</title><script>var x = "<div class=post>";</script></head><body>',
    '<div class="nav">1 2 3</div>',
    '<div class="post" id="p1"><div class="avatar"><img src=a></div><div class="name">Alice</div>',
    '<div class="body">Vote: <b>Bob</b><div class="name">quoted</div></div><span class="sig">sig</span></div>',
    '<div class="post" id="p2"><div class="body">unclosed <b>bold</div></div>',
    '</body></html>',
  ].join('');

  it('builds the region elements alone, in page order, and nothing of a script', () => {
    const doc = scan(page, ['title', 'div.nav']);
    expect(doc.children.map((n) => shape(n)[0])).toEqual(['<title {} tag', '<div {"class":"nav"} tag']);
    expect(shape(doc.children[0]!)).toContain('text "T & U"');
  });

  it('a region with parts keeps its own attributes and its parts, whole, as its children', () => {
    const doc = scan(page, [{ selector: 'div.post', parts: ['.name', '.body'] }]);
    const posts = doc.children as Element[];
    expect(posts.map((p) => p.attribs.id)).toEqual(['p1', 'p2']);
    expect(posts[0]!.children.map((n) => (n as Element).attribs.class)).toEqual(['name', 'body']);
    // The part's own subtree is whole: the .name inside .body stays where it is.
    expect(shape(posts[0]!.children[1]!)).toEqual(
      expect.arrayContaining(['<div {"class":"name"} tag', 'text "quoted"']),
    );
    expect(shape(posts[0]!).join('\n')).not.toMatch(/avatar|sig/);
  });

  it('a part may have parts of its own: only those are built inside it', () => {
    const html =
      '<div class="post"><div class="profile"><img src=a><b>rank</b><a class="name">Ann</a></div><div class="body">hi</div></div>';
    const post = scan(html, [{ selector: 'div.post', parts: [{ selector: '.profile', parts: ['a.name'] }, '.body'] }])
      .children[0] as Element;
    expect(shape(post)).toEqual([
      '<div {"class":"post"} tag',
      '<div {"class":"profile"} tag',
      '<a {"class":"name"} tag',
      'text "Ann"',
      '</a>',
      '</div>',
      '<div {"class":"body"} tag',
      'text "hi"',
      '</div>',
      '</div>',
    ]);
  });

  it('an element left open inside a post ends where the whole-page parse ends it', () => {
    const regioned = scan(page, [{ selector: 'div.post', parts: ['.body'] }]).children[1]!;
    const whole = parseDocument(page).children[0] as Element;
    const fullPost = shape(whole).join('\n');
    const body = shape((regioned as Element).children[0]!).join('\n');
    expect(fullPost).toContain(body);
    expect(body).toContain('text "unclosed "');
  });
});

/**
 * What the scan must build, told from the whole page's document with css-select: each
 * element that matches a region (the first that does, as declared) at a place where
 * regions are sought, whole or, for a region with parts, its tag with only the parts
 * found below it as children; elsewhere, what lies below it is sought in turn.
 */
function expectedRegions(nodes: readonly AnyNode[], regions: readonly PageRegion[], out: string[] = []): string[] {
  for (const node of nodes) {
    if (!isTag(node)) continue;
    const entry = regions.find((r) => is(node, typeof r === 'string' ? r : r.selector));
    if (entry === undefined) expectedRegions(node.children, regions, out);
    else if (typeof entry === 'string') shape(node, out);
    else {
      out.push(`<${node.name} ${JSON.stringify(node.attribs)} ${node.type}`);
      expectedRegions(node.children, entry.parts, out);
      out.push(`</${node.name}>`);
    }
  }
  return out;
}
const regionTree = (html: string, regions: PageRegion[]): string[] =>
  scan(html, regions).children.flatMap((n) => shape(n));
const wholeRegions = (html: string, regions: PageRegion[]): string[] =>
  expectedRegions(parseDocument(html, { decodeEntities: true, lowerCaseAttributeNames: true }).children, regions);

describe('regions end where htmlparser2 ends them', () => {
  // Pages on which the former copy of htmlparser2's tree rules (page-scan.ts until issue
  // #23) built other regions than the library: each is a theme's markup, cut down.
  const XF1_THEMED: PageRegion[] = [
    {
      selector: 'li.message',
      parts: [
        { selector: '.messageMeta', parts: ['a.username'] },
        { selector: '.messageContent', parts: ['blockquote.messageText'] },
        'blockquote.messageText',
      ],
    },
  ];
  const cases: [string, PageRegion[], string][] = [
    [
      "a part with parts opened by the tag that ends a <p> by implication is still found (a XenForo 1 theme's meta line in a <p>)",
      XF1_THEMED,
      '<ol><li class="message"><div class="messageInfo"><p class="messageMeta"><a class="username">Ann</a><div class="messageContent"><blockquote class="messageText">Vote: Bob</blockquote></div></div></li></ol>',
    ],
    [
      'the element that ends a part by implication is sought in, not built into the post',
      [{ selector: 'li.message', parts: ['p.author', 'blockquote.messageText'] }],
      '<ol><li class="message"><p class="author">Ann<div class="messageContent"><blockquote class="messageText">Vote: Bob</blockquote></div></li></ol>',
    ],
    [
      'a region ended by an implied end tag: what follows is no region',
      ['div.body', 'p'],
      '<div><p>intro<section><b>not a region</b></section><div class="body">x</div></div>',
    ],
    [
      '<p> inside <font>, unclosed table cells and a stray </td> in a post',
      [{ selector: 'div.post', parts: ['div.body'] }],
      '<div class="post"><font><p>a<div class="body"><table><tr><td>1<td>2</table></td>b</div></font></div>',
    ],
  ];
  it.each(cases)('%s', (_name, regions, html) => {
    expect(regionTree(html, regions)).toEqual(wholeRegions(html, regions));
  });

  // Outside regions the scan reads a tag's attributes only when its source holds a
  // literal the selectors need; a character reference may spell one differently.
  it.each([
    ['a class written with a character reference', '<div class="p&#111;st">x</div><div class="post">y</div>'],
    ['a region tag cut off at the end of the page', '<div class="post">x</div><div class="post'],
    ['a region tag whose quoted value holds > and <', '<div title="a > b <c>" class="post">x</div>'],
    // A tag's attributes are collected when its source up to the first `>` holds a literal.
    ['a region tag whose class comes before a quoted >', '<div class="post" title="a > b">x</div>'],
    ['a tag whose literal is only inside a quoted value up to a >', '<div title="post>" class="x">a</div>'],
    // The scan keeps, per literal, where it next stands on the page, and moves it forward only.
    ['the literal as a word of text before the region tag', '<div> post </div><div class="post">y</div>'],
    [
      'the literal in a tag turned away, then in region tags in a row',
      '<div class="xpost post-">a</div><div class="post">b</div><div class=post>c</div>',
    ],
    ['the literal right after a tag that ends before it', '<div class=x>post"<div class="post">y</div></div>'],
  ])('%s is read as htmlparser2 reads it', (_name, html) => {
    expect(regionTree(html, ['div.post'])).toEqual(wholeRegions(html, ['div.post']));
  });
});

/** Every HTML page the adapters are tested on: the real samples, the harvest pages and the fixtures. */
function pages(): { name: string; html: string; url: string | null }[] {
  const out: { name: string; html: string; url: string | null }[] = [];
  if (haveSamples) {
    for (const dir of readdirSync(samplesDir).filter((d) => !d.endsWith('.md') && d !== 'harvest')) {
      for (const file of readdirSync(join(samplesDir, dir)).filter((f) => f.endsWith('.html'))) {
        const bytes = readFileSync(join(samplesDir, dir, file));
        out.push({
          name: `samples/${dir}/${file}`,
          html: dir === 'vbulletin3' ? new TextDecoder('windows-1252').decode(bytes) : bytes.toString('utf8'),
          url: null,
        });
      }
    }
    const harvest = join(samplesDir, 'harvest');
    for (const file of existsSync(harvest) ? readdirSync(harvest).filter((f) => f.endsWith('.json')) : []) {
      const page = JSON.parse(readFileSync(join(harvest, file), 'utf8')) as { html: string; url: string };
      out.push({ name: `harvest/${file}`, html: page.html, url: page.url });
    }
  }
  const fixtures = join(root, 'fixtures');
  for (const engine of readdirSync(fixtures)) {
    const dir = join(fixtures, engine);
    for (const sub of existsSync(dir) && !engine.includes('.') ? readdirSync(dir) : []) {
      const subdir = join(dir, sub);
      if (!existsSync(subdir) || sub.includes('.')) continue;
      for (const file of readdirSync(subdir).filter((f) => f.endsWith('.html'))) {
        out.push({
          name: `fixtures/${engine}/${sub}/${file}`,
          html: readFileSync(join(subdir, file), 'utf8'),
          url: null,
        });
      }
    }
  }
  return out;
}

/** The adapter a page is read with: the one identify picks from the page, else from its URL. */
function adapterFor(page: { html: string; url: string | null }): EngineAdapter | undefined {
  const engine = engineFromHtml(page.html) ?? (page.url ? engineFromUrl(new URL(page.url)) : null);
  return adapters.find((a) => a.descriptor.engine === engine);
}

/** A page read, or the error that refused it: the two ways must agree on either. */
function readOrRefuse(adapter: EngineAdapter, html: string, ctx: PageContext): unknown {
  try {
    return adapter.parsePage(html, ctx);
  } catch (e) {
    return { refused: e instanceof Error ? `${e.name}: ${e.message}` : String(e) };
  }
}

describe('every adapter reads the same page from its regions as from the whole page', () => {
  const all = pages();
  it('has pages to compare', () => {
    expect(all.filter((p) => p.name.startsWith('fixtures/')).length).toBeGreaterThan(30);
    if (haveSamples) expect(all.filter((p) => p.name.startsWith('harvest/')).length).toBeGreaterThan(50);
  });
  // Harvest pages of engines Votal has no adapter for (or reads through an API, Discourse) are compared below, as DOMs.
  const read = all.filter((p) => !p.name.startsWith('harvest/') || adapterFor(p)?.descriptor.regions);
  it.each(read.map((p) => [p.name, p] as const))('%s', (name, page) => {
    const adapter = adapterFor(page);
    expect(adapter, `no adapter recognises ${name}`).toBeDefined();
    expect(adapter!.descriptor.regions, `${adapter!.descriptor.engine} declares no regions`).toBeDefined();
    const ctx: PageContext = {
      url: page.url ?? 'https://forum.example.com/threads/a-game.1/page-2',
      profile: DEFAULT_PROFILE,
      now: '2026-01-01T00:00:00Z',
    };
    const regioned = readOrRefuse(adapter!, page.html, ctx);
    // Our own pages are all read; a real page may be refused (an unsupported theme), alike both ways.
    if (!name.startsWith('harvest/')) expect((regioned as ThreadPage).posts?.length).toBeGreaterThan(0);
    expect(regioned).toEqual(readOrRefuse(adapter!, page.html, { ...ctx, wholePage: true }));
  });
  it.each(all.filter((p) => !p.name.startsWith('fixtures/')).map((p) => [p.name, p.html] as const))(
    "%s: every adapter's regions are the whole page's, and the scan of everything is htmlparser2's tree",
    (_name, html) => {
      for (const a of adapters.filter((a) => a.descriptor.regions))
        expect(regionTree(html, a.descriptor.regions!), a.descriptor.engine).toEqual(
          wholeRegions(html, a.descriptor.regions!),
        );
      expect(scanTree(html)).toEqual(fullTree(html));
    },
  );
});
