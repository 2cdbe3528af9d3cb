-- AI seats: a seat the bot plays (its chips come from and go back to the guild's house), the
-- pause before an AI acts at each table, the results of tables that had AI seats, and each
-- guild's choice to allow AI seats at all.
ALTER TABLE table_seats ADD COLUMN ai BIGINT NOT NULL DEFAULT 0;
ALTER TABLE game_tables ADD COLUMN ai_delay BIGINT NOT NULL DEFAULT 2;
ALTER TABLE results ADD COLUMN with_ai BIGINT NOT NULL DEFAULT 0;
CREATE TABLE guild_settings (
    guild_id BIGINT PRIMARY KEY,
    ai_seats BIGINT NOT NULL DEFAULT 1
);
