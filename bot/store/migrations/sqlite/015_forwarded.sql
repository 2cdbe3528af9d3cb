-- Nothing on SQLite: PostgreSQL's 015 lets several bot processes share its database, each
-- holding some shards (bot/store/shards.py); a SQLite file serves one process, which holds
-- them all. The version stays the same on both backends.
SELECT 1;
