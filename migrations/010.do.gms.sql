-- Votal schema: several GMs. An instance admin invites GMs with one-time links; each GM
-- signs in with a name and a password and sees only the games they own or co-host.
-- Secrets are never stored: invites and sessions keep a SHA-256 of their random token,
-- and passwords an scrypt hash with its salt and parameters ('scrypt$N$r$p$salt$hash').

CREATE TABLE gm (
  id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  name          text NOT NULL CHECK (name ~ '^[A-Za-z0-9][A-Za-z0-9 ._-]{0,39}$'),
  -- Null for the instance admin, who signs in with the admin token or the admin password.
  password_hash text CHECK (password_hash IS NULL OR password_hash LIKE 'scrypt$%'),
  admin         boolean NOT NULL DEFAULT false,
  created_at    timestamptz NOT NULL,
  -- A revoked GM cannot sign in; the row stays so that the name in past audit entries stays theirs.
  revoked_at    timestamptz
);
-- "Alice" and "alice" are one GM.
CREATE UNIQUE INDEX gm_name_key ON gm (lower(name));

CREATE TABLE gm_invite (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  token_hash  text NOT NULL UNIQUE,
  created_by  bigint NOT NULL REFERENCES gm (id),
  created_at  timestamptz NOT NULL,
  expires_at  timestamptz NOT NULL,
  used_at     timestamptz,
  used_by     bigint REFERENCES gm (id),
  revoked_at  timestamptz,
  CHECK ((used_at IS NULL) = (used_by IS NULL))
);

CREATE TABLE gm_session (
  id_hash     text PRIMARY KEY,
  gm_id       bigint NOT NULL REFERENCES gm (id),
  csrf        text NOT NULL,
  created_at  timestamptz NOT NULL,
  seen_at     timestamptz NOT NULL
);
CREATE INDEX gm_session_gm_idx ON gm_session (gm_id);

-- Who runs a game: one owner (its creator; none for games made with the admin token) and co-hosts.
CREATE TABLE game_gm (
  game_id   bigint NOT NULL REFERENCES game (id) ON DELETE CASCADE,
  gm_id     bigint NOT NULL REFERENCES gm (id),
  role      text NOT NULL CHECK (role IN ('owner', 'cohost')),
  added_at  timestamptz NOT NULL,
  PRIMARY KEY (game_id, gm_id)
);
CREATE UNIQUE INDEX game_gm_owner_key ON game_gm (game_id) WHERE role = 'owner';
CREATE INDEX game_gm_gm_idx ON game_gm (gm_id);
