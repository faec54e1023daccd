import { describe, expect, it } from 'vitest';
import type { BodyNode } from '../../src/model/body.js';
import { ownLines, ownText, type OwnLine } from '../../src/parse/own-text.js';
import {
  b,
  block,
  br,
  code,
  color,
  i,
  internal,
  link,
  mention,
  quote,
  s,
  sig,
  size,
  smilie,
  img,
  spoiler,
  text,
  u,
  body,
} from './build.js';

/** Lines as compact strings: **bold**, ||spoiler||, ~~struck~~. */
function show(lines: readonly OwnLine[]): string[] {
  return lines.map((line) =>
    line
      .map((r) => {
        let t = r.text;
        if (r.bold) t = `**${t}**`;
        if (r.strike) t = `~~${t}~~`;
        if (r.inSpoiler) t = `||${t}||`;
        return t;
      })
      .join(''),
  );
}

interface Case {
  name: string;
  body: BodyNode[];
  lines: string[];
  keepStruck?: boolean;
}

const cases: Case[] = [
  { name: 'plain text is one line', body: body('hello there'), lines: ['hello there'] },
  { name: 'br starts a new line', body: body('one', br(), 'two'), lines: ['one', 'two'] },
  {
    name: 'block starts and ends a line',
    body: body('before', block('inside'), 'after'),
    lines: ['before', 'inside', 'after'],
  },
  { name: 'newline inside a text node starts a new line', body: body('one\ntwo'), lines: ['one', 'two'] },
  { name: 'quote text is excluded', body: body(quote('Ann', 'Vote: Bob'), 'mine'), lines: ['mine'] },
  {
    name: 'nested quote text is excluded',
    body: body(quote('Ann', 'outer', quote('Cy', b('Vote: Bob')), 'outer again'), 'mine'),
    lines: ['mine'],
  },
  {
    name: 'text around a quote stays on separate lines',
    body: body('before', quote(null, 'x'), 'after'),
    lines: ['before', 'after'],
  },
  { name: 'code text is excluded', body: body('see', code('Vote: Bob'), 'done'), lines: ['see', 'done'] },
  { name: 'signature text is excluded', body: body('mine', sig(b('Vote: Bob'))), lines: ['mine'] },
  { name: 'struck-through text is dropped', body: body(b('Vote: ', s('Bob'), ' Alice')), lines: ['**Vote: Alice**'] },
  {
    name: 'struck-through text is kept and marked on request',
    body: body('a ', s('gone'), ' b'),
    lines: ['a ~~gone~~ b'],
    keepStruck: true,
  },
  {
    name: 'spoiler text is kept and marked',
    body: body('open', spoiler(b('Vote: Bob'))),
    lines: ['open', '||**Vote: Bob**||'],
  },
  {
    name: 'colour, size, italic and underline are transparent',
    body: body(b(color('red', 'Vo'), size('7', 'te'), i(': '), u('Bob'))),
    lines: ['**Vote: Bob**'],
  },
  {
    name: 'a link contributes its text',
    body: body('see ', link('https://x.example/', 'this page')),
    lines: ['see this page'],
  },
  { name: 'a mention link contributes the name', body: body(b('Vote: ', mention('Bob'))), lines: ['**Vote: @Bob**'] },
  { name: 'an internal link contributes its text', body: body(internal('/t/1/post-5', 'post 5')), lines: ['post 5'] },
  { name: 'adjacent bold elements join into one run', body: body(b('Vote:'), b(' Bob')), lines: ['**Vote: Bob**'] },
  {
    name: 'smilies and images are gaps, not text',
    body: body('Bob', smilie(':)'), 'x', img('a.png'), 'y'),
    lines: ['Bob x y'],
  },
  { name: 'zero-width characters are removed', body: body(b('Vo\u200Bte: B\u200Dob')), lines: ['**Vote: Bob**'] },
  { name: 'runs of spaces collapse', body: body('a \u00A0  b'), lines: ['a b'] },
  { name: 'empty lines are dropped', body: body('a', br(), br(), '   ', br(), 'b'), lines: ['a', 'b'] },
];

describe('ownLines', () => {
  it.each(cases)('$name', ({ body: nodes, lines, keepStruck }) => {
    expect(show(ownLines(nodes, { keepStruck: keepStruck ?? false }))).toEqual(lines);
  });

  it('ownText joins the lines', () => {
    expect(ownText([text('a'), { t: 'br' }, text('b')])).toBe('a\nb');
  });
});
