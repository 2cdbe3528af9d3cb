"""The bot oracle's library of secret rules for Delphi (bot/games/delphi/rules.md).

A rule judges a card against the line of correct cards placed so far (the starter first, so the
line is never empty) and nothing else. Every rule is a pure function of the line and the card,
with a level of difficulty: 1 easy (the card alone, or its colour against the last card),
2 medium (one relation to the last correct card), 3 hard (two relations, or a longer memory).
Ranks count A = 1, 2-10 as printed, J = 11, Q = 12, K = 13; hearts and diamonds are red.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from bot.cards import FrenchCard, Rank, Suit
from bot.i18n import N_

Line = Sequence[FrenchCard]
Judge = Callable[[Line, FrenchCard], bool]

EASY, MEDIUM, HARD = 1, 2, 3
LEVELS = {"easy": EASY, "medium": MEDIUM, "hard": HARD}
LEVEL_NAMES = {level: name for name, level in LEVELS.items()}
SUIT_CYCLE = (Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES)
PRIMES = frozenset({2, 3, 5, 7, 11, 13})


@dataclass(frozen=True)
class OracleRule:
    id: str
    level: int
    text: str  # what the players are told when the hand ends (marked N_: said with _())
    judge: Judge


# ---- what the rules look at -------------------------------------------------------------------


def value(card: FrenchCard) -> int:
    rank = card.rank
    assert rank is not None  # no jokers (bot/games/jokerless.py); inline: judges call it a lot
    return int(rank)


def is_red(card: FrenchCard) -> bool:
    return card.suit in (Suit.HEARTS, Suit.DIAMONDS)


def is_face(card: FrenchCard) -> bool:
    return card.rank in (Rank.JACK, Rank.QUEEN, Rank.KING)


def is_even(card: FrenchCard) -> bool:
    return value(card) % 2 == 0


def colour_run(line: Line) -> int:
    """How many cards at the end of the line share the last card's colour."""
    run = 0
    for card in reversed(line):
        if is_red(card) != is_red(line[-1]):
            break
        run += 1
    return run


# ---- the rules, easiest first -----------------------------------------------------------------


def red(line: Line, card: FrenchCard) -> bool:
    return is_red(card)


def hearts_or_spades(line: Line, card: FrenchCard) -> bool:
    return card.suit in (Suit.HEARTS, Suit.SPADES)


def even(line: Line, card: FrenchCard) -> bool:
    return is_even(card)


def eight_and_up(line: Line, card: FrenchCard) -> bool:
    return value(card) >= 8


def number_cards(line: Line, card: FrenchCard) -> bool:
    return 2 <= value(card) <= 10


def colours_alternate(line: Line, card: FrenchCard) -> bool:
    return is_red(card) != is_red(line[-1])


def same_colour(line: Line, card: FrenchCard) -> bool:
    return is_red(card) == is_red(line[-1])


def suit_or_rank(line: Line, card: FrenchCard) -> bool:
    return card.suit == line[-1].suit or card.rank == line[-1].rank


def higher(line: Line, card: FrenchCard) -> bool:
    return line[-1].rank == Rank.KING or value(card) > value(line[-1])


def lower(line: Line, card: FrenchCard) -> bool:
    return line[-1].rank == Rank.ACE or value(card) < value(line[-1])


def parity_alternates(line: Line, card: FrenchCard) -> bool:
    return is_even(card) != is_even(line[-1])


def suit_cycle(line: Line, card: FrenchCard) -> bool:
    after = SUIT_CYCLE[(SUIT_CYCLE.index(line[-1].suit) + 1) % len(SUIT_CYCLE)]
    return card.suit == after


def within_two(line: Line, card: FrenchCard) -> bool:
    return abs(value(card) - value(line[-1])) <= 2


def faces_alternate(line: Line, card: FrenchCard) -> bool:
    return is_face(card) != is_face(line[-1])


def multiples_of_three(line: Line, card: FrenchCard) -> bool:
    return value(card) % 3 == 0


def new_suit_and_rank(line: Line, card: FrenchCard) -> bool:
    return card.suit != line[-1].suit and card.rank != line[-1].rank


def suit_of_last_two(line: Line, card: FrenchCard) -> bool:
    return card.suit in {previous.suit for previous in line[-2:]}


def colour_pairs(line: Line, card: FrenchCard) -> bool:
    """Two of a colour, then two of the other: an odd run at the end of the line continues."""
    continues = colour_run(line) % 2 == 1
    return (is_red(card) == is_red(line[-1])) == continues


def primes(line: Line, card: FrenchCard) -> bool:
    return value(card) in PRIMES


def sum_fourteen(line: Line, card: FrenchCard) -> bool:
    return value(card) + value(line[-1]) >= 14


def black_up_red_down(line: Line, card: FrenchCard) -> bool:
    if is_red(card):
        return value(card) < value(line[-1])
    return value(card) > value(line[-1])


def up_in_suit_down_out(line: Line, card: FrenchCard) -> bool:
    if card.suit == line[-1].suit:
        return value(card) > value(line[-1])
    return value(card) < value(line[-1])


def colour_two_back(line: Line, card: FrenchCard) -> bool:
    return len(line) < 2 or is_red(card) == is_red(line[-2])


def rank_in_line(line: Line, card: FrenchCard) -> bool:
    return card.rank in {placed.rank for placed in line}


LIBRARY: tuple[OracleRule, ...] = (
    OracleRule("red", EASY, N_("Red cards (hearts and diamonds) are correct."), red),
    OracleRule(
        "hearts_or_spades",
        EASY,
        N_("Hearts and spades are correct; no other suit."),
        hearts_or_spades,
    ),
    OracleRule(
        "even", EASY, N_("Cards of even rank are correct (A = 1, J = 11, Q = 12, K = 13)."), even
    ),
    OracleRule("eight_and_up", EASY, N_("Ranks 8 and up are correct (A counts 1)."), eight_and_up),
    OracleRule(
        "number_cards",
        EASY,
        N_("Number cards (2 to 10) are correct; no aces or faces."),
        number_cards,
    ),
    OracleRule(
        "colours_alternate",
        EASY,
        N_("A card must be the other colour from the last correct card."),
        colours_alternate,
    ),
    OracleRule(
        "same_colour", EASY, N_("A card must be the colour of the last correct card."), same_colour
    ),
    OracleRule(
        "suit_or_rank",
        MEDIUM,
        N_("A card must share the suit or the rank of the last correct card."),
        suit_or_rank,
    ),
    OracleRule(
        "higher",
        MEDIUM,
        N_(
            "A card must rank higher than the last correct card (A = 1, J = 11, Q = 12, K = 13); "
            "after a K, any card."
        ),
        higher,
    ),
    OracleRule(
        "lower",
        MEDIUM,
        N_(
            "A card must rank lower than the last correct card (A = 1, J = 11, Q = 12, K = 13); "
            "after an A, any card."
        ),
        lower,
    ),
    OracleRule(
        "parity_alternates",
        MEDIUM,
        N_("Odd and even ranks alternate along the line (A = 1, J = 11, Q = 12, K = 13)."),
        parity_alternates,
    ),
    OracleRule(
        "suit_cycle",
        MEDIUM,
        N_("Suits go round ♣ ♦ ♥ ♠ ♣ …: a card must be of the suit after the last correct card's."),
        suit_cycle,
    ),
    OracleRule(
        "within_two",
        MEDIUM,
        N_(
            "A card's rank must be at most 2 away from the last correct card's "
            "(A = 1, J = 11, Q = 12, K = 13)."
        ),
        within_two,
    ),
    OracleRule(
        "faces_alternate",
        MEDIUM,
        N_("Face cards (J, Q, K) and other cards alternate along the line."),
        faces_alternate,
    ),
    OracleRule(
        "multiples_of_three",
        MEDIUM,
        N_("Ranks divisible by 3 are correct: 3, 6, 9 and Q (12)."),
        multiples_of_three,
    ),
    OracleRule(
        "new_suit_and_rank",
        MEDIUM,
        N_("A card must share neither the suit nor the rank of the last correct card."),
        new_suit_and_rank,
    ),
    OracleRule(
        "suit_of_last_two",
        MEDIUM,
        N_("A card must share its suit with one of the last two correct cards."),
        suit_of_last_two,
    ),
    OracleRule(
        "colour_pairs",
        HARD,
        N_(
            "Colours go in pairs along the line, starter first: two of one colour, then two of the "
            "other, and so on."
        ),
        colour_pairs,
    ),
    OracleRule(
        "primes", HARD, N_("Prime ranks are correct: 2, 3, 5, 7, J (11) and K (13)."), primes
    ),
    OracleRule(
        "sum_fourteen",
        HARD,
        N_(
            "A card's rank plus the last correct card's must be 14 or more "
            "(A = 1, J = 11, Q = 12, K = 13)."
        ),
        sum_fourteen,
    ),
    OracleRule(
        "black_up_red_down",
        HARD,
        N_(
            "A black card must rank higher than the last correct card, a red card lower "
            "(A = 1, J = 11, Q = 12, K = 13)."
        ),
        black_up_red_down,
    ),
    OracleRule(
        "up_in_suit_down_out",
        HARD,
        N_(
            "A card of the last correct card's suit must rank higher than it; a card of another "
            "suit lower (A = 1, J = 11, Q = 12, K = 13)."
        ),
        up_in_suit_down_out,
    ),
    OracleRule(
        "colour_two_back",
        HARD,
        N_(
            "A card must be the colour of the correct card two places back (second in the line: "
            "any card)."
        ),
        colour_two_back,
    ),
    OracleRule(
        "rank_in_line",
        HARD,
        N_("A card must be of a rank the line already holds."),
        rank_in_line,
    ),
)
BY_ID = {rule.id: rule for rule in LIBRARY}


def rules_at(difficulty: str) -> list[OracleRule]:
    """The library's rules of a difficulty ("easy", "medium", "hard"), or all for "any"."""
    if difficulty == "any":
        return list(LIBRARY)
    return [rule for rule in LIBRARY if rule.level == LEVELS[difficulty]]
