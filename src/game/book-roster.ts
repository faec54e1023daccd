import type { Game } from '../model/game.js';
import type { Roster } from '../model/roster.js';
import { nameKey } from '../parse/name-form.js';
import type { Repos } from '../store/open-store.js';
import { forumNamesOf, knownNicknames, sameNicknames } from './nickname-book.js';

/**
 * A game's roster with the site's nickname book as it is now (issue #24). The book grows while
 * games run (a GM accepts "PK" for PeregrineKnight in game A) and shrinks (a nickname forgotten
 * site-wide): every poll of a running game first brings its roster's known nicknames up to
 * the book (`withBookNow`), so game B's next poll reads "PK" as PeregrineKnight, and a
 * forgotten one is no longer read. The roster is saved with them, so the count's basis (the
 * roster is in it) asks for a recount, and the GM's page, the live page and the checks read the
 * roster the count was made with. Two indexed queries a poll; the book is applied in one pass
 * (src/game/nickname-book.ts).
 */

/** A game's site: the host of its thread, lower case. */
export function siteOf(threadUrl: string): string {
  return URL.canParse(threadUrl) ? new URL(threadUrl).hostname.toLowerCase() : '';
}

/**
 * The roster with the site's nicknames from other games for its forum names (none the GM
 * dropped for this game; none learned in this game itself: those are its own aliases).
 */
export async function rosterWithBook(
  on: Pick<Repos, 'nicknames'>,
  game: { id: number | null; threadUrl: string },
  roster: Roster,
): Promise<Roster> {
  const site = siteOf(game.threadUrl);
  if (site === '') return roster;
  const entries = await on.nicknames.forForumNames(site, forumNamesOf(roster).map(nameKey));
  // A forum without a book for these players (the common poll) costs one query.
  const dropped = entries.length === 0 || game.id === null ? [] : await on.nicknames.dropped(game.id);
  return knownNicknames(
    roster,
    entries.filter((e) => e.fromGame === null || e.fromGame !== game.id),
    dropped,
  );
}

/** The known nicknames one roster has and the other lacks, as `"nickname" → player`. */
function nicknamesLacking(roster: Roster, other: Roster): string[] {
  return roster.flatMap((s, i) => {
    const there = new Set((other[i]?.nicknames ?? []).map((n) => nameKey(n.name)));
    return (s.nicknames ?? []).filter((n) => !there.has(nameKey(n.name))).map((n) => `"${n.name}" → ${s.name}`);
  });
}

/**
 * The game with its roster's known nicknames as the book has them now: unchanged when they
 * are; else saved (audited `game.nicknames` by `actor`, with what came and went). Written only
 * over the roster read: when a GM changed it meanwhile, the game as it is now is returned (a
 * GM's roster change reads the book itself).
 */
export async function withBookNow(on: Pick<Repos, 'nicknames' | 'games'>, game: Game, actor: string): Promise<Game> {
  const roster = await rosterWithBook(on, game, game.roster);
  if (sameNicknames(roster, game.roster)) return game;
  const detail = { added: nicknamesLacking(roster, game.roster), removed: nicknamesLacking(game.roster, roster) };
  const saved = await on.games.setRosterIf(game.id, game.roster, roster, { actor, action: 'game.nicknames', detail });
  return saved ?? (await on.games.get(game.id)) ?? game;
}
