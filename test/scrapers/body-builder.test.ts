import { describe, expect, it } from 'vitest';
import { buildBody, type BodyContext } from '../../scrapers/body-builder.js';
import { one, parseHtml } from '../../scrapers/dom.js';
import { BodyMarkup } from '../../scrapers/markup.js';
import { descriptor as phpbbDescriptor } from '../../scrapers/phpbb.js';
import { descriptor as xenforo2Descriptor } from '../../scrapers/xenforo2.js';
import type { Body, BodyNode } from '../../src/model/body.js';
import { flatText, nodesOf, textOutsideQuotes } from '../support/game-script.js';

const PAGE = 'https://forum.test/threads/game.1/page-2';
const generic = BodyMarkup.parse({});

function read(html: string, markup: BodyMarkup = generic, ctx: Partial<BodyContext> = {}): Body {
  const root = one(parseHtml(`<div id="votal-root">${html}</div>`), '#votal-root');
  if (!root) throw new Error('no root');
  return buildBody(root, markup, { pageUrl: PAGE, ...ctx });
}

const t = (text: string): BodyNode => ({ t: 'text', text });
const x = (text: string): BodyNode[] => [t(text)];

describe('body builder: each construct becomes one neutral node', () => {
  const cases: [rule: string, html: string, expected: Body][] = [
    ['plain text is text, white space folded', 'Vote:\n\t  Bob', [t('Vote: Bob')]],
    ['every run of white space is one space, at the ends too', '\n  a \t b\r\n\nc  ', [t(' a b c ')]],
    [
      'white space between tags is one space',
      '<b>a</b>\n\t\t<i>b</i>',
      [{ t: 'bold', children: x('a') }, t(' '), { t: 'italic', children: x('b') }],
    ],
    ['a no-break and other Unicode spaces fold as \\s does', 'a\u00a0\u2003b\u3000\ufeffc', [t('a b c')]],
    ['single spaces between words stay as written', 'Vote: Bob and Carol', [t('Vote: Bob and Carol')]],
    ['<br> is a line break', 'a<br>b', [t('a'), { t: 'br' }, t('b')]],
    ['<b> is bold', '<b>Vote: Bob</b>', [{ t: 'bold', children: x('Vote: Bob') }]],
    ['<strong> is bold', '<strong class="text-strong">Vote: Bob</strong>', [{ t: 'bold', children: x('Vote: Bob') }]],
    [
      'font-weight: bold is bold',
      '<span style="font-weight: bold">Vote: Bob</span>',
      [{ t: 'bold', children: x('Vote: Bob') }],
    ],
    [
      'font-weight: 700 is bold',
      '<span style="font-weight:700">Vote: Bob</span>',
      [{ t: 'bold', children: x('Vote: Bob') }],
    ],
    ['font-weight: normal is not bold', '<span style="font-weight: normal">Vote: Bob</span>', [t('Vote: Bob')]],
    [
      '<i> and <em> are italic',
      '<i>a</i><em>b</em>',
      [
        { t: 'italic', children: x('a') },
        { t: 'italic', children: x('b') },
      ],
    ],
    ['font-style: italic is italic', '<span style="font-style: italic">a</span>', [{ t: 'italic', children: x('a') }]],
    ['<u> is underline', '<u>a</u>', [{ t: 'underline', children: x('a') }]],
    [
      'text-decoration: underline is underline',
      '<span style="text-decoration:underline">a</span>',
      [{ t: 'underline', children: x('a') }],
    ],
    ['<s> is strike', '<s>Vote: Bob</s>', [{ t: 'strike', children: x('Vote: Bob') }]],
    [
      '<del> and <strike> are strike',
      '<del>a</del><strike>b</strike>',
      [
        { t: 'strike', children: x('a') },
        { t: 'strike', children: x('b') },
      ],
    ],
    [
      'line-through is strike',
      '<span style="text-decoration: line-through">a</span>',
      [{ t: 'strike', children: x('a') }],
    ],
    [
      'a colour style is a colour node',
      '<span style="color: #ff0000">a</span>',
      [{ t: 'color', color: '#ff0000', children: x('a') }],
    ],
    ['<font color> is a colour node', '<font color="red">a</font>', [{ t: 'color', color: 'red', children: x('a') }]],
    ['background-color is not a text colour', '<span style="background-color: #ff0">a</span>', [t('a')]],
    [
      'a font size is a size node',
      '<span style="font-size: 150%">a</span>',
      [{ t: 'size', size: '150%', children: x('a') }],
    ],
    [
      'one element with bold and colour styles is colour around bold',
      '<span style="font-weight: bold; color: red">a</span>',
      [{ t: 'color', color: 'red', children: [{ t: 'bold', children: x('a') }] }],
    ],
    ['<div> is a block', 'a<div>b</div>c', [t('a'), { t: 'block', children: x('b') }, t('c')]],
    ['<p> is a block', '<p>a</p>', [{ t: 'block', children: x('a') }]],
    ['<span> without style is transparent', '<span class="x">a</span>b', [t('ab')]],
    [
      '<blockquote> is a quote without an author',
      '<blockquote>Vote: Bob</blockquote>',
      [{ t: 'quote', author: null, children: x('Vote: Bob') }],
    ],
    ['<pre> is code, kept verbatim', '<pre>Vote:\n  Bob</pre>', [{ t: 'code', text: 'Vote:\n  Bob' }]],
    ['<code> is code', 'see <code>Vote: Bob</code>', [t('see '), { t: 'code', text: 'Vote: Bob' }]],
    [
      'a smilie image is a smilie, by its alt',
      '<img class="smilie" src="/s/smile.png" alt=":)">',
      [{ t: 'smilie', alt: ':)' }],
    ],
    [
      'an emoji image is a smilie',
      '<img class="emoji" src="/e/pray.png" alt=":pray:">',
      [{ t: 'smilie', alt: ':pray:' }],
    ],
    [
      'a smilie without alt falls back to its title',
      '<img class="smilies" src="/s/lol.gif" title="Laughing">',
      [{ t: 'smilie', alt: 'Laughing' }],
    ],
    [
      'any other image is an image, its src absolute',
      '<img src="/attachments/cat.png">',
      [{ t: 'image', src: 'https://forum.test/attachments/cat.png' }],
    ],
    [
      'a lazy image is read from data-src',
      '<img src="data:image/gif;base64,R0lGOD" data-src="https://img.test/cat.png">',
      [{ t: 'image', src: 'https://img.test/cat.png' }],
    ],
    [
      'a link to another site is external',
      '<a href="https://wiki.example.org/mafia">wiki</a>',
      [{ t: 'link', href: 'https://wiki.example.org/mafia', kind: 'external', children: x('wiki') }],
    ],
    [
      'a relative link is internal and absolute',
      '<a href="/threads/game.1/post-9">post</a>',
      [{ t: 'link', href: 'https://forum.test/threads/game.1/post-9', kind: 'internal', children: x('post') }],
    ],
    [
      'http and www. of the forum are the forum',
      '<a href="http://www.forum.test/x">x</a>',
      [{ t: 'link', href: 'http://www.forum.test/x', kind: 'internal', children: x('x') }],
    ],
    [
      'a mailto: link is external',
      '<a href="mailto:gm@example.org">mail</a>',
      [{ t: 'link', href: 'mailto:gm@example.org', kind: 'external', children: x('mail') }],
    ],
    [
      'a username link is a mention',
      '<a href="/members/bob.12/" class="username">@Bob</a>',
      [{ t: 'link', href: 'https://forum.test/members/bob.12/', kind: 'mention', children: x('@Bob') }],
    ],
    ['an anchor without href is transparent', '<a name="top">Vote: Bob</a>', [t('Vote: Bob')]],
    [
      'scripts, styles and buttons are dropped',
      'a<script>alert(1)</script><style>b{}</style><button>Quote</button>b',
      [t('ab')],
    ],
    ['HTML entities are decoded', 'Vote: Bob &amp; Carol &lt;3', [t('Vote: Bob & Carol <3')]],
  ];

  it.each(cases)('%s', (_rule, html, expected) => {
    expect(read(html)).toEqual(expected);
  });

  it('a link to another host name of the same board (a profile alias) is internal', () => {
    expect(
      read('<a href="https://old-forum.test/t/1">old</a>', generic, { forumOrigins: ['https://old-forum.test'] }),
    ).toEqual([{ t: 'link', href: 'https://old-forum.test/t/1', kind: 'internal', children: x('old') }]);
  });

  it('markup nested beyond the depth limit is read as text, without overflowing the stack', () => {
    const deep = `${'<span><b>'.repeat(400)}Vote: Bob${'</b></span>'.repeat(400)}`;
    expect(flatText(read(deep))).toBe('Vote: Bob');
  });
});

describe('body builder with XenForo 2 markup', () => {
  const xf = xenforo2Descriptor.body;
  const quote = (attrs: string, title: string, inner: string): string =>
    `<blockquote ${attrs} class="bbCodeBlock bbCodeBlock--expandable bbCodeBlock--quote js-expandWatch">${title}` +
    `<div class="bbCodeBlock-content"><div class="bbCodeBlock-expandContent js-expandContent ">${inner}</div>` +
    '<div class="bbCodeBlock-expandLink js-expandLink"><a role="button" tabindex="0">Click to expand...</a></div></div></blockquote>';
  const code = (title: string, text: string): string =>
    `<div class="bbCodeBlock bbCodeBlock--screenLimited bbCodeBlock--code"><div class="bbCodeBlock-title">${title}</div>` +
    `<div class="bbCodeBlock-content" dir="ltr"><pre class="bbCodeCode" dir="ltr" data-xf-init="code-block"><code>${text}</code></pre></div></div>`;

  it('a quote takes its author from data-quote, and its title and expand link are chrome', () => {
    const body = read(
      quote(
        'data-quote="Alice" data-source="post: 9002"',
        '<div class="bbCodeBlock-title"><a href="/goto/post?id=9002">Alice said:</a></div>',
        '<b>Vote: Bob</b>',
      ),
      xf,
    );
    // .bbCodeBlock-content > .bbCodeBlock-expandContent: two layout blocks around the quoted text.
    expect(body).toEqual([
      {
        t: 'quote',
        author: 'Alice',
        children: [{ t: 'block', children: [{ t: 'block', children: [{ t: 'bold', children: x('Vote: Bob') }] }] }],
      },
    ]);
  });

  it('without data-quote the author comes from the "X said:" title', () => {
    expect(
      nodesOf(read(quote('', '<div class="bbCodeBlock-title">Alice said:</div>', 'hi'), xf), 'quote')[0]!.author,
    ).toBe('Alice');
  });

  it('an anonymous [QUOTE] has no author', () => {
    expect(nodesOf(read(quote('data-quote=""', '', 'hi'), xf), 'quote')[0]!.author).toBeNull();
  });

  it("an anonymous quote never takes a nested quote's author", () => {
    const inner = quote('data-quote=""', '<div class="bbCodeBlock-title">Bob said:</div>', 'Vote: Carol');
    const body = read(quote('data-quote=""', '', `${inner}I agree`), xf);
    expect(nodesOf(body, 'quote').map((q) => q.author)).toEqual([null, 'Bob']);
  });

  it("an anonymous quote never takes a code block's title as its author", () => {
    const body = read(quote('data-quote=""', '', code('Python:', 'print(1)')), xf);
    expect(nodesOf(body, 'quote')[0]!.author).toBeNull();
    expect(nodesOf(body, 'code').map((c) => c.text)).toEqual(['print(1)']);
  });

  it("a code block's title is not part of its code", () => {
    expect(read(code('Code:', 'Vote: Frank'), xf)).toEqual([{ t: 'code', text: 'Vote: Frank' }]);
  });

  it('inline code is code', () => {
    expect(read('use <code class="bbCodeInlineCode">Vote: X</code>', xf)).toEqual([
      t('use '),
      { t: 'code', text: 'Vote: X' },
    ]);
  });

  it('a spoiler (button + content box) is one spoiler node titled by its title span', () => {
    const html =
      '<div class="bbCodeSpoiler"><button type="button" class="bbCodeSpoiler-button button--longText button"><span class="button-text"><span>' +
      '<span class="bbCodeSpoiler-button-title">secret</span></span></span></button><div class="bbCodeSpoiler-content">' +
      '<div class="bbCodeBlock bbCodeBlock--spoiler"><div class="bbCodeBlock-content"><b>Vote: Dave</b></div></div></div></div>';
    const body = read(html, xf);
    expect(nodesOf(body, 'spoiler')).toHaveLength(1);
    expect(body[0]).toMatchObject({ t: 'spoiler', title: 'secret' });
    expect(flatText(body)).toBe('Vote: Dave');
  });

  it('an untitled spoiler has no title (the button word is chrome)', () => {
    const html =
      '<div class="bbCodeSpoiler"><button class="bbCodeSpoiler-button"><span class="button-text"><span>Spoiler</span></span></button>' +
      '<div class="bbCodeSpoiler-content"><div class="bbCodeBlock bbCodeBlock--spoiler"><div class="bbCodeBlock-content">x</div></div></div></div>';
    expect(read(html, xf)[0]).toMatchObject({ t: 'spoiler', title: null });
  });

  it('smilies are not images: img.smilie vs img.bbImage', () => {
    const body = read(
      '<img src="/styles/smilies/smile.png" class="smilie" alt=":)" data-shortname=":)"><img src="https://img.test/cat.png" class="bbImage" alt="cat.png">',
      xf,
    );
    expect(body).toEqual([
      { t: 'smilie', alt: ':)' },
      { t: 'image', src: 'https://img.test/cat.png' },
    ]);
  });

  it('link--internal is internal even on another host name; link--external is external', () => {
    const body = read(
      '<a href="https://forum.example.net/x" class="link link--internal">a</a><a href="https://forum.test.evil.example/" class="link link--external">b</a>',
      xf,
    );
    expect(nodesOf(body, 'link').map((l) => l.kind)).toEqual(['internal', 'external']);
  });

  it('a mention (a.username[data-user-id]) is a mention', () => {
    const body = read(
      '<a href="/members/bob.12/" class="username" data-user-id="12" data-username="@Bob">@Bob</a>',
      xf,
    );
    expect(nodesOf(body, 'link').map((l) => l.kind)).toEqual(['mention']);
  });

  it('adverts inside the body (samCodeUnit) are dropped', () => {
    expect(
      read(
        '<div class="samCodeUnit"><div class="samItem"><a href="https://ads.example/">Buy</a></div></div>Vote: Bob',
        xf,
      ),
    ).toEqual([t('Vote: Bob')]);
  });

  it("a quote's text never appears outside its quote node", () => {
    const body = read(
      `${quote('data-quote="Alice"', '<div class="bbCodeBlock-title">Alice said:</div>', '<b>Vote: Bob</b>')}Why me?`,
      xf,
    );
    expect(textOutsideQuotes(body)).toBe('Why me?');
    expect(flatText(body)).not.toMatch(/said:|Click to expand/);
  });
});

describe('body builder with phpBB markup', () => {
  const pb = phpbbDescriptor.body;

  it('"X wrote:" in the cite is the author, and the cite is chrome', () => {
    const body = read(
      '<blockquote><div><cite>Alice wrote:</cite><strong class="text-strong">Vote: Bob</strong></div></blockquote>',
      pb,
    );
    expect(body).toEqual([
      { t: 'quote', author: 'Alice', children: [{ t: 'block', children: [{ t: 'bold', children: x('Vote: Bob') }] }] },
    ]);
  });

  it('a 3.3 cite with profile link, jump link and date still names the author', () => {
    const html =
      '<blockquote cite="./viewtopic.php?p=9#p9"><div><cite><a href="./memberlist.php?mode=viewprofile&amp;u=11">Alice</a> wrote: ' +
      '<a href="./viewtopic.php?p=9#p9" data-post-id="9">↑</a><span class="responsive-hide">Mon Mar 02, 2026 6:05 pm</span></cite>hi</div></blockquote>';
    const body = read(html, pb);
    expect(body[0]).toMatchObject({ t: 'quote', author: 'Alice' });
    expect(flatText(body)).toBe('hi');
  });

  it('an uncited quote has no author', () => {
    expect(read('<blockquote class="uncited"><div>hi</div></blockquote>', pb)[0]).toMatchObject({
      t: 'quote',
      author: null,
    });
  });

  it("an uncited quote never takes a nested quote's author", () => {
    const body = read(
      '<blockquote class="uncited"><div><blockquote><div><cite>Bob wrote:</cite>Vote: Carol</div></blockquote>me too</div></blockquote>',
      pb,
    );
    expect(nodesOf(body, 'quote').map((q) => q.author)).toEqual([null, 'Bob']);
  });

  it('a code box is one code node without "Code: Select all"', () => {
    const body = read(
      '<div class="codebox"><p>Code: <a href="#" onclick="selectCode(this); return false;">Select all</a></p><pre><code>Vote: Frank</code></pre></div>',
      pb,
    );
    expect(body).toEqual([{ t: 'code', text: 'Vote: Frank' }]);
  });

  it('a phpBB 3.0 code box (dl/dt/dd) is one code node without its header', () => {
    const body = read(
      '<dl class="codebox"><dt>Code: <a href="#">Select all</a></dt><dd><code>Vote: Frank</code></dd></dl>',
      pb,
    );
    expect(body).toEqual([{ t: 'code', text: 'Vote: Frank' }]);
  });

  it('smilies are not images: img.smilies vs img.postimage', () => {
    const body = read(
      '<img class="smilies" src="./images/smilies/icon_e_smile.gif" alt=":)" title="Smile"><img src="https://img.test/cat.png" class="postimage" alt="Image">',
      pb,
    );
    expect(body).toEqual([
      { t: 'smilie', alt: ':)' },
      { t: 'image', src: 'https://img.test/cat.png' },
    ]);
  });

  it('postlink-local is internal even on another host name; postlink elsewhere is external', () => {
    const body = read(
      '<a class="postlink-local" href="http://board.example/viewtopic.php?t=1">a</a><a class="postlink" href="https://vocaroo.com/i/x">b</a>',
      pb,
    );
    expect(nodesOf(body, 'link').map((l) => l.kind)).toEqual(['internal', 'external']);
  });

  it('a details/summary spoiler is a spoiler titled by its summary', () => {
    const body = read('<details class="spoiler"><summary>secret</summary><div>Vote: Dave</div></details>', pb);
    expect(body[0]).toMatchObject({ t: 'spoiler', title: 'secret' });
    expect(flatText(body)).toBe('Vote: Dave');
  });
});
