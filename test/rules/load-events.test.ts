import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadEvents, parseEvents } from '../../src/rules/load-events.js';
import { packageRoot } from '../../src/config/package-root.js';
import { EventsError } from '../../src/rules/source-error.js';

const fixture = (name: string) => join(packageRoot(), 'fixtures', 'events', name);

function problems(text: string, file = 'events.yaml'): string[] {
  try {
    parseEvents(text, file);
  } catch (e) {
    expect(e).toBeInstanceOf(EventsError);
    return (e as EventsError).message.split('\n').slice(1);
  }
  throw new Error('expected the events file to fail');
}

describe('GM events files', () => {
  it('a valid events file gives the GM events in order', () => {
    const events = loadEvents(fixture('witchhunt-day1.yaml'));
    expect(events.map((e) => e.kind)).toEqual([
      'day-start',
      'weight',
      'kill',
      'replace',
      'correct',
      'vote',
      'day-end',
      'decide',
    ]);
    expect(events[1]).toEqual({ at: 0, kind: 'weight', player: 'Dana', weight: 2, hidden: false });
    expect(events[6]).toEqual({ time: '2020-06-03T23:00:00Z', kind: 'day-end' });
  });

  it('an empty events file is an empty list', () => {
    expect(parseEvents('', 'e.yaml')).toEqual([]);
    expect(parseEvents('# nothing yet\n', 'e.yaml')).toEqual([]);
  });

  it('events file errors give file:line:column for an unknown kind, an unknown key and a bad value', () => {
    const file = fixture('broken.yaml');
    expect(problems(readFileSync(file, 'utf8'), 'broken.yaml')).toEqual([
      "broken.yaml:3:9: kind 'kil' is not an event kind (did you mean 'kill'?); use one of day-start, day-end, deadline, check, kill, revive, modkill, replace, weight, vote, correct, status, role, decide, penalty, forgiven, missed",
      'broken.yaml:9:3: reason: unknown key "reason"; known here: kind, player, by, at, time',
      'broken.yaml:10:9: `at:` should be at least 0 (the number of the post it applies after), not -1',
    ]);
  });

  it('a YAML syntax error in an events file gives its place', () => {
    expect(problems('- { at: 1, kind: day-end\n- { at: 2 }\n')).toEqual([expect.stringMatching(/^events\.yaml:2:1: /)]);
  });

  it('an events file that is not a list says so', () => {
    expect(problems('kind: day-end\n')).toEqual([
      'events.yaml:1:1: the file should be a list of events, not a map of keys',
    ]);
  });

  it('a time that is not ISO 8601 is placed at the value', () => {
    expect(problems('- kind: day-end\n  time: tomorrow noon\n')).toEqual([
      "events.yaml:2:9: `time:` should be an ISO 8601 time with its offset (like 2024-05-01T18:00:00Z or 2024-05-01T20:00:00+02:00), not the text 'tomorrow noon'",
    ]);
  });

  it('clock events, penalties, forgiveness results, missed phases, hidden votes and seeds parse', () => {
    const events = parseEvents(
      [
        '- { kind: deadline, time: "2012-09-21T17:00:00-07:00", day: 2 }',
        '- { kind: check, time: "2012-09-21T12:00:00-07:00" }',
        '- { at: 3, kind: penalty, player: Bob, reason: screenshot of a PM }',
        '- { at: 4, kind: forgiven, player: null }',
        '- { at: 4, kind: missed, player: Kleene }',
        '- { at: 5, kind: vote, player: pofa, target: Akonyl, hidden: true }',
        '- { at: 6, kind: day-end, seed: 12345 }',
        '',
      ].join('\n'),
      'e.yaml',
    );
    expect(events.map((e) => e.kind)).toEqual([
      'deadline',
      'check',
      'penalty',
      'forgiven',
      'missed',
      'vote',
      'day-end',
    ]);
    expect(events[0]).toEqual({ kind: 'deadline', time: '2012-09-21T17:00:00-07:00', day: 2 });
    expect(events[6]).toEqual({ at: 6, kind: 'day-end', seed: 12345 });
  });

  it('a clock event without a time says so at its place', () => {
    expect(problems('- { at: 3, kind: deadline }\n')).toEqual([
      'events.yaml:1:3: a deadline event needs `time:` (when it applies, ISO 8601)',
    ]);
  });

  it("the seed rulesets' events files are valid", () => {
    for (const name of ['open-conspiracy', 'onuw-gog', 'detective-conan', 'twg2', 'witchhunt', 'plurality']) {
      expect(loadEvents(fixture(`${name}.yaml`)).length, name).toBeGreaterThan(0);
    }
  });
});

describe('events file problems in plain words, at their line (issue #28)', () => {
  // One case per kind of validator issue: the sentence names the field and how to fix it.
  const cases: [string, string, string][] = [
    [
      'an unknown kind, with the kinds there are and the nearest one',
      '- kind: day-start\n  day: 1\n- kind: kil\n  player: Bob\n',
      "events.yaml:3:9: kind 'kil' is not an event kind (did you mean 'kill'?); use one of day-start, day-end,",
    ],
    [
      'a missing field, with what it holds',
      '- kind: day-start\n  day: 1\n- kind: replace\n  player: Bob\n',
      "events.yaml:3:3: a replace event needs `by:` (the new player's name)",
    ],
    [
      'a value of the wrong type, quoting it',
      '- kind: day-start\n  day: one\n',
      "events.yaml:2:8: `day:` should be a number (the Day's number), not the text 'one'",
    ],
    [
      'an unknown key, with the keys the event takes',
      '- kind: kill\n  player: Bob\n  colour: red\n',
      'events.yaml:3:3: colour: unknown key "colour"; known here: kind, player, at, time',
    ],
    [
      'a value not among the choices',
      '- kind: status\n  player: Bob\n  status: jailed\n',
      "events.yaml:3:11: status 'jailed' is not one of arrested, poisoned, abroad, hindered, clear",
    ],
    ['an empty name', "- kind: kill\n  player: ''\n", "events.yaml:2:11: `player:` is empty (the player's name)"],
  ];
  it.each(cases)('%s', (_rule, text, expected) => {
    const [first] = problems(text);
    expect(first!.startsWith(expected), first).toBe(true);
    expect(first).not.toMatch(/Invalid (input|discriminator|option)|expected string|received undefined/);
  });
});
