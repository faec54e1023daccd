-- Votal schema, version 4: one pending draft per game, and publications claimed in the
-- database so that any number of processes post a votal once (src/store/drafts-repo.ts).

-- A newer count supersedes the pending draft; the old one stays in history.
ALTER TABLE draft DROP CONSTRAINT draft_status_check;
ALTER TABLE draft ADD CONSTRAINT draft_status_check
  CHECK (status IN ('pending', 'approved', 'discarded', 'published', 'superseded'));
ALTER TABLE draft ADD COLUMN superseded_by bigint REFERENCES draft (id);

-- Drafts that piled up before this version: the newest pending one per game stays.
UPDATE draft AS d
   SET status = 'superseded', decided_at = now(), decided_by = 'votal',
       superseded_by = (SELECT max(n.id) FROM draft n WHERE n.game_id = d.game_id AND n.status = 'pending')
 WHERE d.status = 'pending'
   AND d.id < (SELECT max(n.id) FROM draft n WHERE n.game_id = d.game_id AND n.status = 'pending');

CREATE UNIQUE INDEX draft_one_pending_idx ON draft (game_id) WHERE status = 'pending';

-- 'posting': one process holds the claim (claimed_by) until claimed_until; past that, the
-- claim belongs to a dead process and the next one looks for the marker in the thread first.
ALTER TABLE publication DROP CONSTRAINT publication_status_check;
ALTER TABLE publication ADD CONSTRAINT publication_status_check
  CHECK (status IN ('pending', 'posting', 'published', 'failed'));
ALTER TABLE publication ADD COLUMN claimed_by text;
ALTER TABLE publication ADD COLUMN claimed_until timestamptz;
