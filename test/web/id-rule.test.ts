import { describe, expect, it } from 'vitest';
import type { Gm } from '../../src/model/gm.js';
import { hashBody, type Post } from '../../src/model/post.js';
import { createApp } from '../../src/web/app.js';
import { postNumberOf, rowIdOf, slugOf } from '../../src/web/ids.js';
import { GmAuth, secretHash } from '../../src/web/gm-sessions.js';
import { FORM, form, O } from '../ui/sign-in.js';
import { ADMIN_TOKEN, describePg, openTestStore, recordingPoller, sampleTally, testEnv } from './support.js';

/**
 * One id rule (issue #22, 1): every route that names a row by id reads it in canonical
 * decimal only, with the same parser in the access guard and in the handler. The attack it
 * closes: `GET /api/games/0000000000002/tally` by a GM who neither owns nor co-hosts game 2
 * answered 200 with its tally, because the guard checked only `^\d{1,12}$` and left longer
 * ids "to the handler", whose parser took up to 15 digits and `Number()` read them as 2.
 *
 * The walk below takes its routes from the app itself (`app.routes`), so a route added later
 * is walked too, and fails this test if it does not follow the rule.
 */

describe('the id rule, read alone', () => {
  it.each([
    ['1', 1],
    ['2', 2],
    ['9007199254740991', Number.MAX_SAFE_INTEGER],
    ['0', null], // ids start at 1
    ['02', null],
    ['0000000000002', null],
    ['000000000000002', null],
    ['+2', null],
    ['-2', null],
    [' 2', null],
    ['2 ', null],
    ['2e0', null],
    ['0x2', null],
    ['2.0', null],
    ['9007199254740992', null], // past Number.MAX_SAFE_INTEGER: no longer one integer
    ['99999999999999999999', null],
    ['٢', null], // an Arabic-Indic two: \d in some engines, never an id
    ['', null],
  ])('row id %j is %s', (raw, id) => {
    expect(rowIdOf(raw)).toBe(id);
  });

  it.each([
    ['0', 0], // MafiaScum's opening post is #0
    ['17', 17],
    ['00', null],
    ['017', null],
    ['+17', null],
    ['1e1', null],
  ])('post number %j is %s', (raw, n) => {
    expect(postNumberOf(raw)).toBe(n);
  });

  it.each([
    ['mafia-42-ab12', 'mafia-42-ab12'],
    ['Mafia-42', null],
    [' mafia', null],
    ['-mafia', null],
    ['mafia%2e', null],
    ['a'.repeat(65), null],
  ])('slug %j is %s', (raw, slug) => {
    expect(slugOf(raw)).toBe(slug);
  });
});

/** The tables a request could change (sessions aside: every request touches its own). */
const TABLES = [
  'game',
  'game_poll',
  'game_gm',
  'thread_page',
  'post',
  'post_revision',
  'post_reading',
  'gm_event',
  'tally',
  'draft',
  'publication',
  'audit_log',
  'gm',
  'gm_invite',
  'site_profile',
  'generic_check',
];

/** Every id form of the attack report, and the real id itself. */
const idForms = (id: number): [string, string][] => [
  ['zero-padded', `0${id}`],
  ['13 digits', String(id).padStart(13, '0')],
  ['15 digits', String(id).padStart(15, '0')],
  ['plus sign', `+${id}`],
  ['minus sign', `-${id}`],
  ['leading space', ` ${id}`],
  ['trailing space', `${id} `],
  ['exponent', `${id}e0`],
  ['hex', `0x${id.toString(16)}`],
  ['fraction', `${id}.0`],
  ['past the safe integers', '9007199254740993'],
  ['20 digits', '9'.repeat(20)],
  ['the real id', String(id)],
];

/** Path parameters that name no row (tokens, file names, slugs): walked elsewhere. */
const NOT_IDS = new Set(['slug', 'token', 'file']);
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];

interface Caller {
  cookie: string;
  csrf: string;
}

/** The rows a route's ids name: one set for the intruder's target, one for the admin's control. */
interface Targets {
  game: number;
  slug: string;
  draft: number;
  gm: number;
  invite: number;
  post: number;
}

function isolationSuite(driver: 'pglite' | 'pg'): void {
  it('a GM who neither owns nor co-hosts a game gets 404 on every id route, in every id form, and changes nothing', async () => {
    const { store, close } = await openTestStore(driver);
    const poller = recordingPoller();
    const at = new Date(Date.UTC(2026, 2, 1, 12));
    const app = createApp({
      store,
      poller,
      env: testEnv(),
      rateLimit: false,
      authRateLimit: false,
      pollWaitMs: 0,
      now: () => at,
    });
    try {
      const auth = new GmAuth({ adminToken: ADMIN_TOKEN, dataDir: 'memory://', gms: store.gms, now: () => +at });
      const admin = await store.gms.admin(at);
      const joined = async (name: string): Promise<Gm> => {
        const tokenHash = secretHash(`invite-${name}`);
        await store.gms.createInvite(
          { tokenHash, createdBy: admin.id, at, expiresAt: new Date(+at + 86_400_000) },
          'test',
        );
        return store.gms.acceptInvite({ tokenHash, name, passwordHash: 'scrypt$1$2$3$s$h', at });
      };
      const [owner, intruder, cohost] = [await joined('Olive'), await joined('Ivan'), await joined('Cora')];
      const session = async (gm: Gm): Promise<Caller> => {
        const s = await auth.start(gm);
        return { cookie: `votal_gm=${s.id}`, csrf: s.csrf };
      };

      // A game of the intruder's own first: game ids below the target's are real games too.
      let threads = 0;
      const game = async (gm: Gm): Promise<{ id: number; slug: string }> => {
        const g = await store.games.create(
          {
            threadUrl: `https://forum.example/threads/mafia.${++threads}/`,
            engine: 'xenforo2',
            ruleset: 'plurality',
            roster: ['Ann', 'Ben', 'Cy'].map((name) => ({ name })),
          },
          'test',
        );
        await store.gms.addToGame(g.id, gm.id, 'owner', 'test', at);
        return { id: g.id, slug: g.slug };
      };
      await game(intruder);
      const targetsOf = async (): Promise<Targets> => {
        const g = await game(owner);
        await store.gms.addToGame(g.id, cohost.id, 'cohost', 'test', at);
        await store.posts.recordPage(
          g.id,
          [1, 2].map((n) => {
            const body: Post['body'] = [{ t: 'text', text: 'Vote: Cy' }];
            return {
              id: `${g.id}-${n}`,
              number: n,
              page: 1,
              author: n === 1 ? 'Ann' : 'Ben',
              authorId: null,
              postedAt: at.toISOString(),
              permalink: `https://forum.example/threads/mafia.${threads}/post-${n}`,
              edit: null,
              bodyHash: hashBody(body),
              body,
            };
          }),
          at,
        );
        await store.events.append(g.id, { at: 1, kind: 'kill', player: 'Cy' }, 'test');
        const tally = await store.tallies.save(g.id, sampleTally({ players: ['Ann', 'Ben', 'Cy'] }));
        const draft = await store.drafts.create(
          { gameId: g.id, tallyId: tally.id, dialect: 'bbcode-xenforo', body: 'Vote count' },
          'test',
        );
        const tokenHash = secretHash(`open-invite-${g.id}`);
        const invite = await store.gms.createInvite(
          { tokenHash, createdBy: admin.id, at, expiresAt: new Date(+at + 86_400_000) },
          'test',
        );
        return { game: g.id, slug: g.slug, draft: draft.id, gm: cohost.id, invite: invite.id, post: 2 };
      };
      const target = await targetsOf();
      const control = await targetsOf();
      const deleted = await targetsOf(); // the control of the dashboard's delete (the API's deletes `control`)

      // The routes, from the app: each path with a parameter naming a row.
      const registered = app.routes.filter((r) => r.method !== 'ALL' && r.path.includes('/:'));
      const params = (path: string) => [...path.matchAll(/:(\w+)/g)].map((m) => m[1]!);
      const idRoutes = registered.filter((r) => params(r.path).some((p) => !NOT_IDS.has(p)));
      const unknown = registered
        .flatMap((r) => params(r.path))
        .filter((p) => !NOT_IDS.has(p) && !['id', 'gm', 'number', 'key'].includes(p));
      expect(unknown, 'a path parameter this walk does not know how to fill').toEqual([]);
      const paths = [...new Set(idRoutes.map((r) => r.path))];
      expect(paths.filter((p) => p.startsWith('/api/')).length).toBeGreaterThanOrEqual(10);
      expect(paths.filter((p) => p.startsWith('/gm/')).length).toBeGreaterThanOrEqual(10);

      /** The path with `:id` in the given form and every other parameter naming a real row of `t`. */
      const fill = (path: string, t: Targets, idText: string | null): string => {
        const own =
          path.startsWith('/api/drafts/') || path.startsWith('/gm/drafts/')
            ? t.draft
            : path.startsWith('/gm/gms/invites/')
              ? t.invite
              : path.startsWith('/gm/gms/')
                ? t.gm
                : t.game;
        return (
          path
            .replace(':id', encodeURIComponent(idText ?? String(own)))
            .replace(':gm', String(t.gm))
            .replace(':number', String(t.post))
            // A news proposal's or a count difference's key: the guard answers before any key is read.
            .replace(':key', 'day-start.2')
        );
      };
      const idOfPath = (path: string, t: Targets): number =>
        path.includes('/drafts/:id')
          ? t.draft
          : path.startsWith('/gm/gms/invites/')
            ? t.invite
            : path.startsWith('/gm/gms/')
              ? t.gm
              : t.game;

      /** A body that would do real harm if the guard let it through. */
      const apiBody = (method: string, path: string, t: Targets): string | undefined => {
        if (method === 'GET' || method === 'HEAD') return undefined;
        if (path === '/api/games/:id') return JSON.stringify({ title: 'taken' });
        if (path === '/api/games/:id/events') return JSON.stringify({ at: 2, kind: 'kill', player: 'Ann' });
        if (path === '/api/drafts/:id/approve') return JSON.stringify({ confirm: true });
        if (path === '/api/drafts/:id/published')
          return JSON.stringify({ url: `https://forum.example/threads/mafia.${t.game}/post-9` });
        return '{}';
      };
      const uiFields = (path: string, t: Targets): Record<string, string> => ({
        confirm: path.endsWith('/delete') ? t.slug : '1',
        ...(path.endsWith('/events') ? { kind: 'kill', player: 'Ann', at: '2' } : {}),
        ...(path.endsWith('/settings') ? { title: 'taken', players: 'Mallory' } : {}),
        ...(path.endsWith('/cohosts') ? { name: 'Ivan' } : {}),
        ...(path.endsWith('/edit') || path.endsWith('/approve') ? { body: 'Taken over' } : {}),
      });
      const send = (method: string, route: string, path: string, t: Targets, who: Caller | 'bearer') => {
        const url = `${O}${path}?confirm=${t.slug}&wait=0`;
        if (route.startsWith('/api/')) {
          const body = apiBody(method, route, t);
          const headers: Record<string, string> =
            who === 'bearer'
              ? { authorization: `Bearer ${ADMIN_TOKEN}` }
              : { cookie: who.cookie, 'x-votal-csrf': who.csrf };
          return app.request(url, { method, headers: { ...headers, 'content-type': 'application/json' }, body });
        }
        const { cookie, csrf } = who as Caller;
        const safe = method === 'GET' || method === 'HEAD';
        return app.request(url, {
          method,
          headers: { cookie, origin: O, 'content-type': FORM },
          body: safe ? undefined : form({ _csrf: csrf, ...uiFields(route, t) }),
        });
      };

      const snapshot = async (): Promise<string> => {
        const parts: Record<string, unknown[]> = {};
        for (const table of TABLES) parts[table] = (await store.sql.query(`SELECT * FROM ${table} ORDER BY 1`)).rows;
        return JSON.stringify(parts);
      };

      // ----------------------------------------------------------------- the intruder's walk
      const before = await snapshot();
      const ivan = await session(intruder);
      const answered: string[] = [];
      // Every route in every id form; every other method on its path with the real id and a padded one.
      const has = new Set(idRoutes.map((r) => `${r.method} ${r.path}`));
      for (const path of paths) {
        for (const method of METHODS) {
          const forms = idForms(idOfPath(path, target));
          const tried = has.has(`${method} ${path}`)
            ? forms
            : forms.filter(([n]) => n === '13 digits' || n === 'the real id');
          for (const [name, idText] of tried) {
            const res = await send(method, path, fill(path, target, idText), target, ivan);
            if (res.status !== 404) answered.push(`${method} ${fill(path, target, idText)} (${name}): ${res.status}`);
          }
        }
      }
      expect(answered, 'answers other than 404 to the intruder').toEqual([]);

      // ---------------------------------------- the admin and the bearer token: forms refused too
      const adminSession = await session(admin);
      for (const r of idRoutes) {
        for (const [name, idText] of idForms(idOfPath(r.path, target)).slice(0, -1)) {
          const path = fill(r.path, target, idText);
          const res = await send(r.method, r.path, path, target, adminSession);
          if (res.status !== 404) answered.push(`admin ${r.method} ${path} (${name}): ${res.status}`);
          if (r.path.startsWith('/api/')) {
            const token = await send(r.method, r.path, path, target, 'bearer');
            if (token.status !== 404) answered.push(`bearer ${r.method} ${path} (${name}): ${token.status}`);
          }
        }
      }
      expect(answered, 'answers other than 404 to a non-canonical id').toEqual([]);
      expect(await snapshot()).toBe(before);
      expect(poller.calls).toEqual([]);

      // ------------------------------------------------- the control: each route does answer
      // The admin, the real ids of another game: no route is a 404 by itself, so the 404s
      // above are the guard's and the parser's (deleting routes last).
      const last = (p: string) => (p.endsWith('/delete') || p === '/api/games/:id' ? 1 : 0);
      const ordered = [...idRoutes].sort(
        (a, b) => last(a.path) - last(b.path) || Number(a.method === 'DELETE') - Number(b.method === 'DELETE'),
      );
      const missing: string[] = [];
      // A `:key` names a proposal or a difference the game does not have here (the walk's
      // games have no GM posts): its handler's 404 is its own (test/game/gm-news, gm-checks).
      for (const r of ordered.filter((o) => !o.path.includes(':key'))) {
        const t = r.path === '/gm/games/:id/delete' ? deleted : control;
        const res = await send(r.method, r.path, fill(r.path, t, null), t, adminSession);
        if (res.status === 404 || res.status === 403) missing.push(`${r.method} ${r.path}: ${res.status}`);
      }
      expect(missing, 'routes that do not answer the admin for a real row').toEqual([]);

      // ------------------------------------------- slugs: one rule on every public route too
      // Any form of a real slug but the slug itself names no game (the live page, its
      // fragment and its event stream read the slug with the same rule).
      const slugRoutes = app.routes.filter((r) => r.method === 'GET' && r.path.includes(':slug'));
      expect(slugRoutes.map((r) => r.path)).toEqual(
        expect.arrayContaining(['/g/:slug', '/g/:slug/fragment', '/g/:slug/events']),
      );
      const slugForms = [
        target.slug.toUpperCase(),
        `%20${target.slug}`,
        `${target.slug}%2e`,
        `-${target.slug}`,
        `${target.slug}%00`,
      ];
      const slugAnswers: string[] = [];
      for (const r of slugRoutes) {
        for (const shown of slugForms) {
          const res = await app.request(`${O}${r.path.replace(':slug', shown)}`);
          if (res.status !== 404) slugAnswers.push(`GET ${r.path.replace(':slug', shown)}: ${res.status}`);
        }
      }
      expect(slugAnswers, 'answers other than 404 to a non-canonical slug').toEqual([]);
      expect((await app.request(`${O}/g/${target.slug}`)).status).toBe(200);
    } finally {
      await app.shutdown();
      await close();
    }
  }, 240_000);
}

describe('the id rule through every route (PGlite)', () => isolationSuite('pglite'));
await describePg('the id rule through every route (PostgreSQL)', () => isolationSuite('pg'));
