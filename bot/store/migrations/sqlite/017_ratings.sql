-- Skill ratings (openskill's Plackett-Luce, bot/store/ratings.py): one per guild, game and
-- member, updated in the transaction that records the rated results. mu and sigma describe the
-- member's estimated skill; the boards rank by the conservative mu - 3 sigma.
CREATE TABLE ratings (
    guild_id   INTEGER NOT NULL,
    game_id    TEXT    NOT NULL,
    member_id  INTEGER NOT NULL,
    mu         REAL    NOT NULL,
    sigma      REAL    NOT NULL CHECK (sigma > 0),
    matches    INTEGER NOT NULL CHECK (matches >= 0),
    wins       INTEGER NOT NULL CHECK (wins >= 0),
    updated_at TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    PRIMARY KEY (guild_id, game_id, member_id)
);
CREATE INDEX ratings_by_skill ON ratings (guild_id, game_id, (mu - 3 * sigma) DESC);

-- Each rated result of a member: its place, the weight it counted with, the conservative
-- rating after it and its change (/stats shows the last few), under the operation that
-- recorded it.
CREATE TABLE rating_changes (
    id         INTEGER PRIMARY KEY,
    op_key     TEXT    NOT NULL REFERENCES operations (key),
    guild_id   INTEGER NOT NULL,
    game_id    TEXT    NOT NULL,
    member_id  INTEGER NOT NULL,
    "placing"  INTEGER NOT NULL,
    weight     REAL    NOT NULL,
    rating     REAL    NOT NULL,
    change     REAL    NOT NULL,
    created_at TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    UNIQUE (op_key, game_id, member_id)
);
CREATE INDEX rating_changes_by_member ON rating_changes (guild_id, member_id, game_id, id);
