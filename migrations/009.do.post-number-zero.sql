-- A post's number is the one the forum shows: MafiaScum (phpBB) shows "#0" on the
-- opening post (DESIGN.md, contracts), so 0 is a post number too.
ALTER TABLE post DROP CONSTRAINT post_number_check;
ALTER TABLE post ADD CONSTRAINT post_number_check CHECK (number >= 0);
