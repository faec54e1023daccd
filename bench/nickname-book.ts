/**
 * The forum's nickname book in the real-games bench (`--learn`): a name a GM accepted in one
 * game ("Chilly" for Tchill13) is known, as a nickname from that game, in the later games
 * (game id order, the order they were played) whose roster has the same forum name, as the
 * app's book does for games on one site (src/game/nickname-book.ts).
 *
 * Soundness, as bench/count-lessons.ts scores its lessons: each vote read by a nickname from
 * an earlier game is "confirmed" when every later count of its Day that holds it standing
 * places the voter where Votal does, "denied" when one does not.
 */
import type { PostEvent } from '../src/model/event.js';
import type { CountCheck } from '../src/model/gm-count.js';
import type { Roster } from '../src/model/roster.js';
import { nameKey } from '../src/parse/name-form.js';
import { type BookEntry, knownNicknames } from '../src/game/nickname-book.js';
import type { Ruleset } from '../src/rules/ruleset.js';
import { countVotesWithCuts } from '../src/tally/count.js';
import type { TallyEvent } from '../src/tally/log.js';

interface ReadVote {
  game: string;
  post: number;
  written: string;
  target: string;
  from: string;
  confirmed: number;
  denied: number;
}

export class NicknameBook {
  private readonly entries: (BookEntry & { game: string })[] = [];
  private readonly votes = new Map<string, ReadVote>();

  /** The GM of `game` accepted `nickname` for the player `forumName`. */
  learn(forumName: string, nickname: string, game: string): void {
    const key = nameKey(nickname);
    if (this.entries.some((e) => e.forumName === forumName && nameKey(e.nickname) === key)) return;
    this.entries.push({ forumName, nickname, game, fromTitle: `mafiascum ${game}` });
  }

  /** The roster with the nicknames of games other than `game` (all earlier: games run in id order). */
  roster(roster: Roster, game: string): Roster {
    return knownNicknames(
      roster,
      this.entries.filter((e) => e.game !== game),
    );
  }

  /** One of the GM's counts against the fold it was scored from: each standing vote read by a nickname. */
  bear(game: string, count: CountCheck, fold: { log: readonly TallyEvent[]; roster: Roster; ruleset: Ruleset }): void {
    const { log, roster, ruleset } = fold;
    const posts = new Map(log.filter((e): e is PostEvent => e.kind === 'post').map((p) => [p.post, p]));
    for (const p of posts.values()) {
      const vote = p.reading.actions.filter((a) => a.kind === 'vote').at(-1);
      if (vote?.match !== 'nickname' || vote.target === null) continue;
      const key = `${game}:${p.post}`;
      if (!this.votes.has(key))
        this.votes.set(key, {
          game,
          post: p.post,
          written: vote.written ?? '',
          target: vote.target,
          from: vote.from ?? '',
          confirmed: 0,
          denied: 0,
        });
    }
    const tally = countVotesWithCuts({ ruleset, roster, events: log, engine: 'phpbb' }, [count.comparedTo]).cuts[0]!;
    for (const w of tally.wagons)
      for (const v of w.voters) {
        if (v.match !== 'nickname') continue;
        const read = this.votes.get(`${game}:${v.post}`);
        if (!read) continue;
        const differs = count.differences.some(
          (d) => (d.kind === 'voter' || d.kind === 'twice') && d.player === v.player,
        );
        if (differs) read.denied++;
        else read.confirmed++;
      }
  }

  /** The book's figures for the summary. */
  figures() {
    const all = [...this.votes.values()];
    return {
      nicknames: this.entries.length,
      votes: all.length,
      games: new Set(all.map((v) => v.game)).size,
      confirmed: all.filter((v) => v.confirmed > 0 && v.denied === 0).length,
      denied: all.filter((v) => v.denied > 0).length,
      confirmingCounts: all.reduce((n, v) => n + v.confirmed, 0),
      denyingCounts: all.reduce((n, v) => n + v.denied, 0),
      lines: all.map(
        (v) =>
          `game ${v.game} #${v.post}: "${v.written}" → ${v.target} (nickname from game '${v.from}'; ${v.confirmed} confirm, ${v.denied} deny)`,
      ),
    };
  }
}
