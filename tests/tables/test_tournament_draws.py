"""How many rounds an elimination's bracket shows before they are drawn."""

from __future__ import annotations

import pytest

from bot.store.tournaments import Entry, MatchRecord, Progress, TournamentRecord
from bot.tables.tournament_draws import rounds_planned


def elimination(table_size: int) -> TournamentRecord:
    return TournamentRecord(
        id=1, guild_id=1, channel_id=1, host_id=1, game_id="bigtwo", format="elimination",
        buy_in=0, table_size=table_size, rounds=0, starts_at=None, max_players=64,
        payout="winner", hands_per_match=0, match_minutes=60, table_chips=0, turn_seconds=60,
        options="{}",
    )  # fmt: skip


def registered(count: int) -> list[Entry]:
    return [Entry(member, f"P{member}", member) for member in range(1, count + 1)]


@pytest.mark.parametrize(("field", "table_size", "rounds"), [(8, 2, 3), (9, 2, 4), (16, 4, 2)])
def test_before_the_first_round_the_whole_field_is_planned(field, table_size, rounds) -> None:
    progress = Progress(registered(field))
    assert rounds_planned(elimination(table_size), progress) == rounds


def test_a_member_who_left_before_the_draw_is_not_counted() -> None:
    progress = Progress(registered(5))
    progress.entries[4].withdrawn = True  # four left: two rounds at two-seat tables
    assert rounds_planned(elimination(2), progress) == 2


def test_later_rounds_count_from_the_latest_drawn() -> None:
    first = [MatchRecord(1, n, (2 * n - 1, 2 * n), 1, placings=(1, 2)) for n in range(1, 5)]
    second = [MatchRecord(2, 1, (1, 3), 1), MatchRecord(2, 2, (5, 7), 1)]
    progress = Progress(registered(8), {}, first + second)
    assert rounds_planned(elimination(2), progress) == 3


def test_a_round_with_byes_counts_them_in_its_field() -> None:
    first = [MatchRecord(1, n, (n, 7 - n), 1, placings=(1, 2)) for n in range(1, 4)]
    second = [MatchRecord(2, 1, (2, 3), 1)]
    progress = Progress(registered(6), {2: (1,)}, first + second)
    assert rounds_planned(elimination(2), progress) == 3


def test_a_field_too_small_to_play_plans_nothing() -> None:
    assert rounds_planned(elimination(2), Progress(registered(1))) is None
