import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Tally } from '../../src/model/tally.js';
import type { Store } from '../../src/store/open-store.js';
import { createApp, type VotalApp } from '../../src/web/app.js';
import { ADMIN_TOKEN, openTestStore, recordingPoller, sampleTally, testEnv } from './support.js';

/**
 * Drafts stay true (issue #14, 2 and 6), through the API: approving a draft older than the
 * current count asks first (409 saying what changed; `confirm` or `force` approves anyway),
 * a superseded draft is not approved, and a body that differs only in line ends is no edit.
 */

let store: Store;
let close: () => Promise<void>;
let app: VotalApp;
const auth = { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' };

beforeAll(async () => {
  ({ store, close } = await openTestStore('pglite'));
  app = createApp({ store, poller: recordingPoller(), env: testEnv() });
});
afterAll(async () => {
  await app?.shutdown();
  await close?.();
});

/** The fields of an answer that these cases read. */
type Answer = { error: string; stale: { changes: unknown }; draft: { id: number } };

const post = async (path: string, body: unknown = {}) => {
  const res = await app.request(path, { method: 'POST', headers: auth, body: JSON.stringify(body) });
  return { status: res.status, json: (await res.json()) as Answer };
};

let n = 0;
async function game(): Promise<number> {
  n++;
  const g = await store.games.create(
    {
      threadUrl: `https://forum.example/threads/mafia.${n}/`,
      engine: 'xenforo2',
      ruleset: 'plurality',
      roster: ['Alice', 'Bob', 'Carol', 'Dave', 'Eve', 'Frank', 'Grace'].map((name) => ({ name })),
    },
    'test',
  );
  return g.id;
}

const voters = (names: string[], from: number) =>
  names.map((player, i) => ({ player, post: from + i, weight: 1, permalink: null }));

/** The count of the issue: made at post 22 ("7 alive", "Not voting: Dave")... */
const atPost22: Partial<Tally> = {
  postsRead: 22,
  asOfPost: 22,
  living: 7,
  players: ['Alice', 'Bob', 'Carol', 'Dave', 'Eve', 'Frank', 'Grace'],
  threshold: { kind: 'majority', votes: 4 },
  wagons: [
    { target: 'Alice', votes: 3, penalty: 0, total: 3, voters: voters(['Bob', 'Carol', 'Eve'], 10), toThreshold: 1 },
  ],
  notVoting: ['Dave'],
  outcome: { status: 'open', eliminated: [], decidedAt: null, leaders: ['Alice'] },
};
/** ...and at post 32, with a majority. */
const atPost32: Partial<Tally> = {
  ...atPost22,
  postsRead: 32,
  asOfPost: 32,
  wagons: [
    {
      target: 'Alice',
      votes: 4,
      penalty: 0,
      total: 4,
      voters: voters(['Bob', 'Carol', 'Eve', 'Dave'], 10),
      toThreshold: 0,
    },
  ],
  notVoting: [],
  outcome: { status: 'majority', eliminated: ['Alice'], decidedAt: 31, leaders: ['Alice'] },
};

async function draftOf(gameId: number, tally: Partial<Tally>, body = 'Vote count'): Promise<number> {
  const saved = await store.tallies.save(gameId, sampleTally(tally));
  return (await store.drafts.create({ gameId, tallyId: saved.id, dialect: 'bbcode-xenforo', body }, 'poller')).id;
}

describe('approving a draft older than the current count', () => {
  it('is refused with 409 saying what changed since: posts read, wagons, not voting, outcome', async () => {
    const gameId = await game();
    const old = await draftOf(gameId, atPost22);
    await store.tallies.save(gameId, sampleTally(atPost32)); // the poller counted on; no draft was due

    const refused = await post(`/api/drafts/${old}/approve`);
    expect(refused.status).toBe(409);
    expect(refused.json.error).toMatch(
      new RegExp(
        `^draft ${old} was made from an older count \\(as of post 22\\); the count now stands as of post 32\\.`,
      ),
    );
    expect(refused.json.error).toContain('Alice: 3 votes → 4 votes.');
    expect(refused.json.error).toContain('Not voting: Dave → nobody.');
    expect(refused.json.error).toContain('Outcome: The Day goes on. → Majority reached on Alice at post 31.');
    expect(refused.json.error).toContain('"confirm": true');
    expect(refused.json.stale.changes).toMatchObject({
      postsRead: { from: 22, to: 32 },
      wagons: [{ target: 'Alice', from: 3, to: 4 }],
      notVoting: { from: ['Dave'], to: [] },
      outcome: { from: 'The Day goes on.', to: 'Majority reached on Alice at post 31.' },
      living: null,
    });
    expect((await store.drafts.get(old))?.status).toBe('pending');
    // The dashboard reads the same warning from the draft itself.
    const shown = await app.request(`/api/drafts/${old}`, { headers: auth });
    expect(((await shown.json()) as { stale: { changes: { summary: string[] } } }).stale.changes.summary).toContain(
      'Alice: 3 votes → 4 votes.',
    );
  });

  it.each([['confirm'], ['force']])('is approved with "%s": true', async (flag) => {
    const gameId = await game();
    const old = await draftOf(gameId, atPost22);
    await store.tallies.save(gameId, sampleTally(atPost32));
    const approved = await post(`/api/drafts/${old}/approve`, { [flag]: true });
    expect(approved.status).toBe(200);
    expect(approved.json).toMatchObject({ status: 'copy', draft: { id: old, status: 'approved' } });
  });

  it('a draft of the current count is approved without asking', async () => {
    const gameId = await game();
    const current = await draftOf(gameId, atPost32);
    const approved = await post(`/api/drafts/${current}/approve`);
    expect(approved.status).toBe(200);
    expect(approved.json.draft).toMatchObject({ id: current, status: 'approved' });
  });

  it('a superseded draft is not approved: the answer names the draft that replaced it', async () => {
    const gameId = await game();
    const old = await draftOf(gameId, atPost22);
    const newer = await draftOf(gameId, atPost32);
    const refused = await post(`/api/drafts/${old}/approve`, { confirm: true });
    expect(refused.status).toBe(409);
    expect(refused.json.error).toBe(`draft ${old} was superseded by draft ${newer} (a newer count); approve that one`);
  });
});

describe('line ends (issue #14, 6)', () => {
  it('a body that differs only in CRLF line ends approves the draft itself, not a new one', async () => {
    const gameId = await game();
    const d = await draftOf(gameId, atPost32, '[b]Vote count[/b]\nAlice (4): Bob\n');
    const approved = await post(`/api/drafts/${d}/approve`, { body: '[b]Vote count[/b]\r\nAlice (4): Bob\r\n' });
    expect(approved.status).toBe(200);
    expect(approved.json.draft).toMatchObject({ id: d, status: 'approved' });
    expect(await store.drafts.list(gameId)).toHaveLength(1);
  });

  it('a real edit is a new draft, stored with \\n line ends', async () => {
    const gameId = await game();
    const d = await draftOf(gameId, atPost32, 'one\ntwo');
    const approved = await post(`/api/drafts/${d}/approve`, { body: 'one\r\ntwo\r\nthree' });
    expect(approved.json.draft).toMatchObject({ status: 'approved', body: 'one\ntwo\nthree' });
    expect(approved.json.draft.id).not.toBe(d);
    expect(await store.drafts.get(d)).toMatchObject({ status: 'discarded', supersededBy: approved.json.draft.id });
  });
});
