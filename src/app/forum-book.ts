import { z } from 'zod';
import { siteOf, withBookNow } from '../game/book-roster.js';
import { pairKey, pairsRead } from '../game/nickname-book.js';
import type { Game } from '../model/game.js';
import type { NicknameEntry } from '../model/nickname.js';
import { nameKey } from '../parse/name-form.js';
import { recordAudit } from '../store/audit-repo.js';
import { storeOn } from '../store/open-store.js';
import { kickPoll, type CommandDeps } from './deps.js';
import { Forbidden, NotFound, parseInput } from './errors.js';
import { bookTitle } from './nicknames.js';

/**
 * A forum's whole nickname book (issue #24), for the instance admin and the GMs: every nickname
 * of each site with the game it came from and the games that read it now, and "forget", which
 * takes it out of the book for every game of the forum (audited; the running and paused games
 * that read it have it taken off their roster and are counted again; a finished game keeps the
 * count it ended with). A game's GM who only wants it gone from
 * their own game drops it there (nicknames.ts `dropNickname`).
 *
 * Who asks decides what is shown (`BookReader`, from src/web/gm-access.ts): a GM sees the books
 * of the sites they run a game on, and of other GMs' games nothing but that a nickname came
 * from "another game" (a GM never learns which games exist beyond their own). A GM forgets a
 * nickname learned in one of their games; the admin forgets any.
 */

/** Who reads the book: the admin (every game), or a GM and the games they own or co-host. */
export interface BookReader {
  all: boolean;
  games: ReadonlySet<number>;
}

/** A game as the book names it. */
export interface BookGame {
  id: number;
  title: string;
}

/** One nickname of a site's book, as its reader may see it. */
export interface BookPage {
  forumName: string;
  nickname: string;
  /** The game it was learned in: null when deleted since, or not the reader's to see. */
  fromGame: number | null;
  /** That game's title ("another game" when not the reader's). */
  fromTitle: string;
  learnedBy: string | null;
  learnedAt: string;
  /** The reader's games whose roster reads it now. */
  readIn: BookGame[];
  /** The reader may forget it (site-wide). */
  forgettable: boolean;
}

export interface SiteBook {
  site: string;
  nicknames: BookPage[];
}

const seen = (reader: BookReader, id: number | null): boolean => reader.all || (id !== null && reader.games.has(id));

/** Whether the reader may forget this nickname: the admin, or a GM of the game it came from. */
const mayForget = (reader: BookReader, e: Pick<NicknameEntry, 'fromGame'>): boolean =>
  reader.all || seen(reader, e.fromGame);

/** The games that read each page of the book now, by site and `pairKey` (one pass over the games' rosters). */
type Readers = Map<string, Map<string, Game[]>>;
function readersOf(games: readonly Game[]): Readers {
  const out: Readers = new Map();
  for (const game of games) {
    const site = siteOf(game.threadUrl);
    if (site === '') continue;
    const pairs = out.get(site) ?? new Map<string, Game[]>();
    for (const key of pairsRead(game.roster)) {
      const list = pairs.get(key) ?? [];
      list.push(game);
      pairs.set(key, list);
    }
    out.set(site, pairs);
  }
  return out;
}

function pageOf(reader: BookReader, e: NicknameEntry, readers: ReadonlyMap<string, Game[]> | undefined): BookPage {
  const mine = seen(reader, e.fromGame);
  return {
    forumName: e.forumName,
    nickname: e.nickname,
    fromGame: mine ? e.fromGame : null,
    fromTitle: mine || e.fromGame === null ? e.fromTitle : 'another game',
    learnedBy: mine ? e.learnedBy : null,
    learnedAt: e.learnedAt,
    readIn: (readers?.get(pairKey(e.forumName, e.nickname)) ?? [])
      .filter((g) => seen(reader, g.id))
      .map((g) => ({ id: g.id, title: bookTitle(g) })),
    forgettable: mayForget(reader, e),
  };
}

/**
 * The books the reader sees, by site (one site with `site`): the admin every site with a book
 * or a game; a GM the sites of their games. Each nickname with its game and the games reading it.
 */
export async function forumBooks(deps: CommandDeps, reader: BookReader, site?: string): Promise<SiteBook[]> {
  const games = await deps.store.games.list();
  const readers = readersOf(games);
  const mine = games.filter((g) => seen(reader, g.id)).map((g) => siteOf(g.threadUrl));
  const sites = new Set([...mine, ...(reader.all ? await deps.store.nicknames.sites() : [])].filter((s) => s !== ''));
  const wanted = site === undefined ? [...sites].sort() : [...sites].filter((s) => s === site.toLowerCase());
  const books: SiteBook[] = [];
  for (const s of wanted) {
    const entries = await deps.store.nicknames.ofSite(s);
    books.push({ site: s, nicknames: entries.map((e) => pageOf(reader, e, readers.get(s))) });
  }
  return books;
}

export const NicknameForget = z.strictObject({
  site: z.string().min(1),
  forumName: z.string().min(1),
  nickname: z.string().min(1),
});

export interface Forgotten {
  forgotten: { site: string; forumName: string; nickname: string; fromTitle: string };
  /** The games that read it and no longer do: counted again (an active game now, any other from its next poll). */
  games: (BookGame & { status: Game['status'] })[];
}

/**
 * Forgets a nickname in the site's book: gone for every game of the forum. In one transaction,
 * the page of the book, the rosters of the games that read it (audited `game.nicknames`, by the
 * one who forgot it), and `nickname.forget`; then each active one is polled, which counts it again
 * (their votes written so go back to the GM's review). A nickname the reader may not forget is
 * refused (Forbidden): it is dropped for one's own game instead.
 */
export async function forgetNickname(
  deps: CommandDeps,
  actor: string,
  reader: BookReader,
  given: unknown,
): Promise<Forgotten> {
  const input = parseInput(NicknameForget, given);
  const site = input.site.toLowerCase();
  const [forumKey, nicknameKey] = [nameKey(input.forumName), nameKey(input.nickname)];
  const entry = await deps.store.nicknames.entry(site, forumKey, nicknameKey);
  const games = await deps.store.games.list();
  // A site the reader has no game on answers as if it had no such page.
  const visible = reader.all || games.some((g) => seen(reader, g.id) && siteOf(g.threadUrl) === site);
  if (!entry || !visible) throw new NotFound('nickname', `"${input.nickname}" of ${input.forumName} on ${site}`);
  if (!mayForget(reader, entry))
    throw new Forbidden(
      `"${entry.nickname}" was learned in another GM's game: only they or the instance admin forget it; drop it for your game instead`,
    );
  // A finished or archived game keeps the count it ended with (its votal may be posted): only
  // the games still running, or paused, lose the nickname.
  const reading = (readersOf(games).get(site)?.get(pairKey(entry.forumName, entry.nickname)) ?? []).filter(
    (g) => g.status === 'active' || g.status === 'paused',
  );
  const changed = await deps.store.sql.transaction(async (tx) => {
    const on = storeOn(tx);
    await on.nicknames.forget(site, forumKey, nicknameKey);
    const saved: Game[] = [];
    for (const game of reading) saved.push(await withBookNow(on, game, actor));
    await recordAudit(tx, {
      gameId: null,
      actor,
      action: 'nickname.forget',
      detail: {
        site,
        forumName: entry.forumName,
        nickname: entry.nickname,
        fromGame: entry.fromGame,
        fromTitle: entry.fromTitle,
        games: saved.map((g) => g.id),
      },
    });
    return saved;
  });
  for (const game of changed) if (game.status === 'active') kickPoll(deps, game.id);
  return {
    forgotten: {
      site,
      forumName: entry.forumName,
      nickname: entry.nickname,
      fromTitle: pageOf(reader, entry, undefined).fromTitle,
    },
    games: changed.filter((g) => seen(reader, g.id)).map((g) => ({ id: g.id, title: bookTitle(g), status: g.status })),
  };
}
