import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { listRulesets, loadRuleset, parseRuleset, rulesetsDir } from '../../src/rules/load-ruleset.js';
import { RulesetError } from '../../src/rules/source-error.js';

function problems(text: string, file = 'mine.yaml'): string[] {
  try {
    parseRuleset(text, file);
  } catch (e) {
    expect(e).toBeInstanceOf(RulesetError);
    return (e as RulesetError).message.split('\n').slice(1);
  }
  throw new Error('expected the ruleset to fail');
}

const base = ['name: mine', 'title: Mine', 'threshold:', '  kind: plurality'];

describe('the shipped rulesets', () => {
  it('are the seven the contract names', () => {
    expect(listRulesets()).toEqual([
      'detective-conan',
      'mafiascum-majority',
      'onuw-gog',
      'open-conspiracy',
      'plurality',
      'twg2',
      'witchhunt',
    ]);
  });

  it('open-conspiracy: penalty votes, a five-step tie chain, Hammer and Filibuster on a Pacific schedule', () => {
    expect(loadRuleset('open-conspiracy')).toMatchObject({
      noLynch: { losesTies: true },
      threshold: { kind: 'plurality' },
      ties: { breakers: ['most-penalty', 'most-penalty-today', 'latest-penalty', 'roster-order'] },
      violations: {
        edit: 'penalty',
        image: 'penalty',
        code: 'penalty',
        'external-link': 'penalty',
        'non-english': 'penalty',
      },
      penalties: { modkill: 'more-than-living' },
      missingVote: { penalty: true, blocksPowers: true },
      sideRules: {
        hammer: { atLeast: { numerator: 1, denominator: 2 }, when: 'check', effect: 'end-day' },
        filibuster: { when: 'deadline', effect: 'extend-day', extendBy: { weekdays: 1 }, perDay: 1 },
        forgive: { onSelf: 'refused' },
      },
      schedule: {
        timeZone: 'America/Los_Angeles',
        checks: [{ days: ['mon', 'tue', 'wed', 'thu', 'fri'], time: '12:00' }],
      },
    });
  });

  it('onuw-gog: a hidden vote entered by the GM, ties kill all, No-lynch loses ties, 2 votes at least, the Hunter', () => {
    expect(loadRuleset('onuw-gog')).toMatchObject({
      voteSource: 'gm',
      publish: 'day-end',
      noLynch: { losesTies: true },
      minVotes: 2,
      ties: { then: 'all' },
      roles: { hunter: { lynchKillsVoteTarget: true } },
      missingVote: { flag: true },
      violations: { edit: 'ignore' },
    });
  });

  it('detective-conan: votes by PM, abstaining, statuses that void votes and lynches, inactivity after 3 phases', () => {
    expect(loadRuleset('detective-conan')).toMatchObject({
      voteSource: 'gm',
      publish: 'day-end',
      abstain: { name: 'Abstain' },
      ties: { then: 'none' },
      statuses: {
        arrested: { voteCounts: false, shieldsFromLynch: true },
        poisoned: { voteCounts: false, shieldsFromLynch: true },
        abroad: { voteCounts: false, shieldsFromLynch: false },
        hindered: { voteCounts: false, shieldsFromLynch: false },
      },
      inactivity: { after: 3, counting: 'total', becomes: 'inactive' },
    });
  });

  it('twg2: No Lynch on Day 1 only, one veto a game, the Mayor x2, a coin toss, death after two silent Days', () => {
    expect(loadRuleset('twg2')).toMatchObject({
      noLynch: { days: [1] },
      ties: { then: 'draw' },
      roles: { mayor: { weight: 2 } },
      sideRules: { veto: { perGame: 1, onSelf: 'refused', countsAsVote: true } },
      missingVote: { flag: true },
      inactivity: { after: 2, counting: 'consecutive', becomes: 'dead' },
    });
  });

  it('witchhunt: no self-votes', () => {
    expect(loadRuleset('witchhunt')).toMatchObject({ selfVote: 'refused' });
  });

  it('a GM copies a ruleset and changes it without code', () => {
    const copy = readFileSync(join(rulesetsDir(), 'twg2.yaml'), 'utf8')
      .replace('name: twg2', 'name: twg2-no-toss')
      .replace('then: draw', 'then: none');
    expect(parseRuleset(copy, 'twg2-no-toss.yaml')).toMatchObject({
      name: 'twg2-no-toss',
      ties: { then: 'none' },
      roles: { mayor: { weight: 2 } },
    });
  });
});

describe('ruleset errors of the new mechanisms, at file:line:column', () => {
  it('a side rule for a side action the grammar cannot read', () => {
    const text = [...base, 'sideRules:', '  veto:', '    perGame: 1', ''].join('\n');
    expect(problems(text)).toEqual([
      'mine.yaml:6:3: sideRules.veto: needs votes.side.veto keywords (how players write it)',
    ]);
  });

  it('an extend-day rule without extendBy, and a check rule without check times', () => {
    const text = [
      ...base,
      'votes:',
      '  side:',
      '    filibuster: [filibuster]',
      'sideRules:',
      '  filibuster:',
      '    atLeast: { numerator: 1, denominator: 2 }',
      '    when: check',
      '    effect: extend-day',
      '',
    ].join('\n');
    expect(problems(text)).toEqual([
      'mine.yaml:11:11: sideRules.filibuster.when: when: check needs schedule.checks (the check times)',
      'mine.yaml:12:13: sideRules.filibuster.effect: extend-day needs extendBy (how long)',
    ]);
  });

  it('an unknown time zone and a check time that is not HH:MM', () => {
    const text = [
      ...base,
      'schedule:',
      '  timeZone: America/Springfield',
      '  checks:',
      '    - days: [mon]',
      '      time: "25:00"',
      '',
    ].join('\n');
    expect(problems(text)).toEqual([
      'mine.yaml:6:13: schedule.timeZone: unknown time zone',
      'mine.yaml:9:13: schedule.checks[0].time: HH:MM (24-hour clock)',
    ]);
  });

  it('an unknown tie breaker, status or weekday', () => {
    const text = [...base, 'ties:', '  breakers: [coin]', 'statuses:', '  jailed: {}', ''].join('\n');
    const lines = problems(text);
    expect(lines[0]).toMatch(/^mine\.yaml:6:14: ties\.breakers\[0\] 'coin' is not one of /);
    expect(lines[1]).toMatch(/^mine\.yaml:8:3: statuses\.jailed: unknown key "jailed"; known here: /);
  });
});

describe('rulesets/README.md', () => {
  const text = readFileSync(join(rulesetsDir(), 'README.md'), 'utf8');
  const blocks = [...text.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1]!);

  it('its complete example is a valid ruleset', () => {
    expect(parseRuleset(blocks[0]!, 'README.md example')).toMatchObject({
      name: 'town-hall',
      roles: { mayor: { weight: 2, hiddenWeight: true } },
      ties: { then: 'draw' },
      sideRules: { hammer: { when: 'check' } },
      schedule: { timeZone: 'Europe/Berlin' },
    });
  });

  it('names every shipped ruleset', () => {
    for (const name of listRulesets()) expect(text).toContain(`\`${name}\``);
  });
});

describe('what the shipped rulesets tell a GM (issue #28)', () => {
  it('names no file outside the project (the ruleset help shows their sources)', () => {
    for (const name of listRulesets()) {
      const text = readFileSync(join(rulesetsDir(), `${name}.yaml`), 'utf8');
      expect(text, name).not.toMatch(/shared\/|\.\.\/|\/work\//);
    }
  });
});
