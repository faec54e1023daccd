import { describe, expect, it } from 'vitest';
import { adapters, engineFacts } from '../../scrapers/registry.js';
import { EngineId } from '../../src/model/engine.js';
import { MARKDOWN } from '../../src/model/dialect.js';
import { collectDialects, Dialect, DIALECTS, dialectFor } from '../../src/votal/dialect.js';

describe('each engine writes its votal in the dialect its descriptor names', () => {
  it.each(EngineId.options)('%s: dialectFor reads the descriptor; the dialect table holds that spec', (engine) => {
    const spec = engineFacts(engine).dialect;
    expect(dialectFor(engine)).toBe(spec.id);
    expect(DIALECTS[spec.id]).toEqual(spec);
  });

  it('engines of one family share a dialect', () => {
    expect(['xenforo1', 'xenforo2'].map((e) => dialectFor(e as EngineId))).toEqual([
      'bbcode-xenforo',
      'bbcode-xenforo',
    ]);
    expect(['vbulletin3', 'vbulletin4', 'vbulletin5'].map((e) => dialectFor(e as EngineId))).toEqual(
      Array(3).fill('bbcode-vbulletin'),
    );
    expect(['discourse', 'nodebb'].map((e) => dialectFor(e as EngineId))).toEqual(['markdown', 'markdown']);
  });

  it('no-parse tags only where the engine has one; GOG and ProBoards without lists; GOG and Markdown without colours', () => {
    const table = Object.fromEntries(
      Dialect.options.map((d) => [
        d,
        {
          family: DIALECTS[d].family,
          noParse: DIALECTS[d].noParse,
          smilies: DIALECTS[d].smilies,
          html: DIALECTS[d].html,
          list: DIALECTS[d].list !== null,
          color: DIALECTS[d].color !== null,
        },
      ]),
    );
    expect(table).toEqual({
      'bbcode-xenforo': { family: 'bbcode', noParse: 'PLAIN', smilies: true, html: false, list: true, color: true },
      'bbcode-phpbb': { family: 'bbcode', noParse: null, smilies: true, html: false, list: true, color: true },
      'bbcode-vbulletin': { family: 'bbcode', noParse: 'NOPARSE', smilies: true, html: false, list: true, color: true },
      'bbcode-proboards': { family: 'bbcode', noParse: null, smilies: true, html: true, list: false, color: true },
      'bbcode-smf': { family: 'bbcode', noParse: 'nobbc', smilies: true, html: false, list: true, color: true },
      'bbcode-mybb': { family: 'bbcode', noParse: null, smilies: true, html: false, list: true, color: true },
      'bbcode-invision': { family: 'bbcode', noParse: null, smilies: true, html: true, list: true, color: true },
      gog: { family: 'bbcode', noParse: null, smilies: false, html: false, list: false, color: false },
      markdown: { family: 'markdown', noParse: null, smilies: true, html: false, list: true, color: false },
      'markdown-vanilla': { family: 'markdown', noParse: null, smilies: true, html: true, list: true, color: false },
      'bbcode-fluxbb': { family: 'bbcode', noParse: null, smilies: true, html: false, list: true, color: true },
    });
  });
});

describe('the dialect table is gathered from the engines, never guessed', () => {
  const all = adapters.map((a) => a.descriptor);

  it('two engines describing one dialect differently is an error naming both', () => {
    const nodebb = all.find((d) => d.engine === 'nodebb')!;
    const odd = { ...nodebb, dialect: { ...MARKDOWN, smilies: false } };
    expect(() => collectDialects([...all.filter((d) => d.engine !== 'nodebb'), odd])).toThrow(
      /dialect "markdown" is described differently by discourse and nodebb/,
    );
  });

  it('a dialect id no engine writes is an error naming it', () => {
    expect(() => collectDialects(all.filter((d) => d.dialect.id !== 'gog'))).toThrow(
      /no engine writes the dialect\(s\) gog/,
    );
  });
});
