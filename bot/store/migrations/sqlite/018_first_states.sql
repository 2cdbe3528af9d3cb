-- The snapshot a table's match started from, written once with the first snapshot: with the
-- table's logged actions it replays every hand (bot/tables/history.py) at no write per step.
-- NULL for tables started before this column: their hands are listed, not replayed.
ALTER TABLE game_tables ADD COLUMN first_state TEXT;
