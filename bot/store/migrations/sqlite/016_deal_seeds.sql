-- Verifiable deals (README, "Verifiable deals"): each table's secret seed (hex), drawn when it
-- opens and shown only once it closes; its SHA-256 (hex), shown from the start and looked up by
-- /table verify; and the id of the Start click mixed into every deal of its match.
ALTER TABLE game_tables ADD COLUMN deal_seed TEXT;
ALTER TABLE game_tables ADD COLUMN deal_commitment TEXT;
ALTER TABLE game_tables ADD COLUMN deal_input INTEGER;
CREATE INDEX game_tables_by_commitment ON game_tables (guild_id, deal_commitment);
