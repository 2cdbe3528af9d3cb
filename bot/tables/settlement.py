"""Settling a table's chips, as pure functions (no store, no asyncio): the result rows a step
writes (hands, settles, the match's standings) and the chip movements of the house and of a
close. Results add up to the chips each seat won; the runtime writes both in the step's
transaction."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.engine import Event, GameState, HandEnded, MatchEnded
from bot.engine.protocol import placings
from bot.store import Account, ChipOperation, Move, ResultRow, SeatRecord
from bot.tables.events import TableClosed
from bot.tables.table import Table

# ---- results --------------------------------------------------------------------------------


def result_row(table: Table, seat: int, chip_net: int, **fields: Any) -> ResultRow:
    """A result row of `seat` at this table (a 'settle' row has no placing: 0). An AI
    seat's rows (its member id is below zero) keep the table's sums whole; leaderboards
    leave them out, and mark every row of a table that had AI seats."""
    fields.setdefault("placing", 0)
    return ResultRow(
        game_id=table.game.id,
        member_id=table.seats[seat].member_id,
        seat=seat,
        chip_net=chip_net,
        table_id=table.id,
        with_ai=table.record.has_ai,
        **fields,
    )


def house_row(table: Table, house_chips: int) -> ResultRow:
    """The house's result for a hand it played (seat -1, member 0)."""
    return ResultRow(
        game_id=table.game.id,
        member_id=0,
        seat=-1,
        placing=0,
        chip_net=house_chips,
        table_id=table.id,
        scope="house",
    )


def hand_results(table: Table, events: Sequence[Event]) -> list[ChipOperation]:
    """Result rows for a finished hand, written with the step that finished it."""
    return [
        ChipOperation(f"hand:{table.id}:{event.hand}", "results", (), hand_rows(table, event))
        for event in events
        if isinstance(event, HandEnded)
    ]


def hand_rows(table: Table, ended: HandEnded) -> list[ResultRow]:
    scores = ended.scores or [None] * len(table.seats)
    rows = [
        result_row(
            table,
            seat,
            ended.net_chips[seat],
            placing=1 if seat in ended.winners else 2,
            score=scores[seat],
            variant=ended.variant,
        )
        for seat in ended.players
    ]
    if ended.house_chips:
        rows.append(house_row(table, ended.house_chips))
    return rows


def settle_rows(table: Table, chips_out: dict[int, int], nets: dict[int, int]) -> list[ResultRow]:
    """For seats taking `chips_out` away, a 'settle' result for what their results so far
    (`nets`) don't account for (a carried pot), so results add up to the chips won."""
    rows = []
    for seat, chips in chips_out.items():
        unaccounted = chips - table.record.buy_in - nets.get(seat, 0)
        if unaccounted:
            rows.append(result_row(table, seat, unaccounted, scope="settle"))
    return rows


def standings(
    table: Table,
    state: GameState,
    events: Sequence[Event],
    nets_by_seat: dict[int, int],
    payouts: list[int],
) -> TableClosed:
    """The final standings. At a chip game everyone ranks by the chips they won or lost at
    the table, whoever left first (a game ranking by its stacks would put a leaver, whose
    stack left with them, last). A points game ranks by its own standings, the match's end
    or its cut short."""
    nets = [nets_by_seat.get(seat, 0) for seat in range(len(table.seats))]
    ended = next((e for e in events if isinstance(e, MatchEnded)), None)
    ended = ended or state.final_standings()
    if ended is None or table.game.chips_for(table.options):
        ranked, scores = placings(nets), None
    else:
        ranked, scores = ended.placings, ended.scores
    return TableClosed(
        payouts=payouts, why=table.closing, placings=ranked, scores=scores, nets=nets
    )


def match_rows(table: Table, closed: TableClosed) -> list[ResultRow]:
    """Each seat's final standing, as the match's result rows."""
    return [
        result_row(
            table,
            seat,
            closed.nets[seat],
            scope="match",
            placing=closed.placings[seat],
            score=closed.scores[seat] if closed.scores else None,
        )
        for seat in range(len(table.seats))
    ]


# ---- chips leaving the table ----------------------------------------------------------------


def seat_cash_out(
    table: Table, seat: SeatRecord, chips: int, nets: dict[int, int]
) -> ChipOperation:
    """A seat leaving a game in play with `chips`: its cash-out, settling what its results so
    far (`nets`) don't account for."""
    move = Move(Account.table(table.id), seat.account, chips, "leave table")
    settled = settle_rows(table, {seat.seat: chips}, nets)
    return ChipOperation(f"leave:{table.id}:{seat.seat}", "cash_out", [move], settled)


def close_out(
    table: Table, state: GameState, events: Sequence[Event], nets: dict[int, int]
) -> tuple[TableClosed, ChipOperation]:
    """The match is over (`state`, after the step's `events`): everyone is paid out, with
    results for the chips no hand accounted for (a carried pot shared out) and each
    player's final standing. `nets`: per seat, its results so far."""
    payouts = state.cash_out()
    staying = {seat.seat: payouts[seat.seat] for seat in table.seats if not seat.left}
    settled = settle_rows(table, staying, nets)
    totals = dict(nets)
    for row in settled:
        totals[row.seat] = totals.get(row.seat, 0) + row.chip_net
    closed = standings(table, state, events, totals, payouts)
    # A personal game's result is its hand's score: it has no one to be placed against.
    matches = [] if table.record.solo else match_rows(table, closed)
    moves = close_moves(table, state, payouts)
    return closed, ChipOperation(f"close:{table.id}", "cash_out", moves, [*settled, *matches])


def close_moves(table: Table, state: GameState, payouts: list[int]) -> list[Move]:
    """Every seat's payout back to its account, and the house's bank back to the house."""
    escrow = Account.table(table.id)
    moves = [
        Move(escrow, seat.account, amount, "table closed")
        for seat, amount in zip(table.seats, payouts, strict=True)
    ]
    if state.house_bank():
        moves.append(Move(escrow, Account.house(), state.house_bank(), "house bank back"))
    return moves


# ---- the house: it covers each hand as bets are made ---------------------------------------


def house_cover(table: Table, state: GameState, events: Sequence[Event]) -> list[ChipOperation]:
    """A house that covers each hand: what a step (from the kept state to `state`) added to
    its bank beyond the hand's result comes from the house's balance (a bet, whose win it
    holds), and what it took off goes back (the hand's end), in the step's own transaction."""
    reported = sum(event.house_chips for event in events if isinstance(event, HandEnded))
    brought = state.house_bank() - table.game_state.house_bank() - reported
    if not brought:
        return []
    house, escrow = Account.house(), Account.table(table.id)
    move = (
        Move(house, escrow, brought, "house covers bets")
        if brought > 0
        else Move(escrow, house, -brought, "house hold back")
    )
    key = f"cover:{table.id}:{table.record.version + 1}"
    return [ChipOperation(key, "house_cover", [move])]
