import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFakeForum, type FakeForum, type FakeRequest } from '../../src/fake-forum/server.js';
import type { Tally } from '../../src/model/tally.js';
import { decisionsBetween, newFlags, watchGames, type GameWatch } from '../../src/notify/watch.js';
import { chatText, createNotifier, sendWebhook, type WebhookMessage } from '../../src/notify/webhook.js';
import type { Store } from '../../src/store/open-store.js';
import { eventually, openTestStore, sampleTally } from '../web/support.js';

let hook: FakeForum;
const received: { body: WebhookMessage; req: FakeRequest }[] = [];
const sleeps: number[] = [];
const sleep = async (ms: number) => {
  sleeps.push(ms);
};

beforeAll(async () => {
  hook = await startFakeForum();
});
afterAll(async () => {
  await hook.close();
});
afterEach(() => {
  received.length = 0;
  sleeps.length = 0;
});

function route(path: string, steps: { status: number; headers?: Record<string, string> }[]): string {
  hook.route(
    path,
    steps.map((s) => (req: FakeRequest) => {
      received.push({ body: JSON.parse(req.body) as WebhookMessage, req });
      return { status: s.status, body: '', ...(s.headers ? { headers: s.headers } : {}) };
    }),
    { method: 'POST', etag: false },
  );
  return hook.url(path);
}

describe('sendWebhook', () => {
  it('POSTs Discord-compatible JSON and pings nobody', async () => {
    const url = route('/ok', [{ status: 204 }]);
    const result = await sendWebhook(
      url,
      { content: 'hello @everyone', embeds: [{ title: 't', description: 'd' }] },
      { allowPrivateHosts: true, sleep },
    );
    expect(result).toEqual({ ok: true, attempts: 1, status: 204 });
    expect(received[0]!.body).toEqual({
      content: 'hello @everyone',
      embeds: [{ title: 't', description: 'd' }],
      allowed_mentions: { parse: [] },
    });
    expect(received[0]!.req.headers['content-type']).toBe('application/json');
  });

  it('retries server errors with backoff', async () => {
    const url = route('/flaky', [{ status: 500 }, { status: 502 }, { status: 200 }]);
    const result = await sendWebhook(url, { content: 'x' }, { allowPrivateHosts: true, sleep, backoffMs: 100 });
    expect(result).toMatchObject({ ok: true, attempts: 3 });
    expect(sleeps).toEqual([100, 200]);
  });

  it('waits out a 429 Retry-After', async () => {
    const url = route('/slow', [{ status: 429, headers: { 'retry-after': '3' } }, { status: 204 }]);
    const result = await sendWebhook(url, { content: 'x' }, { allowPrivateHosts: true, sleep, backoffMs: 100 });
    expect(result.ok).toBe(true);
    expect(sleeps).toEqual([3_000]);
  });

  it('does not retry a refusal (4xx), and never throws', async () => {
    const url = route('/gone', [{ status: 404 }]);
    const result = await sendWebhook(url, { content: 'x' }, { allowPrivateHosts: true, sleep });
    expect(result).toMatchObject({ ok: false, attempts: 1 });
    expect(!result.ok && result.error).toMatch(/HTTP 404/);
  });

  it('gives up after its attempts when nobody answers', async () => {
    const result = await sendWebhook(
      'http://127.0.0.1:1/hook',
      { content: 'x' },
      { allowPrivateHosts: true, sleep, attempts: 3 },
    );
    expect(result).toMatchObject({ ok: false, attempts: 3 });
    expect(sleeps).toHaveLength(2);
  });

  it('refuses private hosts unless allowed', async () => {
    const result = await sendWebhook('http://127.0.0.1:9/hook', { content: 'x' }, { allowPrivateHosts: false, sleep });
    expect(result).toMatchObject({ ok: false, attempts: 1 });
    expect(!result.ok && result.error).toMatch(/not a public address/);
  });

  it('keeps the webhook token out of its error messages', async () => {
    const secret = 'AbCdEfGhIjKlMnOpQrStUvWxYz0123456789';
    const result = await sendWebhook(
      `http://127.0.0.1:1/api/webhooks/123/${secret}`,
      { content: 'x' },
      { allowPrivateHosts: true, sleep, attempts: 1 },
    );
    expect(!result.ok && result.error).not.toContain(secret);
  });
});

describe('what is worth telling the GM', () => {
  const open = sampleTally();
  const majority: Tally = {
    ...open,
    outcome: { status: 'majority', eliminated: ['Alice'], decidedAt: 9, leaders: ['Alice'] },
  };

  it('a majority once, a Hammer once, new flags only', () => {
    expect(decisionsBetween(open, majority)).toEqual(['majority reached on Alice']);
    expect(decisionsBetween(majority, majority)).toEqual([]);
    const hammer: Tally = { ...open, sideVotes: [{ kind: 'hammer', target: null, total: 3, needs: 3, voters: [] }] };
    expect(decisionsBetween(open, hammer)).toEqual(['Hammer reached (3 of 3 needed)']);
    expect(decisionsBetween(hammer, hammer)).toEqual([]);
    const flag = {
      post: 4,
      player: 'Bob',
      kind: 'ambiguous-target' as const,
      raw: 'vote: al',
      candidates: ['Alice', 'Alan'],
    };
    expect(newFlags(open, { ...open, flags: [flag] })).toEqual([flag]);
    expect(newFlags({ ...open, flags: [flag] }, { ...open, flags: [flag] })).toEqual([]);
  });
});

describe('notifications from store changes', () => {
  let store: Store;
  let close: () => Promise<void>;
  let watch: GameWatch;

  beforeAll(async () => {
    ({ store, close } = await openTestStore('pglite'));
  });
  afterAll(async () => {
    await watch?.stop();
    await close();
  });

  it('a pending draft, a majority and flags reach the webhook; failures are audited, not thrown', async () => {
    const url = route('/gm-hook', [{ status: 204 }]);
    const game = await store.games.create(
      {
        slug: 'hooked',
        threadUrl: 'https://forum.example/threads/h.1/',
        ruleset: 'plurality',
        roster: [{ name: 'Alice' }, { name: 'Bob' }],
        settings: { webhookUrl: url },
      },
      'test',
    );
    const quiet = await store.games.create(
      { threadUrl: 'https://forum.example/threads/q.2/', ruleset: 'plurality', roster: [{ name: 'A' }] },
      'test',
    );
    const notifier = createNotifier({
      audit: store.audit,
      allowPrivateHosts: true,
      sleep,
      publicBaseUrl: 'http://votal.local',
    });
    watch = await watchGames({ sql: store.sql, store, notifier });

    const first = await store.tallies.save(game.id, sampleTally());
    const draft = await store.drafts.create(
      { gameId: game.id, tallyId: first.id, dialect: 'bbcode-xenforo', body: '[b]Vote count[/b]' },
      'poller',
    );
    await eventually(() => received.length >= 1, undefined, 'draft notification');
    expect(received[0]!.body.content).toMatch(
      new RegExp(`hooked \\(Day 1 as of post 3\\) waits for your approval \\(draft ${draft.id}\\)`),
    );
    expect(received[0]!.body.embeds![0]).toMatchObject({
      description: '[b]Vote count[/b]',
      url: 'http://votal.local/g/hooked',
    });

    await store.tallies.save(
      game.id,
      sampleTally({
        outcome: { status: 'majority', eliminated: ['Alice'], decidedAt: 7, leaders: ['Alice'] },
        flags: [{ post: 6, player: 'Bob', kind: 'unknown-target', raw: 'vote: zed', candidates: [] }],
      }),
    );
    await eventually(() => received.length >= 3, undefined, 'decision and flag notifications');
    expect(received.map((r) => r.body.content)).toEqual([
      expect.stringContaining('waits for your approval'),
      'Votal: majority reached on Alice in hooked (Day 1).',
      'Votal: 1 vote needs the GM in hooked (Day 1).',
    ]);
    expect(received[2]!.body.embeds![0]!.description).toBe('#6 Bob: unknown-target "vote: zed"');

    // Issue #17: a player's raw vote text is shown as text in Discord, never as a masked link or formatting.
    await store.tallies.save(
      game.id,
      sampleTally({
        outcome: { status: 'majority', eliminated: ['Alice'], decidedAt: 7, leaders: ['Alice'] },
        flags: [
          { post: 6, player: 'Bob', kind: 'unknown-target', raw: 'vote: zed', candidates: [] },
          {
            post: 8,
            player: '*Bob*',
            kind: 'unknown-target',
            raw: 'vote: [prize](https://evil.example/x) **now** <https://evil.example>',
            candidates: ['__A__'],
          },
        ],
      }),
    );
    await eventually(() => received.length >= 4, undefined, 'the second flag notification');
    expect(received[3]!.body.embeds![0]!.description).toBe(
      // Cut at 80 characters, after the links are defanged (issue #22, 5).
      '#8 \\*Bob\\*: unknown-target "vote: [prize]\\(https[:]//evil[.]example/x\\) \\*\\*now\\*\\* \\<https[:]//evil[.]exam…" (could be \\_\\_A\\_\\_)',
    );

    // A game without a webhook: nothing is sent.
    const q = await store.tallies.save(quiet.id, sampleTally());
    await store.drafts.create({ gameId: quiet.id, tallyId: q.id, dialect: 'bbcode-xenforo', body: 'x' }, 'poller');
    await watch.idle();

    // The webhook breaks: the failure is audited, the watcher goes on.
    route('/gm-hook', [{ status: 500 }]);
    const second = await store.drafts.create(
      { gameId: game.id, tallyId: first.id, dialect: 'bbcode-xenforo', body: 'again' },
      'poller',
    );
    await eventually(
      async () => (await store.audit.list({ gameId: game.id })).some((a) => a.action === 'webhook.fail'),
      10_000,
      'failure audit',
    );
    const audit = await store.audit.list({ gameId: game.id });
    expect(audit.filter((a) => a.action === 'webhook.send')).toHaveLength(4);
    expect(audit.find((a) => a.action === 'webhook.fail')!.detail).toMatchObject({
      kind: 'draft-pending',
      attempts: 4,
    });
    expect(second.id).toBeGreaterThan(draft.id);
    expect(received.length).toBe(4 + 4);
  });
});

describe('chatText (Markdown made literal for Discord-compatible webhooks)', () => {
  it.each([
    ['a masked link', '[x](https://evil.example)', '[x]\\(https[:]//evil[.]example\\)'],
    [
      'bold, underline, strike, spoiler, code',
      '**a** __b__ ~~c~~ ||d|| `e`',
      '\\*\\*a\\*\\* \\_\\_b\\_\\_ \\~\\~c\\~\\~ \\|\\|d\\|\\| \\`e\\`',
    ],
    ['an autolink', '<https://evil.example>', '\\<https[:]//evil[.]example\\>'],
    [
      'a heading, a quote and a list at a line start',
      '# big\n> quoted\n- item\n-# small',
      '\\# big\n\\> quoted\n\\- item\n\\-# small',
    ],
    ['a backslash', 'a\\*b', 'a\\\\\\*b'],
    ['BBCode stays as it is', '[b]Vote count[/b]', '[b]Vote count[/b]'],
    // Issue #22, 4-5 (the second attack): what a flag embed quoted raw.
    ['a right-to-left override in a name', 'Bob\u202Eecila', 'Bobecila'],
    [
      'every bidi and invisible control',
      'a\u202Ab\u202Bc\u202Cd\u202De\u202Ef\u2066g\u2067h\u2068i\u2069j\u200Ek\u200Fl\u061Cm',
      'abcdefghijklm',
    ],
    [
      'a bare URL inside BBCode',
      'Vote: [url=http://evil.example]x[/url]',
      'Vote: [url=http[:]//evil[.]example]x[/url]',
    ],
    ['a bare domain', 'vote evil.com now', 'vote evil[.]com now'],
    ['a bare www domain', 'see www.evil.co.uk', 'see www[.]evil[.]co[.]uk'],
    ['a number and a sentence end stay readable', 'Day 2. Vote 3.5 now.', 'Day 2. Vote 3[.]5 now.'],
  ])('%s', (_, text, shown) => {
    expect(chatText(text)).toBe(shown);
  });

  it('a cut never leaves a backslash without what it escapes', () => {
    expect(chatText('ab*cd', 4)).toBe('ab…');
    expect(chatText('\\'.repeat(10_000), 5)).toBe('\\\\\\\\…');
  });
});
