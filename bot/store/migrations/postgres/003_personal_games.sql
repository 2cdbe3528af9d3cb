-- Personal (solo) games: several may run in one channel, one per member.
ALTER TABLE game_tables ADD COLUMN solo BIGINT NOT NULL DEFAULT 0;
DROP INDEX one_open_table_per_channel;
CREATE UNIQUE INDEX one_open_table_per_channel ON game_tables (channel_id)
    WHERE status != 'closed' AND solo = 0;
CREATE UNIQUE INDEX one_personal_game_per_member ON game_tables (channel_id, creator_id)
    WHERE status != 'closed' AND solo = 1;

-- Which form of a game a result is from (e.g. "daily:2026-11-22" for a daily challenge).
ALTER TABLE results ADD COLUMN variant TEXT;
CREATE INDEX results_by_variant ON results (guild_id, game_id, variant, score);
