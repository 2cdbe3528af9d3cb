"""The table runtime on its own (no Discord): real timers, and a failed write changes nothing."""

import asyncio
from datetime import UTC, datetime

import pytest

import bot.games
import bot.tables.table
from bot.engine import Action, registry
from bot.errors import UserError
from bot.store import Database, Ledger, SQLiteDatabase, TableStatus, TableStore
from bot.tables import TableRuntime, action_token
from bot.tables.events import TimedOut
from bot.tables.play import AWAY_STEPS_AT_ONCE
from bot.tables.resume import RESUME_GRACE
from tests.e2e import eventually

GUILD, CHANNEL = 1, 2


class Recorder:
    def __init__(self) -> None:
        self.events: list[str] = []
        self.told: list = []  # the events themselves

    async def table_changed(self, table, events) -> None:
        self.events += [event.kind for event in events]
        self.told += events


def make_runtime(db: Database) -> TableRuntime:
    ledger = Ledger(db, starting_chips=100)
    return TableRuntime(
        TableStore(db, ledger),
        ledger,
        Recorder(),
        clock=lambda: datetime.now(UTC),
        new_seed=lambda: 3,
    )


@pytest.fixture
async def runtime(tmp_path):
    db = await SQLiteDatabase.open(tmp_path / "rt.sqlite3")
    runtime = make_runtime(db)
    yield runtime
    await runtime.shutdown()
    await db.close()


async def open_lobby(
    runtime: TableRuntime,
    turn_seconds: int = 60,
    channel: int = CHANNEL,
    key: str = "open",
    game: str = "western",
):
    """A lobby for `game` with its default options, opened by member 1 (a buy-in of 20 in a
    chip game)."""
    spec = registry.get(game)
    options = spec.options_model()
    return await runtime.open(
        spec,
        options,
        guild_id=GUILD,
        channel_id=channel,
        creator_id=1,
        creator_name="A",
        buy_in=20 if spec.chips_for(options) else 0,
        turn_seconds=turn_seconds,
        key=key,
    )


async def started(runtime: TableRuntime, game: str, players: int | None = None):
    """A table of `game` (a house to cover it) started by member 1 with members 2, 3, ...:
    `players` in all (the game's fewest if None)."""
    await runtime.ledger.fund_house(GUILD, 10_000, reason="test", key="fund")
    table = await open_lobby(runtime, game=game)
    for member in range(2, (players or registry.get(game).min_players) + 1):
        await runtime.join(table.id, member, f"P{member}", key=f"join {member}")
    await runtime.start(table.id, 1, can_manage=False)
    return table


async def open_and_start(runtime: TableRuntime, turn_seconds: int = 60, channel: int = CHANNEL):
    table = await open_lobby(runtime, turn_seconds, channel)
    await runtime.join(table.id, 2, "B", key="join")
    await runtime.start(table.id, 1, can_manage=False)
    return table


@pytest.mark.slow  # a real timer
async def test_a_real_turn_timer_plays_the_default(runtime):
    table = await open_and_start(runtime, turn_seconds=1)
    to_act = table.pending_seats()[0]
    await eventually(lambda: "timed_out" in runtime.listener.events, what="the turn timeout")
    assert table.state.betting.folded[to_act]  # must bet or fold: folded


async def test_a_failed_write_changes_nothing(runtime, monkeypatch):
    table = await open_and_start(runtime)
    seat = table.pending_seats()[0]
    member = table.seats[seat].member_id
    before = (table.state.snapshot(), table.record.version, [s.prompt for s in table.seats])

    async def broken(*args, **kwargs):
        raise OSError("disk full")

    monkeypatch.setattr(TableStore, "commit", broken)
    bet = action_token(table.state.legal_actions(seat)[1])
    with pytest.raises(OSError):
        await runtime.act(table.id, member, table.seats[seat].prompt, bet)
    assert (table.state.snapshot(), table.record.version, [s.prompt for s in table.seats]) == before
    monkeypatch.undo()
    await runtime.act(table.id, member, table.seats[seat].prompt, bet)  # and play goes on
    assert table.record.version == 1


async def test_a_step_saved_though_its_commit_failed_is_caught_up_with(runtime, monkeypatch):
    """A commit whose outcome was unknown (the connection lost during COMMIT) may have been
    saved: the next step finds the store ahead, reloads the table from it and refuses itself
    with a sentence; then play goes on from what was saved."""
    table = await open_and_start(runtime)
    seat = table.pending_seats()[0]
    member, prompt = table.seats[seat].member_id, table.seats[seat].prompt
    database = runtime.store.db
    step = database.step

    async def saved_then_lost(body):
        await step(body)
        raise OSError("connection lost during COMMIT")

    monkeypatch.setattr(database, "step", saved_then_lost)
    with pytest.raises(OSError):
        await runtime.act(table.id, member, prompt, "fold")
    monkeypatch.undo()
    assert table.record.version == 0  # as far as the runtime knows, nothing happened
    with pytest.raises(UserError, match="moved on meanwhile"):
        await runtime.act(table.id, member, prompt, "fold")
    saved = await runtime.store.load(table.id)
    assert table.record.version == saved.version == 1
    assert table.state.snapshot() == saved.state
    assert runtime.tables[table.id] is table
    assert table.state.awaiting_next_hand()  # the fold that was saved ended the hand
    await runtime.fire_deadline(table.id)  # and play goes on: the next hand
    assert table.record.version == 2 and table.pending_seats()


async def test_the_kept_state_is_asked_once_per_step_and_forgotten_soon(runtime, monkeypatch):
    monkeypatch.setattr(bot.tables.table, "ANSWERS_KEPT_SECONDS", 0.05)
    table = await open_and_start(runtime)
    await eventually(lambda: table._answers == {}, what="an idle table holding no answers")
    game_state = type(table.state)
    asked, by_state = [], []
    for name in ("pending", "view", "legal_actions", "apply"):
        original = getattr(game_state, name)

        def counted(state, *args, _name=name, _original=original):
            asked.append(_name)
            answer = _original(state, *args)
            by_state.append((_name, state))  # once answered: "apply" marks its end
            return answer

        monkeypatch.setattr(game_state, name, counted)
    seat = table.pending_seats()[0]

    def ask() -> list[Action]:
        assert table.decision(seat).seat == seat
        assert table.view(seat) is table.view(seat)
        return table.legal_actions(seat)

    legal = ask()
    first = len(asked)
    assert {"pending", "view", "legal_actions"} == set(asked)
    ask(), ask()
    assert len(asked) == first  # the game was not asked again

    member = table.seats[seat].member_id
    await runtime.act(table.id, member, table.seats[seat].prompt, action_token(legal[1]))
    # Once the action was applied, the step worked out the new state's decisions once (for
    # its prompts, deadline, AI seats and the seats away).
    applied = next(i for i, (name, of) in enumerate(by_state) if name == "apply")
    asked_after = [name for name, of in by_state[applied:] if of is table.state]
    assert asked_after.count("pending") == 1
    asked.clear()
    following = table.pending_seats()[0]
    assert table.legal_actions(following) == table.state.legal_actions(following)
    assert asked.count("legal_actions") == 2  # the new state asked once, and the direct call
    await eventually(lambda: table._answers == {}, what="the answers forgotten again")


class StuckDiscord(Recorder):
    """A listener whose renders never finish (Discord's rate limit holding them up)."""

    async def table_changed(self, table, events) -> None:
        await asyncio.Event().wait()


async def test_a_table_opens_once_the_last_one_is_closed_in_the_database(runtime, monkeypatch):
    """A /new that comes between the COMMIT closing a table and the runtime hearing of it (the
    step resumes loop iterations later, seconds under load) opens the next table: the
    database, not the runtime's memory, says whether the channel is taken."""
    old = await open_lobby(runtime)
    opened = []
    close_lobby = TableStore.close_lobby

    async def closed_then_asked_for_a_new_one(store, record, key):
        await close_lobby(store, record, key)
        opened.append(await open_lobby(runtime, key="open again"))

    monkeypatch.setattr(TableStore, "close_lobby", closed_then_asked_for_a_new_one)
    await runtime.cancel(old.id, 1, can_manage=False, key="cancel")
    assert [t.id for t in opened] != [old.id] and runtime.in_channel(CHANNEL) is opened[0]
    with pytest.raises(UserError, match="already open in this channel"):
        await open_lobby(runtime, key="a third")  # while that one is open


async def test_a_shutdown_drops_renders_still_waiting_after_its_grace(runtime):
    await open_and_start(runtime)
    runtime.listener, runtime.render_grace = StuckDiscord(), 0.1
    table = next(iter(runtime.tables.values()))
    runtime.show(table, [])
    assert runtime.renders
    await asyncio.wait_for(runtime.shutdown(), 2)
    assert not runtime.renders


async def test_a_change_shown_once_shutdown_began_is_left_to_the_next_start(runtime):
    """A click still being handled while the bot shuts down starts no render: it could run
    after the bot's connection to Discord closed ("Session is closed")."""
    table = await open_and_start(runtime)
    runtime.listener, runtime.render_grace = StuckDiscord(), 0.1
    stopping = asyncio.create_task(runtime.shutdown())
    await asyncio.sleep(0)
    before = set(runtime.renders)
    runtime.show(table, [])
    assert runtime.renders <= before  # nothing new
    await stopping


async def test_after_a_restart_deciders_get_time_again_and_the_next_hand_comes_when_due(runtime):
    deciding = await open_and_start(runtime)
    between = await open_and_start(runtime, channel=CHANNEL + 1)
    while not between.state.awaiting_next_hand():  # everyone folds to the last player
        seat = between.pending_seats()[0]
        record = between.seats[seat]
        await runtime.act(between.id, record.member_id, record.prompt, "fold")
    due = between.record.deadline
    await runtime.shutdown()
    restarted = make_runtime(runtime.store.db)
    try:
        started = datetime.now(UTC)
        await restarted.resume()
        assert restarted.tables[deciding.id].record.deadline >= started + RESUME_GRACE
        assert restarted.tables[between.id].record.deadline == due < started + RESUME_GRACE
    finally:
        await restarted.shutdown()


async def test_a_table_where_everyone_is_away_waits_each_turns_time(runtime):
    """Away players get their default at once while someone present waits for them; with
    nobody present each turn waits its deadline. Else a game whose all-pass deal is dealt
    again (Calabrasella) redeals without end under the table's lock."""
    table = await started(runtime, "calabrasella", players=3)
    for seat in table.seats:
        seat.away = True
    version = table.record.version
    await runtime.fire_deadline(table.id)  # the seat to bid times out: it passes, no more
    assert table.record.version == version + 1
    assert len(table.required_seats()) == 1
    back = next(s for s in table.seats if s.seat not in table.required_seats())
    back.away = False  # one player back: the others' turns are played at once for them
    await runtime.fire_deadline(table.id)
    assert table.required_seats() == [back.seat]


TABLE_GAMES = [spec.id for spec in registry.games() if not spec.solo]


@pytest.mark.parametrize("timeouts", [0, 3])
@pytest.mark.parametrize("game", TABLE_GAMES)
async def test_a_table_closed_mid_hand_is_closed(runtime, game, timeouts):
    """Whatever the game and wherever its hand stands, a close ends the table in that one
    step, every chip back: an auction nobody bids in, or Liar's claims that climb, would
    otherwise be played on by defaults for ever."""
    table = await started(runtime, game)
    held = (await runtime.ledger.totals(GUILD)).held  # every player's first chips given
    for _ in range(timeouts):
        await runtime.fire_deadline(table.id)
    await runtime.close(table.id, 1, can_manage=True, key="close", why="closed")
    assert table.id not in runtime.tables
    sql = "SELECT status FROM game_tables WHERE id = ?"
    assert (await runtime.store.db.fetch_one(sql, table.id))["status"] == TableStatus.CLOSED
    assert (await runtime.ledger.totals(GUILD)).held == held


@pytest.mark.parametrize("game", TABLE_GAMES)
async def test_a_table_all_its_players_left_between_hands_closes_when_closed(runtime, game):
    """Where the others play on when a player leaves, the last ones may leave too between
    hands: the table then waits for its pause to close. A close closes it at once (it said
    so, and left the table open until the pause ended)."""
    table = await started(runtime, game)
    held = (await runtime.ledger.totals(GUILD)).held
    for _ in range(200):
        if table.id not in runtime.tables or table.game_state.awaiting_next_hand():
            break
        await runtime.fire_deadline(table.id)
    for seat in list(table.seats):
        if table.id in runtime.tables and table.game_state.can_leave_now(seat.seat):
            await runtime.leave(table.id, seat.member_id, key=f"leave {seat.seat}")
    if table.id in runtime.tables:
        await runtime.close(table.id, 1, can_manage=True, key="close", why="closed")
    assert table.id not in runtime.tables
    sql = "SELECT status FROM game_tables WHERE id = ?"
    assert (await runtime.store.db.fetch_one(sql, table.id))["status"] == TableStatus.CLOSED
    totals = await runtime.ledger.totals(GUILD)
    assert totals.held == held and totals.escrows == 0


@pytest.mark.parametrize("game", TABLE_GAMES)
async def test_leaving_while_the_others_are_away_sets_off_no_endless_play(runtime, game):
    """Turns are played at once for the others while a leaving player waits for the hand to
    end; where defaults alone never end it (an auction nobody bids in, Liar's claims), the
    leaver goes at once if nothing is at stake, else each turn waits its deadline."""
    table = await started(runtime, game)
    held = (await runtime.ledger.totals(GUILD)).held
    for seat in table.seats:
        seat.away = seat.member_id != 1
    version = table.record.version
    await runtime.leave(table.id, 1, key="leave")
    if table.id in runtime.tables:
        await runtime.fire_deadline(table.id)
    assert table.record.version - version < AWAY_STEPS_AT_ONCE
    if game in ("calabrasella", "doudizhu"):  # leaving in the auction ends the game
        assert table.id not in runtime.tables
    assert (await runtime.ledger.totals(GUILD)).held == held


async def test_liars_turns_are_not_played_on_for_ever_for_a_player_out_of_the_game(runtime):
    """The two players still in are away; the one present is out, waiting for the match's
    end, which Liar's defaults (accept, claim the least) never bring: after a round of their
    turns played at once, each waits its deadline."""
    table = await started(runtime, "liars", players=3)
    holder = table.seats[table.pending_seats()[0]]
    await runtime.act(table.id, holder.member_id, holder.prompt, "claim.24")
    responder = table.seats[table.pending_seats()[0]]
    await runtime.act(table.id, responder.member_id, responder.prompt, "challenge")
    out = next(seat for seat in range(3) if not table.state.alive[seat])
    await runtime.fire_deadline(table.id)  # the pause after the challenge
    for seat in table.seats:
        seat.away = seat.seat != out
    version = table.record.version
    await runtime.fire_deadline(table.id)
    assert table.record.status == TableStatus.PLAYING
    assert table.record.version - version <= 8  # a timeout and a round: 2 x (accept, done, claim)


async def test_a_points_game_takes_no_buy_in(runtime):
    """Nothing would pay it out: a points game's cash-out gives every seat nothing."""
    spec = registry.get("bigtwo")
    with pytest.raises(ValueError, match="no buy-in"):
        await runtime.open(
            spec,
            spec.options_model(),
            guild_id=GUILD,
            channel_id=CHANNEL,
            creator_id=1,
            creator_name="A",
            buy_in=20,
            turn_seconds=60,
            key="open",
        )
    assert (await runtime.ledger.totals(GUILD)).escrows == 0


async def test_a_timeout_tells_the_table_no_card_it_must_not_see(runtime):
    """Calabrasella's declarer gives a card back in private: a timeout that gives it says
    only "Give back" (the channel named the card). A card played on timeout is public."""
    table = await started(runtime, "calabrasella", players=3)
    while table.state.phase != "giving_back":
        seat = table.seats[table.pending_seats()[0]]
        token = "declare" if table.state.phase == "bidding" else None
        token = token or action_token(table.legal_actions(seat.seat)[0])
        await runtime.act(table.id, seat.member_id, seat.prompt, token)
    await runtime.fire_deadline(table.id)
    await asyncio.gather(*runtime.renders)
    (gave,) = [e for e in runtime.listener.told if isinstance(e, TimedOut)]
    assert gave.action == "give_back" and gave.taken is None
    while table.state.phase != "playing":
        await runtime.fire_deadline(table.id)
    await runtime.fire_deadline(table.id)
    await asyncio.gather(*runtime.renders)
    played = [e for e in runtime.listener.told if isinstance(e, TimedOut)][-1]
    assert played.action == "card" and played.taken is not None


async def test_every_step_is_logged_with_the_text_old_databases_hold(runtime):
    """A seat's action as its model's JSON; the table's own steps (the next hand, the close)
    as the hand-written JSON the runtime used to write."""
    table = await open_and_start(runtime)
    first = table.seats[table.pending_seats()[0]]
    await runtime.act(table.id, first.member_id, first.prompt, "fold")  # the other one wins
    await runtime.fire_deadline(table.id)  # the next hand
    await runtime.close(table.id, 1, can_manage=False, key="close", why="closed")
    logged = await runtime.store.db.fetch_all(
        "SELECT version, seat, action, timed_out FROM table_actions WHERE table_id = ?"
        " ORDER BY version",
        table.id,
    )
    assert [tuple(row) for row in logged] == [
        (1, first.seat, '{"kind":"fold"}', 0),
        (2, None, '{"kind":"next_hand"}', 0),
        (3, 1 - first.seat, '{"kind":"fold"}', 1),  # played for the closing table
        (4, None, '{"kind":"close"}', 0),
    ]
