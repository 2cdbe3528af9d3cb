"""The card picker's model without Discord: selections as numbers over card indexes, the counts
each zone and group wants, the pages, the length of every custom_id, and that no listed choice
is ever left out (bot/discord/picker.py)."""

import re
from types import SimpleNamespace

import discord
import pytest

from bot.cards import french_deck, parse_french
from bot.discord.picker import (
    MAX_ID_LENGTH,
    Choice,
    Desk,
    Group,
    Part,
    Picker,
    PickerUI,
    Zone,
    cards_text,
)
from bot.discord.picker.codec import COMPACT, PAGED
from bot.engine import Action
from bot.errors import InvalidComponent, UserError
from bot.games.climbing import Pass, Play

DECK = french_deck(jokers=True)
HANDS = [Group("Hand 1", "1", 3, 3), Group("Hand 2", "2", 3, 3), Group("Hand 3", "3", 3, 3)]


def hand(text: str) -> Zone:
    return Zone("your hand", parse_french(text))


def test_a_plain_pick_is_a_bitmask_of_the_cards():
    picker = Picker(zones=[hand("3s 4h 5d 6c")])
    assert picker.base == 2 and picker.limit == 16
    picked = picker.picked(0b1010)
    assert [c.code for c in picked.cards] == ["4h", "6c"]
    assert picker.digits(0b1010) == [0, 1, 0, 1]
    assert picker.selection([0, 1, 0, 1]) == 0b1010


def test_groups_are_digits_in_base_groups_plus_one_across_zones():
    zones = [hand("3s 4h 5d"), Zone("the table", parse_french("7c 8c 9c"), low=1)]
    picker = Picker(zones=zones, groups=HANDS)
    digits = [1, 2, 0, 2, 3, 1]
    selection = picker.selection(digits)
    assert picker.digits(selection) == digits and selection < picker.limit == 4**6
    picked = picker.picked(selection)
    assert [[c.code for c in zone] for zone in picked.zones] == [["3s", "4h"], ["7c", "8c", "9c"]]
    assert [[c.code for c in group] for group in picked.groups] == [
        ["3s", "9c"],
        ["4h", "7c"],
        ["8c"],
    ]
    # A suggested arrangement, per group, finds its cards (the first free copy of each).
    assert picker.selection_of([picked.groups[0], picked.groups[1], picked.groups[2]]) == (
        selection
    )
    assert picker.selection_of([parse_french("Ks")]) is None  # not a card offered
    assert picker.selection_of([[], [], [], parse_french("3s")]) is None  # no fourth group


def test_the_counts_say_what_is_missing():
    single = Picker(zones=[hand("3s 4h 5d 6c")])
    assert single.problem(single.picked(0)) == "Pick one or more cards first (tap them)."
    assert single.problem(single.picked(1)) is None
    three = Picker(zones=[hand("3s 4h 5d 6c")], groups=[Group("Selected", low=3, high=3)])
    assert three.problem(three.picked(0b1111)) == "Pick 3 cards (you picked 4)."
    some = Picker(zones=[hand("3s 4h 5d 6c")], groups=[Group("Selected", low=0, high=2)])
    assert some.problem(some.picked(0b111)) == "Pick up to 2 cards (you picked 3)."
    zones = [hand("3s 4h"), Zone("the table", parse_french("7c 8c"), low=1, high=1)]
    capture = Picker(zones=zones, groups=[Group("Selected", low=2, high=4)])
    assert capture.problem(capture.picked(0b0011)) == ("Pick 1 card from the table (you picked 0).")
    assert capture.problem(capture.picked(0b1101)) == ("Pick 1 card from the table (you picked 2).")
    arranged = Picker(zones=[hand("3s 4h 5d 6c 7c 8c 9c 10c Jc")], groups=HANDS)
    assert arranged.problem(arranged.picked(arranged.selection([1, 1, 1, 2]))) == (
        "Hand 2 takes 3 cards (it has 1)."
    )


def test_a_picker_too_big_for_a_custom_id_is_refused_when_made():
    Picker(zones=[Zone("your hand", DECK * 3)])  # 162 cards fit
    with pytest.raises(ValueError, match="too many cards"):
        Picker(zones=[Zone("your hand", DECK * 4)])  # 216 cards
    with pytest.raises(ValueError, match="groups"):
        Picker(zones=[hand("3s")], groups=[Group(f"G{n}") for n in range(10)])


# ---- a seat's picker drawn: pages, rows, custom_ids -----------------------------------------


class FakeUI(PickerUI):
    game_id = "fake"

    def __init__(self, picker: Picker) -> None:
        self.made = picker

    def picker(self, view):
        return self.made

    def pick_action(self, view, picked):
        return Play(cards=picked.cards)

    def action_label(self, view, action: Action) -> str:
        return (
            action.kind if not isinstance(action, Play) else " ".join(c.label for c in action.cards)
        )


class Bet(Action):
    kind: str = "bet"
    amount: int


def desk(
    picker: Picker,
    legal: list[Action],
    table_id: int = 7,
    prompt: int = 3,
    ui: PickerUI | None = None,
) -> Desk:
    table = SimpleNamespace(
        id=table_id,
        state=SimpleNamespace(),
        view=lambda seat: None,
        legal_actions=lambda seat: legal,
        seats=[SimpleNamespace(prompt=prompt)],
        pending_seats=lambda: [0],
        game=SimpleNamespace(name="Fake"),
        worked_out=lambda key, work: work(),
    )
    made = Desk.open(table, 0, ui or FakeUI(picker))
    assert made is not None
    return made


def components(view) -> list[dict]:
    return [item for row in view.to_components() for item in row["components"]]


def card_ids(view) -> list[str]:
    return [c["custom_id"] for c in components(view) if c["custom_id"].startswith("pc:")]


def test_cards_come_first_then_the_buttons_then_the_selects():
    plays = [Play(cards=[card]) for card in DECK[:6]]
    drawn = desk(Picker(zones=[Zone("your hand", DECK[:6])]), [Pass(), *plays])
    rows = [
        [item.get("label") or item.get("placeholder") for item in row["components"]]
        for row in drawn.controls(Choice()).to_components()
    ]
    assert rows == [
        ["A♠", "2♠", "3♠", "4♠", "5♠"],
        ["6♠"],
        ["Play selected", "pass", "Clear"],
        ["Suggested plays…"],
    ]


def test_a_page_shows_every_zone_that_fits_each_from_a_row_of_its_own():
    """A capture's hand card and table cards on one page: the hand on the first row, the
    table on the next; the message says which rows are which."""
    zones = [Zone("your hand", DECK[:3]), Zone("the table", DECK[3:10])]
    plays = [Play(cards=[card]) for card in DECK[:3]]
    drawn = desk(Picker(zones=zones), [Pass(), *plays])  # three rows of cards
    assert drawn.pages == [(Part(0, 0, 3, 0), Part(1, 3, 10, 1))]
    rows = [
        [item.get("label") or item.get("placeholder") for item in row["components"]]
        for row in drawn.controls(Choice()).to_components()
    ]
    assert rows == [
        ["A♠", "2♠", "3♠"],
        ["4♠", "5♠", "6♠", "7♠", "8♠"],
        ["9♠", "10♠"],
        ["Play selected", "pass", "Clear"],
        ["Suggested plays…"],
    ]
    assert drawn.showing(drawn.pages[0]) == "Your hand (row 1) · the table (rows 2-3)"
    alone = desk(Picker(zones=[Zone("your hand", DECK[:6])]), [Pass()])
    assert alone.showing(alone.pages[0]) is None  # one zone on one page: nothing to say


def test_a_zone_goes_on_over_the_next_page_and_the_page_button_names_the_zone():
    zones = [Zone("your hand", DECK[:3]), Zone("the table", DECK[3:15])]
    drawn = desk(Picker(zones=zones), [Pass(), Play(cards=[DECK[0]])])  # a page button too
    assert drawn.pages == [(Part(0, 0, 3, 0), Part(1, 3, 13, 1)), (Part(1, 13, 15, 0),)]
    assert [drawn.showing(page) for page in drawn.pages] == [
        "Your hand (row 1) · the table: cards 1-10 of 12 (rows 2-3)",
        "The table: cards 11-12 of 12",
    ]
    assert [drawn.page_label(page) for page in range(2)] == ["More cards", "Show your hand"]
    view = drawn.controls(Choice(page=1))
    assert [int(i.split(":")[-1]) for i in card_ids(view)] == list(range(13, 15))
    labels = [c.get("label") for c in components(view) if c["type"] == 2]
    assert labels[-4:] == ["Play selected", "pass", "Clear", "Show your hand"]
    # A long hand fills its pages first; the table starts on the row after its last cards.
    zones = [Zone("your hand", DECK[:25]), Zone("the table", DECK[25:32])]
    drawn = desk(Picker(zones=zones), [Pass()])  # no suggestions: four rows of cards
    assert drawn.pages == [(Part(0, 0, 20, 0),), (Part(0, 20, 25, 0), Part(1, 25, 32, 1))]
    assert [drawn.page_label(page) for page in range(2)] == ["More cards", "Show your hand"]
    assert drawn.showing(drawn.pages[1]) == (
        "Your hand: cards 21-25 of 25 (row 1) · the table (rows 2-3)"
    )


def test_every_other_choice_is_offered_and_the_cards_make_room():
    many = [Bet(amount=n) for n in range(1, 51)]  # fifty bets: two selects of 25
    suggestions = [Play(cards=[card]) for card in DECK[:30]]
    drawn = desk(Picker(zones=[Zone("your hand", DECK[:30])]), [Pass(), *many, *suggestions])
    view = drawn.controls(Choice())
    selects = [c for c in components(view) if c["type"] == 3]
    offered = [
        o["value"] for s in selects if s["custom_id"].startswith("ts:") for o in s["options"]
    ]
    assert offered == [f"bet.{n}" for n in range(1, 51)]  # every one, none thinned out
    suggested = [s for s in selects if s["custom_id"].startswith("ps:")]
    assert len(suggested) == 1 and len(suggested[0]["options"]) == 25
    rows = view.to_components()
    assert len(rows) == 5 and drawn.card_rows == 1  # one row of cards is left: 5 a page
    assert len(drawn.pages) == 6 and len(card_ids(view)) == 5
    # With more other choices the suggestions give way, never the cards or those choices.
    more = [Bet(amount=n) for n in range(1, 76)]
    crowded = desk(Picker(zones=[Zone("your hand", DECK[:30])]), [Pass(), *more, *suggestions])
    assert crowded.suggestions == [] and crowded.card_rows == 1
    view = crowded.controls(Choice())
    offered = [o["value"] for c in components(view) if c["type"] == 3 for o in c["options"]]
    assert offered == [f"bet.{n}" for n in range(1, 76)]
    # A game listing so many that no card would show is a mistake, said at once.
    too_many = [Pass(), *(Bet(amount=n) for n in range(1, 101))]
    with pytest.raises(ValueError, match="too many other choices"):
        desk(Picker(zones=[Zone("your hand", DECK[:30])]), too_many)


def test_every_custom_id_fits_even_for_the_biggest_picker():
    """200 bits of selection (52 cards in four groups here, every card picked), with table and
    prompt numbers of twelve digits: every id is within Discord's 100 characters."""
    groups = [Group(f"Hand {n}", str(n), 0, None) for n in range(1, 5)]
    zones = [Zone("your hand", DECK[:26]), Zone("the table", DECK[26:52])]
    picker = Picker(zones=zones, groups=groups)
    legal = [Pass(), *(Play(cards=[card]) for card in DECK[:25])]
    drawn = desk(picker, legal, table_id=10**12 - 1, prompt=10**12 - 1)
    everything = picker.limit - 1  # every card in the last group: the longest selection
    for page in range(len(drawn.pages)):
        choice = Choice(everything, page, len(groups) - 1)
        ids = [c["custom_id"] for c in components(drawn.controls(choice))]
        assert ids and max(len(i) for i in ids) <= MAX_ID_LENGTH, max(ids, key=len)
    two_hundred = Picker(zones=[Zone("your hand", (DECK * 4)[:200])])
    drawn = desk(two_hundred, [], table_id=10**12 - 1, prompt=10**12 - 1)
    last = len(drawn.pages) - 1
    ids = [c["custom_id"] for c in components(drawn.controls(Choice(2**200 - 1, last, 0)))]
    assert max(len(i) for i in ids) <= MAX_ID_LENGTH


def test_a_card_in_another_group_carries_its_tag():
    picker = Picker(zones=[hand("3s 4h 5d 6c")], groups=HANDS)
    drawn = desk(picker, [])
    view = drawn.controls(Choice(picker.selection([1, 2, 0, 0]), 0, 0))
    buttons = {c["label"]: c["style"] for c in components(view) if c["type"] == 2}
    assert buttons["3♠ ·1"] == 3  # green: in the group being filled
    assert buttons["4♥ ·2"] == 1  # blue: in Hand 2
    assert buttons["5♦"] == 2 and "Fill Hand 2" in buttons


# ---- an arrangement under review (Crash's hands): the picker's options ----------------------

PAIRS = [Group(f"Pair {n}", str(n), 0, 2) for n in (1, 2)]


def reviewed(cards: str) -> Picker:
    return Picker(
        zones=[hand(cards)],
        groups=PAIRS,
        first_with_room=True,
        full="Both pairs are full.",
        review=True,
        tool="Pair the rest",
        title="Your pairs",
        left_out="Left out",
        suggested="Suggested pairs…",
    )


class ReviewUI(FakeUI):
    """Names a complete pair, says its own verdict, and pairs the rest with its tool."""

    def group_text(self, view, cards) -> str:
        return f"{cards_text(cards)} (a pair)" if len(cards) == 2 else cards_text(cards)

    def pick_verdict(self, view, picked) -> str:
        return "Ready to set." if all(len(g) == 2 for g in picked.groups) else "Not yet."

    def pick_of(self, view, action):
        return [action.cards[:2], action.cards[2:]]

    def pick_tool(self, view, picked):
        used = {card for group in picked.groups for card in group}
        rest = [card for card in self.made.cards if card not in used]
        if not rest:
            raise UserError("Nothing left to pair.")
        first = [*picked.groups[0], *rest][:2]
        return [first, [c for c in [*picked.groups[1], *rest] if c not in first][:2]]


def reviewed_desk(cards: str, legal: list[Action] | None = None) -> Desk:
    picker = reviewed(cards)
    return desk(picker, legal or [], ui=ReviewUI(picker))


def test_a_tapped_card_goes_into_the_first_group_with_room_and_comes_out_again():
    picker = reviewed("3s 4h 5d 6c 7c")
    selection = 0
    for index in (0, 1, 2):
        selection = picker.tapped(selection, index, 0)
    assert picker.digits(selection) == [1, 1, 2, 0, 0]
    selection = picker.tapped(selection, 0, 0)  # out again: Pair 1 has room once more
    assert picker.digits(selection) == [0, 1, 2, 0, 0]
    selection = picker.tapped(selection, 3, 0)
    assert picker.digits(selection) == [0, 1, 2, 1, 0]
    selection = picker.tapped(selection, 0, 0)  # Pair 1 is full: into Pair 2
    assert picker.digits(selection) == [2, 1, 2, 1, 0]
    with pytest.raises(UserError, match="Both pairs are full"):
        picker.tapped(selection, 4, 0)
    assert picker.unpicked(selection) == parse_french("7c")


def test_under_review_the_ids_are_compact_and_the_picker_s_own_buttons_stay_together():
    """One page, cards finding their own group: cz ids, no Fill <group>, every placed card
    green and tagged; the verb, the tool and Clear, then the other choices; the suggestions
    under their own placeholder."""
    legal = [Pass(), Play(cards=parse_french("3s 4h 5d 6c"))]
    drawn = reviewed_desk("3s 4h 5d 6c 7c", legal)
    assert drawn.form is COMPACT
    view = drawn.controls(Choice(drawn.picker.selection([1, 2, 0, 0, 0])))
    rows = [
        [c.get("label") or c.get("placeholder") for c in r["components"]]
        for r in view.to_components()
    ]
    assert rows == [
        ["3♠ ·1", "4♥ ·2", "5♦", "6♣", "7♣"],
        ["Play selected", "Pair the rest", "Clear", "pass"],
        ["Suggested pairs…"],
    ]
    items = components(view)
    assert [c["style"] for c in items[:3]] == [3, 3, 2]  # green in any group
    assert items[0]["custom_id"] == f"cz:7:3:{drawn.picker.checksum()}:7:0"  # 1 + 2 * 3**1, in hex
    assert [c["custom_id"].split(":")[-1] for c in items[5:8]] == ["set", "fill", "clear"]
    suggestions = items[-1]
    assert suggestions["custom_id"] == f"cz:7:3:{drawn.picker.checksum()}:suggested"
    with pytest.raises(InvalidComponent):
        drawn.check(Choice(0, 0, 1))  # no group is chosen to fill: cards find their own
    with pytest.raises(InvalidComponent):
        drawn.press(Choice(), "group")


def test_a_review_spanning_pages_keeps_the_paged_ids():
    drawn = reviewed_desk(" ".join(f"{r}{s}" for s in "shdc" for r in "23456"))
    assert len(drawn.pages) == 1  # twenty cards on four rows: one page still
    deck = " ".join(c.code for c in DECK[1:30])
    drawn = reviewed_desk(deck)
    assert len(drawn.pages) > 1 and drawn.form is PAGED
    ids = [c["custom_id"] for c in components(drawn.controls(Choice()))]
    assert all(i.startswith(("pc:", "pb:")) for i in ids)
    assert not any(i.endswith(":group") for i in ids)


def test_the_review_names_groups_in_the_game_s_words_and_the_tool_remakes_the_pick():
    drawn = reviewed_desk("3s 3h 5d 5c 7c")
    embed = discord.Embed()
    drawn.describe(embed, Choice(drawn.picker.selection([1, 1, 2, 0, 0])))
    assert embed.fields[0].name == "Your pairs"
    assert embed.fields[0].value == (
        "**Pair 1**: 3♠ 3♥ (a pair)\n**Pair 2**: 5♦\nLeft out: 5♣ 7♣\nNot yet."
    )  # no ▶: no group is being filled
    tooled = drawn.press(Choice(drawn.picker.selection([1, 1, 2, 0, 0])), "tool")
    assert drawn.picker.digits(tooled.selection) == [1, 1, 2, 2, 0]
    full = drawn.picker.selection([1, 1, 2, 2, 2])  # a forged pick: the tool has nothing left
    with pytest.raises(UserError, match="Nothing left to pair"):
        drawn.press(Choice(full), "tool")
    plain = desk(Picker(zones=[hand("3s 4h")]), [])
    with pytest.raises(InvalidComponent):
        plain.press(Choice(), "tool")  # a picker without a tool has no such button


@pytest.mark.parametrize("form", [PAGED, COMPACT], ids=["paged", "compact"])
def test_every_id_written_is_read_back_by_its_own_form_only(form):
    choice = Choice(0x1F, 2, 1) if form.paged else Choice(0x1F)
    drawn = {"table_id": 7, "prompt": 3, "checksum": "abc123"}
    card = form.card_look(*drawn.values(), choice, 4)["custom_id"]
    match = re.fullmatch(form.card.template, card)
    fields = form.card.read(match)
    assert (
        form.choice(fields) == choice and fields["index"] == 4 and drawn.items() <= fields.items()
    )
    written = [card]
    for verb in form.words:
        button = form.button_look(*drawn.values(), choice, verb)["custom_id"]
        fields = form.button.read(re.fullmatch(form.button.template, button))
        assert form.choice(fields) == choice and fields["verb"] == verb
        written.append(button)
    written.append(form.suggestions_look(*drawn.values(), [])["custom_id"])
    assert form.suggestions.read(re.fullmatch(form.suggestions.template, written[-1]))
    other = COMPACT if form is PAGED else PAGED
    templates = (other.card.template, other.button.template, other.suggestions.template)
    assert not any(re.fullmatch(template, i) for template in templates for i in written)
