"""Delphi's engine (bot/games/delphi/) and the bot oracle's rules (its library.py) against its
rules text (bot/games/delphi/rules.md), copied here as data: the scoring definitions on the
text's worked example (C = 14, F = -64, the oracle 174 by the definition), tokens won and paid
(none collected from a player without one), the line and the cards below it, the sealed rule
revealed with its salt, secret simultaneous answers, the timeout defaults, the oracle passing
left until everyone has been the oracle, and every rule of the library on fixed sequences."""

import hashlib
import json

import pytest

from bot.cards import FrenchCard, french_deck, parse_french
from bot.engine import HandEnded, HandStarted, IllegalAction, MatchEnded
from bot.games.delphi import (
    ABSTAIN,
    CORRECT,
    DELPHI,
    INCORRECT,
    NO,
    UNJUDGED,
    YES,
    CardTurned,
    DelphiOptions,
    DelphiState,
    DrawRule,
    HandScored,
    Revealed,
    RuleSealed,
    StarterTurned,
    WriteRule,
    oracle_score,
    player_scores,
)
from bot.games.delphi.library import BY_ID, EASY, HARD, LIBRARY, MEDIUM, rules_at

# The rule text's example: the tokens each player collected, and what it says follows.
EXAMPLE_TOKENS = {"A": 29, "B": 26, "C": 19, "D": 11, "E": 9, "F": 6}
# "Player A's total difference is 0, B's is 3, C's is 17 ..." with D and E as the definition
# gives them (rules.md: 41 and 49, not the text's 25 and 27), so the oracle scores 174.
EXAMPLE_SUBTRACTED = {"A": 0, "B": 3, "C": 17, "D": 41, "E": 49, "F": 64}


def cards(text: str) -> list[FrenchCard]:
    return parse_french(text)


def card(code: str) -> FrenchCard:
    return FrenchCard.from_code(code)


def bot_hand(rule_id: str, deal: str, seats: int = 3, **options) -> DelphiState:
    """A bot-oracle match whose first hand draws `rule_id` and deals `deal` (starter first)."""
    level = {EASY: "easy", MEDIUM: "medium", HARD: "hard"}[BY_ID[rule_id].level]
    chosen = DelphiOptions(oracle="bot", difficulty=level, cards=len(deal.split()), **options)
    for seed in range(500):
        state = DELPHI.new_match(chosen, [0] * seats, seed, stacked=[deal.split()])
        if state.library_rule == rule_id:
            return state
    raise AssertionError(f"no seed draws {rule_id}")


def player_oracle(seats: int = 3, cards_per_hand: int = 6, deal: str = "") -> DelphiState:
    options = DelphiOptions(oracle="players", cards=cards_per_hand)
    return DELPHI.new_match(options, [0] * seats, 7, stacked=[deal.split()] if deal else [])


def answer_all(state: DelphiState, answers: dict[int, object]) -> list:
    """Every seat in `answers` acts in seat order; the events of the last action."""
    events = []
    for seat, action in answers.items():
        events = state.apply(seat, action)
    return events


def play_out_hand(state: DelphiState) -> list:
    """Everyone times out until the hand ends: all the events of those steps."""
    events = []
    hand = state.hand
    while state.hand == hand and state.pending():
        seat = state.pending()[0].seat
        events += state.apply(seat, state.default_action(seat))
    return events


# ---- scoring -----------------------------------------------------------------------------------


def test_the_worked_examples_scores_by_the_definitions():
    names = list(EXAMPLE_TOKENS)
    tokens = list(EXAMPLE_TOKENS.values())
    scores = dict(zip(names, player_scores(tokens), strict=True))
    assert scores["C"] == (8 + 10 + 13) - (10 + 7) == 14
    assert scores["F"] == 0 - (23 + 20 + 13 + 5 + 3) == -64
    # A player's score is n x own tokens - everyone's tokens (rules.md).
    assert all(scores[n] == 6 * EXAMPLE_TOKENS[n] - 100 for n in names)
    assert sum(scores.values()) == 0
    subtracted = {n: sum(t - own for t in tokens if t > own) for n, own in EXAMPLE_TOKENS.items()}
    assert subtracted == EXAMPLE_SUBTRACTED
    assert oracle_score(tokens) == sum(EXAMPLE_SUBTRACTED.values()) == 174


def test_equal_tokens_score_nothing_for_anyone():
    assert player_scores([4, 4, 4]) == [0, 0, 0]
    assert oracle_score([4, 4, 4]) == 0


# ---- a hand with the bot as oracle ----------------------------------------------------------


def test_a_scripted_hand_pays_tokens_builds_the_line_and_scores_it():
    # The starter 5♣, then five cards under "red cards are correct".
    state = bot_hand("red", "5c Kh 2s 9d Qc Ah")
    assert state.phase == "answer" and state.line == cards("5c")
    assert state.current == card("Kh") and state.tokens == [1, 1, 1]
    assert sorted(state.pending_seats()) == [0, 1, 2]
    assert all(d.secret for d in state.pending())
    script = [
        # (answers of seats 0, 1, 2), tokens after
        ((YES, NO, ABSTAIN), [2, 0, 1]),  # K♥ correct: seat 1 pays its only token
        ((NO, YES, NO), [3, 0, 2]),  # 2♠ incorrect: seat 1 has no token to pay
        ((YES, YES, NO), [4, 1, 1]),  # 9♦ correct
        ((NO, ABSTAIN, YES), [5, 1, 0]),  # Q♣ incorrect: an abstention pays nothing
        ((YES, NO, YES), [6, 0, 1]),  # A♥ correct
    ]
    reveals = []
    for answers, tokens in script:
        events = answer_all(state, dict(enumerate(answers)))
        reveals.append(next(e for e in events if isinstance(e, Revealed)))
        assert reveals[-1].tokens == tokens
    verdicts = [reveal.verdict for reveal in reveals]
    assert verdicts == ["correct", "incorrect", "correct", "incorrect", "correct"]
    assert reveals[0].answers == {0: "yes", 1: "no", 2: "abstain"}
    assert reveals[0].paid == {0: 1, 1: -1, 2: 0}
    assert reveals[1].paid == {0: 1, 1: 0, 2: 1}
    assert state.line == cards("5c Kh 9d Ah")
    assert state.below == [[], cards("2s"), cards("Qc"), []]
    # n = 3 players, 7 tokens: 3 x own - 7.
    scored = next(e for e in events if isinstance(e, HandScored)).result
    assert scored.scores == [3 * 6 - 7, 3 * 0 - 7, 3 * 1 - 7] == [11, -7, -4]
    assert scored.rule == BY_ID["red"].text and scored.drawn
    assert scored.seal == hashlib.sha256(f"{scored.salt}:{scored.rule}".encode()).hexdigest()
    ended = next(e for e in events if isinstance(e, HandEnded))
    assert ended.scores == [11, -7, -4] and ended.winners == [0]
    assert isinstance(events[-1], MatchEnded)  # one hand with the bot by default
    assert events[-1].placings == [1, 3, 2] and events[-1].scores == [11, -7, -4]
    assert state.is_over()


def test_the_seal_is_shown_at_the_start_and_the_rule_only_at_the_end():
    state = DELPHI.new_match(DelphiOptions(oracle="bot", cards=8), [0] * 4, 3)
    rule = state.rule
    sealed = state.seal
    assert sealed and len(sealed) == 64 and rule
    public = state.view(None).model_dump_json()
    assert sealed in public and rule not in public and state.salt not in public
    assert all(rule not in state.view(seat).model_dump_json() for seat in range(4))
    events = play_out_hand(state)
    assert all(rule not in e.model_dump_json() for e in events if not isinstance(e, HandScored))
    (scored,) = [e for e in events if isinstance(e, HandScored)]
    assert scored.result.rule == rule and scored.result.seal == sealed
    assert state.view(None).result.salt == state.salt


def test_a_default_hand_places_all_52_cards_the_starter_first():
    state = DELPHI.new_match(DelphiOptions(oracle="bot"), [0] * 3, 11)
    starter = state.line[0]
    turned = [e for e in play_out_hand(state) if isinstance(e, CardTurned)]
    assert len(turned) == 50 and turned[-1].number == turned[-1].of == 51  # and the first
    assert state.stock == [] and state.current is None
    placed = state.line + [c for under in state.below for c in under] + state.aside
    assert sorted(placed, key=str) == sorted(french_deck(), key=str)
    assert state.line[0] == starter and state.tokens == [1, 1, 1]  # everyone abstained


def test_the_bot_judges_against_the_line_of_correct_cards_not_the_cards_below():
    state = bot_hand("higher", "6c 9h 7s 10d 2c Jc")
    play_out_hand(state)
    # 7♠ is higher than the 6♣ before it, but not than the last correct card, 9♥.
    assert state.line == cards("6c 9h 10d Jc") and state.below == [[], cards("7s"), cards("2c"), []]


# ---- a player as oracle ------------------------------------------------------------------------


def test_a_player_oracle_writes_a_sealed_rule_and_judges_in_secret():
    state = player_oracle(deal="Kh 2s 9d Qc Ah 3h")
    assert state.phase == "rule" and state.oracle == 0 and state.tokens == [0, 1, 1]
    (decision,) = state.pending()
    assert decision.seat == 0 and decision.text_question == "Write your secret rule"
    action = state.text_action(0, "  Red   cards\n are correct ")
    assert action == WriteRule(text="Red cards are correct")
    events = state.apply(0, action)
    sealed = next(e for e in events if isinstance(e, RuleSealed))
    assert sealed.oracle == 0 and not sealed.drawn
    assert next(e for e in events if isinstance(e, StarterTurned)).card == card("Kh")
    assert state.view(0).my_rule == "Red cards are correct"
    assert state.view(1).my_rule is None
    assert "Red cards" not in state.view(None).model_dump_json()
    # The oracle judges at the same time as the players answer; nothing shows till all are in.
    assert sorted(state.pending_seats()) == [0, 1, 2]
    assert state.legal_actions(0) == [CORRECT, INCORRECT]
    assert state.legal_actions(1) == [YES, NO, ABSTAIN]
    assert state.apply(0, INCORRECT) == [] and state.view(0).my_verdict == "incorrect"
    assert state.view(None).oracle_judged and state.view(None).answered == []
    assert state.apply(1, NO) == []
    events = state.apply(2, YES)
    revealed = events[0]
    assert revealed.verdict == "incorrect" and revealed.card == card("2s")
    assert revealed.paid == {1: 1, 2: -1} and state.tokens == [0, 2, 0]
    assert state.below == [cards("2s")]
    assert state.view(0).my_verdict is None and state.view(1).my_answer is None  # a new card


def test_answers_and_verdicts_stay_secret_until_the_reveal():
    state = player_oracle()
    state.apply(0, WriteRule(text="anything goes"))
    snapshot = state.snapshot()
    seen = set()
    for seat, choices in ((1, (YES, NO, ABSTAIN)), (0, (CORRECT, INCORRECT, UNJUDGED))):
        for choice in choices:
            trial = DELPHI.restore(snapshot)
            events = trial.apply(seat, choice)
            others = [v for v in (None, 0, 1, 2) if v != seat]
            views = tuple(trial.view(v).model_dump_json() for v in others)
            seen.add((seat, views, json.dumps([e.model_dump_json() for e in events])))
    assert len(seen) == 2  # one outcome per seat, whatever it chose
    trial = DELPHI.restore(snapshot)
    trial.apply(1, YES)
    assert trial.view(None).answered == [1] and trial.view(1).my_answer == "yes"
    assert trial.view(2).my_answer is None


def test_an_oracle_who_does_not_judge_in_time_sets_the_card_aside_unjudged():
    state = player_oracle(deal="Kh 2s 9d Qc Ah 3h")
    state.apply(0, WriteRule(text="red cards"))
    assert state.default_action(0) == UNJUDGED
    state.apply(1, YES)
    state.apply(2, NO)
    (revealed, turned) = state.apply(0, state.default_action(0))
    assert revealed.verdict == "unjudged" and revealed.paid == {1: 0, 2: 0}
    assert state.aside == cards("2s") and state.line == cards("Kh") and state.below == [[]]
    assert state.tokens == [0, 1, 1] and turned.card == card("9d")


def test_the_oracle_declares_correct_or_incorrect_and_unjudged_is_only_the_timeout_default():
    # "The oracle then declares whether the card was correct." (red cards; 2♠ is turned)
    state = player_oracle(deal="Kh 2s 9d Qc Ah 3h")
    state.apply(0, WriteRule(text="red cards"))
    judge = next(d for d in state.pending() if d.seat == 0)
    assert judge.prompt.endswith("in secret: correct or incorrect.")
    assert "unjudged" not in judge.prompt
    assert state.legal_actions(0) == [CORRECT, INCORRECT]
    assert UNJUDGED not in state.suggestions(0, 5)
    # What the table plays when time runs out, it accepts from the oracle still judging only.
    assert state.default_action(0) == UNJUDGED and state.can(0, UNJUDGED)
    assert not state.can(1, UNJUDGED)  # a player answers, never judges
    state.apply(0, INCORRECT)
    before = state.snapshot()
    with pytest.raises(IllegalAction, match="not your turn"):
        state.apply(0, UNJUDGED)  # judged already
    assert state.snapshot() == before
    state.apply(1, NO)
    (revealed, _) = state.apply(2, YES)
    assert revealed.verdict == "incorrect" and state.aside == []


def test_players_who_do_not_answer_in_time_abstain():
    state = bot_hand("red", "5c Kh 2s 9d Qc Ah")
    assert {state.default_action(seat) for seat in range(3)} == {ABSTAIN}


def test_an_oracle_who_writes_no_rule_in_time_gets_one_from_the_library_judged_by_the_bot():
    state = player_oracle()
    assert state.default_action(0) == DrawRule() and state.legal_actions(0) == [DrawRule()]
    events = state.apply(0, DrawRule())
    sealed = events[0]
    assert isinstance(sealed, RuleSealed) and sealed.drawn and sealed.level == "medium"
    assert state.library_rule is not None and state.rule == BY_ID[state.library_rule].text
    assert sorted(state.pending_seats()) == [1, 2]  # the bot judges: the oracle waits
    assert state.view(0).my_rule is None and state.view(None).bot_judges
    events = play_out_hand(state)
    scored = next(e for e in events if isinstance(e, HandScored)).result
    assert scored.drawn and scored.oracle == 0 and scored.tokens == [None, 1, 1]


def test_the_oracle_passes_left_until_everyone_has_been_the_oracle():
    state = player_oracle(seats=4)
    oracles, hand_scores = [], []
    while not state.is_over():
        oracles.append(state.oracle)
        state.apply(state.oracle, WriteRule(text=f"rule of hand {state.hand}"))
        turned = 0
        while state.phase == "answer":
            turned += 1
            for seat in state.pending_seats():
                # Seat 1 always says yes, the others no; the oracle says correct on even cards.
                if seat == state.oracle:
                    events = state.apply(seat, CORRECT if turned % 2 == 0 else INCORRECT)
                else:
                    events = state.apply(seat, YES if seat == 1 else NO)
        ended = next(e for e in events if isinstance(e, HandEnded))
        hand_scores.append(ended.scores)
        if state.phase == "between":
            assert isinstance(state.next_hand()[0], HandStarted)
    assert oracles == [0, 1, 2, 3]
    totals = [sum(scores[seat] for scores in hand_scores) for seat in range(4)]
    standings = events[-1]
    assert isinstance(standings, MatchEnded) and standings.scores == totals
    assert state.match.played == 4


def test_the_hand_score_of_a_player_oracle_is_the_players_spread():
    state = player_oracle(cards_per_hand=6, deal="Kh 2s 9d Qc Ah 3h")
    state.apply(0, WriteRule(text="red"))
    for verdict in (INCORRECT, CORRECT, INCORRECT, CORRECT, CORRECT):
        state.apply(0, verdict)
        state.apply(1, YES if verdict == CORRECT else NO)  # always right
        events = state.apply(2, YES)
    scored = next(e for e in events if isinstance(e, HandScored)).result
    # Seat 1 is right five times: 6 tokens. Seat 2 (yes every time) is wrong, right, wrong,
    # right, right: 1 -> 0 -> 1 -> 0 -> 1 -> 2.
    assert scored.tokens == [None, 6, 2]
    assert scored.scores == [6 - 2, 2 * 6 - 8, 2 * 2 - 8]  # the oracle: seat 2's shortfall


# ---- refusals ----------------------------------------------------------------------------------


def test_bad_actions_are_refused_with_a_reason_and_change_nothing():
    state = player_oracle()
    before = state.snapshot()
    with pytest.raises(IllegalAction, match="Write your rule"):
        state.text_action(0, "   ")
    with pytest.raises(IllegalAction, match="300 characters"):
        state.text_action(0, "x" * 301)
    with pytest.raises(IllegalAction, match="not your turn"):
        state.apply(1, WriteRule(text="mine"))
    with pytest.raises(IllegalAction, match="not your turn"):
        state.apply(1, YES)
    with pytest.raises(IllegalAction, match="plain words"):
        state.apply(0, WriteRule(text="two  spaces"))
    assert state.snapshot() == before
    state.apply(0, WriteRule(text="red"))
    state.apply(1, YES)
    before = state.snapshot()
    with pytest.raises(IllegalAction, match="not your turn"):
        state.apply(1, NO)  # answered already
    with pytest.raises(IllegalAction, match="not allowed"):
        state.apply(0, YES)  # the oracle judges, it doesn't answer
    with pytest.raises(IllegalAction, match="not allowed"):
        state.apply(2, CORRECT)
    with pytest.raises(IllegalAction, match="not allowed"):
        state.apply(0, WriteRule(text="another rule"))
    assert state.snapshot() == before


def test_a_player_who_leaves_between_hands_ends_the_match_and_forfeits_it():
    state = player_oracle()
    state.apply(0, DrawRule())
    play_out_hand(state)
    state.tokens = [0, 1, 1]
    assert state.awaiting_next_hand()
    assert state.leave(2) == 0
    assert state.is_over()
    assert state.final_standings().placings[2] == 3


# ---- the bot's library -------------------------------------------------------------------------

# (rule, line of correct cards so far, card, is it correct)
RULE_CASES = [
    ("red", "As", "Kh", True),
    ("red", "Ah", "Kc", False),
    ("hearts_or_spades", "2d", "9s", True),
    ("hearts_or_spades", "2h", "9d", False),
    ("even", "3c", "Qd", True),
    ("even", "4c", "Kd", False),
    ("eight_and_up", "2c", "8h", True),
    ("eight_and_up", "Kc", "Ah", False),
    ("number_cards", "Kc", "10s", True),
    ("number_cards", "2c", "Js", False),
    ("number_cards", "2c", "As", False),
    ("colours_alternate", "4h 9s", "2d", True),
    ("colours_alternate", "4s 9h", "2d", False),
    ("same_colour", "4s 9h", "2d", True),
    ("same_colour", "4h 9s", "2d", False),
    ("suit_or_rank", "4h 9s", "2s", True),
    ("suit_or_rank", "4h 9s", "9d", True),
    ("suit_or_rank", "9h 4s", "9d", False),
    ("higher", "2c 7h", "8s", True),
    ("higher", "2c 7h", "7s", False),
    ("higher", "Kc", "As", True),
    ("lower", "Qc 7h", "6s", True),
    ("lower", "2c 7h", "7s", False),
    ("lower", "Ad", "Ks", True),
    ("parity_alternates", "2c 7h", "Qs", True),
    ("parity_alternates", "2c 7h", "Ks", False),
    ("suit_cycle", "2c", "3d", True),
    ("suit_cycle", "2s", "3c", True),
    ("suit_cycle", "2d", "3s", False),
    ("within_two", "5c", "7h", True),
    ("within_two", "5c", "3h", True),
    ("within_two", "5c", "8h", False),
    ("within_two", "Kc", "Ah", False),
    ("faces_alternate", "Jc 2h", "Kd", True),
    ("faces_alternate", "2h", "10d", False),
    ("multiples_of_three", "2c", "Qh", True),
    ("multiples_of_three", "2c", "Kh", False),
    ("new_suit_and_rank", "5c", "6d", True),
    ("new_suit_and_rank", "5c", "6c", False),
    ("new_suit_and_rank", "5c", "5d", False),
    ("suit_of_last_two", "5c 6d", "Kc", True),
    ("suit_of_last_two", "5h 5c 6d", "Kh", False),
    ("colour_pairs", "5c", "6s", True),  # a lone black: its pair follows
    ("colour_pairs", "5c 6s", "6h", True),  # a pair done: the other colour
    ("colour_pairs", "5c 6s", "7c", False),
    ("colour_pairs", "5c 6s 2h", "3d", True),
    ("colour_pairs", "5c 6s 2h", "3s", False),
    ("primes", "4c", "Jd", True),
    ("primes", "4c", "9d", False),
    ("primes", "4c", "Ad", False),
    ("sum_fourteen", "Ac", "Kd", True),
    ("sum_fourteen", "Ac", "Qd", False),
    ("sum_fourteen", "7c", "7d", True),
    ("black_up_red_down", "7h", "8s", True),
    ("black_up_red_down", "7h", "8d", False),
    ("black_up_red_down", "7c", "6d", True),
    ("black_up_red_down", "7c", "6s", False),
    ("up_in_suit_down_out", "7h", "9h", True),
    ("up_in_suit_down_out", "7h", "5h", False),
    ("up_in_suit_down_out", "7h", "5s", True),
    ("up_in_suit_down_out", "7h", "9s", False),
    ("colour_two_back", "7h", "9s", True),  # only the starter: any card
    ("colour_two_back", "7h 2s", "9d", True),
    ("colour_two_back", "7h 2s", "9c", False),
    ("rank_in_line", "7h 2s", "7c", True),
    ("rank_in_line", "7h 2s", "8c", False),
]


@pytest.mark.parametrize(("rule_id", "line", "candidate", "correct"), RULE_CASES)
def test_each_library_rule_on_fixed_sequences(rule_id, line, candidate, correct):
    placed = tuple(cards(line))
    assert BY_ID[rule_id].judge(placed, card(candidate)) is correct
    assert placed == tuple(cards(line))  # judging never changes the line


def test_the_library_has_twenty_rules_or_more_of_every_difficulty_each_tested():
    assert len(LIBRARY) >= 20 and len(BY_ID) == len(LIBRARY)
    assert {rule.level for rule in LIBRARY} == {EASY, MEDIUM, HARD}
    for level, name in ((EASY, "easy"), (MEDIUM, "medium"), (HARD, "hard")):
        assert rules_at(name) and all(rule.level == level for rule in rules_at(name))
    assert rules_at("any") == list(LIBRARY)
    tested = {case[0] for case in RULE_CASES}
    assert tested == set(BY_ID)
    for rule_id in tested:  # each rule is shown saying yes and saying no
        verdicts = {case[3] for case in RULE_CASES if case[0] == rule_id}
        assert verdicts == {True, False}, rule_id


def test_no_library_rule_rejects_every_card_after_any_starter():
    deck = french_deck()
    for rule in LIBRARY:
        for starter in deck:
            others = [c for c in deck if c != starter]
            assert any(rule.judge((starter,), c) for c in others), (rule.id, starter)
