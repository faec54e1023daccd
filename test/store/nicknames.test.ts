import { describe, expect, it } from 'vitest';
import { pairKey } from '../../src/game/nickname-book.js';
import { nameKey } from '../../src/parse/name-form.js';
import type { NewNickname } from '../../src/store/nicknames-repo.js';
import type { Store } from '../../src/store/open-store.js';
import { describePg, openTestStore } from '../web/support.js';

/**
 * A forum's nickname book in the store (migration 014): nicknames by site and forum name with
 * the game they came from, and the ones a GM dropped for one game, the same rules on PGlite
 * and PostgreSQL.
 */

const at = new Date('2026-03-03T12:00:00Z');
const entry = (gameId: number, forumName: string, nickname: string, site = 'forum.mafiascum.net'): NewNickname => ({
  site,
  forumName,
  forumKey: nameKey(forumName),
  nickname,
  nicknameKey: nameKey(nickname),
  fromGame: gameId,
  fromTitle: 'Mini 12',
});

function rules(driver: 'pglite' | 'pg'): void {
  const withStore = async (body: (store: Store, gameId: number) => Promise<void>) => {
    const { store, close } = await openTestStore(driver);
    try {
      const game = await store.games.create(
        {
          threadUrl: 'https://forum.mafiascum.net/viewtopic.php?t=12',
          engine: 'phpbb',
          ruleset: 'plurality',
          roster: [{ name: 'PeregrineKnight' }, { name: 'Sonja' }],
        },
        'test',
      );
      await body(store, game.id);
    } finally {
      await close();
    }
  };

  it('a nickname is kept by site and forum name with the game it came from, once', () =>
    withStore(async (store, id) => {
      expect(await store.nicknames.learn(entry(id, 'PeregrineKnight', 'PK'), 'gm:ann', at)).toBe(true);
      // The same name written otherwise is the same page of the book.
      expect(await store.nicknames.learn(entry(id, 'peregrine knight', 'pk'), 'gm:bob', at)).toBe(false);
      expect(await store.nicknames.forForumNames('FORUM.mafiascum.net', [nameKey('PeregrineKnight')])).toEqual([
        {
          site: 'forum.mafiascum.net',
          forumName: 'PeregrineKnight',
          nickname: 'PK',
          fromGame: id,
          fromTitle: 'Mini 12',
          learnedBy: 'gm:ann',
          learnedAt: at.toISOString(),
        },
      ]);
    }));

  it('another site and another forum name do not see it', () =>
    withStore(async (store, id) => {
      await store.nicknames.learn(entry(id, 'PeregrineKnight', 'PK'), 'gm:ann', at);
      expect(await store.nicknames.forForumNames('other.example', [nameKey('PeregrineKnight')])).toEqual([]);
      expect(await store.nicknames.forForumNames('forum.mafiascum.net', [nameKey('Sonja')])).toEqual([]);
      expect(await store.nicknames.forForumNames('forum.mafiascum.net', [])).toEqual([]);
    }));

  it('a nickname dropped for a game is listed for that game only, once', () =>
    withStore(async (store, id) => {
      const d = { forumName: 'PeregrineKnight', nickname: 'PK', forumKey: 'peregrineknight', nicknameKey: 'pk' };
      expect(await store.nicknames.drop(id, d, 'gm:ann', at)).toBe(true);
      expect(await store.nicknames.drop(id, d, 'gm:ann', at)).toBe(false);
      expect(await store.nicknames.dropped(id)).toEqual([{ forumName: 'PeregrineKnight', nickname: 'PK' }]);
      expect(await store.nicknames.dropped(id + 1)).toEqual([]);
      expect(pairKey(d.forumName, d.nickname)).toBe(pairKey('peregrine knight', 'pk'));
    }));

  it('forgetting takes it out of the book; deleting its game keeps it, without the game', () =>
    withStore(async (store, id) => {
      await store.nicknames.learn(entry(id, 'PeregrineKnight', 'PK'), 'gm:ann', at);
      await store.nicknames.learn(entry(id, 'Sonja', 'Sonny'), 'gm:ann', at);
      expect(await store.nicknames.forget('forum.mafiascum.net', 'sonja', 'sonny')).toBe(true);
      expect(await store.nicknames.forget('forum.mafiascum.net', 'sonja', 'sonny')).toBe(false);
      await store.games.remove(id, 'test');
      expect(await store.nicknames.ofSite('forum.mafiascum.net')).toMatchObject([
        { forumName: 'PeregrineKnight', nickname: 'PK', fromGame: null, fromTitle: 'Mini 12' },
      ]);
    }));
}

describe('the nickname book in the store (PGlite)', () => rules('pglite'));
await describePg('the nickname book in the store (PostgreSQL)', () => rules('pg'));
