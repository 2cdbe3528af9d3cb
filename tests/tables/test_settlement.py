"""Settling a table's chips (bot/tables/settlement.py), without asyncio or a store: the
results add up to the chips each seat won, a pot carried to the close gets a 'settle' row,
the standings are the game's own, and the house's chips move with the steps that bring or
release them."""

from collections import defaultdict

import bot.games  # noqa: F401  (registers every game)
from bot.engine import GameState, HandEnded, MatchEnded, registry
from bot.games.backhand import BackhandOptions, Bet, CallBackhand
from bot.games.terrapin.provincial import Fist, ProvincialOptions, SetStake
from bot.store import Account, Move, ResultRow, SeatRecord, TableRecord, TableStatus
from bot.tables import Table, settlement

TABLE_ID, BUY_IN = 7, 20
FOLD, PAY = Fist(chips=0), Fist(chips=1)


def table_of(game_id: str, options, state: GameState, buy_in: int = BUY_IN) -> Table:
    """A table in play keeping `state`, members 100, 101, … in seats 0, 1, …"""
    game = registry.get(game_id)
    seats = [SeatRecord(n, 100 + n, f"P{n}") for n in range(state.seat_count)]
    record = TableRecord(
        TABLE_ID, 1, 2, game.id, TableStatus.PLAYING, 100, buy_in, "{}", 60, seats=seats
    )
    table = Table(record, game, options)
    table.keep(state)
    return table


def step(table: Table, *moves) -> tuple[GameState, list]:
    """The kept state after `moves` (seat, action), as a copy: the runtime's working copy."""
    state = table.game.restore(table.state.snapshot())
    events = []
    for seat, action in moves:
        events += state.apply(seat, action)
    return state, events


def nets_of(rows: list[ResultRow]) -> dict[int, int]:
    nets: dict[int, int] = defaultdict(int)
    for row in rows:
        nets[row.seat] += row.chip_net
    return dict(nets)


def provincial_with_a_carried_pot() -> tuple[Table, list[ResultRow]]:
    """Provincial, three seats, stake 1. Hand 1: seat 1 pays to play, the others fold, so
    it takes the pot (its ante and payment back, the two other antes won). Hand 2: everyone
    folds, so the pot stays in play for the next hand (terrapin.md: "If everyone folds, then
    the hand ends without a winner; the pot remains in play"). Returns the table between
    hands and the hands' result rows."""
    options = ProvincialOptions()
    table = table_of(
        "provincial", options, registry.get("provincial").new_match(options, [20] * 3, 1)
    )
    rows: list[ResultRow] = []
    for fists in ([FOLD, PAY, FOLD], [FOLD, FOLD, FOLD]):
        if table.state.awaiting_next_hand():
            state = table.game.restore(table.state.snapshot())
            state.next_hand()
            table.keep(state)
        dealer = table.state.dealer
        state, events = step(table, (dealer, SetStake(chips=1)), *enumerate(fists))
        rows += [row for op in settlement.hand_results(table, events) for row in op.results]
        table.keep(state)
    assert table.state.awaiting_next_hand() and table.state.carry == 3
    return table, rows


def test_a_finished_hand_has_one_result_row_per_player_with_its_chips():
    _, rows = provincial_with_a_carried_pot()
    first, second = rows[:3], rows[3:]
    assert [(r.member_id, r.seat, r.chip_net, r.placing) for r in first] == [
        (100, 0, -1, 2),
        (101, 1, +2, 1),
        (102, 2, -1, 2),
    ]
    assert [r.chip_net for r in second] == [-1, -1, -1]  # the antes, carried in the pot
    assert {(r.game_id, r.table_id, r.scope, r.with_ai) for r in rows} == {
        ("provincial", TABLE_ID, "hand", False)
    }


def test_a_pot_carried_to_the_close_is_settled_so_results_add_up_to_the_chips_won():
    table, hand_rows = provincial_with_a_carried_pot()
    state = table.game.restore(table.state.snapshot())
    closed, cash_out = settlement.close_out(table, state, [], nets_of(hand_rows))
    # The carried 3 chips are shared one each (from the dealer's left): no hand counted them.
    assert closed.payouts == [19, 22, 19]
    settled = [r for r in cash_out.results if r.scope == "settle"]
    assert [(r.seat, r.chip_net, r.placing) for r in settled] == [(0, 1, 0), (1, 1, 0), (2, 1, 0)]
    results = nets_of(hand_rows + settled)
    assert results == {seat: paid - BUY_IN for seat, paid in enumerate(closed.payouts)}
    assert closed.nets == [-1, 2, -1]
    assert cash_out.moves == [
        Move(Account.table(TABLE_ID), Account.member(100 + seat), paid, "table closed")
        for seat, paid in enumerate(closed.payouts)
    ]
    assert (cash_out.key, cash_out.kind) == (f"close:{TABLE_ID}", "cash_out")


def test_without_the_games_own_standings_players_are_ranked_by_the_chips_they_won():
    table, hand_rows = provincial_with_a_carried_pot()
    state = table.game.restore(table.state.snapshot())
    closed, cash_out = settlement.close_out(table, state, [], nets_of(hand_rows))
    assert (closed.placings, closed.scores) == ([2, 1, 2], None)
    matches = [r for r in cash_out.results if r.scope == "match"]
    assert [(r.seat, r.placing, r.chip_net) for r in matches] == [(0, 2, -1), (1, 1, 2), (2, 2, -1)]


def test_a_leaving_seat_is_paid_its_stack_and_settles_what_its_results_dont_count():
    table, hand_rows = provincial_with_a_carried_pot()
    leaver = table.seats[1]
    operation = settlement.seat_cash_out(table, leaver, 22, nets_of(hand_rows))
    assert operation.moves == [
        Move(Account.table(TABLE_ID), Account.member(101), 22, "leave table")
    ]
    assert [(r.seat, r.chip_net, r.scope) for r in operation.results] == [(1, 1, "settle")]
    assert nets_of(hand_rows + list(operation.results))[1] == 22 - BUY_IN


def test_the_standings_are_the_games_own_where_it_ranks_the_match():
    """A points game ranks by its scores, whatever the chips: a match that ended by itself
    by its MatchEnded, one cut short by the game's final standings."""
    options = registry.get("bigtwo").options_model()
    state = registry.get("bigtwo").new_match(options, [0, 0, 0], 1)
    state.scores = [14, 3, 9]  # penalty points: the lowest wins
    table = table_of("bigtwo", options, state, buy_in=0)
    even = {0: 0, 1: 0, 2: 0}
    cut_short = settlement.standings(table, state, [], even, [0, 0, 0])
    assert (cut_short.placings, cut_short.scores) == ([3, 1, 2], [14, 3, 9])
    ended = MatchEnded(placings=[1, 3, 2], scores=[1, 30, 2])
    by_event = settlement.standings(table, state, [ended], even, [0, 0, 0])
    assert (by_event.placings, by_event.scores) == ([1, 3, 2], [1, 30, 2])


def test_a_house_that_covers_each_hand_brings_each_bets_win_and_takes_the_rest_back():
    """backhand.md with DECISIONS.md: every bet brings its even-money win from the house, and
    when the hand ends the hold and what the house won go back to it."""
    options = BackhandOptions(max_bet=20)
    # Seats dealt 15 each; their backhand cards 7 (busts: wins), 2 (loses), 8 (wins).
    deck = ["Kc", "Kd", "Kh", "5c", "5d", "5h", "7s", "2s", "8s"]
    state = registry.get("backhand").new_match(options, [50] * 3, 7, stacked=[deck])
    table = table_of("backhand", options, state, buy_in=50)
    house, escrow = Account.house(), Account.table(TABLE_ID)
    brought = []
    for seat, chips in ((0, 20), (1, 3), (2, 20)):
        state, events = step(table, (seat, Bet(chips=chips)))
        brought += settlement.house_cover(table, state, events)
        table.keep(state)
        table.record.version += 1
    assert [(op.key, op.kind, list(op.moves)) for op in brought] == [
        (f"cover:{TABLE_ID}:{n}", "house_cover", [Move(house, escrow, chips, "house covers bets")])
        for n, chips in ((1, 20), (2, 3), (3, 20))
    ]
    state, events = step(table, *((seat, CallBackhand()) for seat in range(3)))
    ended = next(e for e in events if isinstance(e, HandEnded))
    assert ended.house_chips == -37  # paid 20 and 20, won 3
    (back,) = settlement.house_cover(table, state, events)
    assert list(back.moves) == [Move(escrow, house, 43 - 37, "house hold back")]
    (results,) = settlement.hand_results(table, events)
    assert [(r.seat, r.member_id, r.chip_net, r.scope) for r in results.results] == [
        (0, 100, 20, "hand"),
        (1, 101, -3, "hand"),
        (2, 102, 20, "hand"),
        (-1, 0, -37, "house"),
    ]
    assert sum(r.chip_net for r in results.results) == 0  # what players won, the house lost


def test_a_table_closed_mid_hand_gives_the_houses_hold_back():
    options = BackhandOptions()
    state = registry.get("backhand").new_match(options, [50, 50], 7)
    table = table_of("backhand", options, state, buy_in=50)
    state, _ = step(table, (0, Bet(chips=5)), (1, Bet(chips=5)))
    assert state.house_bank() == 10
    closed, cash_out = settlement.close_out(table, state, [], {})
    escrow = Account.table(TABLE_ID)
    assert closed.payouts == [50, 50]  # the bets back: the hand is void
    assert cash_out.moves[-1] == Move(escrow, Account.house(), 10, "house bank back")
