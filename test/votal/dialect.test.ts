import { describe, expect, it } from 'vitest';
import { EngineId } from '../../src/model/engine.js';
import { adapterFor } from '../../scrapers/registry.js';
import { Dialect, DIALECTS, dialectFor } from '../../src/votal/dialect.js';

describe('each engine writes its votal in its dialect', () => {
  it.each(EngineId.options)('%s: a dialect of the family its adapter descriptor names', (engine) => {
    const dialect = dialectFor(engine);
    expect(Dialect.options).toContain(dialect);
    const family = adapterFor(engine)?.descriptor.dialect;
    expect(family).toBeDefined();
    expect(dialect === 'gog' ? 'gog' : DIALECTS[dialect].family).toBe(family);
  });

  it('engines of one family share a dialect', () => {
    expect(['xenforo1', 'xenforo2'].map((e) => dialectFor(e as EngineId))).toEqual(['bbcode-xenforo', 'bbcode-xenforo']);
    expect(['vbulletin3', 'vbulletin4', 'vbulletin5'].map((e) => dialectFor(e as EngineId))).toEqual(Array(3).fill('bbcode-vbulletin'));
    expect(['discourse', 'nodebb'].map((e) => dialectFor(e as EngineId))).toEqual(['markdown', 'markdown']);
  });

  it('no-parse tags only where the engine has one; GOG and ProBoards without lists; GOG and Markdown without colours', () => {
    const table = Object.fromEntries(Dialect.options.map((d) => [d, {
      noParse: DIALECTS[d].noParse, smilies: DIALECTS[d].smilies, list: DIALECTS[d].list !== null, color: DIALECTS[d].color !== null,
    }]));
    expect(table).toEqual({
      'bbcode-xenforo': { noParse: 'PLAIN', smilies: true, list: true, color: true },
      'bbcode-phpbb': { noParse: null, smilies: true, list: true, color: true },
      'bbcode-vbulletin': { noParse: 'NOPARSE', smilies: true, list: true, color: true },
      'bbcode-proboards': { noParse: null, smilies: true, list: false, color: true },
      'bbcode-smf': { noParse: 'nobbc', smilies: true, list: true, color: true },
      'bbcode-mybb': { noParse: null, smilies: true, list: true, color: true },
      'bbcode-invision': { noParse: null, smilies: true, list: true, color: true },
      gog: { noParse: null, smilies: false, list: false, color: false },
      markdown: { noParse: null, smilies: true, list: true, color: false },
    });
  });
});
