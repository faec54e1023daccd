import { z } from 'zod';
import { EngineId } from './engine.js';
import { CountLesson, CountProposals } from './gm-count.js';

/**
 * What the poller keeps between the polls of one game (`game_poll.state`, jsonb), in one
 * schema: the store parses it where a poll state is read, so every stage reads typed facts,
 * and checks a write before it is merged in. Every key is optional by nature: a game never
 * polled has none, and a row written by an older Votal lacks the newer ones. A value that
 * does not fit is an error naming the game and the key (`PollStateError`), never a default.
 * Keys not named here are kept as they are (looseObject): a newer Votal's key survives an
 * older one's write.
 */

const Instant = z.iso.datetime({ offset: true });

/**
 * The last count a poll made: what it was counted from, when, and the clock instants it saw
 * coming. A poll that finds nothing new keeps it (the cheap poll, src/game/README.md).
 */
export const LastCount = z.object({
  /** `countBasis` of the count: the ruleset, roster, settings, engine, GM events and Votal's version, hashed. */
  basis: z.string().min(1),
  /** The count's clock. */
  at: Instant,
  tallyId: z.number().int().positive(),
  deadline: Instant.nullable(),
  /** Checks and deadlines still to come after `at`. */
  upcoming: z.array(Instant),
  /**
   * What the GM's own counts teach at this count: every count's lessons in thread order,
   * none dismissed yet (the GM's queue settles them with the dismissals). Absent in a
   * state an older Votal wrote: the queue then works them out itself.
   */
  lessons: z.array(CountLesson).optional(),
  /** The threshold and deaths the GM's counts propose at this count, none answered yet; absent as `lessons` is. */
  proposals: CountProposals.optional(),
});
export type LastCount = z.infer<typeof LastCount>;

const facts = {
  /** The Day's deadline now, extensions included, as the last count derived it. */
  deadline: Instant.nullable().optional(),
  /** The clock instants (checks, deadlines) the last count saw coming. */
  upcoming: z.array(Instant).optional(),
  lastCount: LastCount.optional(),
  /** Pages were recorded that call for a count, and it has not been made yet (set with those pages). */
  recountDue: z.boolean().optional(),
  /** The last poll failed because the forum asked for a login (only a person can fix it). */
  loginRequired: z.boolean().optional(),
  /**
   * The last poll failed because the engine's adapter found no posts where its layout should
   * be: the engine named, whose reading the GM may trade for the generic reader's (issue #26).
   * Null after a poll that did not fail so.
   */
  genericOffer: EngineId.nullable().optional(),
  /**
   * The GM's latest switch of the game's reader (issue #26): the reader before it (an engine,
   * null where it was never identified, or `generic` after the way back) and when. Posts
   * stored before then were read by that other reader; a reading now keeps their ids and
   * bodies where it reads the same post (src/game/reader-switch.ts).
   */
  switchedFrom: z.object({ engine: EngineId.nullable(), at: Instant }).nullable().optional(),
  /** The draft step's counters (src/game/draft-step.ts `DraftCounters`). */
  votesSinceDraft: z.number().int().min(0).optional(),
  lastDraftAt: Instant.nullable().optional(),
  draftCheckedTallyId: z.number().int().positive().nullable().optional(),
  /** When the poll that started last was due, and when it started (`PollsRepo.started`). */
  pollDueAt: Instant.nullable().optional(),
  pollStartedAt: Instant.optional(),
};

export const PollFacts = z.looseObject(facts);
export type PollFacts = z.infer<typeof PollFacts>;

/** Facts a writer merges into the stored ones: only the keys named here, each as its schema says. */
export const PollFactsPatch = z.strictObject(facts);
export type PollFactsPatch = z.infer<typeof PollFactsPatch>;

/** Why stored or given poll facts do not fit, one `key: problem` per issue (empty when they fit). */
export function pollFactsProblems(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.join('.') || '(state)'}: ${i.message}`).join('; ');
}
