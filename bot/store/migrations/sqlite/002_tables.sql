-- Game tables: a lobby, then a game in progress, then closed. The engine state is a JSON
-- snapshot; `version` counts applied steps so stale buttons and double clicks are refused.
CREATE TABLE game_tables (
    id           INTEGER PRIMARY KEY,
    guild_id     INTEGER NOT NULL,
    channel_id   INTEGER NOT NULL,
    game_id      TEXT    NOT NULL,
    status       TEXT    NOT NULL CHECK (status IN ('lobby', 'playing', 'closed')),
    creator_id   INTEGER NOT NULL,
    buy_in       INTEGER NOT NULL CHECK (buy_in >= 0),
    options      TEXT    NOT NULL,
    turn_seconds INTEGER NOT NULL CHECK (turn_seconds > 0),
    message_id   INTEGER,
    state        TEXT,
    version      INTEGER NOT NULL DEFAULT 0,
    deadline     TEXT,
    created_at   TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE UNIQUE INDEX one_open_table_per_channel ON game_tables (channel_id) WHERE status != 'closed';

CREATE TABLE table_seats (
    table_id  INTEGER NOT NULL REFERENCES game_tables (id),
    seat      INTEGER NOT NULL,
    member_id INTEGER NOT NULL,
    name      TEXT    NOT NULL,
    has_left  INTEGER NOT NULL DEFAULT 0,
    leaving   INTEGER NOT NULL DEFAULT 0,
    timeouts  INTEGER NOT NULL DEFAULT 0,
    away      INTEGER NOT NULL DEFAULT 0,
    dm_failed INTEGER NOT NULL DEFAULT 0,
    prompt    INTEGER NOT NULL DEFAULT 0, -- the version at which this seat's decision opened
    PRIMARY KEY (table_id, seat)
);
CREATE UNIQUE INDEX one_seat_per_member ON table_seats (table_id, member_id) WHERE has_left = 0;

-- Every applied action, in order: the audit log and a replay of any hand.
CREATE TABLE table_actions (
    id        INTEGER PRIMARY KEY,
    table_id  INTEGER NOT NULL REFERENCES game_tables (id),
    version   INTEGER NOT NULL,
    seat      INTEGER,
    action    TEXT    NOT NULL,
    timed_out INTEGER NOT NULL DEFAULT 0,
    created_at TEXT   NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    UNIQUE (table_id, version)
);
