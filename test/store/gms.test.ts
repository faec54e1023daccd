/**
 * GM accounts, invites, sessions and game membership (migration 010): the same rules on
 * both drivers, embedded PGlite and PostgreSQL.
 */
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NotFoundError, StateError } from '../../src/store/errors.js';
import { InviteRefusedError, NameTakenError } from '../../src/store/gms-repo.js';
import { migrate } from '../../src/store/migrate.js';
import { openSql, storeOn, type Repos } from '../../src/store/open-store.js';
import type { Sql } from '../../src/store/sql.js';
import { pgProblem, pgSchemas, pgUnavailable, PG_URL } from '../support/postgres.js';

const T0 = new Date(Date.UTC(2026, 0, 1, 12));
const at = (minutes: number): Date => new Date(T0.getTime() + minutes * 60_000);
const DAY = 24 * 60;
const hash = (s: string): string => createHash('sha256').update(s).digest('hex');
const token = (): string => hash(randomBytes(16).toString('hex'));
const unique = (prefix: string): string => `${prefix}${randomBytes(3).toString('hex')}`;
const RULES = { idleMs: 12 * 3600_000, maxAgeMs: 7 * 24 * 3600_000 };

function gmsContract(driver: string, open: () => Promise<Sql>): void {
  describe(`GM accounts (${driver})`, () => {
    let sql: Sql;
    let store: Repos;
    let adminId = 0;

    beforeAll(async () => {
      sql = await open();
      await migrate(sql);
      store = storeOn(sql);
      adminId = (await store.gms.admin(T0)).id;
    });
    afterAll(async () => {
      await sql?.close();
    });

    const invite = async (expiresAt = at(7 * DAY)) => {
      const tokenHash = token();
      const made = await store.gms.createInvite({ tokenHash, createdBy: adminId, at: T0, expiresAt }, 'gm:admin');
      return { tokenHash, made };
    };
    const join = async (name: string) => {
      const { tokenHash } = await invite();
      return store.gms.acceptInvite({ tokenHash, name, passwordHash: 'scrypt$16384$8$1$salt$hash', at: at(1) });
    };
    const game = async () =>
      store.games.create(
        {
          threadUrl: `https://forum.example/t/${randomBytes(4).toString('hex')}/`,
          ruleset: 'plurality',
          roster: [{ name: 'Ann' }],
        },
        'gm',
      );

    it('the admin account is made once, however often it is asked for', async () => {
      const [a, b] = await Promise.all([store.gms.admin(at(5)), store.gms.admin(at(6))]);
      expect(a.id).toBe(adminId);
      expect(b.id).toBe(adminId);
      expect(a).toMatchObject({ name: 'admin', admin: true });
    });

    it('an invite makes one GM, with the password hash kept for sign-in, and is then used', async () => {
      const { tokenHash, made } = await invite();
      const name = unique('Alice');
      const gm = await store.gms.acceptInvite({ tokenHash, name, passwordHash: 'scrypt$1$2$3$s$h', at: at(2) });
      expect(gm).toMatchObject({ name, admin: false, revokedAt: null });
      expect(await store.gms.credentials(name.toUpperCase())).toMatchObject({
        id: gm.id,
        passwordHash: 'scrypt$1$2$3$s$h',
      });
      expect(await store.gms.invite(tokenHash)).toMatchObject({
        id: made.id,
        usedBy: gm.id,
        usedAt: at(2).toISOString(),
      });
      const joined = await store.audit.list({ action: 'gm.join' });
      expect(joined.find((e) => e.actor === `gm:${name}`)?.detail).toEqual({ invite: made.id });
    });

    it('an invite works once: the second use is refused as used', async () => {
      const { tokenHash } = await invite();
      await store.gms.acceptInvite({ tokenHash, name: unique('Once'), passwordHash: 'scrypt$x', at: at(1) });
      const again = store.gms.acceptInvite({ tokenHash, name: unique('Twice'), passwordHash: 'scrypt$x', at: at(2) });
      await expect(again).rejects.toBeInstanceOf(InviteRefusedError);
      await expect(again).rejects.toMatchObject({ reason: 'used' });
    });

    it('two people taking one invite at the same moment: one GM is made', async () => {
      const { tokenHash } = await invite();
      const results = await Promise.allSettled([
        store.gms.acceptInvite({ tokenHash, name: unique('Race'), passwordHash: 'scrypt$x', at: at(1) }),
        store.gms.acceptInvite({ tokenHash, name: unique('Race'), passwordHash: 'scrypt$x', at: at(1) }),
      ]);
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      expect(results.find((r) => r.status === 'rejected')).toMatchObject({ reason: { reason: 'used' } });
    });

    it.each([
      [
        'expired',
        async (h: string, id: number) => {
          void h;
          void id;
        },
        at(7 * DAY),
      ],
      [
        'revoked',
        async (_h: string, id: number) => {
          await store.gms.revokeInvite(id, 'gm:admin', at(3));
        },
        at(4),
      ],
      ['unknown', async () => {}, at(1)],
    ] as const)('an %s invite is refused and makes no GM', async (reason, prepare, when) => {
      const { tokenHash, made } = await invite(at(7 * DAY));
      await prepare(tokenHash, made.id);
      const name = unique('Late');
      const used = reason === 'unknown' ? token() : tokenHash;
      const use = store.gms.acceptInvite({ tokenHash: used, name, passwordHash: 'scrypt$x', at: when });
      await expect(use).rejects.toMatchObject({ name: 'InviteRefusedError', reason });
      expect(await store.gms.credentials(name)).toBeNull();
    });

    it('names are unique ignoring case, and "admin" is reserved', async () => {
      const name = unique('Bob');
      await join(name);
      const { tokenHash } = await invite();
      await expect(
        store.gms.acceptInvite({ tokenHash, name: name.toLowerCase(), passwordHash: 'scrypt$x', at: at(1) }),
      ).rejects.toBeInstanceOf(NameTakenError);
      // The refused name did not use up the invite.
      expect((await store.gms.invite(tokenHash))?.usedAt).toBeNull();
      const take = (name: string) => store.gms.acceptInvite({ tokenHash, name, passwordHash: 'scrypt$x', at: at(1) });
      await expect(take('Admin')).rejects.toThrow(/admin/);
      await expect(take('<b>x</b>')).rejects.toThrow(/letters/);
    });

    it('a session lives while used: it ends after the idle time or the maximum age, and is then gone', async () => {
      const gm = await join(unique('Sess'));
      const idHash = token();
      await store.gms.startSession({ idHash, gmId: gm.id, csrf: 'c1', at: T0 });
      expect(await store.gms.session(idHash, { ...RULES, at: at(60) })).toMatchObject({
        gm: { id: gm.id },
        csrf: 'c1',
      });
      // Used every 11 hours: alive until seven days after sign-in.
      for (let h = 11; h < 7 * 24; h += 11) {
        expect(await store.gms.session(idHash, { ...RULES, at: at(h * 60) })).not.toBeNull();
      }
      expect(await store.gms.session(idHash, { ...RULES, at: at(7 * DAY + 1) })).toBeNull();
      expect(await store.gms.session(idHash, { ...RULES, at: at(10) })).toBeNull(); // removed, not merely refused

      const idle = token();
      await store.gms.startSession({ idHash: idle, gmId: gm.id, csrf: 'c2', at: T0 });
      expect(await store.gms.session(idle, { ...RULES, at: at(12 * 60 + 1) })).toBeNull();
    });

    it('a revoked GM loses their sessions and the admin cannot be revoked', async () => {
      const gm = await join(unique('Gone'));
      const idHash = token();
      await store.gms.startSession({ idHash, gmId: gm.id, csrf: 'c', at: T0 });
      const revoked = await store.gms.revoke(gm.id, 'gm:admin', at(2));
      expect(revoked.revokedAt).toBe(at(2).toISOString());
      expect(await store.gms.session(idHash, { ...RULES, at: at(3) })).toBeNull();
      await expect(store.gms.revoke(adminId, 'gm:admin', at(2))).rejects.toBeInstanceOf(StateError);
      await expect(store.gms.revoke(999_999, 'gm:admin', at(2))).rejects.toBeInstanceOf(NotFoundError);
    });

    it('a game has one owner and co-hosts; each GM knows their games', async () => {
      const [owner, cohost, other] = await Promise.all([join(unique('Own')), join(unique('Co')), join(unique('Oth'))]);
      const g = await game();
      await store.gms.addToGame(g.id, owner.id, 'owner', `gm:${owner.name}`, at(1));
      await store.gms.addToGame(g.id, cohost.id, 'cohost', `gm:${owner.name}`, at(2));
      // Added again as a co-host, the owner stays owner.
      expect((await store.gms.addToGame(g.id, owner.id, 'cohost', 'gm:admin', at(3))).role).toBe('owner');
      await expect(store.gms.addToGame(g.id, other.id, 'owner', 'gm:admin', at(3))).rejects.toThrow();
      expect((await store.gms.ofGame(g.id)).map((m) => [m.gm.name, m.role])).toEqual([
        [owner.name, 'owner'],
        [cohost.name, 'cohost'],
      ]);
      expect(await store.gms.roleIn(g.id, cohost.id)).toBe('cohost');
      expect(await store.gms.roleIn(g.id, other.id)).toBeNull();
      expect(await store.gms.gameIds(cohost.id)).toEqual([g.id]);
      expect(await store.gms.gameIds(other.id)).toEqual([]);
      const audit = await store.audit.list({ gameId: g.id, action: 'game.cohost-add' });
      expect(audit.map((e) => [e.actor, e.detail])).toEqual([[`gm:${owner.name}`, { gm: cohost.name }]]);
    });

    it('a co-host is removed; the owner is not', async () => {
      const [owner, cohost] = await Promise.all([join(unique('Own')), join(unique('Co'))]);
      const g = await game();
      await store.gms.addToGame(g.id, owner.id, 'owner', 'gm:x', at(1));
      await store.gms.addToGame(g.id, cohost.id, 'cohost', 'gm:x', at(1));
      await store.gms.removeFromGame(g.id, cohost.id, `gm:${owner.name}`);
      expect(await store.gms.roleIn(g.id, cohost.id)).toBeNull();
      await expect(store.gms.removeFromGame(g.id, owner.id, 'gm:x')).rejects.toThrow(/owns this game/);
      await expect(store.gms.removeFromGame(g.id, cohost.id, 'gm:x')).rejects.toBeInstanceOf(NotFoundError);
    });

    it('deleting a game removes its memberships and keeps its GMs', async () => {
      const owner = await join(unique('Del'));
      const g = await game();
      await store.gms.addToGame(g.id, owner.id, 'owner', 'gm:x', at(1));
      await store.games.remove(g.id, `gm:${owner.name}`);
      expect(await store.gms.ofGame(g.id)).toEqual([]);
      expect(await store.gms.gameIds(owner.id)).toEqual([]);
      expect(await store.gms.get(owner.id)).toMatchObject({ name: owner.name });
    });

    it('the stored rows hold no token or session id, only their hashes', async () => {
      const { rows } = await sql.query<{ n: number }>(
        `SELECT count(*) AS n FROM gm_session WHERE length(id_hash) <> 64
         UNION ALL SELECT count(*) FROM gm_invite WHERE length(token_hash) <> 64`,
      );
      expect(rows.map((r) => r.n)).toEqual([0, 0]);
    });
  });
}

gmsContract('pglite', () => openSql({ dataDir: 'memory://' }));

const problem = await pgProblem();
if (problem === null) {
  const schemas = pgSchemas();
  gmsContract('postgres', async () => openSql({ databaseUrl: PG_URL, schema: await schemas.schema() }));
} else {
  pgUnavailable('GM accounts (postgres)', problem);
}
