-- A table closed whose message does not show it closed yet: its close is saved in one step and
-- drawn after, so a bot stopped in between draws it, with its standings, when it starts again.
ALTER TABLE game_tables ADD COLUMN close_undrawn BIGINT NOT NULL DEFAULT 0;
