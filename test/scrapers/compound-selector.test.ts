import { describe, expect, it } from 'vitest';
import { compileCompound, sourceHolds } from '../../scrapers/compound-selector.js';

/**
 * The page scan turns a tag away by its source text alone when the text lacks the
 * selector's literal where a value holds it; a tag that matches must never be turned away.
 */
const literalOf = (selector: string) => compileCompound(selector).prefilters[0]!.needle!;

describe("a region selector's literal in a tag's source", () => {
  it('a class is a whole word of a value, quoted, unquoted or among others', () => {
    const l = literalOf('div.post');
    expect(sourceHolds('<div class="post">', l)).toBe(true);
    expect(sourceHolds("<div class='bg1 post'>", l)).toBe(true);
    expect(sourceHolds('<div class=post>', l)).toBe(true);
    expect(sourceHolds('<div class="a\tpost\nb">', l)).toBe(true);
    expect(sourceHolds('<div class="postbody">', l)).toBe(false);
    expect(sourceHolds('<div class="first-post">', l)).toBe(false);
  });

  it('a prefix starts a value, a suffix ends one, a substring is anywhere', () => {
    expect(sourceHolds('<table id="post123">', literalOf('table[id^="post"]'))).toBe(true);
    expect(sourceHolds('<table id="xpost123">', literalOf('table[id^="post"]'))).toBe(false);
    expect(sourceHolds('<a href="/t/1#end">', literalOf('a[href$="end"]'))).toBe(true);
    expect(sourceHolds('<a href="/t/1#ending">', literalOf('a[href$="end"]'))).toBe(false);
    expect(sourceHolds('<a href="?comment=5&x">', literalOf('a[href*="comment="]'))).toBe(true);
  });

  it('the longest literal of a compound is the one tested', () => {
    expect(literalOf('li.message[id^="post-"]').text).toBe('message');
    expect(compileCompound('h1').prefilters[0]!.needle).toBeNull();
  });
});
