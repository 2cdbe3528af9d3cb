-- Chip accounts: one per (guild, member) and one escrow per (guild, table).
CREATE TABLE accounts (
    id         INTEGER PRIMARY KEY,
    guild_id   INTEGER NOT NULL,
    kind       TEXT    NOT NULL CHECK (kind IN ('member', 'table')),
    owner_id   INTEGER NOT NULL,
    chips      INTEGER NOT NULL DEFAULT 0 CHECK (chips >= 0),
    created_at TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    UNIQUE (guild_id, kind, owner_id)
);
CREATE INDEX accounts_by_chips ON accounts (guild_id, kind, chips DESC);

-- One row per operation: its idempotency key makes a repeated operation a no-op.
CREATE TABLE operations (
    key        TEXT    PRIMARY KEY,
    kind       TEXT    NOT NULL,
    guild_id   INTEGER NOT NULL,
    created_at TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

-- Every chip movement. A NULL debit account means minted, a NULL credit account burned.
CREATE TABLE ledger (
    id             INTEGER PRIMARY KEY,
    op_key         TEXT    NOT NULL REFERENCES operations (key),
    debit_account  INTEGER REFERENCES accounts (id),
    credit_account INTEGER REFERENCES accounts (id),
    amount         INTEGER NOT NULL CHECK (amount > 0),
    reason         TEXT    NOT NULL,
    created_at     TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    CHECK (debit_account IS NOT NULL OR credit_account IS NOT NULL)
);
CREATE INDEX ledger_by_op ON ledger (op_key);

-- Results of finished hands and matches, written with their payout.
CREATE TABLE results (
    id         INTEGER PRIMARY KEY,
    op_key     TEXT    NOT NULL REFERENCES operations (key),
    guild_id   INTEGER NOT NULL,
    game_id    TEXT    NOT NULL,
    table_id   INTEGER,
    member_id  INTEGER NOT NULL,
    seat       INTEGER NOT NULL,
    placing    INTEGER NOT NULL,
    score      INTEGER,
    chip_net   INTEGER NOT NULL,
    created_at TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX results_by_game ON results (guild_id, game_id, member_id);
