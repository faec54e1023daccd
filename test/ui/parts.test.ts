import { describe, expect, it } from 'vitest';
import type { Body } from '../../src/model/body.js';
import { hashBody, type Post } from '../../src/model/post.js';
import { Slot } from '../../src/model/roster.js';
import { postEvents } from '../../src/parse/post-events.js';
import { loadRuleset } from '../../src/rules/load-ruleset.js';
import { countVotes } from '../../src/tally/count.js';
import type { StoredGmEvent } from '../../src/store/events-repo.js';
import type { Game } from '../../src/model/game.js';
import type { StoredPost } from '../../src/store/posts-repo.js';
import { readOpeningRoster } from '../../src/parse/opening-roster.js';
import { MarkupPreview, parseBbcode } from '../../src/web/ui/markup-preview.js';
import { reviewQueue } from '../../src/game/review-queue.js';
import { safeColor, safeHref } from '../../src/web/ui/safe-url.js';
import { formatInZone, localToUtc, utcToLocalInput } from '../../src/web/ui/time-zone.js';
import { buildTimeline } from '../../src/web/ui/timeline.js';
import { wordDiff } from '../../src/game/word-diff.js';
import { sampleTally } from '../web/support.js';
import { GmChecksPanel } from '../../src/web/ui/gm-checks.js';
import { MAX_COUNT_LINES } from '../../src/parse/gm-count.js';

const render = async (source: string, dialect = 'bbcode-xenforo'): Promise<string> =>
  String(await MarkupPreview({ source, dialect }).toString());

const vote = (target: string): Body => [{ t: 'bold', children: [{ t: 'text', text: `Vote: ${target}` }] }];
function post(number: number, author: string, body: Body, extra: Partial<Post> = {}): Post {
  return {
    id: String(1000 + number),
    number,
    page: 1,
    author,
    authorId: null,
    postedAt: `2026-03-02T18:${String(number).padStart(2, '0')}:00.000Z`,
    permalink: `https://forum.example/posts/${1000 + number}`,
    edit: null,
    bodyHash: hashBody(body),
    body,
    ...extra,
  };
}

describe('forum-look preview (our own BBCode renderer)', () => {
  it('renders the tags a votal uses and escapes everything else', async () => {
    const html = await render(
      '[b]Vote count[/b]\n[list][*][b]Bob[/b] (2): [url=https://f.example/p/1]Alice[/url][/list][color=red]L-1[/color]',
    );
    expect(html).toContain('<strong>Vote count</strong><br/>');
    expect(html).toContain(
      '<li><strong>Bob</strong> (2): <a href="https://f.example/p/1" rel="nofollow noopener noreferrer" target="_blank">Alice</a></li>',
    );
    expect(html).toContain('<span class="bb-color" data-color="red">L-1</span>');
  });

  it('drops script URLs and odd colours, keeps typed HTML as text, honours [PLAIN]', async () => {
    const html = await render(
      '[url=javascript:alert(1)]x[/url][url]javascript:alert(2)[/url][color=red;background:url(x)]c[/color]<script>alert(3)</script>[PLAIN][b]not bold[/b][/PLAIN][img]https://x/y.png[/img]',
    );
    expect(html).not.toMatch(/<a /);
    expect(html).not.toContain('<script');
    expect(html).toContain('&lt;script&gt;alert(3)&lt;/script&gt;');
    expect(html).not.toContain('data-color');
    expect(html).toContain('[b]not bold[/b]');
    expect(html).not.toContain('<img');
    expect(html).toContain('[image: https://x/y.png]');
  });

  it('previews Markdown drafts (Discourse, NodeBB) without the publication marker', async () => {
    const html = await render(
      '**Vote count**\n- **Bob** (2): [Alice](https://f.example/p/1)\n- \\*not italic\\*\n<!-- votal:1.abcdef12 -->',
      'markdown',
    );
    expect(html).toContain('<strong>Vote count</strong>');
    expect(html).toContain('<li><strong>Bob</strong> (2): <a href="https://f.example/p/1"');
    expect(html).toContain('*not italic*');
    expect(html).not.toContain('votal:1');
  });

  it('closes unclosed tags and leaves stray closers as text', () => {
    expect(parseBbcode('[b]open')).toEqual([
      { t: 'tag', name: 'b', arg: null, children: [{ t: 'text', text: 'open' }] },
    ]);
    expect(parseBbcode('a[/b]')).toEqual([
      { t: 'text', text: 'a' },
      { t: 'text', text: '[/b]' },
    ]);
  });

  it('allows only http(s) links and plain colours', () => {
    expect(safeHref('https://a.example/x')).toBe('https://a.example/x');
    expect(safeHref('JavaScript:alert(1)')).toBeNull();
    expect(safeHref(' javascript:alert(1)')).toBeNull();
    expect(safeHref('data:text/html,x')).toBeNull();
    expect(safeHref('/relative')).toBeNull();
    expect(safeColor('#ff0000')).toBe('#ff0000');
    expect(safeColor('red;x:y')).toBeNull();
  });
});

describe('word diff of two revisions', () => {
  it('marks what was removed and added', () => {
    expect(wordDiff('I vote Bob today', 'I vote Carol today')).toEqual([
      { op: 'same', text: 'I vote ' },
      { op: 'del', text: 'Bob' },
      { op: 'ins', text: 'Carol' },
      { op: 'same', text: ' today' },
    ]);
    expect(wordDiff('', 'new')).toEqual([{ op: 'ins', text: 'new' }]);
  });
});

describe('deadline time zones', () => {
  it('turns a wall-clock time in a zone into UTC and back', () => {
    expect(localToUtc('2026-03-06T18:00', 'Europe/Berlin')).toBe('2026-03-06T17:00:00.000Z');
    expect(localToUtc('2026-07-01T18:00', 'Europe/Berlin')).toBe('2026-07-01T16:00:00.000Z');
    expect(localToUtc('2026-11-05T09:30', 'America/New_York')).toBe('2026-11-05T14:30:00.000Z');
    expect(utcToLocalInput('2026-07-01T16:00:00.000Z', 'Europe/Berlin')).toBe('2026-07-01T18:00');
    expect(localToUtc('2026-03-08T02:30', 'America/New_York')).not.toBeNull(); // in the DST gap: still an instant
    expect(localToUtc('2026-13-01T10:00', 'UTC')).toBeNull();
    expect(localToUtc('tomorrow', 'UTC')).toBeNull();
    expect(localToUtc('2026-03-06T18:00', 'Mars/Olympus')).toBeNull();
  });
});

describe("a time shown in the game's zone names the zone as the votal does", () => {
  it.each([
    ['Berlin in winter: CET', '2026-03-06T17:00:00Z', 'Europe/Berlin', 'Fri, 6 Mar 2026, 18:00 CET'],
    [
      "New York in winter: EST, not en-GB's GMT-5",
      '2026-03-06T18:00:00Z',
      'America/New_York',
      'Fri, 6 Mar 2026, 13:00 EST',
    ],
    ['New York in summer: EDT', '2026-07-06T17:00:00Z', 'America/New_York', 'Mon, 6 Jul 2026, 13:00 EDT'],
    ['London in summer: BST', '2026-07-06T17:00:00Z', 'Europe/London', 'Mon, 6 Jul 2026, 18:00 BST'],
    ['Tokyo has no short name: the offset', '2026-03-06T09:00:00Z', 'Asia/Tokyo', 'Fri, 6 Mar 2026, 18:00 GMT+9'],
  ])('%s', (_rule, iso, zone, shown) => {
    expect(formatInZone(iso, zone)).toBe(shown);
  });
});

describe('players proposed from the opening post', () => {
  it('reads a list after a heading, numbering and notes dropped', () => {
    const body: Body = [
      { t: 'text', text: 'Welcome to Mafia 42!' },
      { t: 'br' },
      { t: 'br' },
      { t: 'bold', children: [{ t: 'text', text: 'Players (5):' }] },
      { t: 'br' },
      { t: 'text', text: '1. Alice' },
      { t: 'br' },
      { t: 'text', text: '2. Bob - dead (killed N1)' },
      { t: 'br' },
      { t: 'text', text: '3. Carol' },
      { t: 'br' },
      { t: 'text', text: '- Dave' },
      { t: 'br' },
      { t: 'text', text: 'Mod' },
      { t: 'br' },
      { t: 'br' },
      { t: 'text', text: 'Rules follow. Be nice.' },
    ];
    expect(readOpeningRoster(body, { gm: 'Mod', posters: [] })?.names ?? []).toEqual(['Alice', 'Bob', 'Carol', 'Dave']);
  });

  it('reads "Players: A, B, C" on one line, and finds nothing in prose', () => {
    expect(
      readOpeningRoster([{ t: 'text', text: 'Players: Ann, Ben, Cy, Di' }], { gm: 'Mod', posters: [] })?.names ?? [],
    ).toEqual(['Ann', 'Ben', 'Cy', 'Di']);
    expect(
      readOpeningRoster([{ t: 'text', text: 'Day 1 begins. 7 alive, majority is 4.' }], { gm: 'Mod', posters: [] })
        ?.names ?? [],
    ).toEqual([]);
  });
});

describe('vote timeline', () => {
  it('gives each wagon its size after every post, and the vote changes', () => {
    const ruleset = loadRuleset('plurality');
    const roster = ['Alice', 'Bob', 'Carol'].map((name) => Slot.parse({ name }));
    const posts = [
      post(1, 'Alice', vote('Bob')),
      post(2, 'Carol', vote('Bob')),
      post(3, 'Bob', vote('Alice')),
      post(4, 'Carol', vote('Alice')),
    ];
    const t = buildTimeline({ ruleset, roster, events: postEvents(posts, roster, ruleset), posts: [1, 2, 3, 4] });
    expect(t.posts).toEqual([1, 2, 3, 4]);
    expect(t.series).toEqual([
      { target: 'Alice', values: [0, 0, 1, 2] },
      { target: 'Bob', values: [1, 2, 2, 1] },
    ]);
    expect(t.changes.map((c) => `${c.post} ${c.player} ${c.from ?? '-'}>${c.to ?? '-'}`)).toEqual([
      '1 Alice ->Bob',
      '2 Carol ->Bob',
      '3 Bob ->Alice',
      '4 Carol Bob>Alice',
    ]);
    expect(t.changes[0]!.permalink).toBe('https://forum.example/posts/1001');
  });
});

describe('review queue', () => {
  const game = {
    id: 1,
    roster: ['Alice', 'Bob', 'Dave', 'Davina'].map((name) => Slot.parse({ name })),
  } as unknown as Game;
  const ruleset = loadRuleset('plurality');
  const stored = (p: Post, extra: Partial<StoredPost> = {}): StoredPost => ({
    ...p,
    key: p.number,
    revisionId: p.number,
    deleted: false,
    deletedAt: null,
    firstSeen: p.postedAt!,
    lastSeen: p.postedAt!,
    revisions: 1,
    ...extra,
  });

  it('offers the candidates, a pick list and ignore for an ambiguous vote; a correction settles it', () => {
    const tally = sampleTally({
      players: ['Alice', 'Bob', 'Dave', 'Davina'],
      flags: [{ post: 2, player: 'Alice', kind: 'ambiguous-target', raw: 'Vote: Dav', candidates: ['Dave', 'Davina'] }],
    });
    const posts = [stored(post(2, 'Alice', vote('Dav')))];
    const open = reviewQueue({ game, ruleset, tally, posts, events: [], audit: [], previousBodies: new Map() });
    expect(open).toHaveLength(1);
    expect(open[0]).toMatchObject({
      kind: 'flag',
      post: 2,
      title: 'Ambiguous vote',
      candidates: ['Dave', 'Davina'],
      resolved: null,
    });
    expect(open[0]!.pick).toEqual(['Alice', 'Bob', 'Dave', 'Davina', 'No Lynch']);
    expect(open[0]!.choices).toEqual([{ label: 'Ignore this vote', action: 'correct', target: null }]);
    const events = [
      { id: 1, gameId: 1, event: { kind: 'correct', post: 2, target: 'Davina' }, createdAt: '', createdBy: 'gm' },
    ] as StoredGmEvent[];
    const settled = reviewQueue({ game, ruleset, tally, posts, events, audit: [], previousBodies: new Map() });
    expect(settled[0]!.resolved).toBe('Counted as a vote for Davina');
  });

  it('shows a vote counted on a loose reading once per voter and Day, with a one-click correction', () => {
    // Issue #24: "Vote: Carl" counted for Carol (fuzzy) was never shown to the GM.
    const roster = ['Alice', 'Bob', 'Carol', 'Eve'].map((name) => Slot.parse({ name }));
    const looseGame = { id: 2, roster } as unknown as Game;
    const thread = [post(2, 'Eve', vote('Carl')), post(3, 'Eve', vote('Bob')), post(4, 'Eve', vote('Carl'))];
    const tally = countVotes({ ruleset, roster, events: postEvents(thread, roster, ruleset) });
    const items = reviewQueue({
      game: looseGame,
      ruleset,
      tally,
      posts: thread.map((p) => stored(p)),
      events: [],
      audit: [],
      previousBodies: new Map(),
    });
    const loose = items.filter((i) => i.title.startsWith('Name read loosely'));
    expect(loose.map((i) => [i.post, i.title, i.detail])).toEqual([
      [4, 'Name read loosely (fuzzy)', 'Eve → Carol (written "Carl", fuzzy)'],
    ]);
    expect(loose[0]!.pick).toContain('Bob');
    expect(loose[0]!.choices).toEqual([
      { label: 'Right: Carol', action: 'accept', target: null },
      { label: 'Ignore this vote', action: 'correct', target: null },
    ]);
  });

  it('offers no "Accept" for a non-player\'s vote (it could not count): the GM dismisses it', () => {
    const tally = sampleTally({
      flags: [{ post: 5, player: 'Lurker', kind: 'vote-by-non-player', raw: 'Vote: Bob', candidates: [] }],
    });
    const items = reviewQueue({
      game,
      ruleset,
      tally,
      posts: [stored(post(5, 'Lurker', vote('Bob')))],
      events: [],
      audit: [],
      previousBodies: new Map(),
    });
    expect(items[0]!.choices).toEqual([{ label: 'Dismiss (it does not count)', action: 'dismiss', target: null }]);
  });

  it('shows a silent edit that changed a vote with a diff, and a deleted post', () => {
    const edited = stored(post(3, 'Bob', vote('Dave')), { revisions: 2 });
    const deleted = stored(post(4, 'Dave', vote('Bob')), { deleted: true, deletedAt: '2026-03-03T00:00:00.000Z' });
    const items = reviewQueue({
      game,
      ruleset,
      tally: sampleTally({ flags: [] }),
      posts: [edited, deleted],
      events: [],
      audit: [],
      previousBodies: new Map([[3, vote('Alice')]]),
    });
    const edit = items.find((i) => i.kind === 'edit')!;
    expect(edit.title).toBe('Silent edit of a vote');
    expect(edit.diff).toEqual([
      { op: 'same', text: 'Vote: ' },
      { op: 'del', text: 'Alice' },
      { op: 'ins', text: 'Dave' },
    ]);
    expect(edit.choices.map((c) => c.label)).toEqual(['Keep the original vote (Alice)', 'Accept the edit (Dave)']);
    const gone = items.find((i) => i.kind === 'deleted')!;
    expect(gone.choices.map((c) => [c.label, c.target])).toEqual([
      ['Keep counting it (Bob)', 'Bob'],
      ['Ignore its vote', null],
    ]);
  });
});

describe("the checks panel: a GM count cut at the reader's bound says so", () => {
  const checks = (linesNotRead: number) => ({
    counts: [
      {
        post: 10,
        permalink: null,
        author: 'Mod',
        comparedTo: 9,
        basis: 'before' as const,
        earlier: 0,
        linesNotRead,
        differences: [],
        lessons: [],
      },
    ],
    lessons: [],
    ownVotals: [],
  });
  const html = async (linesNotRead: number) =>
    String(await GmChecksPanel({ gameId: 1, checks: checks(linesNotRead), players: [], csrf: 'x' })?.toString());

  it('names the lines not read, and says nothing when the whole post was read', async () => {
    expect(await html(5)).toContain(
      `Only the first ${MAX_COUNT_LINES} lines of this post were read: 5 more lines were not, and a wagon written there is not compared.`,
    );
    expect(await html(5)).toContain('1 of your count compared with Votal&#39;s; 0 agree.');
    expect(await html(0)).not.toContain('lines of this post were read');
  });
});
