import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { adapterOf } from '../../scrapers/identify.js';
import { parseFragment } from '../../scrapers/fragment.js';
import { EngineId } from '../../src/model/engine.js';
import { Roster } from '../../src/model/roster.js';
import { MAX_LADDER_PER_POST, readDeadline, readGmPost, rosterNames, sentences } from '../../src/parse/gm-posts.js';
import {
  compileGmPhrases,
  compileTemplate,
  loadGmPhrases,
  parseGmPhrases,
  templateProblem,
} from '../../src/rules/gm-phrases.js';
import { packageRoot } from '../../src/config/package-root.js';
import { body, b, quote, s } from './build.js';

/**
 * Votal reads the GM's own posts and proposes events (nothing is applied unconfirmed).
 * The fixture games (fixtures/gm-posts, one per seed game) hold GM posts in each game's
 * style with every event they must propose, and posts that must propose nothing.
 */
interface FixturePost {
  number: number;
  postedAt: string;
  html: string;
  expect: Record<string, unknown>[];
  unread?: string[];
}
interface Fixture {
  ruleset: string;
  engine: string;
  timeZone: string;
  players: string[];
  posts: FixturePost[];
}

const dir = join(packageRoot(import.meta.url), 'fixtures', 'gm-posts');
const games = readdirSync(dir)
  .filter((f) => f.endsWith('.yaml'))
  .sort();

describe('GM posts in the style of each seed game propose exactly the events they announce', () => {
  it('holds at least 20 GM posts over the five seed games', () => {
    const fixtures = games.map((f) => parseYaml(readFileSync(join(dir, f), 'utf8')) as Fixture);
    expect(fixtures.map((f) => f.ruleset).sort()).toEqual([
      'detective-conan',
      'onuw-gog',
      'open-conspiracy',
      'twg2',
      'witchhunt',
    ]);
    expect(fixtures.reduce((n, f) => n + f.posts.length, 0)).toBeGreaterThanOrEqual(20);
  });

  for (const file of games) {
    const game = parseYaml(readFileSync(join(dir, file), 'utf8')) as Fixture;
    const adapter = adapterOf(EngineId.parse(game.engine));
    const names = rosterNames(Roster.parse(game.players.map((name) => ({ name }))));
    const phrases = loadGmPhrases(game.ruleset);
    describe(file, () => {
      it.each(game.posts.map((p) => [p.number, p] as const))('post %i', (_n, post) => {
        const parsed = parseFragment(post.html, adapter.descriptor.body, 'https://forum.example/thread/1');
        const reading = readGmPost({ number: post.number, body: parsed, postedAt: post.postedAt }, names, phrases, {
          timeZone: game.timeZone,
        });
        const got = reading.proposals.map((p) => ({ ...p.event, ...(p.flip ? { flip: p.flip } : {}) }));
        expect(sortByJson(got)).toEqual(sortByJson(post.expect));
        expect(reading.unread.map((u) => u.reason)).toEqual(
          (post.unread ?? []).map((word) => expect.stringContaining(word)),
        );
      });
    });
  }
});

const sortByJson = <T>(list: T[]): T[] => [...list].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));

describe('reading a GM post', () => {
  const phrases = loadGmPhrases();
  const names = rosterNames(
    Roster.parse([
      { name: 'Bob' },
      { name: 'Mary Ann', aliases: ['MA'] },
      { name: 'Ann' },
      { name: 'Carol', formerNames: ['Cee'] },
    ]),
  );
  const read = (...pieces: Parameters<typeof body>) =>
    readGmPost({ number: 7, body: body(...pieces), postedAt: '2026-03-01T12:00:00Z' }, names, phrases, {
      timeZone: 'UTC',
    });
  const events = (...pieces: Parameters<typeof body>) => read(...pieces).proposals.map((p) => p.event);

  it.each([
    [
      'a death with words before the name',
      'After a long Day, Bob was lynched.',
      [{ kind: 'kill', player: 'Bob', at: 7 }],
    ],
    ['the longest name that fits', 'Mary Ann has been lynched.', [{ kind: 'kill', player: 'Mary Ann', at: 7 }]],
    ['a nickname', 'MA was killed last night.', [{ kind: 'kill', player: 'Mary Ann', at: 7 }]],
    ['a former name', 'Cee was killed last night.', [{ kind: 'kill', player: 'Carol', at: 7 }]],
    ['a number word', 'Day three begins!', [{ kind: 'day-start', day: 3, at: 7 }]],
    ['a hypothesis is not news', 'Town would have won if Bob was lynched.', []],
    ['a question is not news', 'Was Bob lynched?', []],
    ['a negation is not news', 'Bob was not lynched.', []],
    ['a condition after the replaced name is not news', 'Dave replaces Carol if she does not post today.', []],
    ['a condition after a clause break is not news', 'Dave replaces Carol; if she posts, she stays.', []],
    [
      'a long clause after the replaced name (its first words hold the name)',
      'Dave replaces Carol, who never picked up her role PM and did not answer a prod.',
      [{ kind: 'replace', player: 'Carol', by: 'Dave', at: 7 }],
    ],
    ['"nobody" names no player', 'Nobody was killed last night.', []],
    ['a reminder of a future phase', 'Night 2 begins at the deadline.', []],
  ])('%s', (_name, sentence, expected) => {
    expect(events(sentence)).toEqual(expected);
  });

  it('leaves quoted text out: a player quoted by the GM announces nothing', () => {
    expect(events(quote('Ann', 'Bob was lynched.'), 'Thanks for the theory.')).toEqual([]);
  });

  it('leaves struck text out', () => {
    expect(events(s('Bob was lynched.'))).toEqual([]);
  });

  it('takes a bold line that says only "Day N" as a heading, and plain text saying it as nothing', () => {
    expect(events(b('Day 4'))).toEqual([{ kind: 'day-start', day: 4, at: 7 }]);
    expect(events('Day 4')).toEqual([]);
  });

  it('shows the GM a death that names nobody in the game, with the reason', () => {
    const r = read('Zed was lynched.');
    expect(r.proposals).toEqual([]);
    expect(r.unread).toEqual([{ post: 7, sentence: 'Zed was lynched', reason: 'names no player of this game: "Zed"' }]);
  });

  it('gives a deadline the Day announced before it in the same post', () => {
    expect(events('Day 2 has begun. Deadline: March 3 at 18:00 UTC.')).toEqual([
      { kind: 'day-start', day: 2, at: 7 },
      { kind: 'deadline', time: '2026-03-03T18:00:00.000Z', day: 2, at: 7 },
    ]);
  });
});

describe('news reads names the way the count does', () => {
  const phrases = loadGmPhrases();
  const read = (players: string[], text: string, posters: string[] = []) =>
    readGmPost(
      { number: 5, body: body(text), postedAt: null },
      rosterNames(Roster.parse(players.map((name) => ({ name }))), { posters }),
      phrases,
    );

  it('sends a shortened name two players share to the GM with both, never guessing', () => {
    const r = read(['Skoldra', 'Skoldy', 'Ann'], 'Skold was lynched.');
    expect(r.proposals).toEqual([]);
    expect(r.unread.map((u) => u.reason)).toEqual(['"Skold" could be Skoldra or Skoldy']);
  });

  it('never reads a short common word as a player loosely ("And" is not Andromeda)', () => {
    expect(read(['Andromeda', 'Bob'], 'And was lynched.').proposals).toEqual([]);
  });

  it('never invents a newcomer out of a long run of words', () => {
    expect(read(['Carol', 'Bob'], 'I think maybe my old friend from school replaces Carol.').proposals).toEqual([]);
  });

  it.each([
    ['a mod-kill with its Day', 'Bob has been modkilled D2.', 'modkill', 'modkill', { kind: 'day', number: 2 }],
    ['a day kill with its Day', 'Bob was daykilled on Day 3.', 'kill', 'day-kill', { kind: 'day', number: 3 }],
    ['a death in Night words', 'Bob was killed on night two.', 'kill', 'night-kill', { kind: 'night', number: 2 }],
    ['a lynch on the current Day', 'Bob has been lynched.', 'kill', 'lynch', { kind: 'day', number: 4 }],
  ])('says what a death was: %s', (_name, text, kind, cause, phase) => {
    const r = readGmPost(
      { number: 5, body: body(text), postedAt: null },
      rosterNames(Roster.parse([{ name: 'Bob' }, { name: 'Carol' }])),
      phrases,
      { day: 4 },
    );
    expect(r.proposals.map((p) => [p.event.kind, p.cause, p.phase])).toEqual([[kind, cause, phase]]);
  });

  it('reads two deaths in two clauses of one sentence, each with its own phase', () => {
    const r = read(['Bob', 'Carol', 'Dave'], 'Bob was lynched on Day 1 and Carol was killed on Night 1.');
    expect(
      r.proposals.map((p) => [p.event.kind, 'player' in p.event ? p.event.player : null, p.cause, p.phase]),
    ).toEqual([
      ['kill', 'Bob', 'lynch', { kind: 'day', number: 1 }],
      ['kill', 'Carol', 'night-kill', { kind: 'night', number: 1 }],
    ]);
  });

  it.each([
    ["a player's action, not the GM's news", 'Bob killed it with that post.'],
    ['a rule about the lynched', 'Remember that lynched players may not post.'],
    ['a hypothesis before a phase', 'If Bob is lynched, Night 2 begins.'],
    ['talk after a death', 'Bob was killed, I am sure of it.'],
  ])('proposes nothing for %s', (_name, text) => {
    expect(read(['Bob', 'Carol'], text).proposals).toEqual([]);
  });
});

describe('deadlines as GMs write them', () => {
  const zones = { PT: 'America/Los_Angeles', GMT: 'UTC', UTC: 'UTC', ET: 'America/New_York' };
  it.each([
    ['ISO with an offset', '2026-03-06T20:00-08:00', null, '2026-03-07T04:00:00.000Z'],
    ['ISO with a zone word', '2026-03-06 20:00 UTC', null, '2026-03-06T20:00:00.000Z'],
    ['ISO in the game zone', '2026-07-06 12:00', 'America/Los_Angeles', '2026-07-06T19:00:00.000Z'],
    ['month first, PT in summer', 'Friday, July 10 at 12:00 PM PT', null, '2026-07-10T19:00:00.000Z'],
    ['month first, PT in winter', 'December 4, 2026 at noon PT', null, '2026-12-04T20:00:00.000Z'],
    ['the day after the spring change', 'March 9 at 12:00 PT', null, '2026-03-09T19:00:00.000Z'],
    ['day first', '3rd of February 2027 at 9pm GMT', null, '2027-02-03T21:00:00.000Z'],
    ['a GMT offset', 'March 5, 18:30 GMT-8', null, '2026-03-06T02:30:00.000Z'],
    ['a weekday before the time', 'Friday 12:00 PM, March 6 ET', null, '2026-03-06T17:00:00.000Z'],
    ['midnight', 'March 6 at midnight UTC', null, '2026-03-07T00:00:00.000Z'],
  ])('%s', (_name, raw, zone, expected) => {
    expect(readDeadline(raw, '2026-03-01T12:00:00Z', zone, zones)).toBe(expected);
  });

  it.each([
    ['no date', '12:00 PT'],
    ['no time', 'March 6 PT'],
    ['no zone and none for the game', 'March 6 at 12:00'],
    ['an unknown zone word', 'March 6 at 12:00 XYZ'],
  ])('reads nothing from %s', (_name, raw) => {
    expect(readDeadline(raw, '2026-03-01T12:00:00Z', null, zones)).toBeNull();
  });

  it('puts a date long past this year into the next', () => {
    expect(readDeadline('January 2 at 12:00 UTC', '2026-12-30T12:00:00Z', null, zones)).toBe(
      '2027-01-02T12:00:00.000Z',
    );
  });
});

describe('phrase templates are data a GM can write', () => {
  it.each([
    ['a literal word', 'day over', 'day  over', true],
    ['an optional word', 'was [now] lynched', 'was lynched', true],
    ['an optional word, present', 'was [now] lynched', 'was now lynched', true],
    ['optional words first', '[the] [new] deadline is', 'deadline is', true],
    ['optional words last', 'lynched [today] [at noon]', 'lynched at noon', true],
    ['one of', '(is|has been) lynched', 'has been lynched', true],
    ['case and spacing', 'day is over', 'DAY   IS over', true],
    ['regex characters are literal', 'a.b', 'axb', false],
    ['the whole sentence only', 'bob was lynched', 'bob was lynched today', false],
  ])('%s', (_name, template, sentence, matches) => {
    expect(compileTemplate('kill', template).pattern.test(sentence)).toBe(matches);
  });

  it.each([
    ['an unknown placeholder', '{victim} was lynched', 'unknown placeholder'],
    ['an inherited name as placeholder', '{constructor} was lynched', 'unknown placeholder'],
    ['a nested group', '((a|b)|c) x', 'cannot nest'],
    ['an open group', '(a|b x', 'not closed'],
    ['an empty option', '(a||b) x', 'empty option'],
  ])('refuses %s', (_name, template, message) => {
    expect(templateProblem(template)).toContain(message);
  });

  it('names the file, line and column of a bad template', () => {
    expect(() => parseGmPhrases('kill:\n  - "fine {player} was lynched"\n  - "{victim} died"\n', 'mine.yaml')).toThrow(
      /mine\.yaml:3:5: kill\[1\]: unknown placeholder/,
    );
  });

  it("adds a ruleset file's phrases to the defaults", () => {
    const extra = parseGmPhrases('kill:\n  - "{player} swims with the fishes"\n', 'extra.yaml');
    const base = parseGmPhrases(
      readFileSync(join(packageRoot(import.meta.url), 'rulesets', 'gm-phrases', 'default.yaml'), 'utf8'),
      'default.yaml',
    );
    const phrases = compileGmPhrases([base, extra]);
    const names = rosterNames(Roster.parse([{ name: 'Bob' }]));
    const r = readGmPost({ number: 3, body: body('Bob swims with the fishes.'), postedAt: null }, names, phrases);
    expect(r.proposals.map((p) => p.event)).toEqual([{ kind: 'kill', player: 'Bob', at: 3 }]);
  });
});

describe('hostile GM posts stay bounded', () => {
  it('passes over sentences too long to be announcements', () => {
    expect(sentences(`${'Bob '.repeat(200)}was lynched.`)).toEqual([]);
  });

  it('asks the name ladder a bounded number of times however many unknown names a post has', () => {
    let asked = 0;
    const book = rosterNames(Roster.parse([{ name: 'Bob' }]));
    const counting = {
      ...book,
      ladder: (w: string) => {
        asked++;
        return book.ladder(w);
      },
    };
    const text = Array.from({ length: 2000 }, (_, i) => `Zed${i} was killed.`).join(' ');
    const r = readGmPost({ number: 1, body: body(text), postedAt: null }, counting, loadGmPhrases());
    expect(r.unread.length).toBe(2000);
    expect(asked).toBeLessThanOrEqual(MAX_LADDER_PER_POST);
  });

  it('reads a post of 5,000 sentences, one news among them', () => {
    const names = rosterNames(Roster.parse(Array.from({ length: 3000 }, (_, i) => ({ name: `Player ${i}` }))));
    const text = `${'The town talks a lot today. '.repeat(5000)}Player 2999 was lynched.`;
    const r = readGmPost({ number: 1, body: body(text), postedAt: null }, names, loadGmPhrases());
    expect(r.proposals.map((p) => p.event)).toEqual([{ kind: 'kill', player: 'Player 2999', at: 1 }]);
  });
});
