-- Votal schema, version 2: what the poller keeps per game (src/jobs, src/game/poll-game.ts).
-- Additive: one new table, nothing in version 1 changes.

-- One row per polled game: who is polling it now (a lease, so that a thread is never read
-- twice at once, whatever the job queue does), how the last poll went, and the thread's
-- shape as the reader last saw it (title, pages, posts per page) for incremental reads.
CREATE TABLE game_poll (
  game_id           bigint PRIMARY KEY REFERENCES game (id),
  lease_owner       text,                  -- '<process instance>/<poll id>' while a poll runs
  lease_until       timestamptz,           -- a lease past this time belongs to a dead poll
  polls             integer NOT NULL DEFAULT 0 CHECK (polls >= 0),
  last_polled_at    timestamptz,           -- last poll that finished, well or not
  last_ok_at        timestamptz,           -- last poll that read the thread
  last_full_read_at timestamptz,           -- last read of every page (edits and deletions on early pages)
  last_error        text,                  -- why the last poll failed; null once one succeeds
  last_error_at     timestamptz,
  errors_in_row     integer NOT NULL DEFAULT 0 CHECK (errors_in_row >= 0),
  poll_requested_at timestamptz,           -- "poll now" asked while a poll was running
  thread_title      text,
  page_count        integer CHECK (page_count > 0),
  posts_per_page    integer CHECK (posts_per_page > 0),
  state             jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(state) = 'object'),
  updated_at        timestamptz NOT NULL DEFAULT now()
);
