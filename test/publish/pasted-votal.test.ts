import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFakeForum, type FakeForum } from '../../src/fake-forum/server.js';
import { CookieJar } from 'tough-cookie';
import { copyPublisher } from '../../src/publish/copy.js';
import { formPostPublisher } from '../../src/publish/form-post.js';
import { PublishHttp } from '../../src/publish/http.js';
import { votalWords } from '../../src/votal/pasted-votal.js';
import { confirmCopied, publishDraft, type PublishDeps } from '../../src/publish/publish-draft.js';
import type { Store } from '../../src/store/open-store.js';
import { openTestStore, sampleTally } from '../web/support.js';
import { FakeThread, type NewPost } from './fake-thread.js';

/**
 * A copied votal carries no marker (issue #14: a hidden marker shows as soon as a player
 * quotes the post). "I have posted it" finds the GM's paste by its words: the first post
 * after the draft's count, by the GM, whose own text holds the votal. Each case is a thread
 * on the stand-in forum (XenForo 2 pages, read by the real adapter) and a real store.
 */

let forum: FakeForum;
let store: Store;
let closeStore: () => Promise<void>;

beforeAll(async () => {
  ({ store, close: closeStore } = await openTestStore('pglite'));
});
afterAll(async () => {
  await closeStore();
});
afterEach(async () => {
  await forum?.close();
});

const link = (id: number) => `https://forum.example/threads/fake-game.4242/post-${id}`;

/** The votal as Votal drafts it (BBCode, voters linked to their votes). */
const VOTAL = `[b]Vote count — Day 1[/b]
As of post #3

[b]Bob[/b] (2) — L-1: [url=${link(42422)}]Alice[/url], [url=${link(42423)}]Carol[/url]
[b]Alice[/b] (1): [url=${link(42424)}]Dave[/url]

[b]Not voting (1):[/b] Eve

With 5 alive, it takes 3 to lynch.`;

/** The same count with one vote moved: not this votal. */
const OTHER_VOTAL = VOTAL.replace(`[url=${link(42423)}]Carol[/url]`, '').replace('(2) — L-1: ', '(1) — L-2: ');

const quoteOf = (author: string, text: string) => `[quote="${author}, post: 4"]\n${text}\n[/quote]`;

interface Case {
  name: string;
  /** The game's `gm` setting. */
  gm?: string | string[];
  /** Posts after the three of the Day so far and before the draft (its count reads them). */
  before?: NewPost[];
  /** Posts after the draft. */
  after: NewPost[];
  /** Which of `after` is the paste (index), or null: none is. */
  found: number | null;
}

const cases: Case[] = [
  {
    name: 'the GM pastes the votal as copied',
    gm: 'Moderator',
    after: [{ author: 'Moderator', body: VOTAL }],
    found: 0,
  },
  {
    name: 'the forum adds a signature and a "Sent from" line to the GM\'s post',
    gm: 'Moderator',
    after: [
      {
        author: 'Moderator',
        body: `${VOTAL}\n\nSent from my SM-G991B using Tapatalk\n__________\nModerator of the Town Hall. Be nice.`,
      },
    ],
    found: 0,
  },
  {
    name: "the GM's editor rewrapped it: blank lines dropped, spaces doubled, Windows line ends",
    gm: 'Moderator',
    after: [{ author: 'Moderator', body: VOTAL.replace(/\n\n/g, '\n').replace(/ /g, '  ').replace(/\n/g, '\r\n') }],
    found: 0,
  },
  {
    name: 'the GM writes a line of their own above it and bolds differently',
    gm: 'Moderator',
    after: [{ author: 'Moderator', body: `Here is the count, folks:\n\n${VOTAL.replace(/\[\/?b\]/g, '')}` }],
    found: 0,
  },
  {
    name: "a player quoting the GM's post does not take its place",
    gm: 'Moderator',
    after: [
      { author: 'Moderator', body: VOTAL },
      { author: 'Alice', body: `${quoteOf('Moderator', VOTAL)}\nBob at L-1, nice.` },
    ],
    found: 0,
  },
  {
    name: "a player's quote of the votal alone is not the GM's post",
    gm: 'Moderator',
    after: [{ author: 'Alice', body: `${quoteOf('Moderator', VOTAL)}\nWhere did this come from?` }],
    found: null,
  },
  {
    name: 'a quote of the votal is not a paste even when no GM is set',
    after: [{ author: 'Alice', body: quoteOf('Moderator', VOTAL) }],
    found: null,
  },
  {
    name: 'a player pasting the words unquoted is not the GM',
    gm: 'Moderator',
    after: [{ author: 'Alice', body: VOTAL }],
    found: null,
  },
  {
    name: 'a co-host named in the gm setting counts (names compared without case)',
    gm: ['Moderator', 'eve'],
    after: [{ author: 'Eve', body: VOTAL }],
    found: 0,
  },
  {
    name: "with no gm setting, any poster's paste counts",
    after: [
      { author: 'Alice', body: quoteOf('Bob', VOTAL) },
      { author: 'Bob', body: VOTAL },
    ],
    found: 1,
  },
  {
    name: "the same words before the draft's count are an older votal, not this one",
    gm: 'Moderator',
    before: [{ author: 'Moderator', body: VOTAL }],
    after: [{ author: 'Carol', body: 'Vote: Bob' }],
    found: null,
  },
  {
    name: 'a different count (one vote moved) is not this votal',
    gm: 'Moderator',
    after: [{ author: 'Moderator', body: OTHER_VOTAL }],
    found: null,
  },
  {
    name: 'of two pastes, the first after the draft is the one',
    gm: 'Moderator',
    after: [
      { author: 'Moderator', body: VOTAL },
      { author: 'Moderator', body: `Again, as the first one got lost in the noise:\n${VOTAL}` },
    ],
    found: 0,
  },
];

async function copiedDraft(c: Case): Promise<{ thread: FakeThread; deps: PublishDeps; draftId: number; text: string }> {
  forum = await startFakeForum();
  const thread = new FakeThread(forum, { engine: 'xenforo2', postsPerPage: 4 });
  thread.add({ author: 'Moderator', body: '[b]Day 1 begins.[/b]' });
  thread.add({ author: 'Alice', body: '[b]Vote: Bob[/b]' });
  thread.add({ author: 'Carol', body: '[b]Vote: Bob[/b]' });
  for (const post of c.before ?? []) thread.add(post);
  const settings = c.gm === undefined ? {} : { gm: c.gm };
  const game = await store.games.create(
    {
      threadUrl: thread.url,
      engine: 'xenforo2',
      ruleset: 'plurality',
      roster: [{ name: 'Alice' }, { name: 'Bob' }],
      settings,
    },
    'test',
  );
  const asOfPost = thread.posts.at(-1)!.n;
  const tally = await store.tallies.save(game.id, sampleTally({ engine: 'xenforo2', asOfPost }));
  const draft = await store.drafts.create(
    { gameId: game.id, tallyId: tally.id, dialect: 'bbcode-xenforo', body: `${VOTAL}\n` },
    'test',
  );
  await store.drafts.approve(draft.id, 'gm');
  const publisher = copyPublisher({
    threadUrl: thread.url,
    engine: 'xenforo2',
    http: new PublishHttp({ timeoutMs: 5_000, allowPrivateHosts: true }),
  });
  const deps: PublishDeps = { store, publisherFor: () => publisher };
  const result = await publishDraft(deps, draft.id, 'gm');
  if (result.status !== 'copy') throw new Error(`expected a votal to copy, got ${result.status}`);
  return { thread, deps, draftId: draft.id, text: result.text };
}

describe('the votal the GM copies', () => {
  it('is the draft as written, with no marker in any form', async () => {
    const { text } = await copiedDraft(cases[0]!);
    expect(text).toBe(VOTAL);
    expect(text).not.toMatch(/votal:\d|\[color=transparent\]|<!--/);
  });

  it('is not found before the GM pastes it', async () => {
    const { deps, draftId } = await copiedDraft(cases[0]!);
    expect(await confirmCopied(deps, draftId, 'gm')).toBeNull();
    expect((await store.drafts.get(draftId))?.status).toBe('approved');
  });

  it('is still found after the game is set to post through the reply form', async () => {
    const { thread, deps, draftId } = await copiedDraft(cases[0]!);
    const form = formPostPublisher({
      threadUrl: thread.url,
      engine: 'xenforo2',
      jar: new CookieJar(),
      http: new PublishHttp({ timeoutMs: 5_000, allowPrivateHosts: true }),
    });
    const paste = thread.add({ author: 'Moderator', body: VOTAL });
    const publication = await confirmCopied({ ...deps, publisherFor: () => form }, draftId, 'gm');
    expect(publication).toMatchObject({ status: 'published', remotePostId: String(paste.id) });
  });
});

describe('"I have posted it" finds the GM\'s paste by its words', () => {
  it.each(cases)('$name', async (c) => {
    const { thread, deps, draftId } = await copiedDraft(c);
    const added = c.after.map((post) => thread.add(post));
    const publication = await confirmCopied(deps, draftId, 'gm');
    if (c.found === null) {
      expect(publication).toBeNull();
      return;
    }
    const paste = added[c.found]!;
    expect(publication).toMatchObject({ status: 'published', remotePostId: String(paste.id) });
    expect(publication!.remoteUrl).toContain(String(paste.id));
    expect((await store.drafts.get(draftId))?.status).toBe('published');
  });
});

describe('the words of a votal', () => {
  it.each([
    [
      'BBCode tags and link addresses are not words',
      '[b]Bob[/b] (2): [url=https://f.example/p/7]Alice[/url]',
      'bob 2 alice',
    ],
    [
      'Markdown emphasis, link targets and HTML comments are not words',
      '**Bob** (2): [Alice](https://f.example/p/7) <!-- x -->',
      'bob 2 alice',
    ],
    ['case, punctuation and any spacing do not count', 'Not voting  (1):\r\n\tEVE.', 'not voting 1 eve'],
    [
      'a bare address is not a word (forums shorten how they show it)',
      'See https://f.example/threads/x.1/post-9 now',
      'see now',
    ],
    ['letters beyond ASCII are words', '[b]Zoë[/b] — Łukasz', 'zoë łukasz'],
  ])('%s', (_name, text, words) => {
    expect(votalWords(text)).toBe(words);
  });
});
