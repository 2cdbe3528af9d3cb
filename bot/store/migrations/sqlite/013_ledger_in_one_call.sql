-- Nothing on SQLite: PostgreSQL's 013 gives its server the ledger's operation as one call
-- (bot/store/ledger.py runs the same steps here, statement by statement, in the bot's process).
-- The version stays the same on both backends.
SELECT 1;
