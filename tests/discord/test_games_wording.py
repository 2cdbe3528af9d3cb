"""How the games' messages read: counts of one in the singular, no amount that says nothing,
options in words, and a card played alone named once."""

from types import SimpleNamespace

from bot.cards import parse_french
from bot.discord.format import signed_chips
from bot.games.big_two import BIG_TWO
from bot.games.big_two.ui import BigTwoUI
from bot.games.climbing import Played
from bot.games.dou_dizhu import Settled
from bot.games.dou_dizhu.ui import DouDizhuUI
from bot.games.terrapin.provincial import PROVINCIAL
from bot.games.terrapin.provincial.ui import ProvincialUI
from bot.games.terrapin.table import HandResult, PotAwarded
from bot.games.terrapin.western import WESTERN, WesternOptions
from bot.games.terrapin.western.ui import WesternUI

NAMES = ["alice", "bob", "carol"]
TABLE = SimpleNamespace(id=7)  # what the renderers read of a table


def embed_text(embed) -> str:
    fields = [f"{field.name}: {field.value}" for field in embed.fields]
    return "\n".join([embed.title or "", embed.description or "", *fields])


def settled(doublings: int) -> Settled:
    return Settled(winner=0, landlord_won=True, doublings=doublings, paid=[4, -2, -2])


def test_dou_dizhu_says_how_many_times_the_payment_doubled():
    ui = DouDizhuUI()
    assert "(doubled once)" in ui.event_line(settled(1), NAMES)
    assert "(doubled twice)" in ui.event_line(settled(2), NAMES)
    assert "(doubled 3 times)" in ui.event_line(settled(3), NAMES)
    assert "doubled" not in ui.event_line(settled(0), NAMES)


def test_a_single_card_played_is_named_once_and_a_combination_by_its_name():
    ui = BigTwoUI()
    single = Played(seat=0, cards=parse_french("Jd"), combination="J♦", left=12)
    assert ui.event_line(single, NAMES) == "alice plays J♦ (12 left)."
    pair = Played(seat=1, cards=parse_french("7s 7h"), combination="pair of 7s", left=3)
    assert ui.event_line(pair, NAMES) == "bob plays pair of 7s: 7♠ 7♥ (3 left)."


def test_western_shows_no_amount_to_call_when_there_is_none():
    state = WESTERN.new_match(WesternOptions(allow_check=True), [20, 20, 20], seed=1)
    seat = state.pending()[0].seat
    opening = embed_text(WesternUI().private_embed(TABLE, state.view(seat), NAMES))
    assert "To call" not in opening and "0 chips" not in opening
    state.apply(seat, state.legal_actions(seat)[-1])  # the largest bet
    facing = state.pending()[0].seat
    text = embed_text(WesternUI().private_embed(TABLE, state.view(facing), NAMES))
    assert "To call: 5 chips" in text


def test_western_table_options_read_as_words():
    ui = WesternUI()
    assert ui.options_text(WesternOptions()) == "raise limit: 5, checks allowed: no"
    assert ui.options_text(WesternOptions(raise_limit=3, allow_check=True)) == (
        "raise limit: 3, checks allowed: yes"
    )


def test_counts_of_one_are_singular():
    state = BIG_TWO.new_match(None, [0, 0, 0], seed=3)
    state.hands[0] = state.hands[0][:1]
    state.scores = [1, 0, 2]
    text = embed_text(BigTwoUI().public_embed(TABLE, state.view(None), NAMES))
    assert "alice** · 1 card · 1 point" in text and "carol** · 13 cards · 2 points" in text
    provincial = PROVINCIAL.new_match(None, [20, 20, 20], seed=5)
    provincial.discards = provincial.deck[-1:]
    text = embed_text(ProvincialUI().public_embed(TABLE, provincial.view(None), NAMES))
    assert "(1 card)" in text


def test_chips_staying_in_the_pot_agree_in_number():
    ui = WesternUI()
    one = PotAwarded(amount=9, winners=[0, 1], carried=1)
    two = PotAwarded(amount=8, winners=[0, 1, 2], carried=2)
    assert ui.event_line(one, NAMES) == "alice and bob win 9 chips (1 chip stays in the pot)."
    assert ui.event_line(two, NAMES).endswith("(2 chips stay in the pot).")
    lost = PotAwarded(amount=1, winners=[], carried=1)
    assert ui.event_line(lost, NAMES) == "No hand can win: 1 chip stays in the pot."
    view = SimpleNamespace(result=HandResult(won=[4, 4, 0], carried=1), shared=[], hand=2)
    summary = ui.hand_summary(TABLE, view, NAMES)
    assert summary.description.endswith("· 1 chip stays in the pot")


def test_a_result_of_one_chip_is_singular_and_nothing_won_has_no_sign():
    assert [signed_chips(n) for n in (1, -1, 0, 30, -1500)] == [
        "+1 chip",
        "-1 chip",
        "±0 chips",
        "+30 chips",
        "-1,500 chips",
    ]


def test_backhands_reasons_kept_in_english_are_said_in_the_readers_language():
    """The state keeps why a match ended in English, numbers included; the table says it in
    its reader's language, from the same message, with the same numbers."""
    from bot.games.backhand.ui import match_end
    from bot.i18n import ENGLISH, n_, speaking
    from bot.tables.actions import HOUSE_CLOSING

    with speaking(ENGLISH):
        kept = n_(*HOUSE_CLOSING, 1500, available=20)
    assert "1,500 chips" in kept and match_end(kept) == kept
    with speaking("es"):
        said = match_end(kept)
        assert said == n_(*HOUSE_CLOSING, 1500, available=20)
    assert said != kept and "1.500" in said and "20" in said
