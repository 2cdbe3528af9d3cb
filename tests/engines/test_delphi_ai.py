"""Delphi's AI (bot/games/delphi/ai.py): every answer, rule and verdict it gives is legal, in
self-play and against random players, with the bot or the players as oracle; it answers with
the majority of the library rules that fit every verdict seen, learns a player oracle's own
rule despite a misjudged card, abstains when unsure unless it holds no token, writes a medium
library rule as oracle and judges by it, and sees nothing but its seat's view; and a table of
one player and two AI seats, the players as oracles, plays to the end through the fake
Discord."""

import asyncio
import logging
import random

import pytest

from bot.cards import FrenchCard, french_deck
from bot.engine import Event
from bot.games.delphi import (
    ABSTAIN,
    CORRECT,
    DELPHI,
    INCORRECT,
    NO,
    UNJUDGED,
    YES,
    DelphiOptions,
    DelphiState,
    Revealed,
    WriteRule,
)
from bot.games.delphi.ai import LONG_MEMORY, POLICY, answer_for, verdict_for, yes_share
from bot.games.delphi.library import BY_ID, EASY, HARD, LIBRARY, MEDIUM
from bot.games.simulate import Seats, play_match
from tests.tables_e2e import TableDriver, add_ai

LEVEL_NAMES = {EASY: "easy", MEDIUM: "medium", HARD: "hard"}


def bot_hand(rule_id: str, deal: str, seats: int = 3, seed_from: int = 0) -> DelphiState:
    """A bot-oracle match whose first hand draws `rule_id` and deals `deal` (starter first)."""
    level = LEVEL_NAMES[BY_ID[rule_id].level]
    options = DelphiOptions(oracle="bot", difficulty=level, cards=len(deal.split()))
    for seed in range(seed_from, seed_from + 500):
        state = DELPHI.new_match(options, [0] * seats, seed, stacked=[deal.split()])
        if state.library_rule == rule_id:
            return state
    raise AssertionError(f"no seed draws {rule_id}")


def player_oracle(deal: str, seats: int = 3) -> DelphiState:
    """A player-oracle match (seat 0 the first oracle) dealing `deal`, starter first."""
    options = DelphiOptions(oracle="players", cards=len(deal.split()))
    return DELPHI.new_match(options, [0] * seats, 7, stacked=[deal.split()])


def ai_choice(state: DelphiState, seat: int, seed: int = 0):
    decision = next(d for d in state.pending() if d.seat == seat)
    legal = state.legal_actions(seat)
    return POLICY.choose(seat, state.view(seat), decision, legal, random.Random(seed))


def play(state: DelphiState, ai_seats: set[int], seed: int) -> list[Event]:
    """Plays the match out, the AI in `ai_seats` and random players elsewhere, asserting that
    every AI choice is legal. All the events."""
    rng, events = random.Random(seed), []
    while not state.is_over():
        if state.awaiting_next_hand():
            events += state.next_hand()
            continue
        seat = state.pending()[0].seat
        if seat in ai_seats:
            action = ai_choice(state, seat, rng.randrange(1 << 30))
            assert action is not None and state.can(seat, action), (seed, seat, action)
        else:
            action = state.sample(seat, rng)
        events += state.apply(seat, action)
    return events


# ---- legal answers --------------------------------------------------------------------------


@pytest.mark.parametrize("difficulty", ["easy", "medium", "hard", "any"])
def test_every_ai_answer_is_legal_with_the_bot_as_oracle(difficulty):
    for seed in range(8):
        seats = 3 + seed % 5
        options = DelphiOptions(oracle="bot", difficulty=difficulty, cards=26 if seed else 52)
        state = DELPHI.new_match(options, [0] * seats, seed)
        # Every seat the AI, then seat 0 alone against random players.
        play(state, set(range(seats)) if seed % 2 else {0}, seed)
        assert state.is_over()


def test_a_player_oracle_table_of_ai_players_plays_through_every_oracle():
    for seed in range(6):
        seats = 3 + seed % 3
        options = DelphiOptions(oracle="players", cards=26)
        state = DELPHI.new_match(options, [0] * seats, seed)
        events = play(state, set(range(seats)), seed)
        assert state.is_over() and state.match.hands == seats
        # Each AI oracle wrote a medium library rule and judged every card by it.
        reveals = [e for e in events if isinstance(e, Revealed)]
        assert len(reveals) == seats * 25 and all(r.verdict != "unjudged" for r in reveals)


def test_the_ai_never_falls_back_in_the_simulator(caplog):
    options = DelphiOptions(oracle="players", cards=20)
    with caplog.at_level(logging.WARNING, logger="bot.games.ai"):
        for seed in range(6):
            policies = [POLICY, POLICY, None, POLICY][: 3 + seed % 2]
            result = play_match(DELPHI, Seats(policies, seed), seed, options=options)
            assert result.hands == len(policies)
    assert caplog.records == []


# ---- a player's sense -----------------------------------------------------------------------


def test_the_ai_answers_with_the_majority_of_the_rules_left():
    # "Red cards are correct", drawn among the 7 easy rules; the starter 5♣.
    state = bot_hand("red", "5c Kh 2s 9d Qc Ah 7s")
    # K♥ after 5♣: red, hearts or spades, 8 and up, colours alternate say yes; even, number
    # cards, same colour say no.
    assert yes_share(state.view(0)) == pytest.approx(4 / 7)
    assert ai_choice(state, 0) == YES
    for _ in range(4):  # K♥ correct, 2♠ incorrect, 9♦ correct, Q♣ incorrect
        for seat in range(3):
            state.apply(seat, ABSTAIN)
    assert state.below == [[], [FrenchCard.from_code("2s")], [FrenchCard.from_code("Qc")]]
    # Only "red" fits all four verdicts: yes to A♥, then no to 7♠.
    assert yes_share(state.view(0)) == 1.0 and ai_choice(state, 0) == YES
    for seat in range(3):
        state.apply(seat, ABSTAIN)
    assert yes_share(state.view(1)) == 0.0 and ai_choice(state, 1) == NO


def test_a_drawn_rule_is_sought_only_among_its_levels_rules():
    state = bot_hand("higher", "5c Kh 2s 9d Qc Ah")
    view = state.view(0)
    medium = [rule for rule in LIBRARY if rule.level == MEDIUM]
    saying_yes = [rule for rule in medium if rule.judge(view.line, view.current)]
    assert yes_share(view) == pytest.approx(len(saying_yes) / len(medium))


def test_unsure_it_abstains_while_holding_a_token_and_guesses_without_one():
    rng = random.Random(3)
    assert answer_for(0.9, 1, rng) == YES and answer_for(0.1, 4, rng) == NO
    assert answer_for(0.5, 1, rng) == ABSTAIN and answer_for(0.53, 2, rng) == ABSTAIN
    assert answer_for(None, 1, rng) == ABSTAIN  # nothing fits the verdicts
    # No token to lose: the likelier answer, or a coin toss.
    assert answer_for(0.53, 0, rng) == YES and answer_for(0.47, 0, rng) == NO
    guesses = {
        answer_for(share, 0, random.Random(seed)) for seed in range(20) for share in (0.5, None)
    }
    assert guesses == {YES, NO}


def test_it_learns_a_player_oracles_own_rule_despite_a_misjudged_card():
    # Seat 0 writes "Only clubs" (no library rule) and judges by it, but calls 2♦ correct.
    deal = "Kh 3c 9d 5s 9c 2h Qs 7c 4h 8d 10s 6h 4c 2d Ac 5h"
    state = player_oracle(deal)
    state.apply(0, WriteRule(text="Only clubs are correct"))
    while state.current != FrenchCard.from_code("Ac"):
        slip = state.current == FrenchCard.from_code("2d")
        clubs = state.current.suit == "c"
        state.apply(0, CORRECT if clubs or slip else INCORRECT)
        state.apply(1, ABSTAIN)
        state.apply(2, ABSTAIN)
    assert yes_share(state.view(1)) > 0.75 and ai_choice(state, 1) == YES
    for seat, action in ((0, CORRECT), (1, ABSTAIN), (2, ABSTAIN)):
        state.apply(seat, action)
    assert state.current == FrenchCard.from_code("5h")
    assert yes_share(state.view(2)) < 0.25 and ai_choice(state, 2) == NO


# ---- the oracle -----------------------------------------------------------------------------


def test_the_ai_oracle_writes_a_medium_library_rule_and_judges_by_it():
    assert len({rule.text for rule in LIBRARY}) == len(LIBRARY)  # a text names one rule
    state = player_oracle("Kh 3c 9d 5s Jc 2h Qs 7c 4d 8c 10s Ac 6h")
    action = ai_choice(state, 0)
    (rule,) = [rule for rule in LIBRARY if rule.text == action.text]
    assert rule.level == MEDIUM
    state.apply(0, action)
    assert state.view(0).my_rule == rule.text
    while not state.awaiting_next_hand():
        expected = CORRECT if rule.judge(state.line, state.current) else INCORRECT
        assert ai_choice(state, 0) == expected
        for seat, answer in ((0, expected), (1, YES), (2, NO)):
            state.apply(seat, answer)
    assert state.aside == []


def test_an_oracle_rule_it_cannot_read_is_left_unjudged():
    state = player_oracle("Kh 3c 9d 5s Jc 2h")
    state.apply(0, WriteRule(text="Whatever I feel like"))
    assert verdict_for(state.view(0)) == UNJUDGED


# ---- only the view --------------------------------------------------------------------------


def test_the_ai_sees_only_its_view_not_the_stock():
    shown = "5c Kh 2s 9d Qc Ah 7s 3d"
    rest = [card.code for card in french_deck() if card.code not in shown.split()]
    one = bot_hand("within_two", f"{shown} {' '.join(rest)}", seats=4)
    other = bot_hand("within_two", f"{shown} {' '.join(reversed(rest))}", seats=4)
    assert one.stock != other.stock
    for _ in range(len(shown.split()) - 1):
        for seat in range(4):
            choice = ai_choice(one, seat, seed=seat)
            assert choice == ai_choice(other, seat, seed=seat)
            one.apply(seat, choice)
            other.apply(seat, choice)
    assert one.line == other.line and one.below == other.below


# ---- the library as the AI reads it ---------------------------------------------------------


def test_only_the_long_memory_rules_look_past_the_last_correct_card():
    rng, deck = random.Random(5), french_deck()
    for rule in LIBRARY:
        differs = False
        for _ in range(400):
            line = rng.sample(deck, rng.randrange(1, 8))
            card = rng.choice(deck)
            differs |= rule.judge(line, card) != rule.judge(line[-1:], card)
        assert differs == (rule.id in LONG_MEMORY), rule.id


# ---- AI seats at a table, through the fake Discord ------------------------------------------


async def settle_ai(driver: TableDriver, world) -> None:
    """Until every AI seat that may act has acted."""
    await driver.settle()
    while world.bot.runtime.ai_turns:
        await asyncio.gather(*list(world.bot.runtime.ai_turns))
        await driver.settle()


async def test_a_player_oracle_table_with_ai_players_plays_to_the_end(world):
    driver = TableDriver(world)
    await driver.open("delphi new", world.alice, [], cards=6, ai_delay=0)
    for _ in range(2):
        reply = await add_ai(world, world.alice, driver.message())
        assert "sits down" in reply.text
    world.bot.runtime.stacked = [["Kh", "2s", "9d", "Qc", "Ah", "3h"]]
    await driver.start(world.alice)
    # Alice is the oracle: she writes "red" and judges; the AI players answer by themselves.
    opened = await world.tester.click(
        world.alice, world.tester.dms(world.alice)[-1], "Write your rule"
    )
    await world.tester.submit_modal(world.alice, opened, {"answer": "Red cards are correct"})
    await settle_ai(driver, world)
    while driver.table.state.phase == "answer":
        assert driver.table.pending_seats() == [0]  # the AI players have answered
        red = driver.table.state.current.suit in ("h", "d")
        await driver.press(
            world.alice, await driver.controls(world.alice), "Correct" if red else "Incorrect"
        )
        await settle_ai(driver, world)
    # Then each AI player is the oracle in turn: it writes a rule and judges it; Alice answers.
    while driver.table_id is not None:
        if 0 in driver.table.pending_seats():
            assert driver.table.pending_seats() == [0]  # the AI oracle has judged
            await driver.press(world.alice, await driver.controls(world.alice), "Yes, correct")
        else:
            await world.bot.runtime.fire_deadline(driver.table.id)  # the pause between hands
        await settle_ai(driver, world)
    messages = [m.text() for m in world.tester.channel_messages(world.channel)]
    assert "Final standings" in "\n".join(messages)
    assert not any("unjudged" in text or "drawn by the bot" in text for text in messages)
    summaries = [text for text in messages if "Salt:" in text]
    medium = [rule.text for rule in LIBRARY if rule.level == MEDIUM]
    assert len(summaries) == 3 and "Red cards are correct" in summaries[0]
    assert all(any(rule in summary for rule in medium) for summary in summaries[1:])
