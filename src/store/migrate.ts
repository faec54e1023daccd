import { basename, join } from 'node:path';
import Postgrator from 'postgrator';
import { packageRoot } from '../config/package-root.js';
import type { Sql } from './sql.js';

/** `migrations/` at the package root (`NNN.do.name.sql`, postgrator's naming). */
export function migrationsDir(): string {
  return join(packageRoot(import.meta.url), 'migrations');
}

export interface MigrateOptions {
  /** Folder of `NNN.do.name.sql` files. Default: the package's `migrations/`. */
  dir?: string;
  /** Version to move to. Default: the newest. */
  target?: number;
}

export interface MigrateResult {
  /** Names of the migrations this call applied (`001.do.init`), oldest first; empty when up to date. */
  applied: string[];
  /** The schema version after the call. */
  version: number;
}

/** Any fixed 64-bit key: serialises migrations of several processes on one PostgreSQL database. */
const MIGRATION_LOCK = 0x766f74616c; // "votal"

/**
 * Brings the schema up to date with postgrator, on either driver. The whole run is one
 * transaction (PostgreSQL DDL is transactional), under an advisory lock so that several
 * `votal serve` processes starting together on one PostgreSQL migrate once: a failed
 * migration leaves the schema and the version table as they were.
 *
 * Everything happens in the connection's current schema (the first of its search_path),
 * including postgrator's `schemaversion` table.
 */
export async function migrate(sql: Sql, options: MigrateOptions = {}): Promise<MigrateResult> {
  const dir = options.dir ?? migrationsDir();
  return sql.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    const { rows } = await tx.query<{ schema: string | null }>('SELECT current_schema() AS schema');
    const schema = rows[0]?.schema;
    if (!schema) throw new Error(`no schema to migrate in ${sql.location}: none of the search_path schemas exists`);
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(schema))
      throw new Error(`cannot migrate schema ${JSON.stringify(schema)}: use a plain name`);
    // postgrator's own version table, made here: left to postgrator, a qualified table name
    // also runs CREATE SCHEMA IF NOT EXISTS, which needs CREATE on the whole database.
    await tx.exec(`
      CREATE TABLE IF NOT EXISTS schemaversion (version bigint PRIMARY KEY, name text, md5 text, run_at timestamptz);
      INSERT INTO schemaversion (version) SELECT 0 WHERE NOT EXISTS (SELECT 1 FROM schemaversion);`);
    const postgrator = new Postgrator({
      driver: 'pg',
      migrationPattern: `${dir.replaceAll('\\', '/')}/*.sql`,
      // Qualified, so that postgrator's "is the table there" check looks in this schema only.
      schemaTable: `${schema}.schemaversion`,
      newline: 'LF', // the same checksum for a CRLF checkout
      validateChecksums: true,
      execQuery: async (query) => ({ rows: (await tx.query(query)).rows }),
      execSqlScript: (script) => tx.exec(script),
    });
    const applied = await postgrator.migrate(options.target === undefined ? 'max' : String(options.target));
    const version = await postgrator.getDatabaseVersion();
    return { applied: applied.map((m) => basename(m.filename, '.sql')), version };
  });
}
