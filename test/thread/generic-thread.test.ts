import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { LayoutError } from '../../src/fetch/errors.js';
import type { FetchedPage } from '../../src/fetch/fetched-page.js';
import { readThread } from '../../src/thread/read-thread.js';
import { readGenerically } from '../../scrapers/generic-profile.js';
import { DEFAULT_PROFILE } from '../../scrapers/site-profile.js';
import { runCount } from '../../src/cli/count-command.js';

/**
 * A whole thread of a site-specific forum read by the generic reader: two pages whose
 * second is found by the link the first shows (`/forum/t/7/p2`, no pattern Votal knows),
 * then the profile the GM confirmed, then a layout change.
 */
const BASE = 'https://village.example.net/forum/t/7';
const FETCHED_AT = '2026-03-02T12:00:00.000Z';

function post(id: number, who: string, iso: string, text: string, card = 'msg'): string {
  return `<div class="${card}" id="m${id}"><div class="meta"><a class="nick" href="/u/${who.toLowerCase()}">${who}</a>
<time datetime="${iso}">${iso.slice(0, 10)}</time></div><div class="said">${text}</div></div>`;
}
function threadPage(posts: string[], pager: string): string {
  return `<html><head><title>Game 7</title></head><body><h1>Game 7</h1><div class="pg">${pager}</div><div id="talk">${posts.join('')}</div></body></html>`;
}
const PAGE1 = threadPage(
  [
    post(1, 'Gwen', '2026-03-01T10:00:00Z', 'Day 1 starts. Vote with <b>Vote: name</b>.'),
    post(2, 'Ann', '2026-03-01T10:05:00Z', '<b>Vote: Bob</b>'),
    post(3, 'Bob', '2026-03-01T10:09:00Z', '<b>Vote: Ann</b>'),
  ],
  '<b>1</b> <a href="/forum/t/7/p2">2</a>',
);
const PAGE2 = threadPage(
  [post(4, 'Cy', '2026-03-01T11:00:00Z', '<b>Vote: Bob</b>'), post(5, 'Ann', '2026-03-01T11:30:00Z', 'Still Bob.')],
  '<a href="/forum/t/7">1</a> <b>2</b>',
);

function source(pages: Record<string, string>, fallback?: string) {
  const asked: string[] = [];
  return {
    asked,
    async get(url: string): Promise<FetchedPage> {
      asked.push(url);
      const body = pages[url] ?? fallback;
      if (body === undefined) throw new Error(`the stand-in forum has no ${url}`);
      const hash = createHash('sha256').update(body).digest('hex');
      return {
        url,
        finalUrl: url,
        status: 200,
        body,
        etag: null,
        lastModified: null,
        hash,
        notModified: false,
        fetchedAt: FETCHED_AT,
      };
    },
  };
}

describe('a thread read by the generic reader', () => {
  it('reads every page, the next one by the link the page shows', async () => {
    const src = source({ [BASE]: PAGE1, [`${BASE.replace('/forum/t/7', '')}/forum/t/7/p2`]: PAGE2 });
    const read = await readThread(BASE, { source: src, engine: 'generic' });
    expect(read.engine).toBe('generic');
    expect(src.asked).toEqual([BASE, 'https://village.example.net/forum/t/7/p2']);
    expect(read.posts.map((p) => [p.number, p.author, p.postedAt])).toEqual([
      [1, 'Gwen', '2026-03-01T10:00:00.000Z'],
      [2, 'Ann', '2026-03-01T10:05:00.000Z'],
      [3, 'Bob', '2026-03-01T10:09:00.000Z'],
      [4, 'Cy', '2026-03-01T11:00:00.000Z'],
      [5, 'Ann', '2026-03-01T11:30:00.000Z'],
    ]);
  });

  it('with the confirmed profile, later polls read by its selectors; a layout change is a LayoutError naming the URL', async () => {
    const { profile, confirm } = readGenerically(PAGE1, { url: BASE, profile: DEFAULT_PROFILE, now: FETCHED_AT });
    expect(confirm.message).toMatch(/^Votal found 3 posts by 3 authors on page 1/);
    expect(profile).toMatchObject({ engine: 'generic', hosts: ['village.example.net'] });
    const pages = { [BASE]: PAGE1, 'https://village.example.net/forum/t/7/p2': PAGE2 };
    const read = await readThread(BASE, { source: source(pages), profile });
    expect(read.posts).toHaveLength(5);
    const changed = { ...pages, [BASE]: PAGE1.replaceAll('class="msg"', 'class="entry"') };
    const failed = readThread(BASE, { source: source(changed), profile });
    await expect(failed).rejects.toThrow(LayoutError);
    await expect(readThread(BASE, { source: source(changed), profile })).rejects.toThrow(BASE);
  });

  it('an adapter that finds no posts offers the generic reading, never switches to it', async () => {
    const failed = readThread(BASE, { source: source({}, PAGE1), engine: 'phpbb' });
    await expect(failed).rejects.toThrow(
      /no post containers .*; the phpBB 3 layout was not found: read it generically\? \(`votal read <url> --generic`, or `--engine generic`\)/,
    );
  });

  it('votal count says the count was read generically', async () => {
    const pages = { [BASE]: PAGE1, 'https://village.example.net/forum/t/7/p2': PAGE2 };
    // The stand-in forum's host does not resolve: the public-address check is for real forums.
    const prev = process.env.VOTAL_ALLOW_PRIVATE_HOSTS;
    process.env.VOTAL_ALLOW_PRIVATE_HOSTS = '1';
    const result = await runCount(
      BASE,
      { ruleset: 'plurality', players: 'Gwen,Ann,Bob,Cy', engine: 'generic', format: 'json', fromPost: 2 },
      source(pages),
    ).finally(() => {
      if (prev === undefined) delete process.env.VOTAL_ALLOW_PRIVATE_HOSTS;
      else process.env.VOTAL_ALLOW_PRIVATE_HOSTS = prev;
    });
    expect(JSON.parse(result.output)).toMatchObject({ engine: 'generic' });
    expect(result.notes).toContainEqual(
      expect.stringMatching(/^read by the generic reader .*5 posts by 4 authors on 2 page/),
    );
  });
});
