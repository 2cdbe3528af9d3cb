-- The prompt version last shown to each seat (by DM or in answer to its click), so that a
-- restarted bot does not send again every prompt its players already have.
ALTER TABLE table_seats ADD COLUMN prompted BIGINT;
