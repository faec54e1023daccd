import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/open-store.js';
import { PGLITE_DATA_SUBDIR } from '../../src/store/pglite-sql.js';

/**
 * Issue #28: the first start on a new data folder settles at the memory of later starts.
 * Making a database (initdb) grows PGlite's WebAssembly memory to about 740 MiB, which is
 * never given back; made in a child process, this process only opens it, as a restart does
 * (about 250 MiB). Alone in its file, so no other database shares this process's memory.
 */
const MiB = 1024 * 1024;
/** What opening an existing database adds (about 100-150 MiB) with room; making one in-process added over 500. */
const OPEN_ADDS_AT_MOST = 350 * MiB;

describe('a first start on a new data folder', () => {
  const dir = mkdtempSync(join(tmpdir(), 'votal-first-start-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('makes the database apart and holds no more memory than opening one', { timeout: 180_000 }, async () => {
    const before = process.memoryUsage().rss;
    const store = await openStore({ dataDir: join(dir, 'data') });
    const added = process.memoryUsage().rss - before;
    try {
      expect(existsSync(join(dir, 'data', PGLITE_DATA_SUBDIR, 'PG_VERSION'))).toBe(true);
      expect(store.migrations.applied.length).toBeGreaterThan(0);
      expect(await store.games.list()).toEqual([]);
      expect(added, `opening a new data folder added ${Math.round(added / MiB)} MiB`).toBeLessThan(OPEN_ADDS_AT_MOST);
    } finally {
      await store.close();
    }
  });
});
