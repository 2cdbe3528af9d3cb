-- A third kind of account: the house of a guild (the bank of house-banked games).
-- SQLite's twin also rebuilds accounts and ledger so that they refuse a fraction of a chip,
-- and repairs the fractions an old bot let through. Nothing of that is needed here: a BIGINT
-- column holds whole numbers only, and no bot ever wrote fractions to PostgreSQL.
ALTER TABLE accounts DROP CONSTRAINT accounts_kind,
    ADD CONSTRAINT accounts_kind CHECK (kind IN ('member', 'table', 'house'));
