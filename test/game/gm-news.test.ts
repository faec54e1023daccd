import { describe, expect, it } from 'vitest';
import { gmNews, type GmNewsInput } from '../../src/game/gm-news.js';
import type { GmEvent } from '../../src/model/event.js';
import { GameSettings } from '../../src/model/game-settings.js';
import { Roster } from '../../src/model/roster.js';
import { loadRuleset } from '../../src/rules/load-ruleset.js';
import type { HeadOrPost } from '../../src/store/posts-repo.js';
import { readingState } from '../../src/game/reading-state.js';
import { body } from '../parse/build.js';

/**
 * News reads names the way the count does, across the thread: replacements recorded or
 * proposed name their slot for every later post (a replacement of a replacement too), a
 * newcomer's name comes from the thread's posters, and a death already known is a recap.
 * Sentences from MafiaScum game threads, quoted in issue 25.
 */
const ruleset = loadRuleset('mafiascum-majority');
const post = (number: number, author: string, text: string, extra: Partial<HeadOrPost> = {}): HeadOrPost =>
  ({
    number,
    author,
    postedAt: `2020-01-01T${String(number % 24).padStart(2, '0')}:00:00.000Z`,
    permalink: `https://forum.mafiascum.net/viewtopic.php?p=${number}`,
    deleted: false,
    edit: null,
    body: body(text),
    ...extra,
  }) as HeadOrPost;

function news(players: string[], posts: HeadOrPost[], events: GmEvent[] = []) {
  const input: GmNewsInput = {
    game: {
      ruleset: 'mafiascum-majority',
      roster: Roster.parse(players.map((name) => ({ name }))),
      settings: GameSettings.parse({}),
    },
    ruleset,
    posts,
    events: events.map((event, i) => ({ id: i + 1, gameId: 1, event, createdAt: '', createdBy: 'gm' })),
    audit: [],
  };
  return gmNews(input);
}
const events = (n: ReturnType<typeof news>) => n.proposals.map((p) => p.event);

describe('news knows every name of every slot, as the count does', () => {
  it('after a recorded replacement, reads the new name (MafiaScum game thread, quoted in issue 25)', () => {
    const n = news(
      ['Lateralus22', 'Skold', 'Zodiark13'],
      [
        post(0, 'Mod', 'Welcome.'),
        post(40, 'Antihero', 'hi'),
        post(60, 'Mod', 'Antihero, Mafia Goon, has been lynched.'),
      ],
      [{ kind: 'replace', player: 'Lateralus22', by: 'Antihero', at: 30 }],
    );
    expect(n.unread).toEqual([]);
    expect(events(n)).toEqual([
      { kind: 'kill', player: 'Antihero', at: 60 },
      { kind: 'day-end', at: 60 },
    ]);
  });

  it('follows a replacement of a replacement proposed in earlier posts (MafiaScum game thread, quoted in issue 25)', () => {
    const n = news(
      ['Miztef', 'Skold'],
      [
        post(0, 'Mod', 'Signups.'),
        post(10, 'Mod', 'Aaaaand chamber replaces Miztef'),
        post(11, 'chamber', 'hello'),
        post(50, 'Mod', 'Baby Spice replaces chamber.'),
        post(51, 'Baby Spice', 'here'),
      ],
    );
    expect(events(n)).toEqual([
      { kind: 'replace', player: 'Miztef', by: 'chamber', at: 10 },
      { kind: 'replace', player: 'chamber', by: 'Baby Spice', at: 50 },
    ]);
  });

  it('proposes a misspelt name with its match shown (MafiaScum game thread, quoted in issue 25)', () => {
    const n = news(['WeirdRa', 'Skold'], [post(0, 'Mod', 'Hi.'), post(9, 'Mod', 'Chkflip replaces WierdRa')]);
    expect(n.proposals.map((p) => [p.event, p.readAs])).toEqual([
      [
        { kind: 'replace', player: 'WeirdRa', by: 'Chkflip', at: 9 },
        [{ written: 'WierdRa', as: 'WeirdRa', match: 'fuzzy' }],
      ],
    ]);
  });

  it('does not propose a death again when a later post recaps it', () => {
    const n = news(
      ['Zodiark13', 'Skold'],
      [
        post(0, 'Mod', 'Day 1 begins.'),
        post(30, 'Mod', 'Zodiark13 was a Vanilla Townie.'),
        post(90, 'Mod', 'Zodiark13 was a Vanilla Townie.'),
      ],
    );
    expect(events(n)).toEqual([
      { kind: 'day-start', day: 1, at: 0 },
      { kind: 'kill', player: 'Zodiark13', at: 30 },
    ]);
  });

  it('opens no Day from a vote count that recaps a known death beside the majority, nor the same Day twice', () => {
    const n = news(
      ['Zodiark13', 'Skold', 'VP Baltar'],
      [
        post(0, 'Mod', 'Signups.'),
        post(20, 'Mod', 'Zodiark13 was killed N1. Day 2 begins now!'),
        post(
          50,
          'Mod',
          'Vote count 2.3: Dead: Zodiark13 (Vanilla Townie - killed N1). With 8 alive, it takes 5 to lynch.',
        ),
        post(60, 'Mod', 'Day 2 begins now!'),
      ],
      [{ kind: 'day-start', day: 1, at: 1 }],
    );
    expect(events(n)).toEqual([
      { kind: 'kill', player: 'Zodiark13', at: 20 },
      { kind: 'day-start', day: 2, at: 20 },
    ]);
  });

  it("numbers a Day opened by the Night's deaths and the new majority from the Day before it", () => {
    const n = news(
      ['Zodiark13', 'Skold', 'VP Baltar'],
      [
        post(0, 'Mod', 'Signups.'),
        post(80, 'Mod', 'Zodiark13 was killed last night. With 9 alive, it takes 5 to lynch.'),
      ],
      [
        { kind: 'day-start', day: 2, at: 20 },
        { kind: 'day-end', at: 70 },
      ],
    );
    expect(n.proposals.map((p) => [p.event, p.cause ?? null, p.phase ?? null])).toEqual([
      [{ kind: 'day-start', day: 3, at: 80 }, null, null],
      [{ kind: 'kill', player: 'Zodiark13', at: 80 }, 'night-kill', { kind: 'night', number: 2 }],
    ]);
  });
});

describe("the hosts' posts are read for news: the GM setting and the co-hosts' forum names", () => {
  it("reads a co-host account's forum name as a host beside the thread's opener (issue #24)", () => {
    const n = gmNews({
      game: {
        ruleset: 'mafiascum-majority',
        roster: Roster.parse(['Alice', 'Bob', 'Carol'].map((name) => ({ name }))),
        settings: GameSettings.parse({ cohostForumNames: { kim: 'KimTheCohost' } }),
      },
      ruleset,
      posts: [
        post(0, 'Opener', 'Welcome.'),
        post(5, 'KimTheCohost', 'Bob has been lynched.'),
        post(6, 'Carol', 'Alice was lynched.'),
      ],
      events: [],
      audit: [],
    });
    expect(n.gms).toEqual(['Opener', 'KimTheCohost']);
    expect(events(n)).toEqual([
      { kind: 'kill', player: 'Bob', at: 5 },
      { kind: 'day-end', at: 5 },
    ]);
  });
});

describe("the Day's lynch ends the Day", () => {
  const players = ['Parama', 'ICEninja', 'Neruz', 'Cecily'];
  const day1 = { kind: 'day-start', day: 1, at: 1 } as const;

  it('proposes the Day end with a lynch the GM announced without a word of the Night (mafiascum game 1107 post #173)', () => {
    const n = news(
      players,
      [post(0, 'Tasky', 'Signups.'), post(173, 'Tasky', 'Parama, Vanilla Townie, has been lynched Day 1.')],
      [day1],
    );
    expect(events(n)).toEqual([
      { kind: 'kill', player: 'Parama', at: 173 },
      { kind: 'day-end', at: 173 },
    ]);
    expect(n.proposals[1]!.sentence).toBe('Parama, Vanilla Townie, has been lynched Day 1');
  });

  it('proposes one Day end where the GM also says the Night began (mafiascum game 1133 post #476)', () => {
    const n = news(
      players,
      [
        post(0, 'Mod', 'Signups.'),
        post(76, 'Mod', 'Neruz, Vanilla Townie, has been lynched. It is now night 1: send your actions.'),
      ],
      [day1],
    );
    expect(events(n)).toEqual([
      { kind: 'kill', player: 'Neruz', at: 76 },
      { kind: 'day-end', at: 76 },
    ]);
  });

  it('proposes a Night once when the GM announces it twice (mafiascum game 1133 posts #388 and #389)', () => {
    const n = news(
      players,
      [
        post(0, 'Mod', 'Signups.'),
        post(88, 'Mod', 'This is a lynch: death scene in the next post.'),
        post(89, 'Mod', 'It is now night 1: deadline for all night actions is Thursday.'),
      ],
      [day1],
    );
    expect(events(n)).toEqual([{ kind: 'day-end', at: 88 }]);
  });

  it.each([
    ['a lynch of another Day', 'Parama, Vanilla Townie, has been lynched Day 2.', [day1]],
    ['a lynch announced in the Night', 'Parama, Vanilla Townie, has been lynched.', [day1, { kind: 'day-end', at: 2 }]],
  ] as const)('proposes no Day end for %s', (_name, text, recorded) => {
    const n = news(players, [post(0, 'Mod', 'Signups.'), post(30, 'Mod', text)], [...recorded]);
    expect(events(n).filter((e) => e.kind === 'day-end')).toEqual([]);
  });

  it('proposes no Day end for a recap of a lynch already known', () => {
    const n = news(
      players,
      [post(0, 'Mod', 'Signups.'), post(30, 'Mod', 'Parama, Vanilla Townie, has been lynched.')],
      [day1, { kind: 'kill', player: 'Parama', at: 20 }],
    );
    expect(events(n)).toEqual([]);
  });
});

describe('a post is read for news once, as it was when first read', () => {
  // MafiaScum game thread, quoted in issue 25: the opening post, edited during the game.
  const roster = ['gorckat', 'rapidcanyon', 'Skold'];
  const opening =
    'Day 1 Starts | Ends | Day 2 Starts | Ends | Day 4 Starts. gorckat replaces rapidcanyon -Sane Day Cop- has been lynched D2';

  it('does not read an opening post the forum shows edited long after it was posted, and says so', () => {
    const n = news(roster, [
      post(0, 'Mod', opening, { edit: { at: '2020-01-20T00:00:00.000Z', by: 'Mod', text: 'Last edited by Mod' } }),
    ]);
    expect(n.proposals).toEqual([]);
    expect(n.unread.map((u) => [u.post, u.reason])).toEqual([
      [0, expect.stringContaining('edited after it was posted')],
    ]);
  });

  it('reads the same roster line, posted as fresh news, as both its replacement and its lynch', () => {
    // The slot keeps its Day-2 name in the death: the count finds it by either name, whichever is recorded first.
    const n = news(
      ['rapidcanyon', 'Skold', 'Zodiark13'],
      [post(30, 'Mod', 'gorckat replaces rapidcanyon -Sane Day Cop- has been lynched D2'), post(31, 'gorckat', 'hi')],
    );
    expect(n.unread).toEqual([]);
    expect(n.proposals.map((p) => [p.event, p.cause ?? null, p.phase ?? null])).toEqual([
      [{ kind: 'replace', player: 'rapidcanyon', by: 'gorckat', at: 30 }, null, null],
      [{ kind: 'kill', player: 'rapidcanyon', at: 30 }, 'lynch', { kind: 'day', number: 2 }],
      [{ kind: 'day-end', at: 30 }, null, null],
    ]);
  });

  it('reads a post edited within minutes of posting (a typo fixed)', () => {
    const n = news(roster, [
      post(0, 'Mod', 'Day 1 starts now!', { edit: { at: '2020-01-01T00:05:00.000Z', by: 'Mod', text: 'edited' } }),
    ]);
    expect(events(n)).toEqual([{ kind: 'day-start', day: 1, at: 0 }]);
  });

  it('reads the body first seen, not what a later edit added', () => {
    const n = news(roster, [
      post(0, 'Mod', opening, {
        revisions: 2,
        first: { body: body('Day 1 starts now!'), edit: null },
      } as Partial<HeadOrPost>),
    ]);
    expect(events(n)).toEqual([{ kind: 'day-start', day: 1, at: 0 }]);
  });
});

describe('how far the thread is read', () => {
  const poll = { pageCount: 3, lastOkAt: '2020-01-01T00:00:00.000Z', lastError: null };
  it.each([
    [
      'every page read and the last poll good: caught up',
      poll,
      [1, 2, 3],
      { pagesRead: 3, pagesKnown: 3, caughtUp: true },
    ],
    ['a page still to read', poll, [1, 2], { pagesRead: 2, pagesKnown: 3, caughtUp: false }],
    [
      'the last poll failed',
      { ...poll, lastError: 'HTTP 503' },
      [1, 2, 3],
      { pagesRead: 3, pagesKnown: 3, caughtUp: false },
    ],
    [
      'never read',
      { pageCount: null, lastOkAt: null, lastError: null },
      [],
      { pagesRead: 0, pagesKnown: null, caughtUp: false },
    ],
  ])('%s', (_name, p, pages, want) => {
    expect(
      readingState(
        p,
        pages.map((page) => ({ page })),
      ),
    ).toMatchObject(want);
  });
});

describe('a welcome that names no slot takes the slot whose replacement the GM sought', () => {
  const players = ['Drchrist', 'ICEninja', 'wam', 'RayFrost', 'Skold'];
  const welcomed = (n: ReturnType<typeof news>) => ({
    events: events(n),
    sought: n.proposals.map((p) => p.sought?.post ?? null),
    unread: n.unread.map((u) => u.reason),
  });
  it.each([
    [
      // MafiaScum game 1407, posts #137 and #141 (donbot data 739243d)
      'one slot sought: the welcome replaces it, and says which post sought it',
      [
        post(137, 'Mod', 'searching for a replacement for Drchrist'),
        post(141, 'Mod', 'Please welcome Junpei'),
        post(142, 'Junpei', 'hi'),
      ],
      {
        events: [{ kind: 'replace', player: 'Drchrist', by: 'Junpei', at: 141 }],
        sought: [137],
        unread: [],
      },
    ],
    [
      // MafiaScum game 1407, posts #448, #612 and #844 (donbot data 739243d)
      'two slots sought: the GM is asked which',
      [
        post(448, 'Mod', 'wam has requested replacement'),
        post(612, 'Mod', 'RayFrost has requested replacement, searching now'),
        post(844, 'Mod', 'I found a replacement by bugging him enough times, welcome N'),
        post(845, 'N', 'hello'),
      ],
      {
        events: [],
        sought: [],
        unread: ['welcomes N, but says not whom they replace: wam or RayFrost, whose replacements were asked for'],
      },
    ],
    [
      'a slot replaced by name is sought no more: the next welcome takes the other',
      [
        post(10, 'Mod', 'wam has requested replacement'),
        post(11, 'Mod', 'Looking for a replacement for ICEninja'),
        post(20, 'Mod', 'ThunderHog replaces wam'),
        post(30, 'Mod', 'Please welcome Empire'),
        post(31, 'ThunderHog', 'hi'),
        post(32, 'Empire', 'hi'),
      ],
      {
        events: [
          { kind: 'replace', player: 'wam', by: 'ThunderHog', at: 20 },
          { kind: 'replace', player: 'ICEninja', by: 'Empire', at: 30 },
        ],
        sought: [null, 11],
        unread: [],
      },
    ],
    [
      'a slot replaced in the post that sought it is sought no more',
      [
        post(10, 'Mod', 'wam has requested a replacement. ThunderHog replaces wam.'),
        post(30, 'Mod', 'Please welcome Empire'),
        post(31, 'ThunderHog', 'hi'),
        post(32, 'Empire', 'hi'),
      ],
      {
        events: [{ kind: 'replace', player: 'wam', by: 'ThunderHog', at: 10 }],
        sought: [null],
        unread: ["welcomes Empire, but says not whom they replace, and no slot's replacement was asked for"],
      },
    ],
    [
      'a slot that died is sought no more',
      [
        post(10, 'Mod', 'wam has requested replacement'),
        post(20, 'Mod', 'wam was killed Night 1'),
        post(30, 'Mod', 'Please welcome Empire'),
        post(31, 'Empire', 'hi'),
      ],
      {
        events: [{ kind: 'kill', player: 'wam', at: 20 }],
        sought: [null],
        unread: ["welcomes Empire, but says not whom they replace, and no slot's replacement was asked for"],
      },
    ],
    [
      // MafiaScum game 1708, post #1235 (donbot data 739243d)
      'a welcome of words around a name is no newcomer to a slot',
      [
        post(10, 'Mod', 'wam has requested replacement'),
        post(30, 'Mod', 'Welcome to the Mafia Café Cheetory6'),
        post(31, 'Cheetory6', 'hi'),
      ],
      { events: [], sought: [], unread: [] },
    ],
    [
      'a welcome of someone who does not post is not read',
      [post(10, 'Mod', 'wam has requested replacement'), post(30, 'Mod', 'Please welcome Empire')],
      { events: [], sought: [], unread: [] },
    ],
  ])('%s', (_name, posts, want) => {
    expect(welcomed(news(players, [post(0, 'Mod', 'Signups.'), ...posts]))).toEqual(want);
  });
});

describe('replacement wordings of real MafiaScum games (donbot data 739243d)', () => {
  it.each<[string, string[], string, string, GmEvent]>([
    [
      'game 1454 post #663: "has been replaced with"',
      ['AngelInFreezer', 'ArcAngel'],
      'GuyInFreezer',
      'As ArcAngel failed to pick up his prod, AngelInFreezer has been replaced with GuyInFreezer',
      { kind: 'replace', player: 'AngelInFreezer', by: 'GuyInFreezer', at: 20 },
    ],
    [
      'game 1456 post #207: thanks for replacing',
      ['Blue Yoshi', 'denisatp'],
      'ac1983fan',
      'Thanks to ac1983fan for replacing Blue Yoshi: welcome him',
      { kind: 'replace', player: 'Blue Yoshi', by: 'ac1983fan', at: 20 },
    ],
    [
      'game 1122 post #1112: has agreed to replace',
      ['My Milked Eek', 'Skold'],
      'Xtoxm',
      'Xtoxm has agreed to replace My Milked Eek',
      { kind: 'replace', player: 'My Milked Eek', by: 'Xtoxm', at: 20 },
    ],
    [
      'game 1379 post #316: a hydra named between commas',
      ['Venrob', 'Slandaar'],
      'adorkable',
      'adorkable, hydra of InflatablePie and esuriospiritus, replaces Venrob',
      { kind: 'replace', player: 'Venrob', by: 'adorkable', at: 20 },
    ],
  ])('%s', (_, players, newcomer, sentence, expected) => {
    const n = news(players, [post(0, 'Mod', 'Day 1 begins.'), post(10, newcomer, 'hi'), post(20, 'Mod', sentence)]);
    expect(events(n).filter((e) => e.kind === 'replace')).toEqual([expected]);
  });

  it('game 1697 post #972: "is being replaced by request" brings in no newcomer "request"', () => {
    const n = news(
      ['Persivul', 'Skold'],
      [post(0, 'Mod', 'Day 1 begins.'), post(972, 'Mod', 'Persivul is being replaced by request')],
    );
    expect(events(n).filter((e) => e.kind === 'replace')).toEqual([]);
  });

  it('game 1460 post #140: "I replaced Future\'s post" brings in no newcomer "I"', () => {
    const n = news(
      ['Future', 'Skold'],
      [
        post(0, 'Mod', 'Day 1 begins.'),
        post(140, 'Mod', "I replaced Future's post with that as Future's post referred to an ongoing game"),
        post(200, 'SunnyDays', 'hi'),
        post(281, 'Mod', 'SunnyDays replaces Future effective immediately'),
      ],
    );
    expect(events(n).filter((e) => e.kind === 'replace')).toEqual([
      { kind: 'replace', player: 'Future', by: 'SunnyDays', at: 281 },
    ]);
  });
});
