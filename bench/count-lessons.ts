/**
 * The real-games bench with the lessons of the moderators' own counts accepted (issue #24,
 * `npx tsx bench/real-games.ts --learn`), as a GM who accepts every one would, and honestly:
 * a lesson read from the count at post c (a correction of one post, maybe a name learned)
 * changes only what is scored after c: the counts after it, and the Day's outcome when c is
 * before the Day's end. A name learned carries into the game's later Days; a correction is
 * of its one post. An author lesson ("P plays S") is accepted as the product records it, a
 * `replace` of S by P before P's first post, carried into later Days, with P among S's
 * names in the Day's roster so the archive's slot is found by P's name.
 *
 * Soundness: a lesson is "agreed" when every later count that bears on it (a count whose
 * cut has a voter's standing vote in the corrected post, or a vote read through the learned
 * name) places that voter where Votal now does, "disagreed" when one does not, and
 * "unconfirmed" when no later count bears on it. Precision is agreed of agreed and disagreed.
 */
import { settleLessons } from '../src/game/count-lessons.js';
import type { PostEvent } from '../src/model/event.js';
import { GmEvent } from '../src/model/event.js';
import type { CountCheck, CountLesson } from '../src/model/gm-count.js';
import type { Roster } from '../src/model/roster.js';
import { nameKey } from '../src/parse/name-form.js';
import type { Ruleset } from '../src/rules/ruleset.js';
import { countVotesWithCuts } from '../src/tally/count.js';
import type { TallyEvent } from '../src/tally/log.js';
import type { NicknameBook } from './nickname-book.js';

/** What the GM has accepted so far: names per slot, posters per slot, and the Day's GM events (corrections, replacements). */
export interface Learned {
  aliases: ReadonlyMap<string, readonly string[]>;
  posters: ReadonlyMap<string, readonly string[]>;
  corrections: readonly GmEvent[];
  /** The roster with the forum's nicknames from earlier games (bench/nickname-book.ts). */
  nicknames?: (roster: Roster) => Roster;
}

/** The part of a counted Day the lessons need: its counts (with their causes) and its fold. */
export interface DayRun {
  counts: CountCheck[];
  causes: unknown[];
  fold?: { log: readonly TallyEvent[]; roster: Roster; ruleset: Ruleset };
}

interface Accepted {
  game: string;
  day: number;
  lesson: CountLesson;
  agreed: number;
  disagreed: number;
}

/** The slots with their learned names (the Day's roster as the GM has set it by now). */
export function withLearned(roster: Roster, learned: Learned): Roster {
  const named = roster.map((s) => ({
    ...s,
    aliases: [...s.aliases, ...(learned.aliases.get(s.name) ?? [])],
    // A poster learned as a slot stays its name after the slot's later replacements (a later Day's roster names it anew).
    formerNames: [...s.formerNames, ...[s.name, ...s.formerNames].flatMap((n) => learned.posters.get(n) ?? [])],
  }));
  return learned.nicknames ? learned.nicknames(named) : named;
}

/** The lessons of one game, Day by Day: names learned carry into later Days. */
export class GameLessons {
  private readonly aliases = new Map<string, string[]>();
  private readonly posters = new Map<string, string[]>();
  private readonly replacements: GmEvent[] = [];
  constructor(
    private readonly game: string,
    private readonly all: Accepted[],
    /** The forum's nickname book: names accepted here are known in later games. */
    private readonly book?: NicknameBook,
  ) {}

  /**
   * One Day counted with the lessons accepted as they come: each count is scored from the
   * run that holds every lesson of the counts before it; the outcome from the run that holds
   * those of the counts before `end`.
   */
  day<R extends DayRun>(day: number, end: number, run: (learned: Learned) => R): R {
    const corrections = new Map<number, string | null>();
    const book = this.book;
    const learned = (): Learned => ({
      aliases: new Map(this.aliases),
      posters: new Map(this.posters),
      corrections: [
        ...this.replacements,
        ...[...corrections].map(([post, target]) => GmEvent.parse({ kind: 'correct', post, target })),
      ],
      ...(book ? { nicknames: (roster: Roster) => book.roster(roster, this.game) } : {}),
    });
    let current = run(learned());
    let outcome = current;
    const scored: CountCheck[] = [];
    const causes: unknown[] = [];
    const accepted = new Set<string>();
    const mine: Accepted[] = [];
    const bearings = new Map<CountCheck, R>();
    let after = -1;
    for (;;) {
      const i = current.counts.findIndex((c) => c.post > after);
      if (i < 0) break;
      const count = current.counts[i]!;
      after = count.post;
      scored.push(count);
      causes.push(current.causes[i]);
      bearings.set(count, current);
      // What the GM is offered at this count: the counts so far, less what was accepted.
      const offered = settleLessons(
        current.counts.slice(0, i + 1).map((c) => c.lessons),
        accepted,
      ).filter((l) => !accepted.has(l.key));
      if (offered.length === 0) continue;
      for (const l of offered) {
        accepted.add(l.key);
        this.accept(l, corrections);
        mine.push({ game: this.game, day, lesson: l, agreed: 0, disagreed: 0 });
      }
      current = run(learned());
      if (count.post < end) outcome = current;
    }
    this.all.push(...mine);
    for (const [count, r] of bearings) {
      this.bear(count, r, corrections, day);
      if (r.fold) book?.bear(this.game, count, r.fold);
    }
    return { ...outcome, counts: scored, causes, fold: undefined };
  }

  /** What accepting a lesson records: a name lesson's correction (and name), an author lesson's replacement. */
  private accept(l: CountLesson, corrections: Map<number, string | null>): void {
    if (l.kind === 'author') {
      this.posters.set(l.slot, [...(this.posters.get(l.slot) ?? []), l.poster]);
      const at = Math.max(0, l.firstPost - 1);
      this.replacements.push(GmEvent.parse({ kind: 'replace', player: l.slot, by: l.poster, at }));
      return;
    }
    corrections.set(l.post, l.wagon);
    if (l.alias === null || l.wagon === null) return;
    this.aliases.set(l.wagon, [...(this.aliases.get(l.wagon) ?? []), l.alias]);
    this.book?.learn(l.wagon, l.alias, this.game);
  }

  /** A scored count against the lessons accepted before it: each voter whose standing vote one decides. */
  private bear(count: CountCheck, r: DayRun, corrections: ReadonlyMap<number, string | null>, day: number): void {
    const lessons = this.all.filter((a) => a.game === this.game && a.lesson.countPost < count.post);
    if (lessons.length === 0 || !r.fold) return;
    const { log, roster, ruleset } = r.fold;
    const tally = countVotesWithCuts({ ruleset, roster, events: log, engine: 'phpbb' }, [count.comparedTo]).cuts[0]!;
    const posts = new Map(log.filter((e): e is PostEvent => e.kind === 'post').map((p) => [p.post, p]));
    for (const w of tally.wagons)
      for (const v of w.voters) {
        const a = this.lessonOf(v.post, posts.get(v.post), corrections.has(v.post) ? day : null, lessons);
        if (!a) continue;
        const differs = count.differences.some(
          (d) => (d.kind === 'voter' || d.kind === 'twice') && d.player === v.player,
        );
        if (differs) a.disagreed++;
        else a.agreed++;
      }
  }

  /** The lesson a standing vote was read by: its post corrected this Day, its name learned, or its author's slot. */
  private lessonOf(
    post: number,
    event: PostEvent | undefined,
    correctedOn: number | null,
    lessons: readonly Accepted[],
  ): Accepted | undefined {
    if (correctedOn !== null) return lessons.find((a) => a.lesson.post === post && a.day === correctedOn);
    const author = event ? nameKey(event.author) : '';
    const byAuthor = lessons.find((a) => a.lesson.kind === 'author' && nameKey(a.lesson.poster) === author);
    if (byAuthor) return byAuthor;
    const vote = event?.reading.actions.filter((a) => a.kind === 'vote').at(-1);
    if (!vote || vote.match !== 'alias' || !vote.written) return undefined;
    const key = nameKey(vote.written);
    return lessons.find(
      (a) =>
        a.lesson.kind === 'name' &&
        a.lesson.alias !== null &&
        nameKey(a.lesson.alias) === key &&
        a.lesson.wagon === vote.target,
    );
  }
}

/** The lessons' figures for the summary. */
export function lessonFigures(all: readonly Accepted[]) {
  const agreed = all.filter((a) => a.agreed > 0 && a.disagreed === 0).length;
  const disagreed = all.filter((a) => a.disagreed > 0).length;
  return {
    proposals: all.length,
    withAlias: all.filter((a) => a.lesson.kind === 'name' && a.lesson.alias !== null).length,
    /** Author lessons: a poster who is no player accepted as a slot's replacement. */
    authors: all.filter((a) => a.lesson.kind === 'author').length,
    agreed,
    disagreed,
    unconfirmed: all.length - agreed - disagreed,
    precision: agreed + disagreed === 0 ? null : agreed / (agreed + disagreed),
    /** The later counts that bear on a lesson, by whether they agree (a count may bear on several). */
    agreeingCounts: all.reduce((n, a) => n + a.agreed, 0),
    disagreeingCounts: all.reduce((n, a) => n + a.disagreed, 0),
    lessons: all.map((a) => `game ${a.game} D${a.day}: ${a.lesson.text} (${a.agreed} agree, ${a.disagreed} disagree)`),
  };
}

export type { Accepted as AcceptedLesson };
