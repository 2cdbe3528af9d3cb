-- What a result row counts: one hand ('hand'), chips settled when a player's seat ends that no
-- hand accounted for ('settle'), a whole match with its final placing ('match'), or the
-- house's net over a hand of a house-banked game ('house', member 0).
ALTER TABLE results ADD COLUMN scope TEXT NOT NULL DEFAULT 'hand'
    CHECK (scope IN ('hand', 'settle', 'match', 'house'));
DROP INDEX results_by_game;
CREATE INDEX results_by_game ON results (guild_id, game_id, scope, member_id);
