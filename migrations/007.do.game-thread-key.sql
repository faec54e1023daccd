-- Votal schema, version 7: one game per thread.
-- thread_key is the thread's canonical URL (src/web/app.ts threadKeyFor: the engine's page-1
-- URL, without page, post anchor, fragment or trailing slash; scheme and host in lower case,
-- no default port). Two games that are not finished may not follow the same thread: two
-- pollers on one thread double the requests and post two votals. Games made before this
-- version have no key and are not compared.
ALTER TABLE game ADD COLUMN thread_key text;
CREATE UNIQUE INDEX game_thread_key_open ON game (thread_key) WHERE thread_key IS NOT NULL AND status <> 'finished';
