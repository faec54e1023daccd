import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { StoreLockCompromisedError, StoreLockedError } from '../../src/store/errors.js';
import { migrate } from '../../src/store/migrate.js';
import { openSql } from '../../src/store/open-store.js';
import { LOCK_NAME, openPgliteSql, PGLITE_SHARED_BUFFERS } from '../../src/store/pglite-sql.js';
import type { Sql } from '../../src/store/sql.js';
import { storeContract } from './contract.js';

// One folder for the file: the contract runs in it (first open ~4 s), the lock cases reopen it.
const dir = await mkdtemp(join(tmpdir(), 'votal-store-'));
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

storeContract('pglite', () => openSql({ dataDir: dir }));

describe('PGlite folder lock', () => {
  // Reopens of the contract's folder (no extra instance); `held` is the handle that owns it.
  let held: Sql | null = null;
  afterAll(async () => {
    await held?.close();
  });

  it('the PGlite folder is locked against a second opener', async () => {
    held = await openSql({ dataDir: dir });
    expect(existsSync(join(dir, LOCK_NAME))).toBe(true);
    const second = openSql({ dataDir: dir });
    await expect(second).rejects.toThrow(StoreLockedError);
    await expect(second).rejects.toThrow(dir);
    // The refused open did not disturb the holder.
    expect((await held.query<{ one: number }>('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
  });

  it('closing releases the lock so the folder opens again', async () => {
    const first = held ?? (await openSql({ dataDir: dir }));
    held = null;
    await first.close();
    await first.close(); // twice is fine
    expect(existsSync(join(dir, LOCK_NAME))).toBe(false);
    await expect(first.query('SELECT 1')).rejects.toThrow(/closed/);

    held = await openSql({ dataDir: dir });
    // The data written by the contract survived the reopen.
    expect((await migrate(held)).applied).toEqual([]);
    const { rows } = await held.query<{ n: number }>('SELECT count(*) AS n FROM game');
    expect(rows[0]!.n).toBeGreaterThan(0);
  });

  it("PGlite runs with a small buffer cache (its memory is the process's for the store's life)", async () => {
    const sql = held ?? (held = await openSql({ dataDir: dir }));
    const { rows } = await sql.query<{ shared_buffers: string }>('SHOW shared_buffers');
    expect(rows).toEqual([{ shared_buffers: PGLITE_SHARED_BUFFERS }]);
  });

  it('the outer handle used inside its own transaction fails instead of hanging', async () => {
    const sql = held ?? (held = await openSql({ dataDir: dir }));
    await expect(sql.transaction(() => sql.query('SELECT 1'))).rejects.toThrow(/handle passed to fn/);
    expect((await sql.query<{ one: number }>('SELECT 1 AS one')).rows[0]?.one).toBe(1);
  });

  it('a lost lock closes the database and says so', async () => {
    await held?.close();
    held = null;
    const lost: StoreLockCompromisedError[] = [];
    const sql = await openPgliteSql({ dataDir: dir, lockStaleMs: 2_000, onLockCompromised: (e) => lost.push(e) });
    held = sql;
    await rm(join(dir, LOCK_NAME), { recursive: true }); // as if another process had broken it
    const until = Date.now() + 20_000; // a message for a lock never lost, no speed bound
    while (lost.length === 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    expect(lost[0]).toBeInstanceOf(StoreLockCompromisedError);
    expect(lost[0]!.message).toContain(dir);
    await expect(sql.query('SELECT 1')).rejects.toThrow(StoreLockCompromisedError);
    await sql.close();
    held = null;
  });
});
