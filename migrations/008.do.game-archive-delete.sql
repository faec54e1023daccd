-- Votal schema: a GM can archive a game (kept whole, not polled, off the main list) and
-- delete one (everything of that game, in one transaction, after a confirmation).

ALTER TABLE game DROP CONSTRAINT game_status_check;
ALTER TABLE game ADD CONSTRAINT game_status_check CHECK (status IN ('active', 'paused', 'finished', 'archived'));

-- Evidence still refuses DELETE, except inside the one transaction that deletes a whole
-- game: games.remove sets `votal.deleting_game` (transaction-local) to that game's id.
CREATE OR REPLACE FUNCTION votal_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' AND coalesce(current_setting('votal.deleting_game', true), '') <> '' THEN
    RETURN OLD;
  END IF;
  RAISE EXCEPTION 'votal: % on % is not allowed (%)', TG_OP, TG_TABLE_NAME, TG_ARGV[0]
    USING ERRCODE = 'integrity_constraint_violation';
END
$$;
