"""Western Terrapin end to end through the fake Discord: lobby, a full hand by DM, "My hand"
for closed DMs, refusals, timeouts and a restart in the middle of a hand. The driver checks
after every step that chips are conserved and that no channel message names a hidden card."""

import sqlite3
from datetime import timedelta

import discord
import pytest

from tests.e2e import eventually
from tests.fakediscord import DiscordClientRefuses
from tests.tables_e2e import TableDriver, balances, play_western_hand


@pytest.fixture
async def western(world):
    driver = TableDriver(world)
    await driver.open("western new", world.alice, [world.bob, world.carol], buy_in=50)
    return driver


async def test_three_members_open_join_start_and_get_their_hands_by_dm(western, world):
    assert "Players (3/7)" in western.message().text()
    await western.start(world.alice)
    assert await world.bot.ledger.escrow(world.guild.id, western.table.id) == 150
    for member in (world.alice, world.bob, world.carol):
        dms = world.tester.dms(member)
        assert dms and dms[-1].embeds[0]["title"].startswith("Your Western Terrapin hand")
    assert western.turn() == 1  # bob, on the dealer's left
    assert "Betting round 1" in western.message().text()


@pytest.mark.both_backends
async def test_a_full_hand(western, world):
    await western.start(world.alice)
    await play_western_hand(western)
    table = western.table
    assert table.state.awaiting_next_hand()
    results = [
        m
        for m in world.tester.channel_messages(world.channel)
        if m.embeds and "result" in m.embeds[0]["title"]
    ]
    assert len(results) == 1 and "Won:" in results[0].text()
    rows = await world.bot.database.fetch_all(
        'SELECT member_id, "placing", chip_net FROM results ORDER BY seat'
    )
    nets = [row[2] for row in rows]
    assert [row[0] for row in rows] == [world.alice.id, world.bob.id, world.carol.id]
    assert nets[0] == -4 and sum(nets) + table.state.carry == 0
    # The next hand is dealt when the break ends.
    await world.bot.runtime.fire_deadline(table.id)
    await western.settle()
    assert table.state.hand == 2 and table.state.dealer == 1 and western.turn() == 2


async def test_clicks_are_answered_without_asking_for_the_message_back(western, world):
    """The replies a hand is made of: each click redraws its message and gets a 204 (not the
    message, which the bot would only parse and drop); each prompt goes as a followup whose
    answer gives the ids the prompt's controls are taken off by once it has moved on (here:
    the next hand's prompts, timed out)."""
    await western.start(world.alice)
    await play_western_hand(western)
    for _ in range(4):  # the break, then three decisions of the next hand
        await world.bot.runtime.fire_deadline(western.table.id)
        await western.settle()
    redraws = [c for c in world.fake.calls if c.path.endswith("/callback") and c.body["type"] == 7]
    assert len(redraws) >= 6 and {c.status for c in redraws} == {204}
    assert not any(c.query.get("with_response") for c in redraws)
    followups = [c for c in world.fake.calls if c.method == "POST" and "/webhooks/" in c.path]
    assert followups and {(c.status, c.query.get("wait")) for c in followups} == {(200, "1")}
    expired = [c for c in world.fake.calls if c.method == "PATCH" and "/webhooks/" in c.path]
    assert expired and {c.status for c in expired} == {200}
    for member in (world.alice, world.bob, world.carol):
        live = [m for m in world.tester.dms(member) if m.components]
        assert len(live) <= 1, f"{member.name} has {len(live)} DMs with controls"


async def test_a_click_builds_its_own_control_only(western, world, monkeypatch):
    """The bot runs a table's control from its custom_id. discord.py would first rebuild
    every component of the clicked message as a View, and run the click a second time if
    the control were registered with it too (a second answer: refused, and logged)."""
    rebuilt = []
    rebuild = discord.ui.view.BaseView.from_message.__func__

    def counted(cls, message, /, *, timeout=180.0):
        rebuilt.append(message.id)
        return rebuild(cls, message, timeout=timeout)

    monkeypatch.setattr(discord.ui.view.BaseView, "from_message", classmethod(counted))
    await western.start(world.alice)
    await play_western_hand(western)
    clicks = [i for i in world.fake.interactions.values() if i.kind == 3]
    assert len(clicks) >= 7 and all(i.response_type is not None for i in clicks)
    assert rebuilt == []


async def test_a_member_whose_dms_fail_plays_through_my_hand(world):
    world.carol.accepts_dms = False
    western = TableDriver(world)
    await western.open("western new", world.alice, [world.bob, world.carol], buy_in=50)
    await western.start(world.alice)
    notices = [
        m
        for m in world.tester.channel_messages(world.channel)
        if "can't send you direct messages" in m.text()
    ]
    assert len(notices) == 1 and world.carol.mention in notices[0].text()
    await play_western_hand(western)  # carol's turns go through the ephemeral My hand
    await world.bot.runtime.fire_deadline(western.table.id)
    await western.settle()
    notices = [
        m
        for m in world.tester.channel_messages(world.channel)
        if "can't send you direct messages" in m.text()
    ]
    assert len(notices) == 1  # said once, not every hand


async def test_a_member_whose_dms_fail_is_called_in_the_channel_at_each_decision(world):
    """Her prompts can't come by DM and an edit of the table message notifies nobody: each
    decision of hers is called in the channel, the call deleted once it is no longer her move."""
    world.carol.accepts_dms = False
    western = TableDriver(world)
    await western.open("western new", world.alice, [world.bob, world.carol], buy_in=50)
    await western.start(world.alice)

    def calls() -> list:
        texts = world.tester.channel_messages(world.channel)
        return [m for m in texts if "your move at the table" in m.text()]

    told = [m.text() for m in world.tester.channel_messages(world.channel)]
    assert any("I'll mention you here when it's your move." in text for text in told)
    assert calls() == []  # she was told her DMs fail, and it is bob's turn
    await western.play("Bet 1")  # bob
    (first,) = calls()
    assert first.text().startswith(world.carol.mention)
    assert [button["label"] for button in first.buttons()] == ["My hand"]
    seen = await world.tester.click(world.carol, first, "My hand")
    assert "Your move" in seen.response.text()
    await western.play("Call 1")  # carol, through My hand
    assert calls() == [] and world.fake.messages[first.id].deleted  # no longer her move
    await western.play("Call 1")  # alice
    await western.play("Bet 1")  # bob opens the second round: carol's turn again
    (second,) = calls()
    while western.table.state.view(None).hand == 1:  # time runs out for everyone
        await world.bot.runtime.fire_deadline(western.table.id)
        await western.settle()
    assert world.fake.messages[second.id].deleted  # her time ran out
    assert western.table.pending_seats() == [2]  # she opens hand 2: her DM fails, she is called
    (third,) = calls()
    await world.tester.slash(world.alice, world.channel, "table close")
    await western.settle()
    assert calls() == [] and world.fake.messages[third.id].deleted


async def test_members_who_are_not_seated_or_not_to_act_are_refused(western, world):
    refused = await world.tester.click(world.carol, western.message(), "Start")
    assert refused.response.ephemeral and "Only the member who opened the table" in refused.text
    await western.start(world.alice)
    assert (
        await world.tester.click(world.admin, western.message(), "My hand")
    ).text == "You are not playing at this table."
    assert (
        await world.tester.click(world.admin, western.message(), "Leave")
    ).text == "You are not seated at this table."
    alice_hand = await world.tester.click(world.alice, western.message(), "My hand")
    assert alice_hand.response.ephemeral and alice_hand.response.components == []  # not her turn
    bob_dm = world.tester.dms(world.bob)[-1]
    with pytest.raises(DiscordClientRefuses):
        await world.tester.click(world.alice, bob_dm, "Fold")  # not even visible to her
    bob_hand = await world.tester.click(world.bob, western.message(), "My hand")
    await western.play("Bet 1")  # from his DM, which then loses its buttons
    assert world.tester.dms(world.bob)[-1].components == []
    stale = await world.tester.click(world.bob, bob_hand.response, "Fold")
    assert stale.text == "It is not your turn."


async def test_a_timeout_folds_and_is_announced_and_old_prompts_expire(western, world):
    await western.start(world.alice)
    await world.bot.runtime.fire_deadline(western.table.id)
    await western.settle()
    assert "Bob ran out of time: Fold." in western.message().text()
    assert western.table.state.betting.folded[1]
    # Carol must bet or fold now. She opens My hand but plays from her DM instead.
    old_hand = await world.tester.click(world.carol, western.message(), "My hand")
    await western.play("Bet 1")  # carol
    await western.play("Call 1")  # alice: round 2 opens with carol, a new prompt
    assert western.turn() == 2
    expired = await world.tester.click(world.carol, old_hand.response, "Fold")
    assert expired.text == "This prompt has expired."
    assert not western.table.state.betting.folded[2]


async def test_twice_timed_out_is_away_and_played_for_until_back(world):
    western = TableDriver(world)
    await western.open(
        "western new", world.alice, [world.bob, world.carol], buy_in=50, allow_check=True
    )
    await western.start(world.alice)
    runtime, table = world.bot.runtime, western.table
    await runtime.fire_deadline(table.id)  # bob: checks for him (1st timeout)
    await western.play("Check")  # carol
    await western.play("Check")  # alice: round 2 opens with bob again
    assert western.turn() == 1 and not table.seats[1].away
    await runtime.fire_deadline(table.id)  # bob's 2nd timeout: away
    await western.settle()
    assert table.seats[1].away
    await western.play("Check")  # carol
    await western.play("Check")  # alice: the draw opens with bob, who is away...
    assert table.state.phase == "draw" and western.turn() == 2  # ... so he stood at once
    assert "Bob stands." in western.message().text()
    await world.tester.click(world.bob, western.message(), "My hand")
    assert not table.seats[1].away


async def test_leaving_between_hands_returns_the_stack(western, world):
    await western.start(world.alice)
    await western.play("Bet 1")
    await western.play("Fold")
    asked, reply = await western.leave(world.alice)
    assert "You leave when this hand ends" in asked.text
    assert (
        reply.text
        == "You will leave when this hand ends; until then your turns are played for you."
    )
    await western.settle()  # alice was to act: folded for her at once, bob wins
    assert western.table.state.awaiting_next_hand()
    await world.bot.runtime.fire_deadline(western.table.id)
    await western.settle()
    assert (
        western.table.seats[0].left
        and "Alice left the table with 49 chips." in western.message().text()
    )
    assert await world.bot.ledger.balance(world.guild.id, world.alice.id) == 1000 - 50 + 49


@pytest.mark.both_backends
async def test_the_table_closes_and_pays_out_when_one_player_is_left(western, world):
    await western.start(world.alice)
    await western.play("Fold")  # bob
    await western.play("Fold")  # carol: alice wins
    table = await western.leave_one_player(world.bob, world.carol)
    assert await balances(world, world.alice, world.bob, world.carol) == [1002, 999, 999]
    assert "the table is closed" in world.fake.messages[table.record.message_id].text()


def edits_since(world, calls: int) -> list:
    return [call for call in world.fake.calls[calls:] if call.method == "PATCH"]


@pytest.mark.both_backends
async def test_the_bot_restarts_mid_hand_and_an_old_button_still_works(western, world):
    await western.start(world.alice)
    await western.play("Bet 2")  # bob
    carol_prompt = world.tester.dms(world.carol)[-1]
    dms = len(world.fake.messages)  # every message, DMs included
    table_id = western.table.id
    shown = western.message().text()
    await world.stop_bot()
    calls = len(world.fake.calls)
    await world.start_bot()
    await world.tester.idle()
    assert world.tester.dms(world.carol)[-1] is carol_prompt  # hers stands: not sent again
    assert len(world.fake.messages) == dms  # and nobody else's was
    # The table message already shows the table as it is: not drawn again.
    assert edits_since(world, calls) == [] and western.message().text() == shown
    table = world.bot.runtime.get(table_id)
    assert table.state.pending()[0].seat == 2
    reply = await western.press(world.carol, carol_prompt, "Call 2")
    assert reply.response is carol_prompt, reply.text  # the DM from before the restart was updated
    await western.settle()
    assert western.turn() == 0
    assert "The bot restarted" in western.message().text()  # told at the table's next change


async def test_a_restart_redraws_the_table_when_a_deadline_moves_or_after_a_crash(western, world):
    await western.start(world.alice)
    await western.play("Bet 2")  # bob
    table_id = western.table.id
    deadline = western.table.record.deadline
    await world.stop_bot()
    world.clock.now = deadline - timedelta(seconds=3)  # carol gets time to see the table again
    await world.start_bot()
    await world.tester.idle()
    moved = world.bot.runtime.get(table_id).record.deadline
    assert moved == world.clock.now + timedelta(seconds=10)
    assert "The bot restarted" in western.message().text()
    assert f"<t:{int(moved.timestamp())}:R>" in western.message().text()
    await world.stop_bot()
    with sqlite3.connect(world.settings.database_path) as db:  # as a crash leaves it
        assert db.execute("SELECT drawn FROM game_tables").fetchone()[0] is not None
        db.execute("UPDATE game_tables SET drawn = NULL")
    calls = len(world.fake.calls)
    await world.start_bot()
    await world.tester.idle()
    assert len(edits_since(world, calls)) == 1


async def test_a_crashed_bot_leaves_no_fingerprint_to_be_trusted(western, world):
    await western.start(world.alice)
    await world.stop_bot()
    await world.start_bot()
    with sqlite3.connect(world.settings.database_path) as db:  # read once, then forgotten
        assert db.execute("SELECT drawn FROM game_tables").fetchone()[0] is None


async def test_a_prompt_not_known_to_be_shown_is_sent_again_after_a_restart(western, world):
    """As after a crash between a step and its prompt's DM: the restarted bot sends it."""
    await western.start(world.alice)
    await western.play("Bet 2")  # bob
    carol_dms = len(world.tester.dms(world.carol))
    await world.stop_bot()
    with sqlite3.connect(world.settings.database_path) as db:
        db.execute("UPDATE table_seats SET prompted = NULL WHERE seat = 2")
    await world.start_bot()
    await world.tester.idle()
    assert len(world.tester.dms(world.carol)) == carol_dms + 1
    reply = await western.press(world.carol, world.tester.dms(world.carol)[-1], "Call 2")
    assert reply.response_type == 7, reply.text


def dm_channels_opened(world) -> int:
    return sum(call.path == "/users/@me/channels" for call in world.fake.calls)


@pytest.mark.parametrize("remembered", ["as it is", "gone"])
async def test_a_restarted_bot_dms_players_without_opening_their_dm_channels_again(
    western, world, remembered
):
    await western.start(world.alice)  # everyone's hand by DM: three DM channels opened
    assert dm_channels_opened(world) == 3
    carol_dms = len(world.tester.dms(world.carol))
    await world.stop_bot()
    if remembered == "gone":  # a DM channel id that Discord no longer knows
        with sqlite3.connect(world.settings.database_path) as db:
            db.execute(
                "UPDATE dm_channels SET channel_id = 1 WHERE member_id = ?", (world.carol.id,)
            )
    await world.start_bot()
    await western.play("Bet 2")  # bob; carol's prompt goes by plain DM (no click of hers yet)
    await world.tester.idle()
    assert len(world.tester.dms(world.carol)) == carol_dms + 1
    assert "Call 2" in [b["label"] for b in world.tester.dms(world.carol)[-1].buttons()]
    assert dm_channels_opened(world) == (3 if remembered == "as it is" else 4)


async def test_lobby_refusals_and_cancelling_returns_every_buy_in(western, world):
    again = await world.tester.slash(world.bob, world.channel, "western new")
    assert again.text == "A table is already open in this channel."
    poor = world.fake.add_member(world.guild, "Poor")
    await world.bot.ledger.transfer(world.guild.id, poor.id, world.alice.id, 980, key="poor")
    short = await world.tester.click(poor, western.message(), "Join")
    assert short.text == "You have 20 chips; 50 are needed."
    left = await world.tester.click(world.carol, western.message(), "Leave")
    assert "buy-in is back" in left.text
    cancelled = await world.tester.click(world.alice, western.message(), "Cancel")
    assert "every buy-in went back" in cancelled.text
    for member in (world.alice, world.bob, world.carol):
        assert await world.bot.ledger.balance(world.guild.id, member.id) == 1000 + (
            980 if member is world.alice else 0
        )


async def test_rules_show_the_house_decisions_and_the_table_options(western, world):
    reply = await world.tester.slash(world.bob, world.channel, "western rules")
    text = reply.text
    assert reply.response.ephemeral and "Turtle Butt" in text and "side pots" in text
    assert "Facing an all-in bet you call it (up to the all-in amount) or fold" in text
    assert "buy-in 50 · turn time 120 s · raise limit: 5, checks allowed: no" in text


async def test_a_between_hands_timer_really_fires(western, world):
    world.bot.runtime.between_hands = timedelta(seconds=0.05)
    await western.start(world.alice)
    await western.play("Fold")
    await western.play("Fold")
    await eventually(lambda: western.table.state.hand == 2, what="the next deal")
    await western.settle()


@pytest.mark.both_backends
async def test_the_leaderboard_ranks_players_of_a_game_by_chips_won(western, world):
    await western.start(world.alice)
    await western.play("Bet 1")  # bob
    await western.play("Fold")  # carol
    await western.play("Fold")  # alice: bob wins the 3 antes and his bet back
    board = await world.tester.slash(world.carol, world.channel, "leaderboard", game="western")
    embed = board.response.embeds[0]
    assert embed["title"] == "Western Terrapin leaderboard"
    assert embed["description"].splitlines() == [
        f"**1.** <@{world.bob.id}> · +2 chips · 1 win in 1 hand",
        f"**2.** <@{world.alice.id}> · -1 chip · 0 wins in 1 hand",
        f"**2.** <@{world.carol.id}> · -1 chip · 0 wins in 1 hand",
    ]
    assert embed["fields"][0]["value"] == f"<@{world.carol.id}> is #2 · -1 chip · 0 wins in 1 hand."
    with pytest.raises(DiscordClientRefuses, match="must be one of"):
        await world.tester.slash(world.carol, world.channel, "leaderboard", game="chess")


async def test_leaving_during_the_break_keeps_the_break_timer_running(western, world):
    world.bot.runtime.between_hands = timedelta(seconds=0.3)
    await western.start(world.alice)
    await western.play("Fold")  # bob
    await western.play("Fold")  # carol: alice wins, the break starts
    asked, left = await western.leave(world.bob)
    assert "Your chips go back to your balance" in asked.text
    assert "your chips are back" in left.text
    # No test hook: the real timer must deal the next hand.
    await eventually(lambda: western.table.state.hand == 2, what="the next deal")
    await western.settle()
    assert western.table.seats[1].left
