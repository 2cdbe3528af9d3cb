-- Several bot processes on one database, each holding some shards (bot/store/shards.py).
-- shard_layout: the SHARD_COUNT of the processes holding shards, so that one started with
-- another count, which would own some guilds twice, is refused while they hold theirs.
CREATE TABLE shard_layout (
    one_row BOOLEAN PRIMARY KEY DEFAULT TRUE CHECK (one_row),
    shard_count INTEGER NOT NULL CHECK (shard_count > 0)
);

-- forwarded: an interaction Discord brought to one process for a table another holds (every
-- DM's comes to shard 0's), waiting for the process holding `shard` to take it, or for its
-- sender to take it back: whichever deletes the row has it. A row, not a NOTIFY payload,
-- because interactions often exceed NOTIFY's 8,000 bytes.
CREATE TABLE forwarded (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    shard INTEGER NOT NULL,
    payload JSONB NOT NULL,
    created_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
