import { describe, expect, it } from 'vitest';
import { runParse } from '../../src/cli/parse-command.js';
import { PostReading } from '../../src/model/action.js';
import { GmEvent, type PostEvent } from '../../src/model/event.js';
import { parsePlayerList } from '../../src/model/roster.js';
import { loadRuleset } from '../../src/rules/load-ruleset.js';
import { countVotes } from '../../src/tally/count.js';
import type { TallyEvent } from '../../src/tally/log.js';
import { runCli } from '../cli/run-cli.js';

/*
 * Issue #4, point 5: a GM correction of one post's reading is an event. It survives every
 * recount (the same log counted again, and a recount after the post's body changed), the
 * tally marks it, and `votal parse --correct` prints the same reading the tally uses.
 */

const PLAYERS = 'Alice, Alicia, Bob, Carol, Dave, Zeke';
const URL = 'https://forum.example.com/';
const plurality = loadRuleset('plurality');
const roster = parsePlayerList(PLAYERS);

/** A post as the tally sees it, read from XenForo 2 body HTML by `votal parse`'s code path. */
function post(n: number, author: string, html: string, edited?: string): PostEvent {
  const { output } = runParse(html, {
    engine: 'xenforo2',
    players: PLAYERS,
    ruleset: 'plurality',
    url: URL,
    format: 'json',
    ...(edited ? { edited } : {}),
  });
  return {
    kind: 'post',
    post: n,
    author,
    time: null,
    permalink: `${URL}posts/${n}/`,
    reading: PostReading.parse(JSON.parse(output)),
  };
}

const correct = (post: number, target: string | null): GmEvent => GmEvent.parse({ kind: 'correct', post, target });
const count = (events: TallyEvent[]) => countVotes({ ruleset: plurality, roster, events, engine: 'xenforo2' });
const wagons = (t: ReturnType<typeof count>) =>
  t.wagons.map((w) => [w.target, w.voters.map((v) => `${v.player}#${v.post}`)]);

const thread = (): TallyEvent[] => [
  post(1, 'Alice', 'Bob dodged my question.<br /><b>Vote: Bob</b>'),
  post(2, 'Carol', '<b>Vote: Ali</b>'),
  post(3, 'Dave', '<b>Vote: Bob</b>'),
];

describe('a GM correction in the tally', () => {
  it('the parsed reading alone leaves the ambiguous post for review', () => {
    const t = count(thread());
    expect(wagons(t)).toEqual([['Bob', ['Alice#1', 'Dave#3']]]);
    expect(t.flags).toEqual([
      expect.objectContaining({ post: 2, kind: 'ambiguous-target', candidates: ['Alice', 'Alicia'] }),
    ]);
  });

  it('counts the post as the GM read it and marks it as a GM correction', () => {
    const t = count([...thread(), correct(2, 'Alice')]);
    expect(wagons(t)).toEqual([
      ['Bob', ['Alice#1', 'Dave#3']],
      ['Alice', ['Carol#2']],
    ]);
    expect(t.flags).toEqual([
      { post: 2, player: 'Carol', kind: 'gm-correction', raw: 'Vote: Ali -> Alice', candidates: [] },
    ]);
  });

  it('survives a recount: the same log counted twice gives the same tally', () => {
    const events = [...thread(), correct(2, 'Alice')];
    const first = count(events);
    const again = count(events);
    expect(again).toEqual(first);
    // Where the correction sits in the log does not matter: it is keyed by its post.
    expect(count([correct(2, 'Alice'), ...thread()])).toEqual(first);
  });

  it("survives a recount after the post's body changed (an edit re-read by the parser)", () => {
    const editedPost = post(2, 'Carol', '<b>Vote: Zeke</b>', 'Last edited: Today at 10:02 AM');
    expect(editedPost.reading.effect).toEqual({ kind: 'vote', target: 'Zeke', reason: null });
    const recount = count([
      ...thread().filter((e) => !(e.kind === 'post' && e.post === 2)),
      editedPost,
      correct(2, 'Alice'),
    ]);
    expect(wagons(recount)).toEqual([
      ['Bob', ['Alice#1', 'Dave#3']],
      ['Alice', ['Carol#2']],
    ]);
    expect(recount.flags).toEqual([
      { post: 2, player: 'Carol', kind: 'gm-correction', raw: 'Vote: Zeke -> Alice', candidates: [] },
    ]);
    // The same, with the re-read post appended to the log (a post seen twice keeps its last reading).
    const appended = count([...thread(), correct(2, 'Alice'), editedPost]);
    expect(wagons(appended)).toEqual(wagons(recount));
    expect(appended.flags).toEqual(recount.flags);
  });

  it('a correction to ignore the post takes its vote away, and says so', () => {
    const t = count([...thread(), correct(3, null)]);
    expect(wagons(t)).toEqual([['Bob', ['Alice#1']]]);
    expect(t.flags.map((f) => [f.post, f.kind, f.raw])).toEqual([
      [2, 'ambiguous-target', 'Vote: Ali'],
      [3, 'gm-correction', 'Vote: Bob -> (ignored)'],
    ]);
  });
});

describe('votal parse --correct prints the reading the tally counts', () => {
  const html = '<b>Vote: Ali</b>';
  const read = (correctTo?: string) =>
    runParse(html, {
      engine: 'xenforo2',
      players: PLAYERS,
      ruleset: 'plurality',
      url: URL,
      format: 'json',
      ...(correctTo ? { correct: correctTo } : {}),
    });

  it('the GM\'s reading is marked source "gm", and the effect follows it', () => {
    const { reading } = read('alice');
    expect(reading.actions).toEqual([
      {
        kind: 'vote',
        target: 'Alice',
        match: 'gm',
        raw: 'Vote: Ali',
        written: 'Ali',
        candidates: [],
        score: null,
        source: 'gm',
      },
    ]);
    expect(reading.effect).toEqual({ kind: 'vote', target: 'Alice', reason: null });
  });

  it('counting the corrected reading gives the tally of the parsed reading plus the correct event', () => {
    for (const target of ['Alice', null] as const) {
      const fixed = read(target ?? 'none').reading;
      const byGm = count([post(1, 'Alice', '<b>Vote: Bob</b>'), { ...post(2, 'Carol', html), reading: fixed }]);
      const byEvent = count([post(1, 'Alice', '<b>Vote: Bob</b>'), post(2, 'Carol', html), correct(2, target)]);
      expect(wagons(byGm)).toEqual(wagons(byEvent));
    }
  });

  it('through the command line, in JSON and in text', async () => {
    const json = await runCli(['parse', '--engine', 'xenforo2', '--players', PLAYERS, '--correct', 'Alice'], html);
    expect(json.code, json.stderr).toBe(0);
    const reading = PostReading.parse(JSON.parse(json.stdout));
    expect(reading.actions.map((a) => [a.kind, a.target, a.match, a.source])).toEqual([['vote', 'Alice', 'gm', 'gm']]);
    const text = await runCli(
      ['parse', '--engine', 'xenforo2', '--players', PLAYERS, '--correct', 'none', '--format', 'text'],
      html,
    );
    expect(text.stdout).toBe('vote [gm] "Vote: Ali" (GM correction)\neffect: none\n');
  });

  it('refuses a correction naming nobody in the game, with exit code 2', async () => {
    const r = await runCli(['parse', '--engine', 'xenforo2', '--players', PLAYERS, '--correct', 'Gandalf'], html);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--correct: "Gandalf" is not a player/);
  });

  it("is documented in the command's help", async () => {
    const r = await runCli(['parse', '--help']);
    expect(r.stdout).toMatch(/--correct <target\|none>/);
    expect(r.stdout).toMatch(/source "gm"/);
  });
});

describe('votal parse: who plays and what the forum said about the post', () => {
  const run = (args: string[], html: string) =>
    runCli(['parse', '--engine', 'phpbb', '--players', PLAYERS, ...args], html);

  it('--dead sends a vote for a dead player to review', async () => {
    const r = await run(['--dead', 'Bob'], '<span style="font-weight: bold">Vote: Bob</span>');
    expect(JSON.parse(r.stdout).effect).toEqual({ kind: 'review', target: 'Bob', reason: 'vote-for-dead' });
  });

  it('--replaced lets an old name name the slot', async () => {
    const r = await run(['--replaced', 'Trent>Zeke'], '<span style="font-weight: bold">Vote: Trent</span>');
    expect(JSON.parse(r.stdout).effect).toEqual({ kind: 'vote', target: 'Zeke', reason: null });
  });

  it("--edited reports the forum's edit note as an edit violation", async () => {
    const r = await run(['--edited', 'Last edited by Zeke on Sun Mar 02, 2026 5:35 pm'], 'hi');
    expect(JSON.parse(r.stdout).violations).toEqual([
      { kind: 'edit', detail: 'Last edited by Zeke on Sun Mar 02, 2026 5:35 pm' },
    ]);
  });

  it('refuses names that are not players, and replacements it cannot read', async () => {
    expect((await run(['--dead', 'Nobody'], 'x')).stderr).toMatch(/--dead: "Nobody" is not in the player list/);
    expect((await run(['--replaced', 'Trent'], 'x')).stderr).toMatch(/--replaced: write each replacement as Old>New/);
  });
});

describe('the ruleset decides what a violation costs (penalty or flag)', () => {
  const french = 'Je pense que Bob ment sur son rôle depuis le début de la partie.';
  const tallyUnder = (ruleset: string) => {
    const { reading } = runParse(french, { engine: 'xenforo2', players: PLAYERS, ruleset, url: URL, format: 'json' });
    return countVotes({
      ruleset: loadRuleset(ruleset),
      roster,
      events: [{ kind: 'post', post: 1, author: 'Carol', time: null, permalink: null, reading }],
    });
  };

  it('open-conspiracy gives a penalty vote for a post not in English', () => {
    const t = tallyUnder('open-conspiracy');
    expect(t.violations).toEqual([
      expect.objectContaining({ player: 'Carol', post: 1, kind: 'non-english', detail: 'fr', consequence: 'penalty' }),
    ]);
    expect(t.wagons).toEqual([expect.objectContaining({ target: 'Carol', penalty: 1 })]);
  });

  it('plurality ignores the language entirely', () => {
    const t = tallyUnder('plurality');
    expect(t.violations).toEqual([]);
    expect(t.wagons).toEqual([]);
  });
});
