import { describe, expect, it } from 'vitest';
import {
  massDeletion,
  planPoll,
  pollErrorOf,
  STARTING,
  type PollContext,
  type PollEffect,
  type PollEvent,
  type PollPlan,
  type ReadReport,
} from '../../src/game/poll-plan.js';
import { LoginRequiredError, ThrottledError } from '../../src/fetch/errors.js';
import { GenericOfferError } from '../../src/thread/generic-offer-error.js';
import { PollSettings } from '../../src/model/game-settings.js';
import type { LastCount, PollFacts } from '../../src/model/poll-state.js';
import type { PollState } from '../../src/store/polls-repo.js';

/**
 * The poll plan (src/game/poll-plan.ts): what one poll does next, given its game's poll
 * state, what the forum answered and the clock. Pure, so each rule is a table row: the
 * events a poll meets, on a fake clock (instants written out, moved by the row), and the
 * effects the plan asks the runner for. The runner's own tests (poll-game, cheap-poll,
 * jobs/crash) run the same rules against a real store and the stand-in forum.
 */

const settings = PollSettings.parse({});

/** A fake clock: instants on one test day, moved only by the rows. */
const at = (time: string) => `2026-03-04T${time}.000Z`;

const lastCount: LastCount = { basis: 'B', at: at('11:55:00'), tallyId: 7, deadline: null, upcoming: [] };

/** A game polled well at 11:55 (a full read then), its count as of then standing. */
function polled(over: Partial<PollState> = {}, facts: PollFacts = {}): PollState {
  return {
    gameId: 1,
    leaseOwner: null,
    leaseUntil: null,
    polls: 4,
    lastPolledAt: at('11:55:00'),
    lastOkAt: at('11:55:00'),
    lastFullReadAt: at('11:55:00'),
    lastError: null,
    lastErrorAt: null,
    errorsInRow: 0,
    pollRequestedAt: null,
    threadTitle: 'Mafia 42',
    pageCount: 3,
    postsPerPage: 20,
    state: { lastCount, deadline: null, upcoming: [], recountDue: false, ...facts },
    updatedAt: null,
    ...over,
  };
}

/** One read: page 3 asked again, nothing on it changed, unless the row says so. */
function read(over: Partial<ReadReport> = {}): ReadReport {
  return {
    pages: { read: [3], unchanged: [], fromCache: [1, 2] },
    added: 0,
    edited: 0,
    restored: 0,
    changed: false,
    vanished: 0,
    postsOnPagesRead: 20,
    newPosts: [],
    ...over,
  };
}

const start = (time = '12:00:00'): PollEvent => ({ kind: 'start', now: at(time), settings });
const answered = (report: ReadReport): PollEvent => ({ kind: 'answered', read: report });
const weighed = (time = '12:00:02', over: { basis?: string; latestTallyId?: number | null } = {}): PollEvent => ({
  kind: 'weighed',
  basis: over.basis ?? 'B',
  latestTallyId: over.latestTallyId === undefined ? 7 : over.latestTallyId,
  now: at(time),
});
const counted = (tallyId: number, upcoming: string[] = []): Extract<PollEvent, { kind: 'counted' }> => ({
  kind: 'counted',
  tallyId,
  tallyChanged: tallyId !== 7,
  parsed: 2,
  deadline: null,
  upcoming,
});
const drafted = (time = '12:00:03'): PollEvent => ({
  kind: 'drafted',
  counters: { votesSinceDraft: 1, lastDraftAt: null, draftCheckedTallyId: 8 },
  now: at(time),
});

/** Every step of a poll: the plan after each event, from the start. */
function plan(ctx: PollContext, events: readonly PollEvent[]): PollPlan[] {
  const steps: PollPlan[] = [];
  let progress = STARTING;
  for (const event of events) {
    const step = planPoll(ctx, progress, event);
    steps.push(step);
    progress = step.progress;
  }
  return steps;
}

const kinds = (effects: readonly PollEffect[]) => effects.map((e) => e.kind);
const last = (steps: PollPlan[]) => steps.at(-1)!;
const finishOf = (step: PollPlan) =>
  step.effects.find((e) => e.kind === 'finish') as Extract<PollEffect, { kind: 'finish' }>;

describe('the poll plan', () => {
  it('nothing new: the last count stands, nothing is folded, the poll read is not audited', () => {
    const ctx = { before: polled(), full: false };
    const steps = plan(ctx, [start(), answered(read({ pages: { read: [], unchanged: [3], fromCache: [1, 2] } }))]);
    expect(steps[0]!.effects).toEqual([{ kind: 'read', full: false }]);
    expect(steps[1]!.effects).toEqual([{ kind: 'not-modified', pages: [3] }, { kind: 'weigh' }]);
    const kept = planPoll(ctx, steps[1]!.progress, weighed());
    expect(kept.effects).toEqual([{ kind: 'draft', deadline: null, now: at('12:00:02') }]);
    expect(kept.progress).toMatchObject({ counted: false, count: lastCount });
    const done = planPoll(ctx, kept.progress, drafted());
    expect(finishOf(done)).toMatchObject({ ok: true, fullRead: false, now: at('12:00:03') });
    expect(finishOf(done).facts).toMatchObject({ lastCount, recountDue: false, loginRequired: false });
  });

  it('a new page: audited poll.read with the new posts, counted, the new count is the last count', () => {
    const ctx = { before: polled(), full: false };
    const report = read({
      pages: { read: [3, 4], unchanged: [], fromCache: [1, 2] },
      added: 2,
      changed: true,
      newPosts: [61, 62],
    });
    const steps = plan(ctx, [start(), answered(report), weighed(), counted(8), drafted()]);
    expect(steps[1]!.effects).toEqual([
      {
        kind: 'audit',
        action: 'poll.read',
        detail: {
          full: false,
          pages: report.pages,
          added: 2,
          edited: 0,
          deleted: 0,
          restored: 0,
          postsOnPagesRead: 20,
          newPosts: [61, 62],
        },
      },
      { kind: 'weigh' },
    ]);
    expect(steps[2]!.effects).toEqual([{ kind: 'count', now: at('12:00:02') }]);
    expect(steps[3]!.effects).toEqual([{ kind: 'draft', deadline: null, now: at('12:00:02') }]);
    expect(finishOf(last(steps)).facts.lastCount).toEqual({
      basis: 'B',
      at: at('12:00:02'),
      tallyId: 8,
      deadline: null,
      upcoming: [],
    });
    expect(last(steps).progress).toMatchObject({ added: 2, counted: true, tallyChanged: true, parsed: 2 });
  });

  it("the count's lessons and proposals are kept with it, and stand while the count stands", () => {
    const lesson = {
      kind: 'name' as const,
      key: '0123456789abcdef',
      countPost: 24,
      countPermalink: null,
      voter: 'Dave',
      wagon: 'Eve',
      post: 23,
      permalink: null,
      written: 'tyler',
      raw: 'vote tyler',
      alias: 'tyler',
      noAlias: null,
      text: 'Your count at #24 puts Dave on Eve; Dave wrote "tyler" at #23.',
    };
    const ctx = { before: polled(), full: false };
    const news = read({ added: 1, changed: true });
    const proposals = { threshold: null, deaths: [] };
    const steps = plan(ctx, [
      start(),
      answered(news),
      weighed(),
      { ...counted(8), lessons: [lesson], proposals },
      drafted(),
    ]);
    const made = finishOf(last(steps)).facts.lastCount!;
    expect(made.lessons).toEqual([lesson]);
    expect(made.proposals).toEqual(proposals);
    // The next poll finds nothing new: the count and its lessons stand as stored.
    const next = { before: polled({}, { lastCount: made }), full: false };
    const unchanged = read({ pages: { read: [], unchanged: [3], fromCache: [1, 2] } });
    const kept = plan(next, [start(), answered(unchanged), weighed('12:00:02', { latestTallyId: 8 }), drafted()]);
    expect(finishOf(last(kept)).facts.lastCount).toEqual(made);
  });

  it('an edited post is counted again, whatever the basis says', () => {
    const ctx = { before: polled(), full: false };
    const steps = plan(ctx, [start(), answered(read({ edited: 1, changed: true })), weighed()]);
    expect(steps[1]!.effects[0]).toMatchObject({ kind: 'audit', action: 'poll.read', detail: { edited: 1 } });
    expect(kinds(steps[2]!.effects)).toEqual(['count']);
  });

  it('a post gone from a partial read: everything is read again, then the missing are marked deleted and counted', () => {
    const ctx = { before: polled(), full: false };
    const steps = plan(ctx, [
      start(),
      answered(read({ vanished: 1 })),
      answered(read({ pages: { read: [1, 2, 3], unchanged: [], fromCache: [] }, vanished: 1 })),
      { kind: 'swept', deleted: 1 },
      weighed(),
    ]);
    expect(steps[1]!.effects).toEqual([{ kind: 'read', full: true }]);
    expect(steps[2]!.effects).toEqual([{ kind: 'mark-deleted', vanished: 1 }]);
    expect(steps[3]!.effects[0]).toMatchObject({ kind: 'audit', detail: { full: true, deleted: 1 } });
    expect(kinds(steps[4]!.effects)).toEqual(['count']);
    expect(steps[4]!.progress).toMatchObject({ full: true, reads: 2, deleted: 1 });
  });

  it('a post gone from a full read is marked deleted at once', () => {
    const ctx = { before: polled(), full: true };
    const steps = plan(ctx, [start(), answered(read({ vanished: 2 }))]);
    expect(steps[0]!.effects).toEqual([{ kind: 'read', full: true }]);
    expect(steps[1]!.effects).toEqual([{ kind: 'mark-deleted', vanished: 2 }]);
  });

  it.each([
    { vanished: 5, stored: 6, refused: false, why: 'five posts at most are never a layout change' },
    { vanished: 6, stored: 12, refused: false, why: 'half of the posts is still a deletion' },
    { vanished: 6, stored: 11, refused: true, why: 'more than half, and more than five: the layout changed' },
  ])('a full read that lost $vanished of $stored posts: refused $refused ($why)', ({ vanished, stored, refused }) => {
    const said = massDeletion(vanished, stored);
    expect(said === null ? false : said).toBe(
      refused
        ? `refusing to mark ${vanished} of ${stored} posts deleted at once; the forum's layout may have changed`
        : false,
    );
  });

  it('a forum error: recorded once per distinct error, the lease given up, nothing else', () => {
    const error = pollErrorOf(new Error('HTTP 500 from https://forum.example/threads/1/page-3'));
    const first = planPoll({ before: polled(), full: false }, STARTING, { kind: 'failed', error, now: at('12:00:01') });
    expect(first.effects).toEqual([
      { kind: 'audit', action: 'poll.error', detail: { error: error.message, name: 'Error' } },
      {
        kind: 'finish',
        ok: false,
        fullRead: false,
        error: error.message,
        facts: { loginRequired: false, genericOffer: null },
        now: at('12:00:01'),
      },
    ]);
    const again = planPoll({ before: polled({ lastError: error.message }), full: false }, STARTING, {
      kind: 'failed',
      error,
      now: at('12:05:01'),
    });
    expect(kinds(again.effects)).toEqual(['finish']);
  });

  it('a read that failed part-way keeps what it recorded in the result; the previous tally stands', () => {
    const error = pollErrorOf(new Error('page 4 has no posts'));
    const steps = plan({ before: polled(), full: false }, [
      start(),
      { kind: 'failed', error, now: at('12:00:01'), read: read({ added: 3, changed: true }) },
    ]);
    expect(last(steps).progress).toMatchObject({ added: 3, counted: false, tallyId: null, error });
  });

  it('an adapter that found no posts where its layout should be: the poll state offers the generic reader; the next good poll clears it', () => {
    const error = pollErrorOf(
      new GenericOfferError('https://forum.example/threads/1/', 'the XenForo 2 layout was not found', 'xenforo2'),
    );
    expect(error).toMatchObject({ name: 'GenericOfferError', genericOffer: 'xenforo2', loginRequired: false });
    const failed = planPoll({ before: polled(), full: false }, STARTING, {
      kind: 'failed',
      error,
      now: at('12:00:01'),
    });
    expect(finishOf(failed).facts).toEqual({ loginRequired: false, genericOffer: 'xenforo2' });
    // Another failure is no offer.
    const other = planPoll({ before: polled(), full: false }, STARTING, {
      kind: 'failed',
      error: pollErrorOf(new Error('connection reset')),
      now: at('12:00:01'),
    });
    expect(finishOf(other).facts.genericOffer).toBeNull();
    const ctx = { before: polled({ lastError: error.message }, { genericOffer: 'xenforo2' }), full: false };
    const recovered = last(plan(ctx, [start(), answered(read()), weighed(), drafted()]));
    expect(finishOf(recovered).facts.genericOffer).toBeNull();
  });

  it('a login wall: the poll state says a person must log in; the next good poll clears it', () => {
    const error = pollErrorOf(new LoginRequiredError('https://forum.example/threads/1/'));
    expect(error).toMatchObject({ name: 'LoginRequiredError', loginRequired: true, retryAfterMs: null });
    const failed = planPoll({ before: polled(), full: false }, STARTING, {
      kind: 'failed',
      error,
      now: at('12:00:01'),
    });
    expect(finishOf(failed).facts).toEqual({ loginRequired: true, genericOffer: null });
    const ctx = { before: polled({ lastError: error.message }, { loginRequired: true }), full: false };
    const recovered = last(plan(ctx, [start(), answered(read()), weighed(), drafted()]));
    expect(finishOf(recovered).facts.loginRequired).toBe(false);
    expect(recovered.effects.at(-1)).toEqual({
      kind: 'audit',
      action: 'poll.recover',
      detail: { after: error.message },
    });
  });

  it('Retry-After: the wait the forum asked for goes to the scheduler with the failure', () => {
    const error = pollErrorOf(new ThrottledError('https://forum.example/threads/1/', 429, 120_000));
    expect(error).toMatchObject({ name: 'ThrottledError', retryAfterMs: 120_000, loginRequired: false });
    const failed = planPoll({ before: polled(), full: false }, STARTING, {
      kind: 'failed',
      error,
      now: at('12:00:01'),
    });
    expect(failed.progress.error?.retryAfterMs).toBe(120_000);
    expect(finishOf(failed)).toMatchObject({ ok: false, facts: { loginRequired: false } });
  });

  describe('a deadline passed mid-poll', () => {
    const deadline = at('12:00:00');
    const before = polled(
      {},
      { lastCount: { ...lastCount, deadline, upcoming: [deadline] }, deadline, upcoming: [deadline] },
    );

    it.each([
      { clock: '11:59:58', counts: false, why: 'the count clock is before the deadline: the last count stands' },
      { clock: '12:00:00', counts: true, why: 'at the deadline: the Day is decided by the count' },
      { clock: '12:00:05', counts: true, why: 'the read ended after the deadline: counted as at the end of the read' },
    ])('count clock $clock: counted $counts ($why)', ({ clock, counts }) => {
      // The poll started before the deadline; near it, a full read comes every 10 minutes and
      // the last one is 5 minutes old: this one reads from the last page seen.
      const steps = plan({ before, full: false }, [start('11:59:50'), answered(read()), weighed(clock)]);
      expect(steps[0]!.effects).toEqual([{ kind: 'read', full: false }]);
      expect(kinds(last(steps).effects)).toEqual([counts ? 'count' : 'draft']);
    });

    it('the first poll after it reads every page', () => {
      const after = polled({ lastPolledAt: at('11:59:50'), lastFullReadAt: at('11:59:50') }, before.state);
      expect(plan({ before: after, full: false }, [start('12:00:30')])[0]!.effects).toEqual([
        { kind: 'read', full: true },
      ]);
    });
  });

  describe('a worker killed between the plan and its effects', () => {
    it('killed before counting: the pages it recorded set recountDue with them, so the next poll counts', () => {
      const ctx = { before: polled(), full: false };
      const killed = plan(ctx, [start(), answered(read({ added: 1, changed: true, newPosts: [61] })), weighed()]);
      expect(kinds(last(killed).effects)).toEqual(['count']); // ...and the worker dies here.
      // The next poll: the page is in the store, so the forum shows nothing new.
      const next = plan({ before: polled({}, { recountDue: true }), full: false }, [
        start('12:05:00'),
        answered(read()),
        weighed('12:05:02'),
      ]);
      expect(kinds(last(next).effects)).toEqual(['count']);
    });

    it('killed after the tally was saved, before the poll finished: another tally is latest, so it counts again', () => {
      const steps = plan({ before: polled(), full: false }, [
        start(),
        answered(read()),
        weighed('12:00:02', { latestTallyId: 8 }),
      ]);
      expect(kinds(last(steps).effects)).toEqual(['count']);
    });

    it('killed before any count was kept: counted', () => {
      const before = polled({}, {});
      const fresh = { ...before, state: {} };
      const steps = plan({ before: fresh, full: false }, [start(), answered(read()), weighed()]);
      expect(kinds(last(steps).effects)).toEqual(['count']);
    });

    it('run again from the same state, the plan asks for the same effects (each one idempotent)', () => {
      const ctx = { before: polled({}, { recountDue: true }), full: false };
      const events = [start(), answered(read({ edited: 1, changed: true })), weighed(), counted(8), drafted()];
      expect(plan(ctx, events)).toEqual(plan(ctx, events));
    });
  });

  it('another basis (a setting, the roster, a GM event) counts again', () => {
    const steps = plan({ before: polled(), full: false }, [
      start(),
      answered(read()),
      weighed('12:00:02', { basis: 'C' }),
    ]);
    expect(kinds(last(steps).effects)).toEqual(['count']);
  });
});
