import { describe, expect, it } from 'vitest';
import type { GenericFinding } from '../../src/model/generic-check.js';
import { NotFoundError, StateError } from '../../src/store/errors.js';
import type { Store } from '../../src/store/open-store.js';
import { describePg, openTestStore } from '../web/support.js';

/**
 * The generic reader's findings in the store (migration 013): a game's check of page 1 and
 * the host profile a confirmed check teaches, the same rules on PGlite and PostgreSQL.
 */

const finding = (posts: number): GenericFinding => ({
  pageUrl: 'https://lantern.example/t/12-mafia',
  page: 1,
  posts,
  authors: 4,
  score: 0.9,
  message: `Votal found ${posts} posts by 4 authors on page 1: check three of them`,
  samples: [
    { number: 1, author: 'Host', postedAt: null, permalink: 'https://lantern.example/t/12-mafia#r1', start: 'Day 1' },
  ],
  notes: [],
  profile: {
    hosts: ['lantern.example'],
    engine: 'generic',
    selectors: { post: 'div.reply', author: 'a.who', body: 'div.text' },
  },
  yaml: 'engine: generic\n',
});

function rules(driver: 'pglite' | 'pg'): void {
  const withStore = async (body: (store: Store, gameId: number) => Promise<void>) => {
    const { store, close } = await openTestStore(driver);
    try {
      const game = await store.games.create(
        {
          threadUrl: 'https://lantern.example/t/12-mafia',
          engine: 'generic',
          ruleset: 'plurality',
          roster: [{ name: 'Ann' }],
        },
        'test',
      );
      await body(store, game.id);
    } finally {
      await close();
    }
  };

  it('a game waiting for its check is left out of the games kept polled, and back once confirmed', () =>
    withStore(async (store, id) => {
      const polled = async () => (await store.games.list({ status: 'active', polled: true })).map((g) => g.id);
      expect(await polled()).toEqual([id]);
      await store.siteProfiles.saveCheck(id, 'Lantern.Example', finding(10), new Date('2026-03-03T12:00:00Z'));
      expect(await polled()).toEqual([]);
      expect((await store.games.list({ status: 'active' })).map((g) => g.id)).toEqual([id]);
      await store.siteProfiles.confirm(id, 'gm:ann', new Date('2026-03-03T12:05:00Z'));
      expect(await polled()).toEqual([id]);
    }));

  it("confirming keeps the check's profile as the host's, once", () =>
    withStore(async (store, id) => {
      await store.siteProfiles.saveCheck(id, 'lantern.example', finding(10), new Date('2026-03-03T12:00:00Z'));
      const { check, learned } = await store.siteProfiles.confirm(id, 'gm:ann', new Date('2026-03-03T12:05:00Z'));
      expect(check).toMatchObject({ confirmedBy: 'gm:ann', confirmedAt: '2026-03-03T12:05:00.000Z' });
      expect(learned).toEqual({
        host: 'lantern.example',
        profile: finding(10).profile,
        foundOn: 'https://lantern.example/t/12-mafia',
        confirmedBy: 'gm:ann',
        confirmedAt: '2026-03-03T12:05:00.000Z',
      });
      expect(await store.siteProfiles.learned('LANTERN.example')).toEqual(learned);
      await expect(store.siteProfiles.confirm(id, 'gm:bob', new Date())).rejects.toThrow(StateError);
      await expect(store.siteProfiles.confirm(id + 1, 'gm:bob', new Date())).rejects.toThrow(NotFoundError);
    }));

  it('a new reading replaces the old one and must be confirmed again; forgetting leaves nothing', () =>
    withStore(async (store, id) => {
      await store.siteProfiles.saveCheck(id, 'lantern.example', finding(10), new Date('2026-03-03T12:00:00Z'));
      await store.siteProfiles.confirm(id, 'gm:ann', new Date('2026-03-03T12:05:00Z'));
      const again = await store.siteProfiles.saveCheck(
        id,
        'lantern.example',
        finding(8),
        new Date('2026-03-04T09:00:00Z'),
      );
      expect(again).toMatchObject({ confirmedBy: null, confirmedAt: null, readAt: '2026-03-04T09:00:00.000Z' });
      expect(again.finding.posts).toBe(8);
      expect((await store.siteProfiles.forget('lantern.example'))?.confirmedBy).toBe('gm:ann');
      expect(await store.siteProfiles.learned('lantern.example')).toBeNull();
      await store.siteProfiles.forgetCheck(id);
      expect(await store.siteProfiles.check(id)).toBeNull();
    }));

  it('deleting a game deletes its check', () =>
    withStore(async (store, id) => {
      await store.siteProfiles.saveCheck(id, 'lantern.example', finding(10), new Date('2026-03-03T12:00:00Z'));
      await store.games.remove(id, 'test');
      expect(await store.siteProfiles.check(id)).toBeNull();
    }));
}

describe('the generic reader in the store (PGlite)', () => rules('pglite'));
await describePg('the generic reader in the store (PostgreSQL)', () => rules('pg'));
