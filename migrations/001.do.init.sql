-- Votal schema, version 1. Runs on PostgreSQL 15+ and PGlite 0.5 (PostgreSQL 18).
-- Unqualified names: everything lands in the connection's current schema.
-- Evidence is never deleted: posts, revisions, GM events, tallies and the audit log refuse
-- DELETE (and, where rows are snapshots, UPDATE); a deleted forum post is flagged, not removed.

CREATE FUNCTION votal_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'votal: % on % is not allowed (%)', TG_OP, TG_TABLE_NAME, TG_ARGV[0]
    USING ERRCODE = 'integrity_constraint_violation';
END
$$;

-- One watched thread.
CREATE TABLE game (
  id                    bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  slug                  text NOT NULL UNIQUE CHECK (slug ~ '^[a-z0-9][a-z0-9-]{0,63}$'),
  thread_url            text NOT NULL,
  engine                text,                                   -- EngineId; null until identified
  ruleset               text NOT NULL,                          -- ruleset name (rulesets/*.yaml)
  ruleset_overrides     jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(ruleset_overrides) = 'object'),
  roster                jsonb NOT NULL DEFAULT '[]' CHECK (jsonb_typeof(roster) = 'array'),  -- Roster (slots)
  status                text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'paused', 'finished')),
  poll_interval_seconds integer NOT NULL DEFAULT 300 CHECK (poll_interval_seconds > 0),
  next_poll_at          timestamptz,
  settings              jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(settings) = 'object'),
  created_at            timestamptz NOT NULL DEFAULT now(),
  updated_at            timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX game_due_idx ON game (next_poll_at) WHERE status = 'active';

-- Validators and content hash per thread page: conditional GETs and incremental reading.
CREATE TABLE thread_page (
  game_id       bigint NOT NULL REFERENCES game (id),
  page          integer NOT NULL CHECK (page > 0),
  url           text NOT NULL,
  etag          text,
  last_modified text,                 -- the header as the server sent it
  body_hash     text,                 -- sha256 of the page's posts, to skip unchanged pages
  post_count    integer CHECK (post_count >= 0),
  fetched_at    timestamptz NOT NULL, -- last full read (200)
  checked_at    timestamptz NOT NULL, -- last request, 304 included
  PRIMARY KEY (game_id, page)
);

-- A forum post, keyed by the forum's stable id. Its text lives in post_revision.
CREATE TABLE post (
  id                  bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  game_id             bigint NOT NULL REFERENCES game (id),
  forum_post_id       text NOT NULL CHECK (forum_post_id <> ''),
  number              integer NOT NULL CHECK (number > 0),
  page                integer NOT NULL CHECK (page > 0),
  author              text NOT NULL,
  author_id           text,
  posted_at           timestamptz,
  permalink           text NOT NULL,
  current_revision_id bigint,          -- set in the same transaction that inserts the post
  deleted_at          timestamptz,     -- missing from a re-read page; cleared if it comes back
  first_seen          timestamptz NOT NULL,
  last_seen           timestamptz NOT NULL,
  UNIQUE (game_id, forum_post_id)
);
CREATE INDEX post_game_number_idx ON post (game_id, number);
CREATE INDEX post_game_page_idx ON post (game_id, page);

-- Every body a post has had (edit evidence). Seeing a body again only moves last_seen.
CREATE TABLE post_revision (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  post_id     bigint NOT NULL REFERENCES post (id),
  body        jsonb NOT NULL CHECK (jsonb_typeof(body) = 'array'),   -- Body (engine-neutral tree)
  body_hash   text NOT NULL,
  edit_marker jsonb,                                                -- EditMarker, as last seen with this body
  first_seen  timestamptz NOT NULL,
  last_seen   timestamptz NOT NULL,
  UNIQUE (post_id, body_hash),
  UNIQUE (id, post_id)
);
-- The current revision must be one of the post's own.
ALTER TABLE post ADD CONSTRAINT post_current_revision_fk
  FOREIGN KEY (current_revision_id, id) REFERENCES post_revision (id, post_id);

-- What the parser read in one revision under one ruleset version (a cache; recomputable).
CREATE TABLE post_reading (
  revision_id     bigint NOT NULL REFERENCES post_revision (id),
  ruleset_version text NOT NULL,     -- the caller's key for ruleset + overrides + roster
  reading         jsonb NOT NULL,    -- PostReading
  created_at      timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (revision_id, ruleset_version)
);

-- GM events, append-only: a correction is another event.
CREATE TABLE gm_event (
  id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  game_id    bigint NOT NULL REFERENCES game (id),
  event      jsonb NOT NULL CHECK (jsonb_typeof(event) = 'object' AND event ? 'kind'),  -- GmEvent
  created_at timestamptz NOT NULL DEFAULT now(),
  created_by text NOT NULL
);
CREATE INDEX gm_event_game_idx ON gm_event (game_id, id);

-- Tally snapshots (immutable).
CREATE TABLE tally (
  id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  game_id    bigint NOT NULL REFERENCES game (id),
  as_of_post integer,
  tally      jsonb NOT NULL CHECK (jsonb_typeof(tally) = 'object'),  -- Tally
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (id, game_id)
);
CREATE INDEX tally_game_idx ON tally (game_id, id DESC);

-- A votal post drafted from one tally, waiting for the GM. Body and tally never change.
CREATE TABLE draft (
  id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  game_id    bigint NOT NULL,
  tally_id   bigint NOT NULL,
  dialect    text NOT NULL,             -- markup flavour: bbcode dialect, markdown, text
  body       text NOT NULL,
  status     text NOT NULL DEFAULT 'pending'
             CHECK (status IN ('pending', 'approved', 'discarded', 'published')),
  created_at timestamptz NOT NULL DEFAULT now(),
  created_by text NOT NULL,
  decided_at timestamptz,
  decided_by text,
  FOREIGN KEY (tally_id, game_id) REFERENCES tally (id, game_id),
  CHECK ((status = 'pending') = (decided_at IS NULL))
);
CREATE INDEX draft_game_idx ON draft (game_id, id DESC);

-- Publishing an approved draft: through the forum adapter or by copy/paste.
CREATE TABLE publication (
  id             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  draft_id       bigint NOT NULL UNIQUE REFERENCES draft (id),
  marker         text NOT NULL UNIQUE,   -- embedded in the post, to find it after a lost reply
  method         text NOT NULL CHECK (method IN ('adapter', 'copy')),
  status         text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'published', 'failed')),
  attempts       integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  last_error     text,
  remote_post_id text,
  remote_url     text,
  created_at     timestamptz NOT NULL DEFAULT now(),
  updated_at     timestamptz NOT NULL DEFAULT now(),
  published_at   timestamptz
);

-- Who did what, when (GM decisions, publications, game changes).
CREATE TABLE audit_log (
  id      bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  game_id bigint REFERENCES game (id),
  actor   text NOT NULL,
  action  text NOT NULL,
  detail  jsonb NOT NULL DEFAULT '{}',
  at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX audit_log_game_idx ON audit_log (game_id, id);

CREATE TRIGGER post_keep BEFORE DELETE ON post
  FOR EACH ROW EXECUTE FUNCTION votal_refuse_change('posts are evidence: set deleted_at');
CREATE TRIGGER post_revision_keep BEFORE DELETE ON post_revision
  FOR EACH ROW EXECUTE FUNCTION votal_refuse_change('revisions are evidence');
CREATE TRIGGER post_revision_body_fixed BEFORE UPDATE OF post_id, body, body_hash ON post_revision
  FOR EACH ROW EXECUTE FUNCTION votal_refuse_change('a revision body never changes');
CREATE TRIGGER gm_event_append_only BEFORE UPDATE OR DELETE ON gm_event
  FOR EACH ROW EXECUTE FUNCTION votal_refuse_change('GM events are append-only: add a correction');
CREATE TRIGGER tally_fixed BEFORE UPDATE OR DELETE ON tally
  FOR EACH ROW EXECUTE FUNCTION votal_refuse_change('tallies are snapshots');
CREATE TRIGGER draft_snapshot_fixed BEFORE UPDATE OF game_id, tally_id, dialect, body ON draft
  FOR EACH ROW EXECUTE FUNCTION votal_refuse_change('a draft is a snapshot');
CREATE TRIGGER draft_keep BEFORE DELETE ON draft
  FOR EACH ROW EXECUTE FUNCTION votal_refuse_change('drafts are audited: discard them');
CREATE TRIGGER audit_log_append_only BEFORE UPDATE OR DELETE ON audit_log
  FOR EACH ROW EXECUTE FUNCTION votal_refuse_change('the audit log is append-only');
