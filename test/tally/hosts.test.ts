import { describe, expect, it } from 'vitest';
import type { PostEvent } from '../../src/model/event.js';
import { readPost } from '../../src/parse/read-post.js';
import { Ruleset } from '../../src/rules/ruleset.js';
import { countVotes } from '../../src/tally/count.js';
import { b, br, post } from '../parse/build.js';
import { players, plurality, vote } from './log-builders.js';

/*
 * Issue #24: the hosts' own posts were flagged as votes by a non-player. The hosts (the
 * game's GM setting, co-hosts) post the Day's vote counts and reminders; those are the
 * GM's posts, never a non-player's votes. Someone else who is not a player still is.
 */
const roster = players('Qatol', 'KSC', 'liancourt');
const teamLiquid = Ruleset.parse({ ...plurality(), votes: { ...plurality().votes, bold: 'optional' } });

function read(n: number, author: string, ...body: Parameters<typeof post>): PostEvent {
  return {
    kind: 'post',
    post: n,
    author,
    time: null,
    permalink: null,
    reading: readPost(post(...body), roster, teamLiquid),
  };
}

// TeamLiquid game (issue #24): a host's vote count and a co-host's reminder.
const hostCount = read(3, 'Host', b('Vote count 1.1'), br(), 'KSC (1): Qatol', br(), 'No-Lynch (0):');
const coHostReminder = read(4, 'CoHost', '##Unvote when you want to change votes!');

describe('hosts are never non-players', () => {
  it('the posts read as actions on their own (what the hosts were flagged for)', () => {
    expect(coHostReminder.reading.effect.kind).not.toBe('none');
  });

  it('a host’s and a co-host’s posts raise no vote-by-non-player flag and change no vote', () => {
    const t = countVotes({
      ruleset: teamLiquid,
      roster,
      events: [vote(1, 'Qatol', 'KSC'), vote(2, 'KSC', 'Qatol'), hostCount, coHostReminder],
      hosts: ['Host', 'cohost'],
    });
    expect(t.flags.filter((f) => f.kind === 'vote-by-non-player')).toEqual([]);
    expect(t.wagons.map((w) => [w.target, w.votes])).toEqual([
      ['KSC', 1],
      ['Qatol', 1],
    ]);
  });

  it('without the hosts named, the same posts are a non-player’s, flagged for the GM', () => {
    const t = countVotes({ ruleset: teamLiquid, roster, events: [vote(1, 'Qatol', 'KSC'), coHostReminder] });
    expect(t.flags.map((f) => [f.kind, f.player])).toEqual([['vote-by-non-player', 'CoHost']]);
  });

  it('someone who is neither a player nor a host is still a non-player', () => {
    const t = countVotes({
      ruleset: teamLiquid,
      roster,
      events: [vote(1, 'Lurker', 'KSC')],
      hosts: ['Host'],
    });
    expect(t.flags.map((f) => [f.kind, f.player])).toEqual([['vote-by-non-player', 'Lurker']]);
  });
});
