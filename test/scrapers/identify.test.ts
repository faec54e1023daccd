import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { adapterOf, engineFromHtml, engineFromUrl } from '../../scrapers/identify.js';
import { adapters } from '../../scrapers/registry.js';
import { SiteProfile } from '../../scrapers/site-profile.js';
import { EngineId } from '../../src/model/engine.js';
import { packageRoot } from '../../src/rules/package-root.js';
import { readFixtureThread } from '../support/render/index.js';

const root = packageRoot(import.meta.url);
const samples = resolve(root, '../shared/forum-samples');
const haveSamples = existsSync(samples);
if (!haveSamples) console.warn(`[identify] real forum samples not found at ${samples}: skipping the real-page fingerprint tests`);

const url = (s: string): URL => new URL(s);

describe('engine from the thread URL', () => {
  it.each([
    ['https://www.ilovephilosophy.com/viewtopic.php?f=1&t=194998&start=25', 'phpbb'],
    ['https://board.example/forum/viewtopic.php?p=2729870#p2729870', 'phpbb'],
  ])('a phpBB viewtopic URL is phpBB: %s', (u, engine) => {
    expect(engineFromUrl(url(u))).toBe(engine);
  });

  it('a hosted forum is known by its host name, whatever the path', () => {
    expect(engineFromUrl(url('https://mafia.proboards.com/thread/123/day-one'))).toBe('proboards');
    expect(engineFromUrl(url('https://www.gog.com/forum/general/forum_mafia_42/page2'))).toBe('gog');
  });

  it('a /threads/slug.id/ path is XenForo 1 or 2: the URL alone names neither, the page decides', () => {
    expect(engineFromUrl(url('https://xenforo.com/community/threads/a-dark-theme-option.8276/'))).toBeNull();
    expect(engineFromUrl(url('https://forum.test/threads/standard-game.4242/page-2'))).toBeNull();
  });

  it('a site profile that names the engine wins over the URL', () => {
    const profile = SiteProfile.parse({ hosts: ['xenforo.com'], engine: 'xenforo2' });
    expect(engineFromUrl(url('https://xenforo.com/community/threads/a-dark-theme-option.8276/'), profile)).toBe('xenforo2');
  });

  it.each(['https://example.com/', 'https://example.com/blog/2024/hello-world', 'https://example.com/forum/'])(
    'a URL no engine claims is unknown (null): %s',
    (u) => {
      expect(engineFromUrl(url(u))).toBeNull();
    },
  );
});

describe('engine from the page HTML', () => {
  const real: [dir: string, file: string, engine: EngineId][] = [
    ['xenforo2', 'nettally-Xenforo2.html', 'xenforo2'],
    ['xenforo2', 'revioos-rpgcodex-thread-dom.html', 'xenforo2'],
    ['phpbb3', 'nettally-phpBB.html', 'phpbb'],
    ['xenforo1', 'nettally-Xenforo1.html', 'xenforo1'],
    ['vbulletin3', 'nettally-vBulletin3.html', 'vbulletin3'],
    ['vbulletin4', 'nettally-vBulletin4.html', 'vbulletin4'],
    ['vbulletin5', 'nettally-vBulletin5.html', 'vbulletin5'],
    ['nodebb', 'nettally-NodeBB.html', 'nodebb'],
  ];

  it.skipIf(!haveSamples).each(real)('the real %s page %s is %s', (dir, file, engine) => {
    expect(engineFromHtml(readFileSync(join(samples, dir, file), 'utf8'))).toBe(engine);
  });

  it.each<EngineId>(['xenforo2', 'phpbb'])('the rendered standard game pages are %s', (engine) => {
    for (const page of readFixtureThread(root, engine, 'standard-game').pages) expect(engineFromHtml(page.body)).toBe(engine);
  });

  it('<html id="XF"> is XenForo 2', () => {
    expect(engineFromHtml('<!DOCTYPE html><html id="XF" data-template="thread_view"><head></head><body></body></html>')).toBe('xenforo2');
  });

  it('<body id="phpbb"> is phpBB', () => {
    expect(engineFromHtml('<!DOCTYPE html><html dir="ltr"><head></head><body id="phpbb" class="section-viewtopic"></body></html>')).toBe('phpbb');
  });

  it('XenForo 1 (<html id="XenForo">) is not XenForo 2', () => {
    expect(engineFromHtml('<!DOCTYPE html><html id="XenForo" class="Public"><body></body></html>')).not.toBe('xenforo2');
  });

  it.each([
    ['a plain page', '<!DOCTYPE html><html><head><title>Hello</title></head><body><p>Hello</p></body></html>'],
    ['an empty document', ''],
    ['a Cloudflare challenge', '<!DOCTYPE html><html lang="en-US"><head><title>Just a moment...</title></head><body><div id="challenge-running"></div></body></html>'],
  ])('%s is unknown (null)', (_what, html) => {
    expect(engineFromHtml(html)).toBeNull();
  });
});

describe('adapter lookup', () => {
  it('every registered engine has its adapter', () => {
    for (const a of adapters) expect(adapterOf(a.descriptor.engine)).toBe(a);
  });

  const missing = EngineId.options.find((e) => !adapters.some((a) => a.descriptor.engine === e));
  it.skipIf(!missing)('an engine without an adapter is an error that lists the supported ones', () => {
    expect(() => adapterOf(missing!)).toThrow(/not supported yet \(supported: .*xenforo2.*\)/);
  });
});
