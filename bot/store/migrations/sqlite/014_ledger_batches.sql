-- Nothing on SQLite: PostgreSQL's 014 lets its server take several ledger operations in one
-- call (SQLite's concurrent steps already share a commit, bot/store/sqlite.py).
-- The version stays the same on both backends.
SELECT 1;
