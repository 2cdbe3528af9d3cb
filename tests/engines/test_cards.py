import json
import re
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import BaseModel

from bot.cards import (
    CardParseError,
    FrenchCard,
    Joker,
    Rank,
    Suit,
    decktet,
    format_french,
    french_deck,
    italian_deck,
    parse_french,
    spanish_deck,
    totit_deck,
)
from bot.cards.decktet import DecktetCard
from tests import DATA

REFERENCE = DATA / "decktet.md"  # the reference table


def faces(cards: list[FrenchCard]) -> Counter:
    return Counter((card.rank, card.suit, card.joker) for card in cards)


def test_french_pack_has_52_distinct_cards():
    deck = french_deck()
    assert len(deck) == len(set(deck)) == 52
    assert Counter(card.suit for card in deck) == {suit: 13 for suit in Suit}


def test_jokers_are_two_distinct_cards():
    deck = french_deck(jokers=True)
    jokers = [card for card in deck if card.is_joker]
    assert len(deck) == 54
    assert {card.joker for card in jokers} == {Joker.BLACK, Joker.RED}


def test_copies_from_several_packs_stay_distinguishable():
    deck = french_deck(jokers=True, packs=3)
    assert len(deck) == len(set(deck)) == 162
    assert len({card.code for card in deck}) == 162
    assert all(count == 3 for count in faces(deck).values())


def test_every_deck_and_parse_shares_one_instance_per_card():
    """Not a fresh object per deal (bot.cards.french.the_card says why)."""
    deck = french_deck(jokers=True, packs=2)
    again = french_deck(jokers=True, packs=2) + spanish_deck() + totit_deck()
    parsed = parse_french(format_french(again))
    shared = {card.code: card for card in deck}
    assert all(card is shared[card.code] for card in again + parsed)


def test_italian_deck_has_no_eight_nine_ten():
    deck = italian_deck()
    assert len(deck) == len(set(deck)) == 40
    assert {card.rank for card in deck} == set(Rank) - {Rank.EIGHT, Rank.NINE, Rank.TEN}


def test_spanish_deck_has_no_tens():
    deck = spanish_deck()
    assert len(deck) == len(set(deck)) == 48
    assert Rank.TEN not in {card.rank for card in deck}


def test_totit_deck_is_two_copies_of_thirty_cards():
    deck = totit_deck()
    assert len(deck) == len(set(deck)) == 60
    counts = faces(deck)
    assert len(counts) == 30 and set(counts.values()) == {2}
    clubs = {card.rank for card in deck if card.suit == Suit.CLUBS}
    assert clubs == {Rank.JACK, Rank.QUEEN, Rank.KING}
    for suit in (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS):
        assert {card.rank for card in deck if card.suit == suit} == set(range(1, 10))


def test_parse_french_reads_letters_symbols_ten_and_jokers():
    cards = parse_french("As Kd Th 10h 2c, 7♣ q♥ BJ rj")
    assert [card.code for card in cards] == ["As", "Kd", "10h", "10h", "2c", "7c", "Qh", "BJ", "RJ"]
    assert cards[0] == FrenchCard(Rank.ACE, Suit.SPADES)
    assert cards[-1].joker == Joker.RED


@pytest.mark.parametrize("deck", [french_deck(jokers=True, packs=2), totit_deck()])
def test_every_french_card_round_trips_through_code_and_label(deck):
    assert parse_french(format_french(deck)) == deck
    assert parse_french(" ".join(card.label for card in deck)) == deck


@pytest.mark.parametrize("bad", ["Zz", "1s", "11h", "Ax", "A", "10", "As#0", "Ks#x", "QQs"])
def test_bad_french_token_is_named(bad):
    with pytest.raises(CardParseError) as raised:
        parse_french(f"As {bad} Kd")
    assert raised.value.token == bad
    assert bad in str(raised.value)


def reference_rows() -> list[tuple[str, str, list[str]]]:
    rows = []
    for line in REFERENCE.read_text().splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) == 3 and re.fullmatch(r"Ace|Crown|\d", cells[0]):
            rows.append((cells[0], cells[1], [s.strip() for s in cells[2].split(",")]))
    return rows


def test_decktet_matches_the_reference_table_exactly():
    rows = reference_rows()
    assert len(rows) == 36
    ours = [(card.rank_label, card.title, [s.value for s in card.suits]) for card in decktet.DECK]
    assert ours == rows


def test_each_numbered_rank_has_three_cards_covering_all_six_suits():
    for rank in range(2, 10):
        cards = [card for card in decktet.deck() if card.rank == rank]
        assert len(cards) == 3
        assert {s for card in cards for s in card.suits} == set(decktet.Suit)


def test_decktet_parse_accepts_case_the_and_commas():
    cards = decktet.parse("Author, the Huntress ace of MOONS Chance Meeting THE end")
    assert [card.name for card in cards] == [
        "Author",
        "Huntress",
        "Ace of Moons",
        "Chance Meeting",
        "End",
    ]
    assert decktet.card("the Author") is decktet.card("author")


def test_every_decktet_card_round_trips():
    deck = decktet.deck()
    assert decktet.parse(decktet.format_cards(deck)) == deck
    assert decktet.parse(" ".join(card.code for card in deck)) == deck
    for card in deck:
        assert DecktetCard.from_code(card.code) is card


@pytest.mark.parametrize(
    ("text", "bad"),
    [("Author Foo", "Foo"), ("the", "the"), ("Ace of Stars", "Ace"), ("Pawn", "Pawn")],
)
def test_bad_decktet_name_is_named(text, bad):
    with pytest.raises(CardParseError) as raised:
        decktet.parse(text)
    assert raised.value.token == bad


class Holder(BaseModel):
    french: list[FrenchCard]
    decktet: list[DecktetCard]


def test_cards_serialise_as_codes_in_pydantic_models():
    holder = Holder(french=parse_french("As 10h#2 BJ"), decktet=decktet.parse("Author, Sea"))
    dumped = holder.model_dump(mode="json")
    assert dumped == {"french": ["As", "10h#2", "BJ"], "decktet": ["Author", "Sea"]}
    assert Holder.model_validate_json(holder.model_dump_json()) == holder


def test_pydantic_refuses_a_bad_card_code():
    with pytest.raises(ValueError, match="Qx"):
        Holder.model_validate({"french": ["Qx"], "decktet": []})


@pytest.mark.parametrize("bad", [7, None, ["As"], {"code": "As"}])
def test_pydantic_refuses_what_is_neither_a_card_nor_a_code(bad):
    with pytest.raises(ValueError):
        Holder.model_validate({"french": [bad], "decktet": []})
    with pytest.raises(ValueError):
        Holder.model_validate_json(f'{{"french": [{json.dumps(bad)}], "decktet": []}}')


def test_pydantic_reads_cards_and_codes_as_the_one_card_of_each_code():
    """A state restored at every step shares each card rather than parsing it again."""
    ace = parse_french("As")[0]
    read = Holder.model_validate({"french": [ace, "As", "BJ"], "decktet": ["Sea"]})
    again = Holder.model_validate_json('{"french": ["As", "BJ"], "decktet": ["Sea"]}')
    assert read.french[0] is ace and read.french[1] is again.french[0]
    assert read.french[2] is again.french[1] and read.decktet[0] is again.decktet[0]


@given(st.lists(st.sampled_from(french_deck(jokers=True, packs=2)), max_size=20))
def test_french_format_parse_round_trip(cards):
    assert parse_french(format_french(cards)) == cards


@given(st.lists(st.sampled_from(decktet.deck()), max_size=20))
def test_decktet_format_parse_round_trip(cards):
    assert decktet.parse(decktet.format_cards(cards)) == cards
