import { describe, expect, it } from 'vitest';
import { engineFromHtml, engineFromUrl, recogniseHtml, recogniseUrl } from '../../scrapers/identify.js';
import { SiteProfile } from '../../scrapers/site-profile.js';

/**
 * How an engine was recognised (what `votal read` shows): the same rules as `engineFromUrl`
 * and `engineFromHtml`, with the one that decided. One case per way.
 */
describe('recognising an engine says how', () => {
  it.each([
    [
      'a site profile names the engine',
      'https://mafia.example.org/t/1',
      { engine: 'smf' },
      { engine: 'smf', by: 'site-profile', detail: 'smf' },
    ],
    [
      'a hosted forum by its host',
      'https://www.gog.com/forum/general/mafia_1',
      {},
      { engine: 'gog', by: 'host', detail: '^(www\\.)?gog\\.com$' },
    ],
    [
      "one engine's thread path",
      'https://forums.example.org/discussion/5567669/unsure',
      {},
      { engine: 'vanilla', by: 'url', detail: '/discussion/\\d+(?:/|$)' },
    ],
  ])('%s', (_name, url, profile, expected) => {
    expect(recogniseUrl(new URL(url), SiteProfile.parse(profile))).toEqual(expected);
    expect(engineFromUrl(new URL(url), SiteProfile.parse(profile))).toBe(expected.engine);
  });

  it('a path two engines share decides nothing (XenForo 1 and 2 threads, phpBB and FluxBB viewtopic.php?id=)', () => {
    expect(recogniseUrl(new URL('https://board.example/threads/mafia.12/'))).toBeNull();
    expect(recogniseUrl(new URL('https://board.example/viewtopic.php?id=12'))).toBeNull();
  });

  it.each([
    [
      'the generator meta tag',
      '<html><head><meta name="generator" content="Discourse 3.2.0"></head><body></body></html>',
      { engine: 'discourse', by: 'generator', detail: 'Discourse 3.2.0' },
    ],
    [
      'a fingerprint',
      '<html><body><div id="punviewtopic" class="pun"></div></body></html>',
      { engine: 'fluxbb', by: 'fingerprint', detail: 'div#punviewtopic' },
    ],
  ])('a page by %s', (_name, html, expected) => {
    expect(recogniseHtml(html)).toEqual(expected);
    expect(engineFromHtml(html)).toBe(expected.engine);
  });

  it('a page no engine rendered is not recognised', () => {
    expect(recogniseHtml('<html><body><p>Hello</p></body></html>')).toBeNull();
  });
});
