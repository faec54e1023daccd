import { afterEach, describe, expect, it } from 'vitest';
import { closeOnSignals, openSql, StoreEnv } from '../../src/store/open-store.js';
import { redactUrl } from '../../src/store/sql.js';

describe('choosing the store from the environment', () => {
  it('a blank DATABASE_URL counts as unset', () => {
    expect(StoreEnv.parse({ DATABASE_URL: '  ', VOTAL_DATA_DIR: '' })).toEqual({ DATABASE_URL: undefined, VOTAL_DATA_DIR: undefined });
    expect(StoreEnv.parse({ DATABASE_URL: 'postgresql://u:p@db:5432/votal' }).DATABASE_URL).toBe('postgresql://u:p@db:5432/votal');
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
    expect((error as Error).message).toMatch(/cannot connect to PostgreSQL at postgres:\/\/votal:\*\*\*@127\.0\.0\.1:1\/votal/);
    expect((error as Error).message).not.toMatch(/hunter2/);
    expect(redactUrl('postgres://a@h/db')).toBe('postgres://a@h/db');
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
        { close: async () => { throw new Error('disk full'); } },
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
