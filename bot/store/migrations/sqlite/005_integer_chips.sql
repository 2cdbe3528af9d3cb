-- A third kind of account: the house of a guild (the bank of house-banked games).
-- Chips are whole numbers. An INTEGER column still stores 2.5 as a REAL, so the database
-- itself now refuses a non-integer balance or movement: CHECK (typeof(...) = 'integer').
-- ALTER TABLE can't add a CHECK, so accounts and ledger are rebuilt with the same columns,
-- keys, constraints and indexes. Nothing is renamed (so no reference is rewritten), and no
-- account is dropped while a ledger row refers to it: the ledger, the only table referring to
-- accounts, is copied aside and dropped first.
CREATE TEMP TABLE old_accounts AS SELECT * FROM accounts;
CREATE TEMP TABLE old_ledger AS SELECT * FROM ledger;
DROP TABLE ledger;
DROP TABLE accounts;

CREATE TABLE accounts (
    id         INTEGER PRIMARY KEY,
    guild_id   INTEGER NOT NULL,
    kind       TEXT    NOT NULL CHECK (kind IN ('member', 'table', 'house')),
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

-- Before the bot checked options, a modified client could move fractions (/give amount:2.5).
-- Each movement loses its fraction (one that was all fraction goes), and the balances it
-- reached lose the same fractions, so balances + escrows still equal minted - burned. A
-- balance is never taken below zero (only a balance built of fractions could get there).
CREATE TEMP TABLE fraction_fixes AS
    SELECT account, SUM(part) AS part FROM (
        SELECT debit_account AS account, amount - CAST(amount AS INTEGER) AS part
            FROM old_ledger WHERE typeof(amount) != 'integer'
        UNION ALL
        SELECT credit_account, CAST(amount AS INTEGER) - amount
            FROM old_ledger WHERE typeof(amount) != 'integer'
    ) WHERE account IS NOT NULL GROUP BY account;

INSERT INTO accounts (id, guild_id, kind, owner_id, chips, created_at)
    SELECT id, guild_id, kind, owner_id,
        CASE WHEN typeof(chips) = 'integer' AND fix.part IS NULL THEN chips  -- exact, untouched
             ELSE MAX(0, CAST(ROUND(chips + COALESCE(fix.part, 0)) AS INTEGER)) END,
        created_at
    FROM old_accounts LEFT JOIN fraction_fixes AS fix ON fix.account = old_accounts.id;

INSERT INTO ledger (id, op_key, debit_account, credit_account, amount, reason, created_at)
    SELECT id, op_key, debit_account, credit_account, CAST(amount AS INTEGER), reason, created_at
    FROM old_ledger WHERE amount >= 1;

DROP TABLE old_accounts;
DROP TABLE old_ledger;
DROP TABLE fraction_fixes;
