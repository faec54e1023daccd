import { describe, expect, it } from 'vitest';
import { defineDescriptor } from '../../scrapers/adapter.js';
import { engineFacts } from '../../scrapers/registry.js';
import { EngineId } from '../../src/model/engine.js';
import { browserFactsFor, formFactsFor, replyUrl } from '../../src/publish/form-facts.js';

describe("reply-form facts come from each engine's descriptor", () => {
  it('Votal posts through the reply form (and a browser) on exactly these engines', () => {
    const byForm = EngineId.options.filter((e) => formFactsFor(e) !== null);
    const byBrowser = EngineId.options.filter((e) => browserFactsFor(e) !== null);
    expect(byForm).toEqual(['xenforo1', 'xenforo2', 'phpbb', 'vbulletin3', 'vbulletin4', 'smf', 'mybb', 'fluxbb']);
    expect(byBrowser).toEqual(byForm);
  });

  it.each(EngineId.options)("%s: the publisher reads the descriptor's facts", (engine) => {
    expect(formFactsFor(engine)).toBe(engineFacts(engine).replyForm ?? null);
    expect(browserFactsFor(engine)).toBe(engineFacts(engine).browserReply ?? null);
  });

  it('reply URLs fill the thread, its folder and its id', () => {
    expect(replyUrl(formFactsFor('phpbb')!, { url: 'https://f.test/board/viewtopic.php?t=7', id: '7' })).toBe(
      'https://f.test/board/posting.php?mode=reply&t=7',
    );
    expect(replyUrl(formFactsFor('xenforo2')!, { url: 'https://f.test/threads/game.7', id: '7' })).toBe(
      'https://f.test/threads/game.7/reply',
    );
  });

  it('browser facts without the form they fill are refused when the descriptor is defined', () => {
    const base = engineFacts('vbulletin5');
    expect(() => defineDescriptor({ ...base, browserReply: { editor: 'textarea', submit: 'button' } })).toThrow(
      /browserReply needs the replyForm it fills/,
    );
  });
});
