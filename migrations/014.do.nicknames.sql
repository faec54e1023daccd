-- Votal schema: a forum's nickname book (issue #24). A nickname a GM accepted (a count's
-- lesson) or typed for a player's forum name in one game is known for that forum name in
-- later games on the same site (the forum's host). Names are compared folded (key columns:
-- lower case, letters and digits only, as the name matcher compares them).

CREATE TABLE forum_nickname (
  site           text NOT NULL CHECK (site <> '' AND site = lower(site)),
  forum_key      text NOT NULL CHECK (forum_key <> ''),
  nickname_key   text NOT NULL CHECK (nickname_key <> ''),
  forum_name     text NOT NULL,
  nickname       text NOT NULL,
  -- The game it was learned in; its title is kept for when the game is deleted.
  from_game      bigint REFERENCES game (id) ON DELETE SET NULL,
  from_title     text NOT NULL,
  learned_by     text NOT NULL,
  learned_at     timestamptz NOT NULL,
  PRIMARY KEY (site, forum_key, nickname_key)
);

-- A known nickname the GM dropped for one game: that game does not read it again.
CREATE TABLE game_nickname_drop (
  game_id        bigint NOT NULL REFERENCES game (id) ON DELETE CASCADE,
  forum_key      text NOT NULL,
  nickname_key   text NOT NULL,
  forum_name     text NOT NULL,
  nickname       text NOT NULL,
  dropped_by     text NOT NULL,
  dropped_at     timestamptz NOT NULL,
  PRIMARY KEY (game_id, forum_key, nickname_key)
);
