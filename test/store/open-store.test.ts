import { chmodSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { closeOnSignals, openSql, openStore, StoreEnv } from '../../src/store/open-store.js';
import { redactDatabaseUrl } from '../../src/store/sql.js';

describe('choosing the store from the environment', () => {
  it('a blank DATABASE_URL counts as unset', () => {
    expect(StoreEnv.parse({ DATABASE_URL: '  ', VOTAL_DATA_DIR: '' })).toEqual({
      DATABASE_URL: undefined,
      VOTAL_DATA_DIR: undefined,
    });
    expect(StoreEnv.parse({ DATABASE_URL: 'postgresql://u:p@db:5432/votal' }).DATABASE_URL).toBe(
      'postgresql://u:p@db:5432/votal',
    );
  });

  it('a DATABASE_URL that is not postgres:// is refused without echoing it', async () => {
    const secret = 'mysql://user:hunter2@db/votal';
    await expect(openSql({ env: { DATABASE_URL: secret } })).rejects.toThrow(/DATABASE_URL must be a postgres/);
    await expect(openSql({ env: { DATABASE_URL: secret } })).rejects.not.toThrow(/hunter2/);
  });

  it('databaseUrl and dataDir together are refused', async () => {
    await expect(openSql({ databaseUrl: 'postgres://x@127.0.0.1/db', dataDir: '.votal' })).rejects.toThrow(/not both/);
  });

  it('an unreachable PostgreSQL is reported without its password', async () => {
    const error = await openSql({ databaseUrl: 'postgres://votal:hunter2@127.0.0.1:1/votal' }).catch((e: Error) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(
      /cannot connect to PostgreSQL at postgres:\/\/votal:\*\*\*@127\.0\.0\.1:1\/votal/,
    );
    expect((error as Error).message).not.toMatch(/hunter2/);
    expect(redactDatabaseUrl('postgres://a@h/db')).toBe('postgres://a@h/db');
  });
});

describe('closeOnSignals', () => {
  let dispose: (() => void) | null = null;
  afterEach(() => {
    dispose?.();
    dispose = null;
  });

  it('SIGTERM stops the app, closes the database, then exits 143', async () => {
    const steps: string[] = [];
    const exited = new Promise<number>((resolve) => {
      dispose = closeOnSignals(
        { close: async () => void steps.push('close') },
        {
          before: async () => void steps.push('before'),
          exit: (code) => {
            steps.push(`exit ${code}`);
            resolve(code);
          },
        },
      );
    });
    process.emit('SIGTERM', 'SIGTERM');
    expect(await exited).toBe(143);
    expect(steps).toEqual(['before', 'close', 'exit 143']);
  });

  it('a failing close still exits, and the handlers are gone afterwards', async () => {
    const errors: unknown[] = [];
    const before = process.listenerCount('SIGINT');
    const exited = new Promise<number>((resolve) => {
      dispose = closeOnSignals(
        {
          close: async () => {
            throw new Error('disk full');
          },
        },
        { exit: resolve, onError: (e) => errors.push(e) },
      );
    });
    expect(process.listenerCount('SIGINT')).toBe(before + 1);
    process.emit('SIGINT', 'SIGINT');
    expect(await exited).toBe(130);
    expect(String(errors[0])).toMatch(/disk full/);
    expect(process.listenerCount('SIGINT')).toBe(before);
  });
});

describe('the embedded data folder is private (issue #17)', () => {
  /** Every path under `dir` whose mode lets another user read, write or enter it. */
  function openToOthers(dir: string): string[] {
    const found: string[] = [];
    const pending = [dir];
    while (pending.length > 0) {
      const path = pending.pop()!;
      const info = lstatSync(path);
      if ((info.mode & 0o077) !== 0) found.push(`${path} ${(info.mode & 0o777).toString(8)}`);
      if (info.isDirectory()) for (const name of readdirSync(path)) pending.push(join(path, name));
    }
    return found;
  }

  // Each case boots PGlite on disk (initdb, then the migrations), genuinely slow work that a loaded
  // two-core machine can stretch past the default 30 s (25 s seen beside busy loops): a safety margin, no race.
  const PGLITE_ON_DISK = { timeout: 120_000 };

  it(
    'a new folder is 0700 and every file PGlite writes is private, whatever the umask was',
    PGLITE_ON_DISK,
    async () => {
      const parent = mkdtempSync(join(tmpdir(), 'votal-modes-'));
      const before = process.umask(0o022);
      try {
        const dir = join(parent, 'data');
        const warnings: string[] = [];
        const store = await openStore({ dataDir: dir, onWarning: (m) => warnings.push(m) });
        await store.games.create(
          { threadUrl: 'https://forum.example/t/1', ruleset: 'plurality', roster: [{ name: 'A' }] },
          'test',
        );
        await store.close();
        expect(statSync(dir).mode & 0o777).toBe(0o700);
        expect(readdirSync(join(dir, 'pgdata')).length).toBeGreaterThan(0);
        expect(openToOthers(dir)).toEqual([]);
        expect(warnings).toEqual([]);
      } finally {
        process.umask(before);
        rmSync(parent, { recursive: true, force: true });
      }
    },
  );

  it('a folder made beforehand, open to others, is made private with a warning naming it', PGLITE_ON_DISK, async () => {
    const parent = mkdtempSync(join(tmpdir(), 'votal-modes-'));
    const before = process.umask(0o022);
    try {
      const dir = join(parent, 'data');
      mkdirSync(dir, { mode: 0o755 });
      chmodSync(dir, 0o755);
      writeFileSync(join(dir, 'admin-password'), 'scrypt$x\n');
      chmodSync(join(dir, 'admin-password'), 0o666);
      const warnings: string[] = [];
      const store = await openStore({ dataDir: dir, onWarning: (m) => warnings.push(m) });
      await store.close();
      expect(statSync(dir).mode & 0o777).toBe(0o700);
      expect(statSync(join(dir, 'admin-password')).mode & 0o777).toBe(0o600);
      expect(openToOthers(dir)).toEqual([]);
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toContain(dir);
      expect(warnings[0]).toContain('2 entries');
    } finally {
      process.umask(before);
      rmSync(parent, { recursive: true, force: true });
    }
  });
});
