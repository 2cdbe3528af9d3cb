"""The chip ledger: balances, table escrows, the house and every movement between them. An
operation carrying results writes them (bot/store/results.py) and rates them
(bot/store/ratings.py) in its own transaction; the boards (bot/store/leaderboards.py) only read.

Each operation runs in one transaction under an idempotency key: the key is inserted first,
so repeating an operation (a retried click, a replay after a crash) moves nothing. Debits are
single conditional UPDATEs (never read-then-write); the schema keeps every balance and
movement a whole number, balances >= 0.
Invariant, per guild and overall: sum of balances + escrows = minted - burned.

The SQL runs on SQLite and PostgreSQL alike: sums are cast back to BIGINT (PostgreSQL's SUM of
a BIGINT is a NUMERIC), averages to DOUBLE PRECISION, a subquery in FROM has a name, and the
column "placing" is quoted (PLACING is a reserved word in PostgreSQL). One exception: an
operation on its own (/give's transfer, /daily, the house's bankroll; not one inside a table's
step) goes to PostgreSQL's function ledger_execute_batch with those that arrive while one batch
is under way, and takes there the same steps as `_moved_here` takes statement by statement (the
store's tests run every guarantee on both backends).
"""

from __future__ import annotations

import json
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Literal

from bot.errors import UserError
from bot.i18n import N_, _, number
from bot.store.batches import Batches
from bot.store.db import Database, Transaction
from bot.store.ratings import Ratings, rate_results
from bot.store.results import ResultRow, write_results
from bot.text import chips

# Operations in one call of ledger_execute_batch at most: each runs in a subtransaction, and a
# transaction with more than 64 of them slows every session's snapshots (migration 014).
BATCH_LIMIT = 50
# An operation as ledger_execute_batch reads it (migration 014).
_Operation = dict[str, object]


# Who is short of chips, by the kind of account (the sentence said in the language of the
# moment: a click's, its clicker's).
SHORT = {
    "member": N_("You have {chips}; {needed} are needed."),
    "table": N_("The table has {chips}; {needed} are needed."),
    "house": N_("The house has {chips}; {needed} are needed."),
    "tournament": N_("The tournament has {chips}; {needed} are needed."),
}


class InsufficientChips(UserError):
    def __init__(self, account: Account, available: int, needed: int) -> None:
        self.account, self.available, self.needed = account, available, needed
        super().__init__(_(SHORT[account.kind], chips=chips(available), needed=number(needed)))


@dataclass(frozen=True)
class Account:
    kind: Literal["member", "table", "house", "tournament"]
    owner_id: int

    @classmethod
    def house(cls) -> Account:
        """The guild's house: the bank of house-banked games (Backhand). A server manager funds
        it; it covers each hand as its bets are made and takes its chips back at its end."""
        return cls("house", 0)

    @classmethod
    def tournament(cls, tournament_id: int) -> Account:
        """A tournament's prize pool: its buy-ins, held until the payout or a refund."""
        return cls("tournament", tournament_id)

    @classmethod
    def member(cls, member_id: int) -> Account:
        return cls("member", member_id)

    @classmethod
    def table(cls, table_id: int) -> Account:
        return cls("table", table_id)


@dataclass(frozen=True)
class Move:
    """`amount` chips from `source` to `target`; None as source mints, as target burns."""

    source: Account | None
    target: Account | None
    amount: int
    reason: str


@dataclass(frozen=True)
class Totals:
    balances: int
    escrows: int
    minted: int
    burned: int
    house: int = 0
    tournaments: int = 0  # the prize pools of tournaments not paid out yet

    @property
    def held(self) -> int:
        """Every chip somewhere: members' balances, tables' escrows, the house and the
        tournaments' pools."""
        return self.balances + self.escrows + self.house + self.tournaments

    @property
    def consistent(self) -> bool:
        return self.held == self.minted - self.burned


def _total(chips: str) -> str:
    """SUM over no rows is NULL, and on PostgreSQL a NUMERIC: 0 for none, an int always."""
    return f"CAST(COALESCE(SUM({chips}), 0) AS BIGINT)"


_BALANCES = ", ".join(  # members', tables', the house's and the tournaments' chips
    _total(f"CASE kind WHEN '{kind}' THEN chips END")
    for kind in ("member", "table", "house", "tournament")
)
_FLOWS = ", ".join(  # chips minted and burned
    _total(f"CASE WHEN {end}_account IS NULL THEN amount END") for end in ("debit", "credit")
)


class Ledger:
    def __init__(self, database: Database, starting_chips: int) -> None:
        self.db = database
        self.starting_chips = starting_chips
        self._batches: Batches[_Operation, object] = Batches(self._send_batch, BATCH_LIMIT)
        self.ratings = Ratings(database)  # the skill ratings its results update

    # ---- reads ----------------------------------------------------------------------------

    async def balance(self, guild_id: int, member_id: int) -> int:
        """A member's chips; the first look creates the account with the starting chips."""
        chips = await self._chips(guild_id, Account.member(member_id))
        if chips is None:

            async def write(tx: Transaction) -> None:
                await self._account_ids(tx, guild_id, [Account.member(member_id)])

            await self.db.step(write)
            chips = await self._chips(guild_id, Account.member(member_id))
            assert chips is not None  # the account was just made
        return chips

    async def escrow(self, guild_id: int, table_id: int) -> int:
        return await self._chips(guild_id, Account.table(table_id)) or 0

    async def _chips(self, guild_id: int, account: Account) -> int | None:
        row = await self.db.fetch_one(
            "SELECT chips FROM accounts WHERE guild_id = ? AND kind = ? AND owner_id = ?",
            guild_id,
            account.kind,
            account.owner_id,
        )
        return None if row is None else row[0]

    async def totals(self, guild_id: int | None = None) -> Totals:
        where, params = ("WHERE guild_id = ?", (guild_id,)) if guild_id is not None else ("", ())
        balances = await self.db.fetch_aggregate(
            f"SELECT {_BALANCES} FROM accounts {where}", *params
        )
        flows = await self.db.fetch_aggregate(
            f"SELECT {_FLOWS} FROM ledger JOIN operations ON operations.key = ledger.op_key"
            f" {where}",
            *params,
        )
        return Totals(
            balances[0], balances[1], flows[0], flows[1], house=balances[2], tournaments=balances[3]
        )

    # ---- operations -----------------------------------------------------------------------

    async def grant(
        self, guild_id: int, member_id: int, amount: int, *, reason: str, key: str
    ) -> bool:
        """Mint chips for a member (daily chips, an admin grant). False if `key` was used."""
        return await self.execute(
            guild_id, key, "grant", [Move(None, Account.member(member_id), amount, reason)]
        )

    async def transfer(
        self, guild_id: int, giver: int, receiver: int, amount: int, *, key: str
    ) -> bool:
        if giver == receiver:
            raise UserError(_("You cannot give chips to yourself."))
        move = Move(Account.member(giver), Account.member(receiver), amount, "gift")
        return await self.execute(guild_id, key, "transfer", [move])

    async def buy_in(
        self, guild_id: int, table_id: int, member_id: int, amount: int, *, key: str
    ) -> bool:
        move = Move(Account.member(member_id), Account.table(table_id), amount, "buy-in")
        return await self.execute(guild_id, key, "buy_in", [move])

    async def cash_out(
        self, guild_id: int, table_id: int, member_id: int, amount: int, *, key: str
    ) -> bool:
        move = Move(Account.table(table_id), Account.member(member_id), amount, "cash-out")
        return await self.execute(guild_id, key, "cash_out", [move])

    async def settle(
        self, guild_id: int, moves: Sequence[Move], results: Sequence[ResultRow], *, key: str
    ) -> bool:
        """A finished hand: all its movements and result rows, or none of them."""
        return await self.execute(guild_id, key, "settle", moves, results)

    async def execute(
        self,
        guild_id: int,
        key: str,
        kind: str,
        moves: Sequence[Move],
        results: Sequence[ResultRow] = (),
    ) -> bool:
        """Run one operation atomically. Returns False (moving nothing) if `key` was used."""
        if self.db.backend == "postgres" and not results:
            # Sent with the operations that arrive while a batch is under way: one
            # transaction, one round trip and one flushed commit for all of them.
            return await self._moved_by_server(guild_id, key, kind, _moving(moves))

        async def write(tx: Transaction) -> bool:
            return await self.execute_in(tx, guild_id, key, kind, moves, results)

        return await self.db.step(write)

    async def execute_in(
        self,
        tx: Transaction,
        guild_id: int,
        key: str,
        kind: str,
        moves: Sequence[Move],
        results: Sequence[ResultRow] = (),
    ) -> bool:
        """`execute` inside a transaction the caller holds (with its own writes beside it)."""
        # Inside a table's step too, PostgreSQL could make the moves in one call: left for
        # now, as two runs of the load bench could not tell its cost apart from their spread.
        claimed = await self._moved_here(tx, guild_id, key, kind, _moving(moves))
        if claimed and results:
            await self._record(tx, guild_id, key, results)
        return claimed

    async def _moved_here(
        self, tx: Transaction, guild_id: int, key: str, kind: str, moving: Sequence[Move]
    ) -> bool:
        """The operation's key claimed and its moves made, statement by statement."""
        if not await self._claim_key(tx, guild_id, key, kind):
            return False
        ids = await self._account_ids(
            tx, guild_id, [end for move in moving for end in (move.source, move.target) if end]
        )
        for move in moving:
            await self._move(tx, key, move, ids)
        return True

    async def _moved_by_server(
        self, guild_id: int, key: str, kind: str, moving: Sequence[Move]
    ) -> bool:
        """The same steps as `_moved_here`, run by PostgreSQL (ledger_execute, migration 013)
        in a batch (migration 014). Statement by statement, a transfer was seven round trips,
        whose CPU on both sides capped transfers at about 900 a second here; in one call each,
        1,100-2,080 a second; batched, 5,300-6,500 (docs/performance.md)."""
        outcome = await self._batches.submit(
            {
                "guild": guild_id,
                "key": key,
                "kind": kind,
                "moves": [
                    {
                        "source": _ends(move.source),
                        "target": _ends(move.target),
                        "amount": move.amount,
                        "reason": move.reason,
                    }
                    for move in moving
                ],
            }
        )
        if isinstance(outcome, dict):  # {"available": n, "move": i}: that debit was refused
            move = moving[outcome["move"]]
            assert move.source is not None  # only a debit is refused
            raise InsufficientChips(move.source, outcome["available"], move.amount)
        return bool(outcome)

    async def _send_batch(self, operations: list[_Operation]) -> list[object]:
        row = await self.db.fetch_one(
            "SELECT ledger_execute_batch(?, ?::jsonb)", self.starting_chips, json.dumps(operations)
        )
        assert row is not None  # a function call answers one row
        outcomes: list[object] = json.loads(row[0])
        return outcomes

    # ---- inside a transaction ---------------------------------------------------------------

    async def claim_once(self, tx: Transaction, guild_id: int, key: str, kind: str) -> bool:
        """Use `key` up inside the caller's transaction; False if it was used before."""
        return await self._claim_key(tx, guild_id, key, kind)

    async def _claim_key(self, tx: Transaction, guild_id: int, key: str, kind: str) -> bool:
        return (
            await tx.run(
                "INSERT INTO operations (key, kind, guild_id) VALUES (?, ?, ?)"
                " ON CONFLICT DO NOTHING",
                key,
                kind,
                guild_id,
            )
            == 1
        )

    async def _move(self, tx: Transaction, key: str, move: Move, ids: dict[Account, int]) -> None:
        debit = credit = None
        if move.source is not None:
            debit = ids[move.source]
            changed = await tx.run(
                "UPDATE accounts SET chips = chips - ? WHERE id = ? AND chips >= ?",
                move.amount,
                debit,
                move.amount,
            )
            if changed != 1:
                available = await self._chips_by_id(tx, debit)
                raise InsufficientChips(move.source, available, move.amount)
        if move.target is not None:
            credit = ids[move.target]
            await tx.run("UPDATE accounts SET chips = chips + ? WHERE id = ?", move.amount, credit)
        await tx.run(
            "INSERT INTO ledger (op_key, debit_account, credit_account, amount, reason)"
            " VALUES (?, ?, ?, ?, ?)",
            key,
            debit,
            credit,
            move.amount,
            move.reason,
        )

    async def fund_house(self, guild_id: int, amount: int, *, reason: str, key: str) -> bool:
        """Mint chips for the guild's house (an admin's bankroll). False if `key` was used."""
        return await self.execute(
            guild_id, key, "grant", [Move(None, Account.house(), amount, reason)]
        )

    async def house_balance(self, guild_id: int) -> int:
        return await self._chips(guild_id, Account.house()) or 0

    async def house_report(self, guild_id: int) -> list[tuple[str, int, int]]:
        """Per game: (game, hands, the house's net chips), from its 'house' result rows."""
        return await self._house_net(guild_id, "game_id")

    async def house_days(self, guild_id: int, days: int) -> list[tuple[str, int, int]]:
        """Per day (UTC, latest first, at most `days`): (day, hands, the house's net chips)."""
        rows = await self._house_net(guild_id, "substr(created_at, 1, 10)")
        return sorted(rows, reverse=True)[:days]

    async def _house_net(self, guild_id: int, group: str) -> list[tuple[str, int, int]]:
        rows = await self.db.fetch_all(
            f"SELECT {group} AS key, COUNT(*), CAST(SUM(chip_net) AS BIGINT) FROM results"
            " WHERE guild_id = ? AND scope = 'house' GROUP BY key ORDER BY key",
            guild_id,
        )
        return [(row[0], row[1], row[2]) for row in rows]

    async def _account_ids(
        self, tx: Transaction, guild_id: int, accounts: Collection[Account]
    ) -> dict[Account, int]:
        """The accounts' ids, creating those that are new (a member's with the starting chips).
        The ones found are locked in the order of their ids, before any changes: two steps
        moving chips between the same accounts, each its own way, then never wait for each
        other in a cycle on a server that locks rows (PostgreSQL). One SELECT for them all."""
        wanted = sorted(set(accounts), key=lambda account: (account.kind, account.owner_id))
        if not wanted:
            return {}
        which = " OR ".join(["(kind = ? AND owner_id = ?)"] * len(wanted))
        rows = await tx.all(
            f"SELECT id, kind, owner_id FROM accounts WHERE guild_id = ? AND ({which})"
            f" ORDER BY id{tx.row_lock}",
            guild_id,
            *[value for account in wanted for value in (account.kind, account.owner_id)],
        )
        ids = {Account(row[1], row[2]): row[0] for row in rows}
        for account in wanted:
            if account not in ids:
                ids[account] = await self._create_account(tx, guild_id, account)
        return ids

    async def _create_account(self, tx: Transaction, guild_id: int, account: Account) -> int:
        created = await tx.one(
            "INSERT INTO accounts (guild_id, kind, owner_id) VALUES (?, ?, ?)"
            " ON CONFLICT DO NOTHING RETURNING id",
            guild_id,
            account.kind,
            account.owner_id,
        )
        if created is None:  # another process created it since the SELECT
            found = await tx.one(
                "SELECT id FROM accounts WHERE guild_id = ? AND kind = ? AND owner_id = ?"
                f"{tx.row_lock}",
                guild_id,
                account.kind,
                account.owner_id,
            )
            assert found is not None  # it was there, or the INSERT would have made it
            return found[0]
        account_id = created[0]
        if account.kind == "member" and self.starting_chips:
            key = f"start:{guild_id}:{account.owner_id}"
            await self._claim_key(tx, guild_id, key, "starting_chips")
            mint = Move(None, account, self.starting_chips, "starting chips")
            await self._move(tx, key, mint, {account: account_id})
        return account_id

    async def _chips_by_id(self, tx: Transaction, account_id: int) -> int:
        row = await tx.one("SELECT chips FROM accounts WHERE id = ?", account_id)
        assert row is not None  # account ids come from _account_id, which makes the account
        return row[0]

    async def _record(
        self, tx: Transaction, guild_id: int, key: str, results: Sequence[ResultRow]
    ) -> None:
        """The results and their ratings, in the operation's transaction under its key: a key
        used before rates nothing, and an operation undone undoes its ratings."""
        await write_results(tx, guild_id, key, results)
        await rate_results(tx, guild_id, key, results)


def _moving(moves: Sequence[Move]) -> list[Move]:
    """The moves that move chips, once every move is found valid."""
    for move in moves:
        # A whole number of chips only (not 2.5, not True): refused here before any SQL.
        # SQLite's CHECK would refuse it after; PostgreSQL's driver would round it.
        whole = type(move.amount) is int and move.amount >= 0
        if not whole or (move.source is None and move.target is None):
            raise ValueError(f"invalid chip movement {move!r}")
    return [move for move in moves if move.amount]


def _ends(account: Account | None) -> list[object] | None:
    """An account as ledger_execute reads it: [kind, owner], or null for none (mint, burn)."""
    return None if account is None else [account.kind, account.owner_id]
