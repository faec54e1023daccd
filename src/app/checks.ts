import { z } from 'zod';
import { foldGame } from '../game/fold-game.js';
import { gameRuleset } from '../game/game-ruleset.js';
import { LESSON_ACCEPT, LESSON_DISMISS, settleLessons } from '../game/count-lessons.js';
import { checkPosts } from '../game/gm-check-posts.js';
import { DEATH_DISMISS, DEATH_RECORD } from '../game/death-check.js';
import { CHECK_MARK, dismissedLessons, gmChecks, settleProposals } from '../game/gm-checks.js';
import { THRESHOLD_DISMISS } from '../game/threshold-check.js';
import { postHistories } from '../game/post-histories.js';
import { foldWithOwnDeaths } from '../game/reading-events.js';
import { GmEvent, positionedNow } from '../model/event.js';
import type { Game } from '../model/game.js';
import {
  CheckAnswer,
  type CheckDifference,
  type CountLesson,
  type CountProposals,
  type DeathProposal,
  type GmChecks,
  type ThresholdProposal,
} from '../model/gm-count.js';
import type { Roster } from '../model/roster.js';
import { nameKey } from '../parse/name-form.js';
import { storeOn } from '../store/open-store.js';
import { recountAfter, type CommandDeps, type Recount } from './deps.js';
import { Invalid, NotFound, parseInput } from './errors.js';
import { recountRecorded, type EventRecorded } from './events.js';
import { gameOr404 } from './games.js';
import { learnNickname } from './nicknames.js';

/**
 * The GM's own vote counts checked against Votal's, for the GM only: worked out afresh
 * from the stored posts (the one count, `foldGame`, over every post Votal has read) each
 * time. The GM marks a difference "my slip", "Votal's error" or "dismiss"; each mark is
 * audited and nothing else changes: nothing is posted and the count stays as it is (a
 * "Votal's error" points the GM at the correction of the deciding post, which the GM
 * makes, or not, on the review path).
 */
export async function gameChecks(
  deps: CommandDeps,
  gameId: number,
  now: Date = new Date(),
): Promise<{ game: Game; checks: GmChecks }> {
  const { store } = deps;
  const game = await gameOr404(deps, gameId);
  const ruleset = gameRuleset(game);
  const answers = (action: (typeof ANSWERS)[number]) => store.audit.list({ gameId: game.id, action, limit: 100_000 });
  const [heads, events, latest, ...marked] = await Promise.all([
    store.posts.headsOf(game.id),
    store.events.list(game.id),
    store.tallies.latest(game.id),
    ...ANSWERS.map(answers),
  ]);
  const marks = marked.flat();
  const gmEvents = events.map((e) => e.event);
  const { posts, pastedVotals } = await checkPosts(store, game, heads);
  // The count is folded only when the GM's posts hold a count to compare with it.
  const first = gmChecks({ game, ruleset, posts, log: [], gmEvents, pastedVotals, audit: marks });
  if (first.counts.length === 0) return { game, checks: first };
  const { folded, readingEvents } = await foldWithOwnDeaths(
    gmEvents,
    async (events) => (await postHistories(store, game, ruleset, events, heads, { save: false })).histories,
    (histories) =>
      foldGame({
        ruleset,
        roster: game.roster,
        engine: game.engine ?? null,
        posts: histories,
        gmEvents,
        day: game.settings.day,
        now: now.toISOString(),
      }),
    { maxRounds: game.roster.length + 2, from: latest?.tally.ownDeaths },
  );
  const { log } = folded;
  const checks = gmChecks({ game, ruleset, posts, log, gmEvents, readingEvents, pastedVotals, audit: marks });
  return { game, checks };
}

/** The GM's answers the checks read back: marks, lessons dismissed, proposals answered. */
const ANSWERS = [CHECK_MARK, LESSON_DISMISS, THRESHOLD_DISMISS, DEATH_RECORD, DEATH_DISMISS] as const;

/**
 * What the GM's counts offer (the queue's, and what an answer may name): the lessons, the
 * threshold and the deaths the poll made with the game's last count (`LastCount.lessons`,
 * `LastCount.proposals`), less those answered. Only where no poll kept them (a state an
 * older Votal wrote) are they worked out here.
 */
export async function offeredByCounts(
  deps: CommandDeps,
  gameId: number,
  now: Date = new Date(),
): Promise<{ game: Game; lessons: CountLesson[]; proposals: CountProposals }> {
  const game = await gameOr404(deps, gameId);
  const [poll, ...answered] = await Promise.all([
    deps.store.polls.get(game.id),
    ...OFFER_ANSWERS.map((action) => deps.store.audit.list({ gameId: game.id, action, limit: 100_000 })),
  ]);
  const last = poll.state.lastCount;
  if (last?.lessons === undefined || last.proposals === undefined) {
    const { checks } = await gameChecks(deps, game.id, now);
    const proposals = { threshold: checks.thresholdProposal ?? null, deaths: checks.deathProposals ?? [] };
    return { game, lessons: checks.lessons, proposals };
  }
  const audit = answered.flat();
  return {
    game,
    lessons: settleLessons([last.lessons], dismissedLessons(audit)),
    proposals: settleProposals(last.proposals, game.rulesetOverrides, audit),
  };
}

/** The answers that settle what the counts offer: lessons dismissed, proposals answered. */
const OFFER_ANSWERS = [LESSON_DISMISS, THRESHOLD_DISMISS, DEATH_RECORD, DEATH_DISMISS] as const;

/** The lessons offered to the GM (`offeredByCounts`). */
export async function offeredLessons(
  deps: CommandDeps,
  gameId: number,
  now: Date = new Date(),
): Promise<{ game: Game; lessons: CountLesson[] }> {
  const { game, lessons } = await offeredByCounts(deps, gameId, now);
  return { game, lessons };
}

export const CheckMark = z.strictObject({
  key: z.string().regex(/^[0-9a-f]{16}$/, 'not a difference key (16 hex digits)'),
  answer: CheckAnswer,
});
export type CheckMark = z.infer<typeof CheckMark>;

export interface CheckMarked {
  difference: CheckDifference & { countPost: number };
  /** For "Votal's error": the post whose reading the GM may correct on the review path. */
  correct: { post: number; permalink: string | null } | null;
}

/** The GM's mark on one difference, audited (`check.mark`). */
export async function markCheck(
  deps: CommandDeps,
  actor: string,
  gameId: number,
  given: unknown,
  now: Date = new Date(),
): Promise<CheckMarked> {
  const input = parseInput(CheckMark, given);
  const { game, checks } = await gameChecks(deps, gameId, now);
  const found = checks.counts.flatMap((c) =>
    c.differences.filter((d) => d.key === input.key).map((d) => ({ ...d, countPost: c.post })),
  )[0];
  if (!found) throw new NotFound('count difference', input.key);
  await deps.store.audit.record({
    gameId: game.id,
    actor,
    action: CHECK_MARK,
    detail: { key: input.key, answer: input.answer, post: found.countPost, kind: found.kind, text: found.text },
  });
  const deciding = found.posts[0] ?? null;
  return {
    difference: { ...found, answer: input.answer },
    correct: input.answer === 'votal-error' && deciding ? deciding : null,
  };
}

export const LessonAnswer = z.strictObject({
  key: z.string().regex(/^[0-9a-f]{16}$/, 'not a lesson key (16 hex digits)'),
  answer: z.enum(['accept', 'dismiss']),
});
export type LessonAnswer = z.infer<typeof LessonAnswer>;

export type LessonAnswered =
  | { answer: 'dismiss'; lesson: CountLesson }
  | { answer: 'accept'; lesson: CountLesson; learned: string | null; recorded: EventRecorded };

/**
 * The GM's answer to what their own count taught (`GmChecks.lessons`): accepted, the post's
 * vote is corrected to the wagon (a `correct` event, recounted like any) and the written name,
 * when the lesson offers it, becomes an alias of the wagon's slot (every later reading knows
 * it); an author lesson's poster replaces the slot from their first post (a `replace` event,
 * as the GM records a replacement: their votes, and votes for either name, count for the
 * slot). Dismissed, it is not offered again. Both audited. Accepting is one store transaction
 * (the alias, the event, the audit entry), then the recount.
 */
export async function answerLesson(
  deps: CommandDeps,
  actor: string,
  gameId: number,
  given: unknown,
  now: Date = new Date(),
): Promise<LessonAnswered> {
  const input = parseInput(LessonAnswer, given);
  const { game, lessons } = await offeredLessons(deps, gameId, now);
  const lesson = lessons.find((l) => l.key === input.key);
  if (!lesson) throw new NotFound('count lesson', input.key);
  const detail =
    lesson.kind === 'author'
      ? { key: lesson.key, kind: lesson.kind, countPost: lesson.countPost, poster: lesson.poster, slot: lesson.slot }
      : {
          key: lesson.key,
          countPost: lesson.countPost,
          post: lesson.post,
          wagon: lesson.wagon,
          written: lesson.written,
        };
  if (input.answer === 'dismiss') {
    await deps.store.audit.record({ gameId: game.id, actor, action: LESSON_DISMISS, detail });
    return { answer: 'dismiss', lesson };
  }
  // One transaction: the name, the event and the audit stand together or not at all
  // (a failed step never leaves the alias learned without the vote it was learned from).
  // The recount comes after, and reads every post with the name.
  const roster =
    lesson.kind === 'name' && lesson.alias !== null && lesson.wagon !== null
      ? withAlias(game.roster, lesson.wagon, lesson.alias)
      : null;
  const learned = lesson.kind === 'author' ? lesson.poster : roster ? lesson.alias : null;
  const event = positionedNow(parseInput(GmEvent, lessonEvent(lesson)), deps.clock.now());
  const stored = await deps.store.sql.transaction(async (tx) => {
    const on = storeOn(tx);
    if (roster) await on.games.setRoster(game.id, roster, actor);
    // The name is the player's on this forum: later games on the site know it (the nickname
    // book). A renamed account's poster is a forum name, not a nickname: it is not kept.
    if (roster && lesson.kind === 'name' && lesson.alias !== null && lesson.wagon !== null)
      await learnNickname(on, game, lesson.wagon, lesson.alias, actor, deps.clock.now());
    const appended = await on.events.append(game.id, event, actor);
    await on.audit.record({ gameId: game.id, actor, action: LESSON_ACCEPT, detail: { ...detail, alias: learned } });
    return appended;
  });
  const recorded = await recountRecorded(deps, roster ? { ...game, roster } : game, stored);
  return { answer: 'accept', lesson, learned, recorded };
}

/**
 * The GM event an accepted lesson records: the post's correction, or the poster's replacement
 * of the slot placed just before their first post (the slot never posted before it).
 */
function lessonEvent(lesson: CountLesson): unknown {
  if (lesson.kind === 'name') return { kind: 'correct', post: lesson.post, target: lesson.wagon };
  return { kind: 'replace', player: lesson.slot, by: lesson.poster, at: Math.max(0, lesson.firstPost - 1) };
}

/** The roster with `alias` added to the slot named `wagon`; null when no slot takes it (another's name already). */
function withAlias(roster: Roster, wagon: string, alias: string): Roster | null {
  const key = nameKey(alias);
  const slot = roster.findIndex((s) => s.name === wagon || s.formerNames.includes(wagon));
  if (slot < 0) return null;
  const taken = roster.some((s) => [s.name, ...s.aliases, ...s.formerNames].some((n) => nameKey(n) === key));
  if (taken) return null;
  return roster.map((s, i) => (i === slot ? { ...s, aliases: [...s.aliases, alias] } : s));
}

export const ThresholdAnswer = z.strictObject({
  key: z.string().regex(/^[0-9a-f]{16}$/, 'not a proposal key (16 hex digits)'),
  answer: z.enum(['accept', 'dismiss']),
});
export type ThresholdAnswer = z.infer<typeof ThresholdAnswer>;

export type ThresholdAnswered =
  | { answer: 'dismiss'; proposal: ThresholdProposal }
  | { answer: 'accept'; proposal: ThresholdProposal; game: Game; recount: Recount };

/**
 * The GM's answer to the threshold their own counts state (`GmChecks.thresholdProposal`):
 * accepted, its overrides are laid over the game's ruleset overrides (audited as
 * `game.overrides`) and the game is recounted under them; the ruleset then gives the stated
 * numbers, so nothing is proposed again. Dismissed (audited), it is not offered again.
 */
export async function answerThreshold(
  deps: CommandDeps,
  actor: string,
  gameId: number,
  given: unknown,
  now: Date = new Date(),
): Promise<ThresholdAnswered> {
  const input = parseInput(ThresholdAnswer, given);
  const { game, checks } = await gameChecks(deps, gameId, now);
  const proposal = checks.thresholdProposal;
  if (!proposal || proposal.key !== input.key) throw new NotFound('threshold proposal', input.key);
  const detail = { key: proposal.key, overrides: proposal.overrides, posts: proposal.posts };
  if (input.answer === 'dismiss') {
    await deps.store.audit.record({ gameId: game.id, actor, action: THRESHOLD_DISMISS, detail });
    return { answer: 'dismiss', proposal };
  }
  const overrides = { ...game.rulesetOverrides, ...proposal.overrides };
  try {
    gameRuleset({ ruleset: game.ruleset, rulesetOverrides: overrides });
  } catch (error) {
    throw Invalid.field('overrides', (error as Error).message);
  }
  const changed = await deps.store.games.setRulesetOverrides(game.id, overrides, actor, {
    key: proposal.key,
    because: 'stated-threshold',
    posts: proposal.posts,
  });
  return { answer: 'accept', proposal, game: changed, recount: await recountAfter(deps, changed, 'threshold') };
}

export const DeathAnswer = z.strictObject({
  key: z.string().regex(/^[0-9a-f]{16}$/, 'not a proposal key (16 hex digits)'),
  answer: z.enum(['record', 'dismiss']),
});
export type DeathAnswer = z.infer<typeof DeathAnswer>;

export type DeathAnswered =
  | { answer: 'dismiss'; proposal: DeathProposal }
  | { answer: 'record'; proposal: DeathProposal; recorded: EventRecorded };

/**
 * The GM's answer to a death their count's alive count implies (`GmChecks.deathProposals`):
 * recorded, it is a `kill` of the one player after the post the count was compared at (the
 * GM event and the audit entry in one transaction, then the recount); a note of several
 * candidates names no one to record and is only dismissed. Both audited.
 */
export async function answerDeath(
  deps: CommandDeps,
  actor: string,
  gameId: number,
  given: unknown,
  now: Date = new Date(),
): Promise<DeathAnswered> {
  const input = parseInput(DeathAnswer, given);
  const { game, checks } = await gameChecks(deps, gameId, now);
  const proposal = (checks.deathProposals ?? []).find((p) => p.key === input.key);
  if (!proposal) throw new NotFound('death proposal', input.key);
  const detail = { key: proposal.key, countPost: proposal.countPost, player: proposal.player, at: proposal.at };
  if (input.answer === 'dismiss') {
    await deps.store.audit.record({ gameId: game.id, actor, action: DEATH_DISMISS, detail });
    return { answer: 'dismiss', proposal };
  }
  if (proposal.player === null)
    throw Invalid.field('answer', `the count leaves off ${proposal.candidates.join(', ')}: record the death yourself`);
  const event = positionedNow(
    parseInput(GmEvent, { kind: 'kill', player: proposal.player, at: proposal.at }),
    deps.clock.now(),
  );
  const stored = await deps.store.sql.transaction(async (tx) => {
    const on = storeOn(tx);
    const appended = await on.events.append(game.id, event, actor);
    await on.audit.record({ gameId: game.id, actor, action: DEATH_RECORD, detail });
    return appended;
  });
  return { answer: 'record', proposal, recorded: await recountRecorded(deps, game, stored) };
}
