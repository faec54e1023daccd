import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Dialect, DIALECTS, dialectSpec } from '../../src/votal/dialect.js';
import { escapeText, ZWJ } from '../../src/votal/escape.js';
import { renderBbcode } from '../../src/votal/render-bbcode.js';
import { formatDeadline, renderVotal } from '../../src/votal/render-votal.js';
import { TemplateError } from '../../src/votal/template.js';
import { checkBbcode, checkMarkdown, permalink, PLAYERS, tallyOf, wagon } from './support.js';

const dialects = Dialect.options;
/** Tags the votal itself writes, per family (no-parse tags are checked separately). */
const VOTAL_TAGS = ['b', 'i', 'url', 'list', '*', 'color'];

/** The post is well formed for its dialect: nothing but the votal's own markup. */
function checkWellFormed(dialect: Dialect, out: string): void {
  const spec = dialectSpec(dialect);
  if (spec.family === 'markdown') checkMarkdown(out);
  else checkBbcode(out, spec, VOTAL_TAGS);
  if (spec.html) expect(out).not.toMatch(/[<>]/);
}

/** A tally where `name` is a player who votes, is voted for, and is named in the outcome. */
function tallyNaming(name: string) {
  const players = [name, ...PLAYERS.slice(0, 4)];
  return tallyOf({
    players,
    wagons: [
      wagon(name, [
        [name, 3],
        ['Alice', 5],
      ]),
      wagon('Bob', [['Carol', 7]], { links: false }),
    ],
    notVoting: [name, 'Dave'],
    outcome: { status: 'majority', eliminated: [name], decidedAt: 40 },
  });
}

const MARKUP_NAMES = [
  '[b]x',
  '[/url]',
  '*x*',
  '_x_',
  '<script>alert(1)</script>',
  '](javascript:alert(1))',
  'back\\',
  '[PLAIN]a[/PLAIN]',
  '[noparse][/noparse]',
  '[nobbc]x[/nobbc]',
  'x[',
  '@admin',
  '# heading',
  '1. first',
  '- item',
  '`code`',
  '[url=https://evil.example]hi[/url]',
  '[color=red]x',
  'a\nb',
];

describe('every dialect escapes a name that looks like markup', () => {
  const pieces = [
    '[',
    ']',
    '*',
    '_',
    '\\',
    '`',
    '<',
    '>',
    '(',
    ')',
    '!',
    '#',
    '/',
    '=',
    ':',
    ';',
    '8',
    'D',
    'P',
    '@',
    ' ',
    '.',
    '-',
    '&',
    '|',
    '~',
    '1',
    '\n',
    'b',
    'url',
    'URL',
    'list',
    'color',
    'PLAIN',
    'plain',
    'NOPARSE',
    'nobbc',
    'javascript',
    'http',
    'x',
    'Bob',
  ];
  const nameArb = fc
    .array(fc.constantFrom(...pieces), { minLength: 1, maxLength: 12 })
    .map((p) => p.join(''))
    .filter((n) => n.trim() !== '');

  describe.each(dialects)('%s', (dialect) => {
    const spec = dialectSpec(dialect);

    it('random names with []*_\\`<>()!# appear only escaped, and the markup stays balanced', () => {
      fc.assert(
        fc.property(nameArb, (name) => {
          const out = renderVotal(tallyNaming(name), { dialect });
          const escaped = escapeText(spec, name);
          expect(out).toContain(escaped);
          checkWellFormed(dialect, out);
        }),
        { numRuns: 300 },
      );
    });

    it.each(MARKUP_NAMES)('%j', (name) => {
      const out = renderVotal(tallyNaming(name), { dialect });
      expect(out).toContain(escapeText(spec, name));
      checkWellFormed(dialect, out);
    });
  });

  it('a no-parse tag shows brackets as typed where the engine has one, look-alikes elsewhere', () => {
    const name = '[b]x';
    expect(escapeText(DIALECTS['bbcode-xenforo'], name)).toBe('[PLAIN][b]x[/PLAIN]');
    expect(escapeText(DIALECTS['bbcode-vbulletin'], name)).toBe('[NOPARSE][b]x[/NOPARSE]');
    expect(escapeText(DIALECTS['bbcode-smf'], name)).toBe('[nobbc][b]x[/nobbc]');
    for (const d of [
      'bbcode-phpbb',
      'bbcode-mybb',
      'bbcode-proboards',
      'bbcode-invision',
      'bbcode-fluxbb',
      'gog',
    ] as const) {
      expect(escapeText(DIALECTS[d], name)).toBe('\uFF3Bb\uFF3Dx');
    }
    // A name that would close the no-parse tag cannot.
    expect(escapeText(DIALECTS['bbcode-xenforo'], 'a[/plain]b')).toBe('[PLAIN]a\uFF3B/plain]b[/PLAIN]');
  });
});

describe('8) stays text', () => {
  const eight = tallyOf({
    players: [...PLAYERS, 'H', 'I', 'J', 'Agent 8)', 'Smiley :D'],
    threshold: { kind: 'majority', votes: 9 },
    wagons: [
      wagon(
        'Agent 8)',
        [
          ['Alice', 1],
          ['Bob', 2],
          ['Carol', 3],
          ['Dave', 4],
          ['Eve', 5],
          ['Frank', 6],
          ['Grace', 7],
          ['H', 8],
        ],
        { needs: 9 },
      ),
    ],
    outcome: { status: 'open' },
  });

  it.each(dialects.filter((d) => DIALECTS[d].smilies))('%s: counts and names never form a smilie code', (dialect) => {
    const out = renderVotal(eight, { dialect });
    // Link targets are not text: a URL ending in 8 before Markdown's ")" is no smilie.
    const text = out.replace(/\]\(https?:[^\s)]*\)/g, '](…)');
    expect(text).not.toMatch(/8\)|:D|:\)|;\)|:P/);
    // The joiner is invisible: the text reads the same without it.
    expect(out.replaceAll(ZWJ, '')).toContain('(8)');
    expect(out.replaceAll(ZWJ, '')).toContain('Smiley :D');
  });

  it('GOG shows typed smilies as text, so its counts are written as they are', () => {
    const out = renderVotal(eight, { dialect: 'gog' });
    expect(out).toContain('[b]Agent 8)[/b] (8) — L-1');
    expect(out).not.toContain(ZWJ);
  });
});

describe('voters link to their vote posts', () => {
  const t = tallyOf({
    wagons: [
      wagon('Bob', [
        ['Carol', 17],
        ['Eve', 21],
      ]),
      wagon('Dave', [['Frank', 9]], { links: false }),
    ],
  });
  const expected: Record<Dialect, (url: string, name: string) => string> = {
    'bbcode-xenforo': (u, n) => `[url=${u}]${n}[/url]`,
    'bbcode-phpbb': (u, n) => `[url=${u}]${n}[/url]`,
    'bbcode-vbulletin': (u, n) => `[url=${u}]${n}[/url]`,
    'bbcode-proboards': (u, n) => `[url=${u}]${n}[/url]`,
    'bbcode-smf': (u, n) => `[url=${u}]${n}[/url]`,
    'bbcode-mybb': (u, n) => `[url=${u}]${n}[/url]`,
    'bbcode-invision': (u, n) => `[url=${u}]${n}[/url]`,
    gog: (u, n) => `[url=${u}]${n}[/url]`,
    markdown: (u, n) => `[${n}](${u})`,
    'markdown-vanilla': (u, n) => `[${n}](${u})`,
    'bbcode-fluxbb': (u, n) => `[url=${u}]${n}[/url]`,
  };

  it.each(dialects)('%s', (dialect) => {
    const out = renderVotal(t, { dialect });
    expect(out).toContain(`${expected[dialect](permalink(17), 'Carol')}, ${expected[dialect](permalink(21), 'Eve')}`);
    // Without a permalink the post number still says where the vote is.
    expect(out).toContain(DIALECTS[dialect].family === 'markdown' ? 'Frank (\\#9)' : 'Frank (#9)');
  });

  it('a permalink that is not http(s) is not written as a link', () => {
    const bad = tallyOf({
      wagons: [
        {
          ...wagon('Bob', [['Carol', 17]]),
          voters: [{ player: 'Carol', post: 17, weight: 1, permalink: 'javascript:alert(1)' }],
        },
      ],
    });
    for (const dialect of dialects) {
      const out = renderVotal(bad, { dialect });
      expect(out).not.toContain('javascript');
      expect(out).toContain('Carol');
    }
  });

  it('a weighted voter shows the weight', () => {
    const out = renderVotal(tallyOf({ wagons: [wagon('Bob', [['Carol', 17]], { weights: { Carol: 2 } })] }), {
      dialect: 'bbcode-phpbb',
    });
    expect(out).toContain(`[b]Bob[/b] (2) — L-2: [url=${permalink(17)}]Carol[/url] (×2)`);
  });
});

describe('Sleep wagon is shown by its ruleset name', () => {
  const t = tallyOf({
    wagons: [
      wagon('Bob', [
        ['Carol', 3],
        ['Dave', 4],
      ]),
      wagon('Sleep', [['Eve', 6]]),
    ],
  });

  it.each(dialects)('%s', (dialect) => {
    const out = renderVotal(t, { dialect });
    const bold = DIALECTS[dialect].bold;
    expect(out).toContain(`${bold[0]}Sleep${bold[1]} (1) — L-3:`);
    // In the tally's order: Bob's wagon first.
    expect(out.indexOf(`${bold[0]}Bob${bold[1]}`)).toBeLessThan(out.indexOf(`${bold[0]}Sleep${bold[1]}`));
    expect(out).toMatch(/Not voting \(4\):.* Alice, Bob, Frank, Grace/);
  });
});

describe('GOG uses no list or colour tags', () => {
  it('only [b] [i] [u] [url] [quote], even with L-1 and a majority to mark', () => {
    const t = tallyOf({
      wagons: [
        wagon('Bob', [
          ['Carol', 3],
          ['Dave', 4],
          ['Eve', 5],
          ['Frank', 6],
        ]),
        wagon('Alice', [
          ['Grace', 7],
          ['Bob', 8],
          ['Alice', 9],
        ]),
      ],
      outcome: { status: 'majority', eliminated: ['Bob'], decidedAt: 6 },
    });
    const out = renderVotal(t, { dialect: 'gog' });
    const tags = checkBbcode(out, DIALECTS.gog, ['b', 'i', 'u', 'url', 'quote']);
    expect(tags).toContain('url');
    expect(out).not.toMatch(/\[(list|\*|color|size|spoiler)/i);
    expect(out).toContain('[b]Alice[/b] (3) — L-1:');
    expect(out).toContain('[b]Bob[/b] (4) — [b]majority reached[/b]:');
  });

  it('the BBCode dialects with colours mark L-1 and majority in red', () => {
    const t = tallyOf({
      wagons: [
        wagon('Alice', [
          ['Grace', 7],
          ['Bob', 8],
          ['Alice', 9],
        ]),
      ],
    });
    expect(renderVotal(t, { dialect: 'bbcode-xenforo' })).toContain('(3) — [color=red]L-1[/color]:');
  });
});

describe('Markdown escapes link syntax in names', () => {
  it('a name cannot close the link text or open a link of its own', () => {
    const evil = '](javascript:alert(1)) [x](https://evil.example)';
    const t = tallyOf({ players: [evil, 'Bob', 'Carol'], wagons: [wagon('Bob', [[evil, 4]], { needs: 2 })] });
    const out = renderVotal(t, { dialect: 'markdown' });
    checkMarkdown(out);
    expect(out).toContain(`[\\](javascript:alert(1)) \\[x\\](https\\:\\/\\/evil\\.example)](${permalink(4)})`);
    // One link per voter, no more.
    expect(out.match(/(?<!\\)\]\(http/g)).toHaveLength(1);
  });

  it.each([
    ['*x*', '\\*x\\*'],
    ['_x_', '\\_x\\_'],
    ['<script>', '\\<script\\>'],
    ['back\\', 'back\\\\'],
    ['# title', '\\# title'],
    ['1. first', '1\\. first'],
    ['- item', '\\- item'],
    ['`code`', '\\`code\\`'],
    ['@admin', `@${ZWJ}admin`],
    [':smile:', `:${ZWJ}smile:`],
  ])('%j is written %j', (name, written) => {
    expect(escapeText(DIALECTS.markdown, name)).toBe(written);
  });
});

describe('template placeholders fill in; an unknown placeholder is an error', () => {
  const t = tallyOf({
    wagons: [
      wagon('Bob', [
        ['Carol', 3],
        ['Dave', 4],
      ]),
      wagon('[b]Eve', [['Frank', 5]]),
    ],
  });

  it('fills placeholders and repeats {{#each wagons}} in the tally order, escaped', () => {
    const template = [
      '[size=5]{{header}}[/size]',
      '{{#each wagons}}',
      '{{target}} — {{count}} ({{status}}): {{voters}}',
      '{{/each}}',
      '{{threshold}}',
    ].join('\n');
    const out = renderVotal(t, { dialect: 'bbcode-phpbb', template });
    expect(out).toBe(
      [
        '[size=5][b]Vote count — Day 1[/b][/size]',
        `Bob — 2 (L-2): [url=${permalink(3)}]Carol[/url], [url=${permalink(4)}]Dave[/url]`,
        `\uFF3Bb\uFF3DEve — 1 (L-3): [url=${permalink(5)}]Frank[/url]`,
        'With 7 alive, it takes 4 to eliminate.',
        '',
      ].join('\n'),
    );
  });

  it('a placeholder alone on its line that comes out empty takes its line; {{#if}} shows only what exists', () => {
    const template = 'A\n{{deadline}}\nB\n{{#if deadline}}Deadline set{{/if}}{{#if wagons}}Votes!{{/if}}\n';
    expect(renderVotal(t, { dialect: 'markdown', template })).toBe('A\nB\nVotes!\n');
    expect(renderVotal(t, { dialect: 'markdown', template, deadline: '2026-03-14T01:00:00Z' })).toBe(
      'A\n**Deadline:** Sat, Mar 14, 2026, 01:00 UTC\nB\nDeadline setVotes!\n',
    );
  });

  it('Windows line ends and indentation are kept as the GM wrote them', () => {
    const template =
      '{{#each wagons}}\r\n  * {{target}}{{#if status}} ({{status}}){{/if}}\r\n{{/each}}\r\n  {{deadline}}\r\n{{outcome}}';
    expect(renderVotal(t, { dialect: 'bbcode-phpbb', template })).toBe(
      '  * Bob (L-2)\n  * \uFF3Bb\uFF3DEve (L-3)\nThe Day goes on.\n',
    );
  });

  it.each([
    ['{{header}}\n{{wagon}}', /unknown placeholder "\{\{wagon\}\}" at line 2, column 1 \(known here: header, .*wagons/],
    ['{{target}}', /unknown placeholder "\{\{target\}\}" at line 1, column 1/],
    ['{{#each players}}{{/each}}', /unknown list "\{\{#each players\}\}"/],
    ['{{#each wagons}}{{line}}', /\{\{#each wagons\}\} at line 1, column 1 is never closed/],
    ['{{#if deadline}}x{{/each}}', /"\{\{\/each\}\}" at line 1, column 18 closes nothing/],
    ['{{#each wagons}}{{#each wagons}}{{/each}}{{/each}}', /inside another \{\{#each\}\}/],
    ['{{header', /"\{\{" at line 1, column 1 is not closed/],
    ['{{constructor}}', /unknown placeholder "\{\{constructor\}\}"/],
    ['{{header.__proto__}}', /unknown placeholder/],
    ['{{#with wagons}}{{/with}}', /unknown section/],
  ])('%j is an error', (template, message) => {
    expect(() => renderVotal(t, { dialect: 'bbcode-phpbb', template })).toThrow(TemplateError);
    expect(() => renderVotal(t, { dialect: 'bbcode-phpbb', template })).toThrow(message);
  });
});

describe("deadline shown in the game's time zone", () => {
  const t = tallyOf();
  it.each([
    ['America/New_York', 'Fri, Mar 13, 2026, 21:00 EDT'],
    ['Europe/London', 'Sat, Mar 14, 2026, 01:00 GMT'],
    ['Asia/Tokyo', 'Sat, Mar 14, 2026, 10:00 GMT+9'],
    // As the dashboard names it (issue #28): en-US alone would write "GMT+1" for Berlin.
    ['Europe/Berlin', 'Sat, Mar 14, 2026, 02:00 CET'],
    ['Europe/Paris', 'Sat, Mar 14, 2026, 02:00 CET'],
    [undefined, 'Sat, Mar 14, 2026, 01:00 UTC'],
  ])('%s', (timeZone, shown) => {
    const out = renderVotal(t, {
      dialect: 'bbcode-xenforo',
      deadline: '2026-03-14T01:00:00Z',
      ...(timeZone ? { timeZone } : {}),
    });
    expect(out).toContain(`[b]Deadline:[/b] ${shown}`);
  });

  it('no deadline, no line; a bad zone or date is a clear error', () => {
    expect(renderVotal(t, { dialect: 'gog', deadline: null })).not.toContain('Deadline');
    expect(() => formatDeadline('2026-03-14T01:00:00Z', 'Mars/Olympus')).toThrow(/time zone "Mars\/Olympus"/);
    expect(() => formatDeadline('next friday')).toThrow(/"next friday" is not an ISO 8601/);
  });
});

describe('the official post', () => {
  it('has every part: header, wagons, not voting, threshold, penalties, deadline, violations, outcome', () => {
    const t = tallyOf({
      wagons: [
        wagon(
          'Bob',
          [
            ['Carol', 3],
            ['Dave', 4],
            ['Eve', 5],
          ],
          { penalty: 1 },
        ),
        wagon('Sleep', [['Frank', 6]]),
      ],
      penalties: [
        { player: 'Bob', count: 1, today: 1 },
        { player: 'Eve', count: 0, today: 0 },
      ],
      violations: [1, 2, 3].map((post) => ({
        player: 'Eve',
        post,
        kind: 'edit' as const,
        detail: '',
        consequence: 'flag' as const,
      })),
      flags: [{ post: 9, player: 'Grace', kind: 'ambiguous-target', raw: 'vote: da', candidates: ['Dave', 'Davina'] }],
      outcome: { status: 'majority', eliminated: ['Bob'], decidedAt: 40 },
    });
    const out = renderVotal(t, {
      dialect: 'bbcode-phpbb',
      deadline: '2026-03-14T01:00:00Z',
      timeZone: 'America/New_York',
    });
    expect(out).toBe(`[b]Vote count — Day 1[/b]
[i]As of post 30.[/i]

[list]
[*][b]Bob[/b] (3+1) — [color=red][b]majority reached[/b][/color]: [url=${permalink(3)}]Carol[/url], [url=${permalink(4)}]Dave[/url], [url=${permalink(5)}]Eve[/url]
[*][b]Sleep[/b] (1) — L-3: [url=${permalink(6)}]Frank[/url]
[/list]

[b]Not voting (3):[/b] Alice, Bob, Grace

With 7 alive, it takes 4 to eliminate.
[b]Penalty votes:[/b] Bob 1
[b]Deadline:[/b] Fri, Mar 13, 2026, 21:00 EDT
3 rule violations flagged for the GM; 1 vote left for the GM to check.

[b]Majority reached on Bob at post 40.[/b]
`);
  });

  it('lists who is alive and who is dead once someone has died, and says nothing of it before (issue #14, 4)', () => {
    const living = PLAYERS.filter((p) => p !== 'Dave');
    const afterKill = tallyOf({ players: living, dead: ['Dave'] });
    const out = renderVotal(afterKill, { dialect: 'bbcode-phpbb' });
    expect(out).toContain(`[b]Alive (${living.length}):[/b] ${living.join(', ')}\n[b]Dead (1):[/b] Dave\n`);
    expect(out).toContain(`With ${living.length} alive`);
    const nobodyDead = renderVotal(tallyOf(), { dialect: 'bbcode-phpbb' });
    expect(nobodyDead).not.toContain('Alive (');
    expect(nobodyDead).not.toContain('Dead (');
  });

  it("a Night kill after the Day ended is dead only, and the Day's eliminated is out too (issue #24)", () => {
    // The Day's board (`players`) is frozen once the Day is decided; Dave died in the Night after.
    const night = tallyOf({
      players: PLAYERS,
      dead: ['Dave'],
      outcome: { status: 'ended', eliminated: ['Bob'], decidedAt: 40, leaders: ['Bob'] },
    });
    const out = renderVotal(night, { dialect: 'bbcode-phpbb' });
    expect(out).toContain('[b]Alive (5):[/b] Alice, Carol, Eve, Frank, Grace\n[b]Dead (2):[/b] Dave, Bob\n');
  });

  it('escapes the names of the living and the dead for the dialect', () => {
    const out = renderVotal(tallyOf({ players: ['[b]Ann[/b]'], dead: ['*Bo*'] }), { dialect: 'markdown' });
    expect(out).not.toContain('[b]Ann[/b]');
    expect(out).not.toMatch(/(^|[^\\])\*Bo\*/);
  });

  it('counts only the review items still open: a GM correction is a settled one (issue #14, 3)', () => {
    const flag = (post: number, kind: 'ambiguous-target' | 'gm-correction') => ({
      post,
      player: 'Grace',
      kind,
      raw: 'vote: da',
      candidates: [] as string[],
    });
    const settledTwo = tallyOf({
      flags: [flag(9, 'gm-correction'), flag(11, 'gm-correction'), flag(12, 'ambiguous-target')],
    });
    expect(renderVotal(settledTwo, { dialect: 'markdown' })).toContain('1 vote left for the GM to check.');
    const allSettled = tallyOf({ flags: [flag(9, 'gm-correction')] });
    expect(renderVotal(allSettled, { dialect: 'markdown' })).not.toContain('left for the GM to check');
  });

  it('text for the players (audience players) tells no one what waits for the GM (issue #28)', () => {
    const t = tallyOf({
      flags: [{ post: 12, player: 'Grace', kind: 'ambiguous-target', raw: 'vote: da', candidates: [] }],
    });
    expect(renderVotal(t, { dialect: 'markdown' })).toContain('1 vote left for the GM to check.');
    expect(renderVotal(t, { dialect: 'markdown', audience: 'players' })).not.toContain('left for the GM');
  });

  it('a review item the GM accepted as it is is settled too', () => {
    const t = tallyOf({
      flags: [
        { post: 9, player: 'Zed', kind: 'vote-by-non-player', raw: 'vote: bob', candidates: [] },
        { post: 12, player: 'Grace', kind: 'ambiguous-target', raw: 'vote: da', candidates: [] },
      ],
    });
    expect(renderVotal(t, { dialect: 'markdown' })).toContain('2 votes left for the GM to check.');
    expect(renderVotal(t, { dialect: 'markdown', settled: ['flag:9:vote-by-non-player'] })).toContain(
      '1 vote left for the GM to check.',
    );
  });

  it('a plurality game has no L-k and says the deadline decides', () => {
    const t = tallyOf({
      threshold: { kind: 'plurality', votes: null },
      wagons: [wagon('Bob', [['Carol', 3]], { needs: null })],
    });
    const out = renderVotal(t, { dialect: 'markdown' });
    expect(out).toContain('- **Bob** (1): [Carol]');
    expect(out).toContain('With 7 alive, the most votes at the deadline decide.');
  });

  it('an empty Day says so', () => {
    expect(renderVotal(tallyOf(), { dialect: 'gog' })).toContain('No votes yet.');
  });

  it('a title replaces the header and is escaped', () => {
    expect(renderVotal(tallyOf(), { dialect: 'bbcode-mybb', title: 'Mini [12] VC 1.3' })).toMatch(
      /^\[b\]Mini \uFF3B12\uFF3D VC 1\.3\[\/b\]\n/,
    );
  });
});

describe("votal count --format bbcode renders the votal in the engine's dialect", () => {
  const t = tallyOf({ wagons: [wagon('[x]', [['Carol', 3]])], players: ['[x]', 'Carol'] });
  it.each([
    ['xenforo2', 'bbcode-xenforo'],
    ['vbulletin4', 'bbcode-vbulletin'],
    ['gog', 'gog'],
    ['discourse', 'bbcode-phpbb'],
    [null, 'bbcode-phpbb'],
  ] as const)('%s -> %s', (engine, dialect) => {
    const forEngine = { ...t, engine };
    expect(renderBbcode(forEngine)).toBe(renderVotal(forEngine, { dialect }));
  });
});

describe('bidi controls and bare links from the forum (issue #22, 4-5)', () => {
  const spoof = 'Bob\u202Eecila\u2066x\u2069\u200F\u061C';

  it.each(dialects)('%s: a name with bidi and invisible controls is written without them', (dialect) => {
    const out = renderVotal(tallyNaming(spoof), { dialect });
    expect(out).not.toMatch(/[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/);
    expect(out).toContain('Bobecilax');
  });

  it.each([
    ['a bare domain', 'evil.com', 'evil\\.com'],
    ['a subdomain', 'www.evil.co.uk', 'www\\.evil\\.co\\.uk'],
    ['a URL', 'https://evil.example/x', 'https\\:\\/\\/evil\\.example/x'],
    ['a bold domain as the attack wrote it', '**evil.com**', '\\*\\*evil\\.com\\*\\*'],
  ])('Markdown: %s is escaped where linkify would link it (Discourse, NodeBB)', (_, name, written) => {
    const out = renderVotal(tallyNaming(name), { dialect: 'markdown' });
    checkMarkdown(out);
    expect(out).toContain(written);
    expect(out).not.toContain(ZWJ + '.');
  });
});
