import { describe, expect, it } from 'vitest';
import type { PostViolation } from '../../src/model/action.js';
import { nonEnglishLanguage } from '../../src/parse/language.js';
import type { PostInput } from '../../src/parse/read-post.js';
import { ruleViolations } from '../../src/parse/rule-checks.js';
import {
  b,
  br,
  code,
  edited,
  img,
  internal,
  link,
  mention,
  post,
  quote,
  roster,
  rules,
  s,
  sig,
  smilie,
  spoiler,
} from './build.js';

interface Case {
  name: string;
  post: PostInput;
  players?: string[];
  violations: PostViolation[];
}

const SPANISH = 'Creo que el lobo es claramente el que más calla, hay que votarlo hoy mismo.';

const cases: Case[] = [
  {
    name: 'a plain English post has no violations',
    post: post('I think Bob is scummy because of his reads on day one.'),
    violations: [],
  },
  { name: 'smilie is not an image', post: post('nice ', smilie(':)'), ' one'), violations: [] },
  {
    name: 'image is a violation',
    post: post('look ', img('https://img.example/cat.png')),
    violations: [{ kind: 'image', detail: 'https://img.example/cat.png' }],
  },
  {
    name: 'image inside a quote is not a violation',
    post: post(quote('Ann', img('https://img.example/cat.png')), 'lol'),
    violations: [],
  },
  {
    name: 'image in a signature is not a violation',
    post: post('hi', sig(img('https://img.example/banner.png'))),
    violations: [],
  },
  {
    name: 'image in a spoiler is still posted',
    post: post(spoiler(img('x.png'))),
    violations: [{ kind: 'image', detail: 'x.png' }],
  },
  {
    name: 'image in struck text is still posted',
    post: post(s(img('x.png'))),
    violations: [{ kind: 'image', detail: 'x.png' }],
  },
  {
    name: 'the same image twice is one violation',
    post: post(img('x.png'), br(), img('x.png')),
    violations: [{ kind: 'image', detail: 'x.png' }],
  },
  { name: 'internal link is fine', post: post('see ', internal('/threads/game.1/post-12', 'post 12')), violations: [] },
  {
    name: 'external link is a violation',
    post: post('see ', link('https://elsewhere.example/wiki', 'the wiki')),
    violations: [{ kind: 'external-link', detail: 'https://elsewhere.example/wiki' }],
  },
  { name: 'a mention link is fine', post: post(b('Vote: ', mention('Bob'))), violations: [] },
  {
    name: 'external link inside a quote does not count',
    post: post(quote('Ann', link('https://x.example/', 'x')), 'ok'),
    violations: [],
  },
  {
    name: 'code block is a violation',
    post: post('here:', code('console.log(1)')),
    violations: [{ kind: 'code', detail: 'console.log(1)' }],
  },
  { name: 'code inside a quote does not count', post: post(quote('Ann', code('x = 1')), 'ok'), violations: [] },
  {
    name: 'edit marker gives an edit violation',
    post: edited('Last edited: Apr 3, 2020', 'typo fixed'),
    violations: [{ kind: 'edit', detail: 'Last edited: Apr 3, 2020' }],
  },
  {
    name: 'Spanish post flagged non-English',
    post: post(SPANISH),
    violations: [{ kind: 'non-english', detail: 'es' }],
  },
  {
    name: 'German post flagged non-English',
    post: post('Ich glaube er ist ein Werwolf und wir sollten ihn heute lynchen.'),
    violations: [{ kind: 'non-english', detail: 'de' }],
  },
  { name: 'short English slang not flagged', post: post('brb dinner lol'), violations: [] },
  {
    name: 'slang a detector calls Norwegian is not flagged',
    post: post('brb dinner, tunneling much?'),
    violations: [],
  },
  { name: 'a short foreign phrase is not flagged', post: post('¿qué pasa?'), violations: [] },
  { name: 'foreign text inside a quote does not count', post: post(quote('Ana', SPANISH), 'lol same'), violations: [] },
  {
    name: 'player names and vote lines do not count as language',
    post: post(b('Vote: Juan Carlos Esteban'), br(), 'María José Fernández y Juan Carlos Esteban'),
    players: ['Juan Carlos Esteban', 'María José Fernández'],
    violations: [],
  },
  {
    name: 'URLs do not count as language',
    post: post('https://ejemplo.es/el-lobo-es-claramente-el-que-mas-calla ok'),
    violations: [],
  },
];

/** A ruleset that asks for the language check (it costs, so only such rulesets run it). */
const checksLanguage = (): ReturnType<typeof rules> => {
  const r = rules();
  return { ...r, violations: { ...r.violations, 'non-english': 'flag' } };
};

describe('ruleViolations', () => {
  it.each(cases)('$name', (c) => {
    const players = c.players ? roster(c.players) : roster();
    expect(ruleViolations(c.post, players, checksLanguage())).toEqual(c.violations);
  });

  it('runs no language check when the ruleset ignores non-English posts', () => {
    expect(ruleViolations(post(SPANISH), roster(), rules())).toEqual([]);
  });

  it('reports several kinds in one post, in document order', () => {
    const p = edited('edited', img('a.png'), link('https://x.example/', 'x'), code('y'));
    expect(ruleViolations(p, roster(), rules()).map((v) => v.kind)).toEqual(['image', 'external-link', 'code', 'edit']);
  });
});

describe('nonEnglishLanguage', () => {
  it.each([
    ['English', 'I think he is scummy because of his reads on day one', null],
    ['French', 'Je pense que c est un loup garou et il faut voter contre lui', 'fr'],
    ['too few letters', 'hola amigo', null],
  ])('%s', (_name, textIn, expected) => {
    expect(nonEnglishLanguage(textIn)).toBe(expected);
  });
});
