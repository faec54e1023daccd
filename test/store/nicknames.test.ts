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

  it('the sites with a book are listed; one page is found by its keys', () =>
    withStore(async (store, id) => {
      await store.nicknames.learn(entry(id, 'PeregrineKnight', 'PK'), 'gm:ann', at);
      await store.nicknames.learn(entry(id, 'Sonja', 'Sonny', 'other.example'), 'gm:ann', at);
      expect(await store.nicknames.sites()).toEqual(['forum.mafiascum.net', 'other.example']);
      expect(await store.nicknames.entry('forum.mafiascum.net', 'peregrineknight', 'pk')).toMatchObject({
        forumName: 'PeregrineKnight',
        nickname: 'PK',
        fromGame: id,
      });
      expect(await store.nicknames.entry('other.example', 'peregrineknight', 'pk')).toBeNull();
    }));

  it("the book's refresh of a roster never overwrites one a GM changed meanwhile", () =>
    withStore(async (store, id) => {
      const read = (await store.games.get(id))!;
      const withPk = read.roster.map((s, i) => (i === 0 ? { ...s, nicknames: [{ name: 'PK', from: 'Mini 12' }] } : s));
      const audit = {
        actor: 'poller',
        action: 'game.nicknames' as const,
        detail: { added: ['"PK" → PeregrineKnight'] },
      };
      // The GM's change comes first: the refresh made from the roster read is not written.
      await store.games.setRoster(
        id,
        [...read.roster, { name: 'Tom', aliases: [], formerNames: [], alive: true }],
        'gm:ann',
      );
      expect(await store.games.setRosterIf(id, read.roster, withPk, audit)).toBeNull();
      expect((await store.games.get(id))!.roster.map((s) => s.name)).toEqual(['PeregrineKnight', 'Sonja', 'Tom']);
      // Over the roster as it stands, it is written and audited.
      const now = (await store.games.get(id))!;
      const next = now.roster.map((s, i) => (i === 0 ? { ...s, nicknames: [{ name: 'PK', from: 'Mini 12' }] } : s));
      expect((await store.games.setRosterIf(id, now.roster, next, audit))!.roster[0]!.nicknames).toEqual([
        { name: 'PK', from: 'Mini 12' },
      ]);
      expect((await store.audit.list({ gameId: id, action: 'game.nicknames', limit: 5 })).map((a) => a.detail)).toEqual(
        [{ added: ['"PK" → PeregrineKnight'] }],
      );
    }));
}

describe('the nickname book in the store (PGlite)', () => rules('pglite'));
await describePg('the nickname book in the store (PostgreSQL)', () => rules('pg'));
