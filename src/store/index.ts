/** Storage for `votal serve`: the `Sql` port, its two drivers, migrations and the repositories. */
export * from './sql.js';
export * from './errors.js';
export { openPgliteSql, MEMORY, LOCK_NAME, PGLITE_DATA_SUBDIR, type PgliteSqlOptions } from './pglite-sql.js';
export { openPgSql, type PgSqlOptions } from './pg-sql.js';
export * from './migrate.js';
export * from './open-store.js';
export { GAME_CHANNEL, type GameChange } from './rows.js';
export * from './games-repo.js';
export * from './posts-repo.js';
export * from './events-repo.js';
export * from './tallies-repo.js';
export * from './drafts-repo.js';
export * from './audit-repo.js';
export * from './thread-pages-repo.js';
export * from './readings-repo.js';
export * from './polls-repo.js';
