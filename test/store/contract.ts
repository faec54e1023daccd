/**
 * The store contract: every rule the rest of Votal relies on, run against each driver
 * (pglite.test.ts, postgres.test.ts). One database per driver per run; each case makes
 * its own game so cases do not depend on one another.
 */
import { randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Body } from '../../src/model/body.js';
import { hashBody, type EditMarker, type Post } from '../../src/model/post.js';
import type { Tally } from '../../src/model/tally.js';
import { GameSettingsError } from '../../src/model/game-settings.js';
import { NotFoundError, PollStateError, StaleDraftError, StateError } from '../../src/store/errors.js';
import { migrate, migrationsDir } from '../../src/store/migrate.js';
import { storeOn, type Repos } from '../../src/store/open-store.js';
import { GAME_CHANNEL, type GameChange } from '../../src/store/rows.js';
import type { Sql } from '../../src/store/sql.js';

const text = (s: string): Body => [{ t: 'text', text: s }];

function post(id: string, number: number, body: string | Body, extra: Partial<Post> = {}): Post {
  const tree = typeof body === 'string' ? text(body) : body;
  return {
    id,
    number,
    page: 1,
    author: `author${number}`,
    authorId: `u${number}`,
    postedAt: new Date(Date.UTC(2025, 0, 1, 12, number)).toISOString(),
    permalink: `https://forum.example/t/1/post-${id}`,
    edit: null,
    bodyHash: hashBody(tree),
    body: tree,
    ...extra,
  };
}

function tally(asOfPost: number | null): Tally {
  return {
    engine: 'xenforo2',
    ruleset: 'plurality',
    day: 1,
    postsRead: asOfPost ?? 0,
    asOfPost,
    living: 2,
    players: ['Alice', 'Bob'],
    threshold: { kind: 'plurality', votes: null },
    wagons: [
      {
        target: 'Alice',
        votes: 1,
        penalty: 0,
        total: 1,
        voters: [{ player: 'Bob', post: 1, weight: 1, permalink: null }],
        toThreshold: null,
      },
    ],
    notVoting: ['Alice'],
    violations: [],
    flags: [],
    outcome: { status: 'open', eliminated: [], decidedAt: null, leaders: ['Alice'] },
  };
}

const t = (minute: number): Date => new Date(Date.UTC(2025, 0, 2, 0, minute));
const unique = (prefix: string): string => `${prefix}-${randomBytes(4).toString('hex')}`;

/** Waits until `predicate` holds (LISTEN delivery is asynchronous); the limit only names a wait that never ends. */
async function eventually(predicate: () => boolean, ms = 20_000): Promise<void> {
  const until = Date.now() + ms;
  while (!predicate()) {
    if (Date.now() > until) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 10));
  }
}

export function storeContract(driver: string, open: () => Promise<Sql>): void {
  describe(`store contract (${driver})`, () => {
    let sql: Sql;
    let store: Repos;

    beforeAll(async () => {
      sql = await open();
      await migrate(sql);
      store = storeOn(sql);
    });
    afterAll(async () => {
      await sql?.close();
    });

    const newGame = (over: Record<string, unknown> = {}) =>
      store.games.create(
        {
          slug: unique('g'),
          threadUrl: 'https://forum.example/threads/mafia-1.42/',
          ruleset: 'plurality',
          roster: [{ name: 'Alice' }, { name: 'Bob' }],
          ...over,
        },
        'gm:test',
      );

    describe('migrations and the Sql port', () => {
      it('migrations run twice are a no-op', async () => {
        const tables = async () =>
          (
            await sql.query<{ n: number }>(
              `SELECT count(*) AS n FROM information_schema.tables WHERE table_schema = current_schema()`,
            )
          ).rows[0]?.n;
        const before = await tables();
        const again = await migrate(sql);
        expect(again.applied).toEqual([]);
        expect(again.version).toBeGreaterThanOrEqual(1);
        expect(await tables()).toBe(before);
        const versions = await sql.query<{ version: number }>(
          'SELECT version FROM schemaversion WHERE version > 0 ORDER BY version',
        );
        // Every file in migrations/ is applied (numbers are reserved per change, so they may have gaps).
        const files = readdirSync(migrationsDir())
          .flatMap((f) => /^(\d+)\.do\./.exec(f)?.[1] ?? [])
          .map(Number)
          .sort((a, b) => a - b);
        expect(versions.rows.map((r) => Number(r.version))).toEqual(files);
        expect(again.version).toBe(files.at(-1));
      });

      it('int8 counts come back as numbers', async () => {
        await sql.exec('CREATE TEMP TABLE int8_probe (id bigint GENERATED ALWAYS AS IDENTITY, v integer)');
        const inserted = await sql.query<{ id: number }>(
          'INSERT INTO int8_probe (v) VALUES (1), (2), (3) RETURNING id',
        );
        expect(inserted.rowCount).toBe(3);
        expect(inserted.rows.map((r) => typeof r.id)).toEqual(['number', 'number', 'number']);
        const { rows, rowCount } = await sql.query<{ n: number; s: number; big: number; ids: number[] }>(
          'SELECT count(*) AS n, sum(v) AS s, 9007199254740991::bigint AS big, array_agg(id ORDER BY id) AS ids FROM int8_probe',
        );
        expect(rowCount).toBe(1);
        expect(rows[0]).toEqual({ n: 3, s: 6, big: Number.MAX_SAFE_INTEGER, ids: inserted.rows.map((r) => r.id) });
        expect((await sql.query('UPDATE int8_probe SET v = v + 1 WHERE v > 1')).rowCount).toBe(2);
        expect((await sql.query('SELECT * FROM int8_probe')).rowCount).toBe(3);
        expect((await sql.query('DELETE FROM int8_probe WHERE v > 100')).rowCount).toBe(0);
        expect((await sql.query('DROP TABLE int8_probe')).rowCount).toBe(0);
      });

      it('a failed transaction leaves nothing behind', async () => {
        const slug = unique('rolled-back');
        await expect(
          sql.transaction(async (tx) => {
            await storeOn(tx).games.create(
              { slug, threadUrl: 'https://forum.example/t/9', ruleset: 'plurality', roster: [] },
              'gm:test',
            );
            expect(await storeOn(tx).games.bySlug(slug)).not.toBeNull(); // visible inside
            throw new Error('boom');
          }),
        ).rejects.toThrow('boom');
        expect(await store.games.bySlug(slug)).toBeNull();
        expect((await store.audit.list({ limit: 1000 })).some((e) => e.detail['slug'] === slug)).toBe(false);

        // An SQL error mid-transaction rolls back the writes before it, too.
        const other = unique('sql-error');
        await expect(
          sql.transaction(async (tx) => {
            await storeOn(tx).games.create(
              { slug: other, threadUrl: 'https://forum.example/t/9', ruleset: 'plurality', roster: [] },
              'gm:test',
            );
            await tx.query('SELECT * FROM no_such_table');
          }),
        ).rejects.toThrow(/no_such_table/);
        expect(await store.games.bySlug(other)).toBeNull();
      });

      it('a nested transaction is a savepoint: its failure keeps the outer writes', async () => {
        const kept = unique('outer');
        const dropped = unique('inner');
        await sql.transaction(async (tx) => {
          await storeOn(tx).games.create(
            { slug: kept, threadUrl: 'https://forum.example/t/1', ruleset: 'plurality', roster: [] },
            'gm:test',
          );
          await expect(
            tx.transaction(async (inner) => {
              await storeOn(inner).games.create(
                { slug: dropped, threadUrl: 'https://forum.example/t/2', ruleset: 'plurality', roster: [] },
                'gm:test',
              );
              throw new Error('inner');
            }),
          ).rejects.toThrow('inner');
        });
        expect(await store.games.bySlug(kept)).not.toBeNull();
        expect(await store.games.bySlug(dropped)).toBeNull();
      });

      it('concurrent transactions keep their own writes when one fails', async () => {
        const [a, b, c] = [unique('a'), unique('b'), unique('c')];
        const create = (db: Parameters<typeof storeOn>[0], slug: string) =>
          storeOn(db).games.create(
            { slug, threadUrl: 'https://forum.example/t/3', ruleset: 'plurality', roster: [] },
            'gm:test',
          );
        const results = await Promise.allSettled([
          sql.transaction(async (tx) => {
            await create(tx, a);
            await new Promise((r) => setTimeout(r, 20));
          }),
          sql.transaction(async (tx) => {
            await create(tx, b);
            throw new Error('fails');
          }),
          create(sql, c),
        ]);
        expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
        expect(await store.games.bySlug(a)).not.toBeNull();
        expect(await store.games.bySlug(b)).toBeNull();
        expect(await store.games.bySlug(c)).not.toBeNull();
      });

      it('LISTEN receives NOTIFY payloads', async () => {
        const channel = `votal_test_${randomBytes(4).toString('hex')}`;
        const got: string[] = [];
        const unlisten = await sql.listen(channel, (p) => got.push(p));
        await sql.notify(channel, 'plain');
        await eventually(() => got.length === 1);

        // Inside a transaction: delivered on commit, never after a rollback.
        await sql.transaction(async (tx) => {
          await tx.notify(channel, 'committed');
        });
        await expect(
          sql.transaction(async (tx) => {
            await tx.notify(channel, 'rolled back');
            throw new Error('no');
          }),
        ).rejects.toThrow('no');
        await sql.notify(channel, 'last');
        await eventually(() => got.length === 3);
        expect(got).toEqual(['plain', 'committed', 'last']);

        await unlisten();
        await sql.notify(channel, 'after unlisten');
        await new Promise((r) => setTimeout(r, 100));
        expect(got).toHaveLength(3);
        await expect(sql.listen('Bad-Channel', () => {})).rejects.toThrow(/channel/);
      });

      it('writes announce themselves on the game channel', async () => {
        const changes: GameChange[] = [];
        const unlisten = await sql.listen(GAME_CHANNEL, (p) => changes.push(JSON.parse(p) as GameChange));
        const game = await newGame();
        const saved = await store.tallies.save(game.id, tally(3));
        await eventually(() => changes.some((c) => c.gameId === game.id && c.kind === 'tally'));
        expect(changes).toContainEqual({ gameId: game.id, kind: 'tally', id: saved.id });
        await unlisten();
      });
    });

    describe('posts and revisions', () => {
      it('settings merge key by key, null removes a key, and the change is audited', async () => {
        const game = await newGame();
        await store.games.updateSettings(
          game.id,
          { settings: { webhook: 'https://hooks.example/1', drafts: { everyNVotes: 3 } } },
          'gm:test',
          { webhook: 'set' },
        );
        const after = await store.games.updateSettings(
          game.id,
          { settings: { webhook: null }, pollIntervalSeconds: 120 },
          'gm:test',
          { webhook: 'removed' },
        );
        expect(after.settings).toEqual({ drafts: { everyNVotes: 3 } });
        expect(after.pollIntervalSeconds).toBe(120);
        expect((await store.audit.list({ gameId: game.id })).filter((a) => a.action === 'game.settings')).toHaveLength(
          2,
        );
      });

      it('a settings value that does not fit GameSettings is refused naming the game and the key; nothing changes', async () => {
        const game = await newGame();
        await expect(
          store.games.updateSettings(
            game.id,
            { settings: { webhookUrl: 'not a url', title: 'Kept out' } },
            'gm:test',
            {},
          ),
        ).rejects.toThrow(new GameSettingsError(game.id, 'webhookUrl: Invalid URL'));
        expect((await store.games.get(game.id))!.settings).toEqual({});
      });

      it('a game whose stored settings no Votal wrote is not read silently: the error names the game and the key', async () => {
        const game = await newGame();
        await sql.query(`UPDATE game SET settings = '{"day": {"start": "yesterday"}}'::jsonb WHERE id = $1`, [game.id]);
        await expect(store.games.get(game.id)).rejects.toThrow(`game ${game.id} has bad settings: day.start:`);
        await sql.query(`UPDATE game SET settings = '{}'::jsonb WHERE id = $1`, [game.id]); // the suite reads every game later
      });

      it('a post seen twice with the same body keeps one revision', async () => {
        const game = await newGame();
        const page = [post('101', 1, 'Hello all'), post('102', 2, 'Vote: Alice')];
        const first = await store.posts.recordPage(game.id, page, t(1));
        expect(first.added.map((p) => p.id)).toEqual(['101', '102']);
        expect(first.edited).toEqual([]);

        const second = await store.posts.recordPage(game.id, page, t(2));
        expect(second).toEqual({ added: [], edited: [], restored: [], moved: [] });

        const stored = await store.posts.postsOf(game.id);
        expect(stored.map((p) => [p.id, p.revisions, p.deleted])).toEqual([
          ['101', 1, false],
          ['102', 1, false],
        ]);
        expect(stored[1]).toMatchObject({ ...page[1], firstSeen: t(1).toISOString(), lastSeen: t(2).toISOString() });
        const revisions = await store.posts.revisionsOf(stored[1]!.key);
        expect(revisions).toHaveLength(1);
        expect(revisions[0]).toMatchObject({
          body: page[1]!.body,
          current: true,
          firstSeen: t(1).toISOString(),
          lastSeen: t(2).toISOString(),
        });
      });

      it('an edited body adds a revision and reports both versions', async () => {
        const game = await newGame();
        const original = post('201', 1, 'Vote: Alice');
        await store.posts.recordPage(game.id, [original], t(1));
        const marker: EditMarker = { at: t(3).toISOString(), by: 'author1', text: 'Last edited by author1' };
        const edited = post('201', 1, [{ t: 'bold', children: text('Vote: Bob') }], { edit: marker });

        const result = await store.posts.recordPage(game.id, [edited], t(3));
        expect(result.added).toEqual([]);
        expect(result.edited).toEqual([{ before: original, after: edited }]);

        const [now] = await store.posts.postsOf(game.id);
        expect(now).toMatchObject({ body: edited.body, bodyHash: edited.bodyHash, edit: marker, revisions: 2 });
        const revisions = await store.posts.revisionsOf(now!.key);
        expect(revisions.map((r) => [r.bodyHash, r.current])).toEqual([
          [original.bodyHash, false],
          [edited.bodyHash, true],
        ]);
        expect(revisions[0]!.body).toEqual(original.body); // the evidence survives
      });

      it('an edit back to an earlier body makes that revision current again', async () => {
        const game = await newGame();
        const a = post('301', 1, 'Vote: Alice');
        const b = post('301', 1, 'Vote: Bob');
        await store.posts.recordPage(game.id, [a], t(1));
        await store.posts.recordPage(game.id, [b], t(2));
        const back = await store.posts.recordPage(game.id, [a], t(3));
        expect(back.edited).toEqual([{ before: b, after: a }]);
        const [now] = await store.posts.postsOf(game.id);
        const revisions = await store.posts.revisionsOf(now!.key);
        expect(revisions.map((r) => [r.bodyHash, r.current, r.lastSeen])).toEqual([
          [a.bodyHash, true, t(3).toISOString()],
          [b.bodyHash, false, t(2).toISOString()],
        ]);
      });

      it("many posts' revisions in one query, each post's as revisionsOf gives them (issue #29: no query per post)", async () => {
        const game = await newGame();
        await store.posts.recordPage(game.id, [post('401', 1, 'Vote: Alice'), post('402', 2, 'Hi')], t(1));
        await store.posts.recordPage(game.id, [post('401', 1, 'Vote: Bob'), post('402', 2, 'Hi')], t(2));
        const [edited, plain] = await store.posts.postsOf(game.id);
        const many = await store.posts.revisionsOfPosts([edited!.key, plain!.key, 987_654_321]);
        expect([...many.keys()].sort()).toEqual([edited!.key, plain!.key].sort());
        expect(many.get(edited!.key)).toEqual(await store.posts.revisionsOf(edited!.key));
        expect(many.get(plain!.key)).toEqual(await store.posts.revisionsOf(plain!.key));
        expect(many.get(edited!.key)!.map((r) => r.current)).toEqual([false, true]);
        expect((await store.posts.revisionsOfPosts([])).size).toBe(0);
      });

      it('a post missing from a re-read page is marked deleted, not removed', async () => {
        const game = await newGame();
        const page1 = [post('401', 1, 'one'), post('402', 2, 'two'), post('403', 3, 'three')];
        const page2 = [post('404', 4, 'four', { page: 2 })];
        await store.posts.recordPage(game.id, [...page1, ...page2], t(1));

        const reread = [page1[0]!, page1[2]!];
        await store.posts.recordPage(game.id, reread, t(2));
        const gone = await store.posts.markMissing(
          game.id,
          [1],
          reread.map((p) => p.id),
          t(2),
        );
        expect(gone).toEqual([page1[1]]);
        // Marking again changes nothing; page 2 was not re-read, so its post stands.
        expect(
          await store.posts.markMissing(
            game.id,
            [1],
            reread.map((p) => p.id),
            t(3),
          ),
        ).toEqual([]);

        const stored = await store.posts.postsOf(game.id);
        expect(stored.map((p) => [p.id, p.deleted])).toEqual([
          ['401', false],
          ['402', true],
          ['403', false],
          ['404', false],
        ]);
        expect(stored[1]).toMatchObject({ body: page1[1]!.body, deletedAt: t(2).toISOString() });
        await expect(sql.query('DELETE FROM post WHERE game_id = $1', [game.id])).rejects.toThrow(/not allowed/);

        // It comes back: restored, not added again.
        const back = await store.posts.recordPage(game.id, page1, t(4));
        expect(back).toEqual({ added: [], edited: [], restored: [page1[1]], moved: [] });
        expect(await store.posts.post(game.id, '402')).toMatchObject({ deleted: false, deletedAt: null, revisions: 1 });
      });

      it('a page is recorded whole or not at all', async () => {
        const game = await newGame();
        const good = post('501', 1, 'fine');
        const bad = post('502', 2, 'bad', { number: -1 }); // violates number >= 0 (MafiaScum's opening post is #0)
        await expect(store.posts.recordPage(game.id, [good, bad], t(1))).rejects.toThrow();
        expect(await store.posts.postsOf(game.id)).toEqual([]);
        await expect(store.posts.recordPage(987654321, [good], t(1))).rejects.toThrow(NotFoundError);

        // Replaying the same poll after a crash adds nothing twice.
        const first = await store.posts.recordPage(game.id, [good], t(2));
        const replay = await store.posts.recordPage(game.id, [good], t(2));
        expect(first.added).toHaveLength(1);
        expect(replay).toEqual({ added: [], edited: [], restored: [], moved: [] });
      });

      it('a post repeated on a page is stored once and moves with renumbering', async () => {
        const game = await newGame();
        const p = post('601', 1, 'opening post');
        await store.posts.recordPage(game.id, [p, post('602', 2, 'x'), p], t(1));
        const moved = { ...post('602', 2, 'x'), number: 3, page: 2 };
        const result = await store.posts.recordPage(game.id, [moved], t(2));
        // Renumbered, same body: reported, since who voted at which post number may change the count.
        expect(result).toEqual({ added: [], edited: [], restored: [], moved: [moved] });
        const stored = await store.posts.postsOf(game.id);
        expect(stored.map((s) => [s.id, s.number, s.page])).toEqual([
          ['601', 1, 1],
          ['602', 3, 2],
        ]);
      });

      it('readings are cached per revision and ruleset version', async () => {
        const game = await newGame();
        await store.posts.recordPage(game.id, [post('701', 1, 'Vote: Alice')], t(1));
        const [stored] = await store.posts.postsOf(game.id);
        const reading = {
          actions: [
            {
              kind: 'vote' as const,
              target: 'Alice',
              match: 'exact' as const,
              raw: 'Vote: Alice',
              written: 'Alice',
              candidates: [],
              score: null,
              source: 'parsed' as const,
            },
          ],
          effect: { kind: 'vote' as const, target: 'Alice', reason: null },
          violations: [],
        };
        await store.readings.save(stored!.revisionId, 'v1', reading);
        expect(await store.readings.get(stored!.revisionId, 'v1')).toEqual(reading);
        expect(await store.readings.get(stored!.revisionId, 'v2')).toBeNull();
        expect((await store.readings.forGame(game.id, 'v1')).get(stored!.revisionId)).toEqual(reading);
      });

      it('the posts of some pages are read without the rest', async () => {
        const game = await newGame();
        const posts = [post('801', 1, 'one'), post('802', 2, 'two', { page: 2 }), post('803', 3, 'three', { page: 3 })];
        await store.posts.recordPage(game.id, posts, t(1));
        await store.posts.markMissing(game.id, [2], [], t(2));
        const onPages = await store.posts.postsOn(game.id, [2, 3]);
        expect(onPages.map((p) => [p.id, p.page, p.deleted])).toEqual([
          ['802', 2, true],
          ['803', 3, false],
        ]);
        expect(onPages[1]).toEqual((await store.posts.postsOf(game.id))[2]);
        expect(await store.posts.postsOn(game.id, [])).toEqual([]);
      });

      it('heads are the posts without their bodies, and bodies come by revision', async () => {
        const game = await newGame();
        await store.posts.recordPage(game.id, [post('901', 1, 'Vote: Alice'), post('902', 2, 'hello')], t(1));
        await store.posts.recordPage(game.id, [post('901', 1, 'Vote: Bob')], t(2));
        const full = await store.posts.postsOf(game.id);
        const heads = await store.posts.headsOf(game.id);
        expect(heads).toEqual(full.map(({ body: _body, ...head }) => head));
        expect(heads.map((h) => [h.id, h.revisions])).toEqual([
          ['901', 2],
          ['902', 1],
        ]);
        expect(heads.every((h) => !('body' in h))).toBe(true);

        const bodies = await store.posts.bodiesOf([full[0]!.revisionId, full[1]!.revisionId, 987654321]);
        const ids = (xs: number[]) => xs.sort((a, b) => a - b);
        expect(ids([...bodies.keys()])).toEqual(ids([full[0]!.revisionId, full[1]!.revisionId]));
        expect(bodies.get(full[0]!.revisionId)).toEqual(text('Vote: Bob'));
        expect(await store.posts.bodiesOf([])).toEqual(new Map());
      });

      it('a post is found by the number the thread shows, deleted or not, with its current body', async () => {
        const game = await newGame();
        await store.posts.recordPage(game.id, [post('951', 1, 'Vote: Alice'), post('952', 2, 'hello')], t(1));
        await store.posts.recordPage(game.id, [post('951', 1, 'Vote: Bob')], t(2));
        await store.posts.markMissing(game.id, [1], ['951'], t(3));
        const full = await store.posts.postsOf(game.id);
        expect(await store.posts.postNumbered(game.id, 1)).toEqual(full[0]);
        expect(await store.posts.postNumbered(game.id, 1)).toMatchObject({ body: text('Vote: Bob'), revisions: 2 });
        expect(await store.posts.postNumbered(game.id, 2)).toMatchObject({ id: '952', deleted: true });
        expect(await store.posts.postNumbered(game.id, 3)).toBeNull();
      });
    });

    describe('games, events, tallies, drafts, pages, audit', () => {
      it('games are created, listed, paused and scheduled', async () => {
        const game = await newGame({ engine: 'xenforo2', rulesetOverrides: { threshold: { kind: 'majority' } } });
        expect(game).toMatchObject({
          status: 'active',
          engine: 'xenforo2',
          ruleset: 'plurality',
          pollIntervalSeconds: 300,
          roster: [
            { name: 'Alice', aliases: [], formerNames: [], alive: true },
            { name: 'Bob', aliases: [], formerNames: [], alive: true },
          ],
        });
        expect(typeof game.id).toBe('number');
        expect(await store.games.get(game.id)).toEqual(game);
        expect(await store.games.bySlug(game.slug)).toEqual(game);

        const paused = await store.games.setStatus(game.id, 'paused', 'gm:test');
        expect(paused.status).toBe('paused');
        expect((await store.games.list({ status: 'paused' })).map((g) => g.id)).toContain(game.id);
        expect((await store.games.list({ status: 'active' })).map((g) => g.id)).not.toContain(game.id);
        await expect(store.games.setStatus(987654321, 'finished', 'gm:test')).rejects.toThrow(NotFoundError);
        await expect(newGame({ slug: game.slug })).rejects.toThrow();

        await store.games.setStatus(game.id, 'active', 'gm:test');
        await store.games.setNextPoll(game.id, new Date('2000-01-01T00:00:00Z'));
        expect((await store.games.due(new Date('2000-01-01T00:00:01Z'))).map((g) => g.id)).toContain(game.id);
        expect((await store.games.due(new Date('1999-12-31T23:59:59Z'))).map((g) => g.id)).not.toContain(game.id);

        const generated = await store.games.create(
          { threadUrl: 'https://forum.example/threads/Big-Game.77/', ruleset: 'plurality', roster: [] },
          'gm:test',
        );
        expect(generated.slug).toMatch(/^big-game-77-[0-9a-f]{8}$/);

        const audit = await store.audit.list({ gameId: game.id });
        expect(audit.map((a) => a.action)).toEqual(['game.status', 'game.status', 'game.create']);
      });

      it("a poll's start is noted with when it was due, and the poll's end keeps it (issue #16)", async () => {
        const game = await newGame();
        const due = '2026-03-04T11:59:00.000Z';
        // Before the game's first poll: the row is made.
        const startedAt = await store.polls.started(game.id, due);
        expect((await store.polls.get(game.id)).state).toEqual({ pollDueAt: due, pollStartedAt: startedAt });
        const owner = 'test-instance/poll-1';
        expect(await store.polls.claim(game.id, owner, 30_000)).not.toBeNull();
        await store.polls.finish(game.id, owner, {
          ok: true,
          fullRead: false,
          at: new Date(startedAt),
          state: { deadline: null },
        });
        expect((await store.polls.get(game.id)).state).toEqual({
          pollDueAt: due,
          pollStartedAt: startedAt,
          deadline: null,
        });
        // The next start replaces both; a start with no schedule (a poll asked for now) has no due time.
        const again = await store.polls.started(game.id, null);
        expect((await store.polls.get(game.id)).state).toMatchObject({ pollDueAt: null, pollStartedAt: again });
        expect(Date.parse(again)).toBeGreaterThanOrEqual(Date.parse(startedAt));
        // A game that is gone is not noted, and the poller is not stopped by it.
        await expect(store.polls.started(987654321, due)).resolves.toMatch(/^\d{4}-/);
        expect((await store.polls.get(987654321)).state).toEqual({});
      });

      it('GM events are validated, kept in order and append-only', async () => {
        const game = await newGame();
        await store.events.append(game.id, { at: 12, kind: 'kill', player: 'Bob' }, 'gm:ann');
        await store.events.append(game.id, { kind: 'correct', post: 17, target: null }, 'gm:ann');
        await store.events.append(game.id, { at: 0, kind: 'weight', player: 'Alice', weight: 2 }, 'gm:ann');
        await expect(store.events.append(game.id, { kind: 'explode', player: 'Bob' }, 'gm:ann')).rejects.toThrow();

        const events = await store.events.list(game.id);
        expect(events.map((e) => e.event)).toEqual([
          { at: 12, kind: 'kill', player: 'Bob' },
          { kind: 'correct', post: 17, target: null },
          { at: 0, kind: 'weight', player: 'Alice', weight: 2, hidden: false },
        ]);
        expect(events[0]).toMatchObject({ gameId: game.id, createdBy: 'gm:ann' });
        await expect(
          sql.query('UPDATE gm_event SET created_by = $2 WHERE id = $1', [events[0]!.id, 'x']),
        ).rejects.toThrow(/append-only/);
        expect((await store.audit.list({ gameId: game.id })).filter((a) => a.action === 'event.append')).toHaveLength(
          3,
        );
      });

      it('tallies are snapshots: saved, listed newest first, never changed', async () => {
        const game = await newGame();
        const first = await store.tallies.save(game.id, tally(10));
        const second = await store.tallies.save(game.id, tally(20));
        expect(second.tally).toEqual(tally(20));
        expect((await store.tallies.latest(game.id))?.id).toBe(second.id);
        expect((await store.tallies.list(game.id)).map((x) => x.asOfPost)).toEqual([20, 10]);
        expect(await store.tallies.get(first.id)).toEqual(first);
        await expect(sql.query('UPDATE tally SET as_of_post = 1 WHERE id = $1', [first.id])).rejects.toThrow(
          /not allowed/,
        );
      });

      it('a draft is approved once, published once, and every step is audited', async () => {
        const game = await newGame();
        const snapshot = await store.tallies.save(game.id, tally(5));
        const draft = await store.drafts.create(
          { gameId: game.id, tallyId: snapshot.id, dialect: 'bbcode', body: '[b]Votal[/b]' },
          'system',
        );
        expect(draft).toMatchObject({ status: 'pending', decidedAt: null });
        await expect(
          store.drafts.startPublication(draft.id, { marker: unique('m'), method: 'adapter' }, 'gm:ann'),
        ).rejects.toThrow(StateError);

        const approved = await store.drafts.approve(draft.id, 'gm:ann');
        expect(approved).toMatchObject({ status: 'approved', decidedBy: 'gm:ann' });
        await expect(store.drafts.approve(draft.id, 'gm:ann')).rejects.toThrow(StateError);

        const marker = unique('votal');
        const started = await store.drafts.startPublication(draft.id, { marker, method: 'adapter' }, 'gm:ann');
        expect(await store.drafts.startPublication(draft.id, { marker: 'other', method: 'adapter' }, 'gm:ann')).toEqual(
          started,
        );
        const failed = await store.drafts.publicationFailed(started.id, 'HTTP 503', 'system');
        expect(failed).toMatchObject({ status: 'failed', attempts: 1, lastError: 'HTTP 503' });
        await store.drafts.startPublication(draft.id, { marker, method: 'adapter' }, 'gm:ann');
        const done = await store.drafts.published(
          started.id,
          { remotePostId: '9001', remoteUrl: 'https://forum.example/p/9001' },
          'system',
        );
        expect(done).toMatchObject({ status: 'published', attempts: 2, lastError: null, remotePostId: '9001', marker });
        expect((await store.drafts.get(draft.id))?.status).toBe('published');
        expect((await store.drafts.publicationOf(draft.id))?.id).toBe(started.id);
        // Many drafts' publications in one query: a draft without one is left out.
        const all = await store.drafts.publicationsOf([draft.id, 987_654_321]);
        expect([...all.keys()]).toEqual([draft.id]);
        expect(all.get(draft.id)).toEqual(await store.drafts.publicationOf(draft.id));
        expect((await store.drafts.publicationsOf([])).size).toBe(0);
        await expect(store.drafts.discard(draft.id, 'gm:ann')).rejects.toThrow(StateError);
        await expect(sql.query('UPDATE draft SET body = $2 WHERE id = $1', [draft.id, 'changed'])).rejects.toThrow(
          /not allowed/,
        );

        const audit = (await store.audit.list({ gameId: game.id })).map((a) => a.action).reverse();
        expect(audit).toEqual([
          'game.create',
          'draft.create',
          'draft.approve',
          'publication.start',
          'publication.fail',
          'publication.retry',
          'publication.publish',
        ]);

        // A draft cannot point at another game's tally.
        const other = await newGame();
        await expect(
          store.drafts.create({ gameId: other.id, tallyId: snapshot.id, dialect: 'bbcode', body: 'x' }, 'system'),
        ).rejects.toThrow();
        const second = await store.drafts.create(
          { gameId: game.id, tallyId: snapshot.id, dialect: 'markdown', body: 'x' },
          'system',
        );
        expect((await store.drafts.discard(second.id, 'gm:ann')).status).toBe('discarded');
        expect((await store.drafts.list(game.id, { status: 'discarded' })).map((d) => d.id)).toEqual([second.id]);
      });

      it('one draft is pending per game: a newer one supersedes it and stays in history (issue #14, 2)', async () => {
        const game = await newGame();
        const other = await newGame();
        const early = await store.tallies.save(game.id, tally(22));
        const later = await store.tallies.save(game.id, tally(32));
        const first = await store.drafts.create(
          { gameId: game.id, tallyId: early.id, dialect: 'bbcode', body: 'as of 22' },
          'poller',
        );
        const elsewhere = await store.drafts.create(
          {
            gameId: other.id,
            tallyId: (await store.tallies.save(other.id, tally(1))).id,
            dialect: 'bbcode',
            body: 'x',
          },
          'poller',
        );
        const second = await store.drafts.create(
          { gameId: game.id, tallyId: later.id, dialect: 'bbcode', body: 'as of 32' },
          'poller',
        );

        expect(await store.drafts.get(first.id)).toMatchObject({
          status: 'superseded',
          supersededBy: second.id,
          decidedBy: 'poller',
          body: 'as of 22',
        });
        expect((await store.drafts.list(game.id, { status: 'pending' })).map((d) => d.id)).toEqual([second.id]);
        expect((await store.drafts.get(elsewhere.id))?.status).toBe('pending'); // another game's draft is untouched
        await expect(store.drafts.approve(first.id, 'gm:ann')).rejects.toThrow(
          new RegExp(`superseded by draft ${second.id}`),
        );
        await expect(store.drafts.discard(first.id, 'gm:ann')).rejects.toThrow(StateError);
        // The database holds the rule too, whoever writes.
        await expect(
          sql.query(`UPDATE draft SET status = 'pending', decided_at = NULL WHERE id = $1`, [first.id]),
        ).rejects.toThrow();
        const audit = (await store.audit.list({ gameId: game.id })).map((a) => [a.action, a.detail]).reverse();
        expect(audit).toContainEqual(['draft.supersede', { draftId: first.id, by: second.id }]);
      });

      it('approving "as current" refuses a draft older than the game\'s latest count, in the same transaction', async () => {
        const game = await newGame();
        const early = await store.tallies.save(game.id, tally(22));
        const draft = await store.drafts.create(
          { gameId: game.id, tallyId: early.id, dialect: 'bbcode', body: 'as of 22' },
          'poller',
        );
        const later = await store.tallies.save(game.id, tally(32));
        const refused = store.drafts.approve(draft.id, 'gm:ann', { current: true });
        await expect(refused).rejects.toThrow(StaleDraftError);
        await expect(refused).rejects.toMatchObject({ draftTallyId: early.id, currentTallyId: later.id });
        expect((await store.drafts.get(draft.id))?.status).toBe('pending');
        expect((await store.drafts.approve(draft.id, 'gm:ann')).status).toBe('approved');
      });

      it('drafts made at the same time leave one pending', async () => {
        const game = await newGame();
        const snapshot = await store.tallies.save(game.id, tally(3));
        await Promise.all(
          [1, 2, 3, 4].map((n) =>
            store.drafts.create({ gameId: game.id, tallyId: snapshot.id, dialect: 'bbcode', body: `v${n}` }, 'poller'),
          ),
        );
        expect(await store.drafts.list(game.id, { status: 'pending' })).toHaveLength(1);
        expect(await store.drafts.list(game.id, { status: 'superseded' })).toHaveLength(3);
      });

      it('an edit is a new pending draft of the same count; the original is discarded and points at it', async () => {
        const game = await newGame();
        const snapshot = await store.tallies.save(game.id, tally(3));
        const original = await store.drafts.create(
          { gameId: game.id, tallyId: snapshot.id, dialect: 'bbcode', body: 'before' },
          'poller',
        );
        const edited = await store.drafts.edit(original.id, 'after', 'gm:ann');
        expect(edited).toMatchObject({
          status: 'pending',
          tallyId: snapshot.id,
          dialect: 'bbcode',
          body: 'after',
          createdBy: 'gm:ann',
        });
        expect(await store.drafts.get(original.id)).toMatchObject({
          status: 'discarded',
          supersededBy: edited.id,
          body: 'before',
        });
        await expect(store.drafts.edit(original.id, 'again', 'gm:ann')).rejects.toThrow(StateError);
        const actions = (await store.audit.list({ gameId: game.id })).map((a) => a.action);
        expect(actions).toContain('draft.edit');
      });

      it("a publication is claimed by one caller at a time; a dead claimer's claim ends (issue #17, 3)", async () => {
        const game = await newGame();
        const snapshot = await store.tallies.save(game.id, tally(5));
        const draft = await store.drafts.create(
          { gameId: game.id, tallyId: snapshot.id, dialect: 'bbcode', body: 'v' },
          'poller',
        );
        await store.drafts.approve(draft.id, 'gm:ann');
        const publication = await store.drafts.startPublication(
          draft.id,
          { marker: unique('m'), method: 'adapter' },
          'gm:ann',
        );
        const at = t(10);
        const claims = await Promise.all(
          ['a', 'b', 'c', 'd', 'e'].map((owner) =>
            store.drafts.claimPublication(publication.id, { owner, now: at, leaseMs: 60_000 }, 'gm:ann'),
          ),
        );
        const won = claims.filter((c) => c.claimed);
        expect(won).toHaveLength(1);
        expect(won[0]!.publication).toMatchObject({ status: 'posting', claimedUntil: t(11).toISOString() });
        const owner = won[0]!.publication.claimedBy;
        // Still held a second before it ends; the publication the others see names the holder.
        const early = await store.drafts.claimPublication(
          publication.id,
          { owner: 'f', now: new Date(t(11).getTime() - 1_000), leaseMs: 60_000 },
          'gm:ann',
        );
        expect(early).toMatchObject({ claimed: false, publication: { status: 'posting', claimedBy: owner } });
        // Its process died: once the claim ends, another takes it over (and must look in the thread first).
        const takeover = await store.drafts.claimPublication(
          publication.id,
          { owner: 'g', now: t(11), leaseMs: 60_000 },
          'gm:ann',
        );
        expect(takeover).toMatchObject({ claimed: true, publication: { status: 'posting', claimedBy: 'g' } });
        const failed = await store.drafts.publicationFailed(publication.id, 'HTTP 503', 'system');
        expect(failed).toMatchObject({ status: 'failed', claimedBy: null, claimedUntil: null });
        expect(
          (await store.drafts.claimPublication(publication.id, { owner: 'h', now: t(12), leaseMs: 60_000 }, 'gm:ann'))
            .claimed,
        ).toBe(true);
        await store.drafts.published(publication.id, { remotePostId: '1', remoteUrl: null }, 'system');
        expect(
          await store.drafts.claimPublication(publication.id, { owner: 'i', now: t(30), leaseMs: 60_000 }, 'gm:ann'),
        ).toMatchObject({ claimed: false, publication: { status: 'published', claimedBy: null } });
        const actions = (await store.audit.list({ gameId: game.id })).map((a) => [a.action, a.detail]);
        expect(actions).toContainEqual([
          'publication.takeover',
          { draftId: draft.id, publicationId: publication.id, from: owner, claimedUntil: t(11).toISOString() },
        ]);
      });

      it('a discard is refused while the votal is being posted; a discarded draft cannot be claimed (issue #17, 4)', async () => {
        const game = await newGame();
        const snapshot = await store.tallies.save(game.id, tally(5));
        const posting = await store.drafts.create(
          { gameId: game.id, tallyId: snapshot.id, dialect: 'bbcode', body: 'v' },
          'poller',
        );
        await store.drafts.approve(posting.id, 'gm:ann');
        const publication = await store.drafts.startPublication(
          posting.id,
          { marker: unique('m'), method: 'adapter' },
          'gm:ann',
        );
        await store.drafts.claimPublication(publication.id, { owner: 'a', now: t(1), leaseMs: 60_000 }, 'gm:ann');
        await expect(store.drafts.discard(posting.id, 'gm:bob')).rejects.toThrow(/being posted to the forum right now/);
        expect((await store.drafts.get(posting.id))?.status).toBe('approved');
        await store.drafts.published(publication.id, { remotePostId: '7', remoteUrl: null }, 'system');
        expect((await store.drafts.get(posting.id))?.status).toBe('published');

        const waiting = await store.drafts.create(
          { gameId: game.id, tallyId: snapshot.id, dialect: 'bbcode', body: 'w' },
          'poller',
        );
        await store.drafts.approve(waiting.id, 'gm:ann');
        const unclaimed = await store.drafts.startPublication(
          waiting.id,
          { marker: unique('m'), method: 'adapter' },
          'gm:ann',
        );
        expect((await store.drafts.discard(waiting.id, 'gm:bob')).status).toBe('discarded');
        await expect(
          store.drafts.claimPublication(unclaimed.id, { owner: 'a', now: t(2), leaseMs: 60_000 }, 'gm:ann'),
        ).rejects.toThrow(
          new RegExp(`draft ${waiting.id} was discarded by gm:bob before it was posted; nothing was posted`),
        );
      });

      it('the audit log lists one action of a game on request', async () => {
        const game = await newGame();
        await store.audit.record({
          gameId: game.id,
          actor: 'gm',
          action: 'review.accept',
          detail: { key: 'flag:9:vote-by-dead' },
        });
        await store.audit.record({ gameId: game.id, actor: 'gm', action: 'news.dismiss', detail: {} });
        const accepted = await store.audit.list({ gameId: game.id, action: 'review.accept' });
        expect(accepted.map((a) => [a.action, a.detail])).toEqual([['review.accept', { key: 'flag:9:vote-by-dead' }]]);
      });

      it('an archived game keeps everything and is never due for a poll', async () => {
        const game = await newGame();
        await store.games.setNextPoll(game.id, new Date('2000-01-01T00:00:00Z'));
        const archived = await store.games.setStatus(game.id, 'archived', 'gm:test');
        expect(archived.status).toBe('archived');
        expect((await store.games.due(new Date('2000-01-01T00:00:01Z'))).map((g) => g.id)).not.toContain(game.id);
        expect((await store.games.list({ status: 'archived' })).map((g) => g.id)).toContain(game.id);
        expect(await store.games.get(game.id)).toMatchObject({ id: game.id, status: 'archived' });
      });

      it('a ruleset change is audited with the old and the new name', async () => {
        const game = await newGame();
        const changed = await store.games.setRuleset(game.id, 'witchhunt', 'gm:ann');
        expect(changed.ruleset).toBe('witchhunt');
        const [entry] = await store.audit.list({ gameId: game.id, limit: 1 });
        expect(entry).toMatchObject({
          action: 'game.ruleset',
          actor: 'gm:ann',
          detail: { from: 'plurality', to: 'witchhunt' },
        });
        await expect(store.games.setRuleset(987654321, 'plurality', 'gm:ann')).rejects.toThrow(NotFoundError);
      });

      it('a change of the ruleset overrides is audited with the old and the new overrides', async () => {
        const game = await newGame();
        const threshold = { kind: 'fraction', numerator: 1, denominator: 2 };
        const changed = await store.games.setRulesetOverrides(game.id, { threshold }, 'gm:ann', { key: 'k' });
        expect(changed.rulesetOverrides).toEqual({ threshold });
        expect((await store.games.get(game.id))!.rulesetOverrides).toEqual({ threshold });
        const [entry] = await store.audit.list({ gameId: game.id, limit: 1 });
        expect(entry).toMatchObject({
          action: 'game.overrides',
          actor: 'gm:ann',
          detail: { key: 'k', from: {}, to: { threshold } },
        });
        await expect(store.games.setRulesetOverrides(987654321, {}, 'gm:ann')).rejects.toThrow(NotFoundError);
      });

      it("an engine change (the GM's reader switch) is audited with the old and the new engine", async () => {
        const game = await newGame({ engine: 'xenforo2' });
        const changed = await store.games.setEngine(game.id, 'generic', 'gm:ann', { offeredFor: 'xenforo2' });
        expect(changed.engine).toBe('generic');
        expect((await store.games.get(game.id))!.engine).toBe('generic');
        const [entry] = await store.audit.list({ gameId: game.id, limit: 1 });
        expect(entry).toMatchObject({
          action: 'game.engine',
          actor: 'gm:ann',
          detail: { from: 'xenforo2', to: 'generic', offeredFor: 'xenforo2' },
        });
        await expect(store.games.setEngine(987654321, 'generic', 'gm:ann')).rejects.toThrow(NotFoundError);
      });

      it('deleting a game removes every row of it from every table, and only of it', async () => {
        const tables = [
          'post_reading',
          'post_revision',
          'post',
          'thread_page',
          'gm_event',
          'publication',
          'draft',
          'tally',
          'game_poll',
          'audit_log',
        ];
        const fill = async () => {
          const game = await newGame();
          await store.posts.recordPage(game.id, [post(unique('p'), 1, 'vote: Bob'), post(unique('p'), 2, 'hi')], t(1));
          const [first] = await store.posts.postsOf(game.id);
          await store.posts.recordPage(game.id, [post(first!.id, 1, 'vote: Alice')], t(2));
          await store.readings.save(first!.revisionId, 'v1', {
            actions: [],
            effect: { kind: 'none', target: null, reason: null },
            violations: [],
          });
          await store.threadPages.saveFetched(
            game.id,
            { page: 1, url: 'https://forum.example/t/1', etag: null, lastModified: null, bodyHash: 'h', postCount: 2 },
            t(1),
          );
          await store.events.append(game.id, { at: 1, kind: 'kill', player: 'Bob' }, 'gm:ann');
          const snapshot = await store.tallies.save(game.id, tally(2));
          const draft = await store.drafts.create(
            { gameId: game.id, tallyId: snapshot.id, dialect: 'bbcode', body: 'x' },
            'system',
          );
          await store.drafts.approve(draft.id, 'gm:ann');
          await store.drafts.startPublication(draft.id, { marker: unique('m'), method: 'copy' }, 'gm:ann');
          await sql.query('INSERT INTO game_poll (game_id) VALUES ($1) ON CONFLICT DO NOTHING', [game.id]);
          return game;
        };
        const rowsOf = async (gameId: number): Promise<Record<string, number>> => {
          const q = async (statement: string) => (await sql.query<{ n: number }>(statement, [gameId])).rows[0]!.n;
          return {
            game: await q('SELECT count(*) AS n FROM game WHERE id = $1'),
            post_reading: await q(`SELECT count(*) AS n FROM post_reading WHERE revision_id IN
              (SELECT r.id FROM post_revision r JOIN post p ON p.id = r.post_id WHERE p.game_id = $1)`),
            post_revision: await q(
              'SELECT count(*) AS n FROM post_revision WHERE post_id IN (SELECT id FROM post WHERE game_id = $1)',
            ),
            post: await q('SELECT count(*) AS n FROM post WHERE game_id = $1'),
            thread_page: await q('SELECT count(*) AS n FROM thread_page WHERE game_id = $1'),
            gm_event: await q('SELECT count(*) AS n FROM gm_event WHERE game_id = $1'),
            publication: await q(
              'SELECT count(*) AS n FROM publication WHERE draft_id IN (SELECT id FROM draft WHERE game_id = $1)',
            ),
            draft: await q('SELECT count(*) AS n FROM draft WHERE game_id = $1'),
            tally: await q('SELECT count(*) AS n FROM tally WHERE game_id = $1'),
            game_poll: await q('SELECT count(*) AS n FROM game_poll WHERE game_id = $1'),
            audit_log: await q('SELECT count(*) AS n FROM audit_log WHERE game_id = $1'),
          };
        };
        const doomed = await fill();
        const kept = await fill();
        const before = await rowsOf(doomed.id);
        for (const table of ['game', ...tables]) expect(before[table], table).toBeGreaterThan(0);
        const keptBefore = await rowsOf(kept.id);

        await store.games.remove(doomed.id, 'gm:ann');

        expect(Object.values(await rowsOf(doomed.id)).every((n) => n === 0)).toBe(true);
        expect(await rowsOf(kept.id)).toEqual(keptBefore);
        expect(await store.games.get(doomed.id)).toBeNull();
        const trace = (await store.audit.list({ limit: 50 })).find(
          (a) => a.action === 'game.delete' && a.detail.id === doomed.id,
        );
        expect(trace).toMatchObject({ gameId: null, actor: 'gm:ann', detail: { slug: doomed.slug } });
        await expect(store.games.remove(doomed.id, 'gm:ann')).rejects.toThrow(NotFoundError);
        // Outside that transaction evidence still refuses DELETE.
        await expect(sql.query('DELETE FROM gm_event WHERE game_id = $1', [kept.id])).rejects.toThrow(/append-only/);
        await expect(sql.query('DELETE FROM audit_log WHERE game_id = $1', [kept.id])).rejects.toThrow(/append-only/);
      });

      it('thread pages keep validators for conditional GETs', async () => {
        const game = await newGame();
        expect(await store.threadPages.lastPage(game.id)).toBe(0);
        await store.threadPages.saveFetched(
          game.id,
          {
            page: 1,
            url: 'https://forum.example/t/1',
            etag: 'W/"a"',
            lastModified: 'Wed, 01 Jan 2025 00:00:00 GMT',
            bodyHash: 'h1',
            postCount: 25,
          },
          t(1),
        );
        await store.threadPages.saveFetched(
          game.id,
          {
            page: 2,
            url: 'https://forum.example/t/1/page-2',
            etag: null,
            lastModified: null,
            bodyHash: 'h2',
            postCount: 3,
          },
          t(1),
        );
        expect(await store.threadPages.markNotModified(game.id, 1, t(5))).toBe(true);
        expect(await store.threadPages.markNotModified(game.id, 9, t(5))).toBe(false);
        expect(await store.threadPages.get(game.id, 1)).toMatchObject({
          etag: 'W/"a"',
          lastModified: 'Wed, 01 Jan 2025 00:00:00 GMT',
          fetchedAt: t(1).toISOString(),
          checkedAt: t(5).toISOString(),
        });
        await store.threadPages.saveFetched(
          game.id,
          {
            page: 2,
            url: 'https://forum.example/t/1/page-2',
            etag: 'W/"b"',
            lastModified: null,
            bodyHash: 'h3',
            postCount: 5,
          },
          t(6),
        );
        expect((await store.threadPages.list(game.id)).map((p) => [p.page, p.etag, p.postCount])).toEqual([
          [1, 'W/"a"', 25],
          [2, 'W/"b"', 5],
        ]);
        expect(await store.threadPages.lastPage(game.id)).toBe(2);
      });
    });

    describe("the clock's view of active games", () => {
      it('one query gives every active game with its poll state and latest tally, as read one by one', async () => {
        const never = await newGame();
        const polled = await newGame();
        const paused = await newGame();
        await store.games.setStatus(paused.id, 'paused', 'gm:test');
        const owner = 'test-instance/poll-1';
        await store.polls.claim(polled.id, owner, 60_000);
        const deadline = t(9).toISOString();
        await store.polls.finish(polled.id, owner, { ok: true, fullRead: true, at: t(3), state: { deadline } });
        await store.tallies.save(polled.id, tally(1));
        const latest = await store.tallies.save(polled.id, tally(2));

        const view = await store.polls.activeGames();
        const mine = view.filter((v) => [never.id, polled.id, paused.id].includes(v.game.id));
        expect(mine.map((v) => v.game.id)).toEqual([never.id, polled.id]);
        const oneByOne = async (id: number) => ({ game: await store.games.get(id), poll: await store.polls.get(id) });
        expect(mine[0]).toEqual({ ...(await oneByOne(never.id)), tally: null });
        expect(mine[1]).toEqual({ ...(await oneByOne(polled.id)), tally: latest });
        expect(mine[1]!.poll).toMatchObject({ lastPolledAt: t(3).toISOString(), state: { deadline } });
        expect(view.every((v) => v.game.status === 'active')).toBe(true);
      });

      it('facts merged into the poll state keep the others', async () => {
        const game = await newGame();
        const deadline = '2026-03-04T19:00:00.000Z';
        await store.polls.mergeState(game.id, { recountDue: true, deadline });
        await store.polls.mergeState(game.id, { recountDue: false });
        expect((await store.polls.get(game.id)).state).toEqual({ recountDue: false, deadline });
        await expect(store.polls.mergeState(987654321, { recountDue: true })).rejects.toThrow(NotFoundError);
      });

      it('a stored poll state no Votal wrote is not read silently: the error names the game and the key', async () => {
        const game = await newGame();
        await store.polls.mergeState(game.id, { recountDue: true });
        await sql.query(
          `UPDATE game_poll SET state = state || '{"lastCount": {"basis": "b"}}'::jsonb WHERE game_id = $1`,
          [game.id],
        );
        await expect(store.polls.get(game.id)).rejects.toThrow(
          new PollStateError(
            game.id,
            'lastCount.at: Invalid input: expected string, received undefined; ' +
              'lastCount.tallyId: Invalid input: expected number, received undefined; ' +
              'lastCount.deadline: Invalid input: expected string, received undefined; ' +
              'lastCount.upcoming: Invalid input: expected array, received undefined',
          ),
        );
        await sql.query(`UPDATE game_poll SET state = '{"loginRequired": "yes"}'::jsonb WHERE game_id = $1`, [game.id]);
        await expect(store.polls.activeGames()).rejects.toThrow(`game ${game.id} has a bad poll state: loginRequired:`);
        await sql.query(`UPDATE game_poll SET state = '{}'::jsonb WHERE game_id = $1`, [game.id]); // the suite reads every game later
      });

      it('a poll state from before the newer keys loads: each key is optional by nature', async () => {
        const game = await newGame();
        await store.polls.mergeState(game.id, {});
        await sql.query(
          `UPDATE game_poll SET state = '{"deadline": "2026-03-04T19:00:00Z"}'::jsonb WHERE game_id = $1`,
          [game.id],
        );
        expect((await store.polls.get(game.id)).state).toEqual({ deadline: '2026-03-04T19:00:00Z' });
      });

      it('facts a writer gets wrong are refused before they are merged, naming the game and the key', async () => {
        const game = await newGame();
        await store.polls.mergeState(game.id, { recountDue: true });
        await expect(store.polls.mergeState(game.id, { deadline: 'Friday' })).rejects.toThrow(
          new PollStateError(game.id, 'deadline: Invalid ISO datetime'),
        );
        const typo = { recountdue: false } as Record<string, unknown>;
        await expect(store.polls.mergeState(game.id, typo)).rejects.toThrow(
          `game ${game.id} has a bad poll state: (state): Unrecognized key: "recountdue"`,
        );
        expect((await store.polls.get(game.id)).state).toEqual({ recountDue: true });
      });
    });
  });
}
