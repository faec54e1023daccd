import { describe, expect, it } from 'vitest';
import type { Element } from 'domhandler';
import { buildBody } from '../../scrapers/body-builder.js';
import { one, parseHtml } from '../../scrapers/dom.js';
import { BodyMarkup } from '../../scrapers/markup.js';
import { readPost } from '../../src/parse/read-post.js';
import { loadRuleset } from '../../src/rules/load-ruleset.js';
import { countVotes } from '../../src/tally/count.js';
import { openFlags } from '../../src/votal/render-votal.js';

/**
 * Issue #17, item 2: a post Votal cannot read never stops the page (and every later poll).
 * It is kept, marked unreadable, and goes to the GM's review queue as a flag with the
 * reason; a standing vote is left as it was until the GM reads the post.
 */
const PAGE = 'https://forum.example/threads/1/';
const ruleset = loadRuleset('plurality');
const roster = [
  { name: 'Ann', aliases: [], formerNames: [], alive: true },
  { name: 'Bob', aliases: [], formerNames: [], alive: true },
];

/** A post body one of whose elements fails when read (any fault below the adapter: hostile markup, a bug). */
function sabotaged(): Element {
  const root = one(parseHtml('<div class="body"><b>Vote: Bob</b> <i>and more</i></div>'), 'div.body')!;
  const bad = root.children[2] as Element;
  root.children[2] = new Proxy(bad, {
    get: (target, key, receiver) => {
      if (key === 'children' || key === 'attribs') throw new RangeError('Maximum call stack size exceeded');
      return Reflect.get(target, key, receiver);
    },
  });
  return root;
}

describe('a post Votal cannot read', () => {
  it('is read as unreadable, with the reason, instead of failing the page', () => {
    const body = buildBody(sabotaged(), BodyMarkup.parse({}), { pageUrl: PAGE });
    expect(body).toEqual([
      { t: 'unreadable', reason: "the post's markup could not be read: Maximum call stack size exceeded" },
    ]);
  });

  it('goes to the GM for review: no vote is taken from it, none is dropped silently', () => {
    const reading = readPost({ body: [{ t: 'unreadable', reason: 'x' }], edit: null }, roster, ruleset);
    expect(reading).toEqual({
      actions: [],
      effect: { kind: 'review', target: null, reason: 'unreadable-post' },
      violations: [],
    });
  });

  it("is a flag in the count, open for the GM, and leaves the author's standing vote as it was", () => {
    const post = (n: number, author: string, reading: ReturnType<typeof readPost>) => ({
      kind: 'post' as const,
      post: n,
      author,
      time: null,
      permalink: `${PAGE}#${n}`,
      reading,
    });
    const vote = readPost(
      { body: [{ t: 'bold', children: [{ t: 'text', text: 'Vote: Bob' }] }], edit: null },
      roster,
      ruleset,
    );
    const unreadable = readPost({ body: [{ t: 'unreadable', reason: 'x' }], edit: null }, roster, ruleset);
    const tally = countVotes({ ruleset, roster, events: [post(1, 'Ann', vote), post(2, 'Ann', unreadable)] });
    expect(tally.flags).toEqual([
      {
        post: 2,
        player: 'Ann',
        kind: 'unreadable-post',
        raw: 'Votal could not read this post: read it on the forum',
        candidates: [],
      },
    ]);
    expect(openFlags(tally)).toHaveLength(1);
    expect(tally.wagons.map((w) => [w.target, w.total])).toEqual([['Bob', 1]]);
  });
});
