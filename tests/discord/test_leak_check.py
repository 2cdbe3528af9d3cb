"""The end-to-end leak check (tests/tables_e2e.py) finds every way the bot writes a hidden card,
French ones included, and nothing else: proved on the names alone, then on a real Big Two table
whose channel message is copied with a hidden card written into it."""

from dataclasses import replace

import pytest

from bot.cards import FrenchCard, Joker, decktet, parse_french
from bot.i18n import speaking
from tests.pseudo import installed
from tests.tables_e2e import TableDriver, assert_no_leak, card_names, names_in


def one(code: str) -> FrenchCard:
    (card,) = parse_french(code)
    return card


def written(card, text: str) -> bool:
    return bool(names_in(text, card_names(card)))


@pytest.mark.parametrize(
    ("code", "text"),
    [
        ("5s", "Bob plays 5♠ and 6♥."),
        ("5s", "full house: 5♠6♥"),  # cards run together
        ("6h", "full house: 5♠6♥"),
        ("10s", "Alice plays 10♠ (3 left)."),
        ("As", "straight: 10♠J♠Q♠K♠A♠"),
        ("As#2", "Carol plays A♠#2."),
        ("5s", "K♠#25♠"),  # after a second pack's copy
        ("Kd", "To beat: K♦"),
        ("BJ", "Alice plays BJ (16 left)."),
        ("BJ", "To beat: black joker: BJ"),
        ("RJ", "Red joker does not beat the rocket."),
        ("RJ#2", "plays RJ#2"),
    ],
)
def test_a_written_french_card_is_found(code, text):
    assert written(one(code), text)


@pytest.mark.parametrize(
    ("code", "text"),
    [
        ("As", "As the dealer, Alice bids first."),  # a code is a word: never looked for
        ("Kd", "Kd"),
        ("10h", "10h"),
        ("As", "Carol plays A♠#2."),  # the second pack's copy, not the first's
        ("As#2", "Carol plays A♠#23."),
        ("6h", "Bob plays 5♠ and 6♦."),
        ("BJ", "BJORN joins."),
        ("BJ#2", "Alice plays BJ."),
        ("BJ#2", "black joker"),  # only a single pack's joker is named in prose
    ],
)
def test_nothing_else_is_taken_for_a_french_card(code, text):
    assert not written(one(code), text)


def test_ten_is_not_read_as_zero():
    assert names_in("Alice plays 10♠.", {"10♠"}) == ["10♠"]
    assert names_in("Alice plays 10♠.", {"0♠"}) == []


@pytest.mark.parametrize(
    ("name", "text", "found"),
    [
        ("Author", "Bob shows the Author (2 ☾∞).", True),
        ("Author", "Authority", False),
        ("Sea", "Shared: the Sea (Crown ≈), Ace of Moons", True),
        ("Sea", "Season 2", False),
        ("Ace of Moons", "Shared: the Sea (Crown ≈), Ace of Moons", True),
        ("Chance Meeting", "Discard the Chance Meeting (7 ☾♣)", True),
        ("End", "the End (Crown ♣)", True),
        ("End", "Endless", False),
    ],
)
def test_decktet_cards_are_found_by_name(name, text, found):
    assert written(decktet.card(name), text) is found


def test_every_joker_and_decktet_card_has_a_printed_form():
    assert card_names(FrenchCard(None, None, Joker.BLACK)) >= {"BJ", "black joker"}
    for card in decktet.deck():
        assert any(names_in(form, card_names(card)) for form in (card.label, card.title))


async def test_a_copied_message_naming_a_hidden_card_is_caught(world):
    """Big Two: the channel shows the card the leader played. A copy of that message with the
    played card swapped for one still in a hand fails the check; the real message passes."""
    driver = TableDriver(world)
    await driver.open("bigtwo new", world.alice, [world.bob, world.carol], target=10)
    await driver.start(world.alice)
    table = driver.table
    leader = driver.turn()
    opening = table.state.opening
    dm = await driver.controls(driver.member(leader))
    await world.tester.click(driver.member(leader), dm, opening.label)
    await driver.press(driver.member(leader), dm, "Play selected")
    await driver.settle()  # the real messages pass
    shown = [m for m in world.tester.channel_messages(world.channel) if opening.label in m.text()]
    assert shown, "the played card should be in the channel"
    hidden = sorted(table.state.hidden_from(None), key=lambda card: card.code)
    assert opening not in hidden and hidden
    secret = next(card for card in hidden if card.label not in shown[0].text())
    copy = sabotaged(world, shown[0], opening.label, secret.label)
    with pytest.raises(AssertionError, match=f"shows hidden cards \\['{secret.label}'\\]"):
        assert_no_leak(world, table, {})
    # The same copy naming a public card instead passes.
    copy.payload = sabotage(shown[0].payload, opening.label, opening.label)
    assert_no_leak(world, table, {})


def sabotaged(world, message, old: str, new: str):
    copy = replace(message, id=world.fake.snowflake(), payload=sabotage(message.payload, old, new))
    world.fake.messages[copy.id] = copy
    return copy


def sabotage(value, old: str, new: str):
    """`value` (a message payload) with `old` written as `new` in every string in it."""
    if isinstance(value, str):
        return value.replace(old, new)
    if isinstance(value, dict):
        return {key: sabotage(item, old, new) for key, item in value.items()}
    if isinstance(value, list):
        return [sabotage(item, old, new) for item in value]
    return value


def test_a_hidden_card_is_found_as_another_language_writes_it():
    """The check names cards in the channel's language: the pseudo-language's K is ⟦Ķ⟧."""
    with installed() as code, speaking(code):
        names = card_names(one("Ks")) | card_names(decktet.card("the Author"))
    assert names_in("Bob plays ⟦Ķ⟧♠.", names) == ["⟦Ķ⟧♠"]
    assert names_in("⟦ŧħḗ Ȧŭŧħǿř⟧ (2 ☾∞)", names) == ["⟦ŧħḗ Ȧŭŧħǿř⟧"]
    assert names_in("Bob plays K♠.", names) == []  # the English letter is not what it shows
