import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { phpbb } from '../../scrapers/phpbb.js';
import { DEFAULT_PROFILE } from '../../scrapers/site-profile.js';
import type { ThreadPage } from '../../scrapers/adapter.js';
import { packageRoot } from '../../src/config/package-root.js';
import { migrate } from '../../src/store/migrate.js';
import { openSql, storeOn } from '../../src/store/open-store.js';
import type { Sql } from '../../src/store/sql.js';
import { readFixtureThread } from '../support/render/index.js';
import { PG_URL, pgProblem } from '../support/postgres.js';

/*
 * Issue #12 item 6: MafiaScum (phpBB) prints each post's number in the author line,
 * "#0" for the opening post, and its GMs and players cite posts by it; Votal numbered by
 * place (from 1), so every number a MafiaScum GM typed was off by one. DESIGN.md: a post
 * number is the number the forum shows. No MafiaScum page is among ../shared/forum-samples;
 * the author line is MafiaScum's as the public tools that read it describe it
 * (JacksonVirgo/mafiascum-modtools: `.author > a > .post-number-bolded`, "#N";
 * JacksonVirgo/mafiascum-scraper and Computational-Mafia/donbot: `span.post-number-bolded`),
 * put into the phpBB fixture's pages here.
 */
const root = packageRoot(import.meta.url);
const NOW = '2026-03-03T12:00:00Z';
const thread = readFixtureThread(root, 'phpbb', 'standard-game');

/** The page as MafiaScum prints it: `<span class="post-number-bolded">#N</span>` in the post link, counted from 0. */
function mafiascum(body: string, firstNumber: number): string {
  let n = firstNumber;
  return body.replace(
    /(<p class="author">\s*<a class="unread"[^>]*>)/g,
    (m) => `${m}<span class="post-number-bolded">#${n++}</span>`,
  );
}

const parse = (body: string, path: string): ThreadPage =>
  phpbb.parsePage(body, { url: `http://forum.test${path}`, profile: DEFAULT_PROFILE, now: NOW });

describe('MafiaScum: the number in the author line is the post number', () => {
  const plain = thread.pages.map((p) => parse(p.body, p.path));
  let first = 0;
  const shown = thread.pages.map((p, i) => {
    const page = parse(mafiascum(p.body, first), p.path);
    first += plain[i]!.posts.length;
    return page;
  });

  it('the opening post is #0 and every later one the number shown, on every page', () => {
    const all = shown.flatMap((p) => p.posts);
    expect(all[0]!.number).toBe(0);
    expect(all.map((p) => [p.id, p.number])).toEqual(plain.flatMap((p) => p.posts).map((p) => [p.id, p.number - 1]));
  });

  it('a theme that prints no number still numbers by place, from 1', () => {
    expect(plain[0]!.posts.map((p) => p.number)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it('the number is not read from anywhere else in the post (a "#3" in the body stays text)', () => {
    const p = thread.pages[0]!;
    const page = parse(p.body.replace('Just chatter for now', '<span class="post-number-bolded">#99</span>'), p.path);
    expect(page.posts.map((x) => x.number)).toEqual(plain[0]!.posts.map((x) => x.number));
  });
});

/** Post #0 is stored like any other post, in PGlite and in PostgreSQL (migration 003). */
const pgDown = await pgProblem();
const schema = `votal_test_${randomBytes(6).toString('hex')}`;
const admin = pgDown === null ? new pg.Pool({ connectionString: PG_URL, max: 1 }) : null;
afterAll(async () => {
  await admin?.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await admin?.end();
});

describe.each([
  ['pglite', async (): Promise<Sql> => openSql({ dataDir: 'memory://' })],
  ...(admin
    ? [
        [
          'postgres',
          async (): Promise<Sql> => {
            await admin.query(`CREATE SCHEMA ${schema}`);
            return openSql({ databaseUrl: PG_URL, schema });
          },
        ] as const,
      ]
    : []),
] as const)('%s: the opening post "#0" is stored', (_, open) => {
  it('post #0 is recorded and read back with its number', async () => {
    const sql = await open();
    try {
      await migrate(sql);
      const store = storeOn(sql);
      const game = await store.games.create(
        {
          slug: `ms-${randomBytes(4).toString('hex')}`,
          threadUrl: 'https://forum.mafiascum.net/viewtopic.php?t=1',
          ruleset: 'mafiascum-majority',
          roster: [],
        },
        'gm:test',
      );
      const page = mafiascum(thread.pages[0]!.body, 0);
      const posts = parse(page, thread.pages[0]!.path).posts;
      await store.posts.recordPage(game.id, posts, new Date(NOW));
      const stored = await store.posts.postsOf(game.id);
      expect(stored.map((p) => p.number)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    } finally {
      await sql.close();
    }
  }, 120_000); // opening PGlite takes seconds, many on a busy machine
});
