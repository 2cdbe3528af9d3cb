-- A ledger operation in one round trip to the server (bot/store/ledger.py calls it; on SQLite
-- the same steps run statement by statement in the bot's process): its key claimed (FALSE,
-- nothing moved, if it was used before), the accounts it moves chips between locked in id
-- order before any changes (so opposite operations never wait for each other in a cycle),
-- those that are new created (a member's with the starting chips, minted under its own key),
-- then each move debited (only from a balance that covers it), credited and written in the
-- ledger. A debit the balance can't cover raises SQLSTATE CT001, DETAIL the balance, HINT the
-- move's index: the step then rolls back whole.
CREATE FUNCTION ledger_account(p_guild BIGINT, p_kind TEXT, p_owner BIGINT, p_starting BIGINT)
RETURNS BIGINT LANGUAGE plpgsql AS $$
DECLARE
    found_id BIGINT;
    start_key TEXT;
BEGIN
    SELECT id INTO found_id FROM accounts
        WHERE guild_id = p_guild AND kind = p_kind AND owner_id = p_owner;
    IF FOUND THEN
        RETURN found_id;
    END IF;
    INSERT INTO accounts (guild_id, kind, owner_id) VALUES (p_guild, p_kind, p_owner)
        ON CONFLICT DO NOTHING RETURNING id INTO found_id;
    IF found_id IS NULL THEN  -- another step created it since the SELECT
        SELECT id INTO found_id FROM accounts
            WHERE guild_id = p_guild AND kind = p_kind AND owner_id = p_owner FOR NO KEY UPDATE;
        RETURN found_id;
    END IF;
    IF p_kind = 'member' AND p_starting > 0 THEN
        start_key := format('start:%s:%s', p_guild, p_owner);
        INSERT INTO operations (key, kind, guild_id) VALUES (start_key, 'starting_chips', p_guild)
            ON CONFLICT DO NOTHING;
        UPDATE accounts SET chips = chips + p_starting WHERE id = found_id;
        INSERT INTO ledger (op_key, debit_account, credit_account, amount, reason)
            VALUES (start_key, NULL, found_id, p_starting, 'starting chips');
    END IF;
    RETURN found_id;
END $$;

-- p_moves: [{"source": [kind, owner] or null, "target": [kind, owner] or null,
--            "amount": n > 0, "reason": text}, ...]
CREATE FUNCTION ledger_execute(
    p_guild BIGINT, p_key TEXT, p_kind TEXT, p_starting BIGINT, p_moves JSONB
) RETURNS BOOLEAN LANGUAGE plpgsql AS $$
DECLARE
    move JSONB;
    index INTEGER;
    moves INTEGER := jsonb_array_length(p_moves);
    debits BIGINT[] := '{}';
    credits BIGINT[] := '{}';
    amount BIGINT;
    available BIGINT;
BEGIN
    INSERT INTO operations (key, kind, guild_id) VALUES (p_key, p_kind, p_guild)
        ON CONFLICT DO NOTHING;
    IF NOT FOUND THEN
        RETURN FALSE;
    END IF;
    FOR index IN 0 .. moves - 1 LOOP
        move := p_moves->index;
        debits := debits || CASE WHEN jsonb_typeof(move->'source') = 'array' THEN ledger_account(
            p_guild, move->'source'->>0, (move->'source'->>1)::BIGINT, p_starting) END;
        credits := credits || CASE WHEN jsonb_typeof(move->'target') = 'array' THEN ledger_account(
            p_guild, move->'target'->>0, (move->'target'->>1)::BIGINT, p_starting) END;
    END LOOP;
    PERFORM 1 FROM accounts WHERE id = ANY (debits || credits) ORDER BY id FOR NO KEY UPDATE;
    FOR index IN 0 .. moves - 1 LOOP
        move := p_moves->index;
        amount := (move->>'amount')::BIGINT;
        IF debits[index + 1] IS NOT NULL THEN
            UPDATE accounts SET chips = chips - amount
                WHERE id = debits[index + 1] AND chips >= amount;
            IF NOT FOUND THEN
                SELECT chips INTO available FROM accounts WHERE id = debits[index + 1];
                RAISE EXCEPTION 'insufficient chips'
                    USING ERRCODE = 'CT001', DETAIL = available::TEXT, HINT = index::TEXT;
            END IF;
        END IF;
        IF credits[index + 1] IS NOT NULL THEN
            UPDATE accounts SET chips = chips + amount WHERE id = credits[index + 1];
        END IF;
        INSERT INTO ledger (op_key, debit_account, credit_account, amount, reason)
            VALUES (p_key, debits[index + 1], credits[index + 1], amount, move->>'reason');
    END LOOP;
    RETURN TRUE;
END $$;
