-- What each table message showed when the bot last shut down (a fingerprint of its face), so
-- that a restarted bot does not redraw the messages that already show their table as it is.
ALTER TABLE game_tables ADD COLUMN drawn TEXT;
