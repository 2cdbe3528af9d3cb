"""`/table close` on a game in play, end to end through the fake Discord (issue 39, points 1
and 2). Closing is not leaving: the hand in play is finished at once, every turn played for
its seat, and the game ranks everyone, the host who closed included, by its own rules. In
Last One no melee window waits and nobody takes the penalty for a call no one could press;
players still in come first, by score, then those out."""

import pytest

from bot.games.last_one import Called
from bot.tables import Table
from tests.discord.test_last_one_e2e import (
    act,
    dealt,
    open_game,
    penalties,
    record_shown,
    settle_ai,
)
from tests.fakediscord.tester import DEFERRED_MESSAGE
from tests.tables_e2e import TableDriver, add_ai

CLOSED = "The table is closed: the hand in play was finished"

# Alice deals; AI 1 plays first, then AI 2, then Alice. Each AI has one card to play on what
# it finds (9♥ on 7♥, then 9♣ on 9♥); Alice's 4♣ starts a melee nobody can continue (the 5 of
# clubs lies deep in the stock and no joker is dealt).
MELEE = {1: "9h 10c Qd Kc", 2: "9c 10d Qc Ks", 0: "4c 6d 6s 10s"}
MELEE_STOCK = "Qh Jh 10h 9d 8d 7d 6h 6c 7c Jc 2d 3d 4d 5d"


async def match_results(world, table: Table) -> list[tuple[int, int | None]]:
    """(placing, score) of each seat's match result, in seat order."""
    rows = await world.bot.database.fetch_all(
        "SELECT placing, score FROM results WHERE table_id = ? AND scope = 'match' ORDER BY seat",
        table.id,
    )
    return [(row[0], row[1]) for row in rows]


def standings_text(world) -> str:
    return next(
        m.text()
        for m in world.tester.channel_messages(world.channel)
        if "Final standings" in m.text()
    )


async def close(world, driver: TableDriver) -> Table:
    """The host runs `/table close`: acknowledged at once ("thinking...": finishing the hand
    may take hundreds of steps, past Discord's 3 s), the answer edited in once the table is
    closed."""
    table = driver.table
    reply = await world.tester.slash(world.alice, world.channel, "table close")
    assert reply.response_type == DEFERRED_MESSAGE and reply.response.ephemeral
    assert reply.text.startswith(CLOSED), reply.text
    assert world.bot.runtime.in_channel(world.channel.id) is None  # at once: nothing waits
    await world.tester.idle()
    return table


@pytest.mark.parametrize("game", ["totit", "porrazo", "crash"])
async def test_the_host_who_closes_a_points_game_is_ranked_by_score_like_everyone(world, game):
    driver = TableDriver(world)
    await driver.open(f"{game} new", world.alice, [world.bob, world.carol])
    await driver.start(world.alice)
    table = await close(world, driver)
    match = table.state.match
    assert not any(match.dropped)  # nobody forfeits, the host least of all
    scores = match.seat_scores()
    by_score = [1 + sum(other > mine for other in scores) for mine in scores]
    assert await match_results(world, table) == list(zip(by_score, scores, strict=True))
    assert f"**{by_score[0]}.** Alice" in standings_text(world)


async def test_last_one_closes_at_once_in_a_melee_window_and_ranks_by_its_rules(world):
    world.bot.runtime.stacked = [dealt(MELEE, "7h", MELEE_STOCK)]
    driver = TableDriver(world)
    await driver.open("lastone new", world.alice, [], hand_size=4, threshold=40, ai_delay=0)
    for _ in range(2):
        await add_ai(world, world.alice, driver.message())
    await driver.start(world.alice)
    await settle_ai(world)  # the AI players' two turns, by themselves
    assert driver.table.required_seats() == [0]
    await driver.play("Play 4♣")  # the third turn: a melee window opens
    assert "Melee!" in driver.message().text() and driver.table.state.window_seconds()
    table = await close(world, driver)
    state = table.state
    assert state.phase == "over" and state.revealed is not None  # the hand was finished
    assert not world.bot.runtime.ai_turns  # nothing plays on in the channel
    match = state.match
    assert not any(match.dropped)
    # Players still in first, by score (lower is better), then those who went out.
    keys = [(match.out[seat] is not None, match.scores[seat]) for seat in range(3)]
    places = [1 + sum(other < mine for other in keys) for mine in keys]
    assert await match_results(world, table) == list(zip(places, match.scores, strict=True))
    assert state.final_standings().placings == places


async def test_a_close_calls_last_one_for_a_player_who_could_not_press_it(world, monkeypatch):
    """Bob is down to one card and hasn't called when the host closes: the table calls for him
    before Carol's turn is played, so he draws no penalty."""
    driver = await open_game(world, threshold=10)
    await act(driver, world.carol, "Draw a card")
    await act(driver, world.alice, "Play BJ (then name a card)")
    await act(driver, world.alice, "5♣")
    await act(driver, world.bob, "Play 3♣")
    await act(driver, world.bob, "Play 5♣")  # one card left, not called
    assert driver.table.state.caller == 1
    shown = record_shown(world, monkeypatch)
    table = await close(world, driver)
    assert shown[0] == Called(seat=1)  # before Carol's turn is played for her
    assert not penalties(shown)
    assert table.state.phase == "over" and not any(table.state.match.dropped)
