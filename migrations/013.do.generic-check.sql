-- Votal schema: what the generic reader found, checked by the GM (issue #26).

-- What a confirmed generic reading taught about a host: a site profile in the shape of
-- sites/<host>.yaml (engine generic, the post, author, time, body and pager selectors).
-- Every later poll of a thread on that host reads with these plain selectors.
CREATE TABLE site_profile (
  host          text PRIMARY KEY CHECK (host <> '' AND host = lower(host)),
  profile       jsonb NOT NULL CHECK (jsonb_typeof(profile) = 'object'),
  found_on      text NOT NULL,
  confirmed_by  text NOT NULL,
  confirmed_at  timestamptz NOT NULL
);

-- Page 1 of a game's thread as the generic reader read it, for the GM to check once. While
-- it waits (confirmed_at null) the game is not polled: games.list({ polled: true }) leaves it out.
CREATE TABLE generic_check (
  game_id       bigint PRIMARY KEY REFERENCES game (id) ON DELETE CASCADE,
  host          text NOT NULL,
  reading       jsonb NOT NULL CHECK (jsonb_typeof(reading) = 'object'),
  read_at       timestamptz NOT NULL,
  confirmed_by  text,
  confirmed_at  timestamptz,
  CHECK ((confirmed_by IS NULL) = (confirmed_at IS NULL))
);
