-- Tournaments (README, "Tournaments"; bot/store/tournaments.py).
-- A fourth kind of account: a tournament's prize pool, where buy-ins wait until the payout.
-- ALTER TABLE can't change a CHECK, so accounts and ledger are rebuilt as 005 rebuilt them:
-- the same columns, keys, constraints and indexes, every row copied as it is. The ledger, the
-- only table referring to accounts, is copied aside and dropped first.
CREATE TEMP TABLE old_accounts AS SELECT * FROM accounts;
CREATE TEMP TABLE old_ledger AS SELECT * FROM ledger;
DROP TABLE ledger;
DROP TABLE accounts;

CREATE TABLE accounts (
    id         INTEGER PRIMARY KEY,
    guild_id   INTEGER NOT NULL,
    kind       TEXT    NOT NULL CHECK (kind IN ('member', 'table', 'house', 'tournament')),
    owner_id   INTEGER NOT NULL,
    chips      INTEGER NOT NULL DEFAULT 0 CHECK (chips >= 0) CHECK (typeof(chips) = 'integer'),
    created_at TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    UNIQUE (guild_id, kind, owner_id)
);
CREATE INDEX accounts_by_chips ON accounts (guild_id, kind, chips DESC);

CREATE TABLE ledger (
    id             INTEGER PRIMARY KEY,
    op_key         TEXT    NOT NULL REFERENCES operations (key),
    debit_account  INTEGER REFERENCES accounts (id),
    credit_account INTEGER REFERENCES accounts (id),
    amount         INTEGER NOT NULL CHECK (amount > 0) CHECK (typeof(amount) = 'integer'),
    reason         TEXT    NOT NULL,
    created_at     TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    CHECK (debit_account IS NOT NULL OR credit_account IS NOT NULL)
);
CREATE INDEX ledger_by_op ON ledger (op_key);

INSERT INTO accounts (id, guild_id, kind, owner_id, chips, created_at)
    SELECT id, guild_id, kind, owner_id, chips, created_at FROM old_accounts;
INSERT INTO ledger (id, op_key, debit_account, credit_account, amount, reason, created_at)
    SELECT id, op_key, debit_account, credit_account, amount, reason, created_at FROM old_ledger;
DROP TABLE old_accounts;
DROP TABLE old_ledger;

-- A tournament: its settings, where it is shown, and how far it has come.
CREATE TABLE tournaments (
    id              INTEGER PRIMARY KEY,
    guild_id        INTEGER NOT NULL,
    channel_id      INTEGER NOT NULL,
    message_id      INTEGER,
    host_id         INTEGER NOT NULL,
    game_id         TEXT    NOT NULL,
    format          TEXT    NOT NULL CHECK (format IN ('elimination', 'swiss')),
    buy_in          INTEGER NOT NULL CHECK (buy_in >= 0),
    table_size      INTEGER NOT NULL CHECK (table_size >= 2),
    rounds          INTEGER NOT NULL CHECK (rounds >= 0),
    starts_at       TEXT,                          -- NULL: at the host's Start
    max_players     INTEGER NOT NULL CHECK (max_players >= 2),
    payout          TEXT    NOT NULL,
    hands_per_match INTEGER NOT NULL DEFAULT 0,    -- chip games: 0 plays the match out
    match_minutes   INTEGER NOT NULL,
    table_chips     INTEGER NOT NULL DEFAULT 0,    -- each seat's tournament chips
    turn_seconds    INTEGER NOT NULL,
    options         TEXT    NOT NULL,              -- the game's options, as its tables take them
    status          TEXT    NOT NULL CHECK (status IN ('registering', 'playing', 'finished', 'cancelled')),
    seed            TEXT    NOT NULL,              -- hex; seeds the draw, shown at the end
    commitment      TEXT    NOT NULL,              -- its SHA-256, shown from the start
    event_id        INTEGER,                       -- the Discord scheduled event, if made
    note            TEXT,                          -- why it was cancelled
    created_at      TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX tournaments_by_guild ON tournaments (guild_id, status);

-- Each registered member: the rating and seed drawn at the start, the final place and prize.
CREATE TABLE tournament_players (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
    member_id     INTEGER NOT NULL,
    name          TEXT    NOT NULL,
    joined        INTEGER NOT NULL,                -- registration order
    rating        REAL,
    seed_rank     INTEGER,
    withdrawn     INTEGER NOT NULL DEFAULT 0,
    place         INTEGER,
    prize         INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (tournament_id, member_id)
);
CREATE INDEX tournament_players_by_member ON tournament_players (member_id);

-- A round as it was drawn: its byes (JSON member ids).
CREATE TABLE tournament_rounds (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
    round         INTEGER NOT NULL,
    byes          TEXT    NOT NULL,
    PRIMARY KEY (tournament_id, round)
);

-- A match of a round: who sits where, its thread and table once opened, its placings once done.
CREATE TABLE tournament_matches (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
    round         INTEGER NOT NULL,
    number        INTEGER NOT NULL,
    players       TEXT    NOT NULL,                -- JSON member ids in seat order
    advance       INTEGER NOT NULL,
    thread_id     INTEGER,
    table_id      INTEGER,
    opened_at     TEXT,
    placings      TEXT,                            -- JSON, by seat
    PRIMARY KEY (tournament_id, round, number)
);

-- A tournament's tables play tournament chips, which no balance pays for.
ALTER TABLE game_tables ADD COLUMN tournament_id INTEGER;
CREATE INDEX game_tables_of_tournaments ON game_tables (tournament_id)
    WHERE tournament_id IS NOT NULL;
