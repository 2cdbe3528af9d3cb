-- Ledger operations on their own sent together (bot/store/ledger.py): one call, one transaction,
-- one commit flushed for all of them, instead of one each. The accounts the batch moves chips
-- between are locked first, in id order, so a batch never holds a row while it waits for a
-- lower one (table steps lock in the same order; an account made by the batch is new, and no
-- one else can wait for it). Then each operation runs as ledger_execute, in a block of its own:
-- a debit its balance can't cover undoes that operation only, the accounts it made included.
-- A block is a subtransaction, so the bot sends at most 50 operations in a batch, below the 64
-- subtransactions a transaction can have before every session's snapshots of it get slower.
-- Its statements all look rows up by a key, so the planner is told not to read whole tables: on
-- a table it has few statistics on, or few rows heavily updated, it would (5,300-6,500 transfers
-- a second with this, 1,000-3,400 without, bench/ledger_transfers.py with 10 to 1,000 accounts).
-- p_operations: [{"guild": id, "key": text, "kind": text, "moves": [...as ledger_execute...]}]
-- Returns one outcome per operation: true (done), false (its key was used before: nothing
-- moved), or {"available": n, "move": i} (move i's debit refused: nothing moved).
CREATE FUNCTION ledger_execute_batch(p_starting BIGINT, p_operations JSONB)
RETURNS JSONB LANGUAGE plpgsql SET enable_seqscan = off AS $$
DECLARE
    operation JSONB;
    account JSONB;
    ids BIGINT[] := '{}';
    outcomes JSONB := '[]';
    available TEXT;
    move TEXT;
BEGIN
    -- Found one by one through the unique index (a join of the batch with the table would
    -- read every account, as the planner can't tell how few the batch names).
    FOR operation IN SELECT value FROM jsonb_array_elements(p_operations) LOOP
        FOR account IN
            SELECT ends.value FROM jsonb_array_elements(operation->'moves') AS moves,
                LATERAL (VALUES (moves.value->'source'), (moves.value->'target')) AS ends (value)
            WHERE jsonb_typeof(ends.value) = 'array'
        LOOP
            ids := ids || (SELECT id FROM accounts WHERE guild_id = (operation->>'guild')::BIGINT
                AND kind = account->>0 AND owner_id = (account->>1)::BIGINT);
        END LOOP;
    END LOOP;
    PERFORM 1 FROM accounts WHERE id = ANY (ids) ORDER BY id FOR NO KEY UPDATE;
    FOR operation IN SELECT value FROM jsonb_array_elements(p_operations) LOOP
        BEGIN
            outcomes := outcomes || to_jsonb(ledger_execute((operation->>'guild')::BIGINT,
                operation->>'key', operation->>'kind', p_starting, operation->'moves'));
        EXCEPTION WHEN SQLSTATE 'CT001' THEN
            GET STACKED DIAGNOSTICS available = PG_EXCEPTION_DETAIL, move = PG_EXCEPTION_HINT;
            outcomes := outcomes || jsonb_build_array(jsonb_build_object(
                'available', available::BIGINT, 'move', move::INTEGER));
        END;
    END LOOP;
    RETURN outcomes;
END $$;
