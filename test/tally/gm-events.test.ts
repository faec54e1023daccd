import { describe, expect, it } from 'vitest';
import { countVotes } from '../../src/tally/count.js';
import type { TallyEvent } from '../../src/tally/log.js';
import type { Ruleset } from '../../src/rules/ruleset.js';
import { chatter, gm, mafiascum, players, plurality, review, vote, witchhunt } from './log-builders.js';

const five = players('Alice', 'Bob', 'Cy', 'Dana', 'Eve');
const count = (events: TallyEvent[], ruleset: Ruleset = plurality(), roster = five) =>
  countVotes({ ruleset, roster, events });

describe('GM events', () => {
  describe('replace', () => {
    it('replacement: votes by the old name count for the slot', () => {
      const t = count([
        vote(1, 'Bob', 'Alice'),
        gm({ at: 2, kind: 'replace', player: 'Bob', by: 'Robert' }),
        vote(3, 'Bob', 'Cy'),
      ]);
      expect(t.wagons.map((w) => [w.target, w.voters.map((v) => v.player)])).toEqual([['Cy', ['Robert']]]);
      expect(t.players).toContain('Robert');
      expect(t.players).not.toContain('Bob');
    });

    it('replacement: a standing vote stays with the slot under the new name', () => {
      const t = count([vote(1, 'Bob', 'Alice'), gm({ at: 2, kind: 'replace', player: 'Bob', by: 'Robert' })]);
      expect(t.wagons[0]?.voters.map((v) => v.player)).toEqual(['Robert']);
    });

    it("replacement: votes for the old name land on the slot's wagon under the new name", () => {
      const t = count([
        gm({ at: 0, kind: 'replace', player: 'Bob', by: 'Robert' }),
        vote(1, 'Alice', 'Bob'),
        vote(2, 'Cy', 'Robert'),
      ]);
      expect(t.wagons.map((w) => [w.target, w.total])).toEqual([['Robert', 2]]);
    });
  });

  describe('kill, modkill, revive', () => {
    it("kill event removes the dead player's vote", () => {
      const t = count([vote(1, 'Bob', 'Alice'), gm({ at: 1, kind: 'kill', player: 'Bob' })]);
      expect(t.wagons).toEqual([]);
      expect(t).toMatchObject({ living: 4, players: ['Alice', 'Cy', 'Dana', 'Eve'] });
    });

    it('votes on a killed player are dropped and flagged vote-for-dead', () => {
      const t = count([
        vote(1, 'Bob', 'Alice'),
        vote(2, 'Cy', 'Alice'),
        vote(3, 'Dana', 'Eve'),
        gm({ at: 3, kind: 'modkill', player: 'Alice' }),
      ]);
      expect(t.wagons.map((w) => w.target)).toEqual(['Eve']);
      expect(t.flags.map((f) => [f.post, f.player, f.kind])).toEqual([
        [1, 'Bob', 'vote-for-dead'],
        [2, 'Cy', 'vote-for-dead'],
      ]);
      expect(t.notVoting).toEqual(['Bob', 'Cy', 'Eve']);
    });

    it('a kill lowers the threshold', () => {
      expect(count([gm({ at: 0, kind: 'kill', player: 'Eve' })], witchhunt()).threshold).toEqual({
        kind: 'majority',
        votes: 3,
      });
    });

    it('a kill that completes a majority ends the day when endsAtThreshold', () => {
      const six = players('A', 'B', 'C', 'D', 'E', 'F');
      const t = count(
        [vote(1, 'A', 'F'), vote(2, 'B', 'F'), vote(3, 'C', 'F'), gm({ at: 3, kind: 'kill', player: 'E' })],
        mafiascum(),
        six,
      );
      expect(t.outcome).toMatchObject({ status: 'majority', eliminated: ['F'], decidedAt: 3 });
    });

    it('revive brings a player back without their old vote', () => {
      const t = count([
        vote(1, 'Bob', 'Alice'),
        gm({ at: 1, kind: 'kill', player: 'Bob' }),
        gm({ at: 2, kind: 'revive', player: 'Bob' }),
      ]);
      expect(t.living).toBe(5);
      expect(t.wagons).toEqual([]);
    });

    it("a kill after the Day closed does not rewrite the Day's count", () => {
      const events = [
        vote(1, 'Alice', 'Eve'),
        vote(2, 'Bob', 'Eve'),
        gm({ at: 2, kind: 'day-end' }),
        gm({ at: 2, kind: 'kill', player: 'Eve' }),
      ];
      const t = count(events);
      expect(t.wagons.map((w) => [w.target, w.total])).toEqual([['Eve', 2]]);
      expect(t.living).toBe(5);
      expect(t.outcome.eliminated).toEqual(['Eve']);
    });

    it('a GM event naming nobody on the roster is flagged not-a-player', () => {
      const t = count([gm({ at: 4, kind: 'kill', player: 'Zed' })]);
      expect(t.flags).toEqual([{ post: 4, player: 'Zed', kind: 'not-a-player', raw: 'kill: Zed', candidates: [] }]);
    });
  });

  describe('weight', () => {
    it('weight 2 counts twice', () => {
      const t = count([
        gm({ at: 0, kind: 'weight', player: 'Dana', weight: 2 }),
        vote(1, 'Dana', 'Eve'),
        vote(2, 'Cy', 'Eve'),
      ]);
      expect(t.wagons[0]).toMatchObject({ target: 'Eve', votes: 3, total: 3 });
      expect(t.wagons[0]?.voters.map((v) => v.weight)).toEqual([2, 1]);
    });

    it('a weight given later applies to the standing vote', () => {
      const t = count([vote(1, 'Dana', 'Eve'), gm({ at: 5, kind: 'weight', player: 'Dana', weight: 2 })]);
      expect(t.wagons[0]?.total).toBe(2);
    });

    it('a weighted vote can reach majority on its own', () => {
      const t = count([gm({ at: 0, kind: 'weight', player: 'Dana', weight: 3 }), vote(1, 'Dana', 'Eve')], mafiascum());
      expect(t.outcome).toMatchObject({ status: 'majority', eliminated: ['Eve'], decidedAt: 1 });
    });
  });

  describe('correct', () => {
    it('GM correction overrides the parsed target', () => {
      const t = count([vote(1, 'Bob', 'Alice'), gm({ kind: 'correct', post: 1, target: 'Cy' })]);
      expect(t.wagons.map((w) => [w.target, w.voters.map((v) => v.post)])).toEqual([['Cy', [1]]]);
      expect(t.flags).toEqual([
        { post: 1, player: 'Bob', kind: 'gm-correction', raw: 'Vote: Alice -> Cy', candidates: [] },
      ]);
    });

    it('a GM correction resolves a post sent for review', () => {
      const t = count([
        review(3, 'Bob', 'ambiguous-target', 'Vote: a', ['Alice', 'Alan']),
        gm({ kind: 'correct', post: 3, target: 'Alice' }),
      ]);
      expect(t.wagons.map((w) => w.target)).toEqual(['Alice']);
      expect(t.flags.map((f) => f.kind)).toEqual(['gm-correction']);
    });

    it("a GM correction with target null ignores the post's vote", () => {
      const t = count([vote(1, 'Bob', 'Alice'), vote(2, 'Bob', 'Cy'), gm({ kind: 'correct', post: 2, target: null })]);
      expect(t.wagons.map((w) => w.target)).toEqual(['Alice']);
    });

    it('a GM correction can give a vote to a post the parser read none in', () => {
      const t = count([chatter(7, 'Eve'), gm({ kind: 'correct', post: 7, target: 'Bob' })]);
      expect(t.wagons.map((w) => [w.target, w.voters[0]?.player])).toEqual([['Bob', 'Eve']]);
    });

    it('the last correction of a post wins', () => {
      const t = count([
        vote(1, 'Bob', 'Alice'),
        gm({ kind: 'correct', post: 1, target: 'Cy' }),
        gm({ kind: 'correct', post: 1, target: 'Dana' }),
      ]);
      expect(t.wagons.map((w) => w.target)).toEqual(['Dana']);
    });
  });

  describe('day-start', () => {
    it('day-start resets votes, flags and violations and sets the day', () => {
      const t = count([
        vote(1, 'Bob', 'Alice'),
        vote(2, 'Lurker', 'Alice'),
        gm({ at: 2, kind: 'day-end' }),
        gm({ at: 3, kind: 'day-start', day: 2 }),
        vote(4, 'Cy', 'Dana'),
      ]);
      expect(t).toMatchObject({ day: 2, flags: [], violations: [], outcome: { status: 'open' } });
      expect(t.wagons.map((w) => w.target)).toEqual(['Dana']);
    });

    it('weights and replacements carry over to the next Day', () => {
      const t = count([
        gm({ at: 0, kind: 'weight', player: 'Dana', weight: 2 }),
        gm({ at: 1, kind: 'replace', player: 'Bob', by: 'Robert' }),
        gm({ at: 2, kind: 'day-start', day: 2 }),
        vote(3, 'Dana', 'Robert'),
      ]);
      expect(t.wagons).toMatchObject([{ target: 'Robert', total: 2 }]);
    });
  });

  describe('placement', () => {
    it('an event with `time` applies after the last post made before that time', () => {
      const at = (n: number) => `2024-05-01T12:0${n}:00Z`;
      const t = count([
        vote(1, 'Bob', 'Alice', { time: at(1) }),
        vote(2, 'Cy', 'Alice', { time: at(3) }),
        gm({ time: '2024-05-01T12:02:00Z', kind: 'day-end' }),
      ]);
      expect(t.outcome).toMatchObject({ status: 'ended', eliminated: ['Alice'], decidedAt: 1 });
      expect(t.flags.map((f) => [f.post, f.kind])).toEqual([[2, 'vote-after-decision']]);
    });

    it('an event with neither `at` nor `time` applies before the first post', () => {
      const t = count([vote(1, 'Bob', 'Alice'), gm({ kind: 'kill', player: 'Bob' })]);
      expect(t.flags.map((f) => f.kind)).toEqual(['vote-by-dead']);
    });

    it('a GM event applies after the post with the same number', () => {
      const t = count([gm({ at: 1, kind: 'kill', player: 'Bob' }), vote(1, 'Bob', 'Alice')]);
      expect(t.flags).toEqual([]);
      expect(t.wagons).toEqual([]); // the vote counted, then the kill removed it
    });
  });

  describe('events of the seed rulesets', () => {
    it("a replacement at Night renames the slot in the closed Day's count too", () => {
      const t = count([
        vote(1, 'Bob', 'Alice'),
        vote(2, 'Cy', 'Bob'),
        gm({ at: 2, kind: 'day-end' }),
        gm({ at: 3, kind: 'replace', player: 'Bob', by: 'Robert' }),
      ]);
      expect(t.wagons.map((w) => [w.target, w.voters.map((v) => v.player)])).toEqual([
        ['Alice', ['Robert']],
        ['Robert', ['Cy']],
      ]);
      expect(t.outcome.leaders).toEqual(['Alice', 'Bob']);
    });

    it.each([
      [{ kind: 'penalty', player: 'Zed', reason: 'x' }, 'penalty: Zed'],
      [{ kind: 'forgiven', player: 'Zed' }, 'forgiven: Zed'],
      [{ kind: 'missed', player: 'Zed' }, 'missed: Zed'],
      [{ kind: 'status', player: 'Zed', status: 'arrested' }, 'status: Zed'],
    ])('a %o naming nobody on the roster is flagged not-a-player', (event, raw) => {
      expect(count([gm({ at: 4, ...event })]).flags).toEqual([
        { post: 4, player: 'Zed', kind: 'not-a-player', raw, candidates: [] },
      ]);
    });

    it("a GM penalty vote counts on the player's wagon", () => {
      const t = count([gm({ at: 2, kind: 'penalty', player: 'Eve', reason: 'quoted a PM' }), vote(3, 'Alice', 'Eve')]);
      expect(t.wagons).toMatchObject([{ target: 'Eve', votes: 1, penalty: 1, total: 2 }]);
    });

    it('a role the ruleset gives no rule to changes nothing in the count', () => {
      const t = count([gm({ at: 0, kind: 'role', player: 'Dana', role: 'Seer' }), vote(1, 'Dana', 'Eve')]);
      expect(t.wagons[0]?.total).toBe(1);
    });
  });
});
