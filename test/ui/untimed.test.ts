import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../src/store/open-store.js';
import { createApp, type VotalApp } from '../../src/web/app.js';
import { recordingPoller, sampleTally, testEnv } from '../web/support.js';
import { tempDir } from './browser-support.js';
import { FORM, form, O, signIn } from './sign-in.js';

/**
 * Issue 23 item 2: a vote whose time could not be read, where clock rules apply, is shown
 * to the GM on the game page and beside the draft; the live page and the votal post do not carry it.
 */
describe('posts whose time could not be read, on the GM pages', () => {
  let store: Store;
  let app: VotalApp;
  let gameId = 0;
  let slug = '';
  const data = tempDir('votal-ui-untimed-');
  const reason =
    'clock rules (deadline, Hammer check, votes after the end) cannot apply to post #2: its time could not be read';

  beforeAll(async () => {
    store = await openStore({ dataDir: 'memory://' });
    app = createApp({
      store,
      poller: recordingPoller(),
      env: testEnv({ dataDir: data.path }),
      rateLimit: false,
      pollWaitMs: 0,
    });
    const game = await store.games.create(
      {
        threadUrl: 'http://127.0.0.1:9/threads/game.1/',
        engine: 'xenforo2',
        ruleset: 'plurality',
        roster: [{ name: 'Alice' }, { name: '<b>Bob</b>' }, { name: 'Carol' }],
      },
      'gm',
    );
    gameId = game.id;
    slug = game.slug;
    await store.tallies.save(
      game.id,
      sampleTally({
        untimed: [{ post: 2, player: '<b>Bob</b>', permalink: 'https://forum.example/posts/1002' }],
      }),
    );
  });

  afterAll(async () => {
    await app.shutdown();
    await store.close();
    data.remove();
  });

  it('the game page names the post, its author (escaped) and why the clock cannot judge it', async () => {
    const { cookie } = await signIn(app);
    const html = await (await app.request(`${O}/gm/games/${gameId}`, { headers: { cookie } })).text();
    expect(html).toContain('data-untimed-post="2"');
    expect(html).toContain('Times not read (1):');
    expect(html).toContain(`&lt;b&gt;Bob&lt;/b&gt;: ${reason}`);
    expect(html).toContain('href="https://forum.example/posts/1002"');
    expect(html).not.toContain('<b>Bob</b>');
  });

  it('a count with nothing untimed shows no notice', async () => {
    const other = await store.games.create(
      { threadUrl: 'http://127.0.0.1:9/threads/game.2/', engine: 'xenforo2', ruleset: 'plurality', roster: [] },
      'gm',
    );
    await store.tallies.save(other.id, sampleTally());
    const { cookie } = await signIn(app);
    const html = await (await app.request(`${O}/gm/games/${other.id}`, { headers: { cookie } })).text();
    expect(html).not.toContain('data-untimed');
  });

  it('the draft page warns the GM; the votal text and the live page do not carry it', async () => {
    const { cookie, csrf } = await signIn(app);
    const made = await app.request(`${O}/gm/games/${gameId}/drafts`, {
      method: 'POST',
      body: form({ _csrf: csrf }),
      headers: { cookie, origin: O, 'content-type': FORM },
    });
    expect(made.status).toBe(303);
    const draftUrl = made.headers.get('location')!;
    expect(draftUrl).toMatch(/^\/gm\/drafts\/\d+$/);
    const page = await (await app.request(`${O}${draftUrl}`, { headers: { cookie } })).text();
    expect(page).toContain('data-untimed-post="2"');
    expect(page).toContain(reason);
    const [draft] = await store.drafts.list(gameId);
    expect(draft?.body).not.toContain('time could not be read');
    const live = await (await app.request(`${O}/g/${slug}`)).text();
    expect(live).not.toContain('time could not be read');
  });
});
