"""The published deal algorithm (bot/engine/deals.py, README "Verifiable deals"): its test
vector, rejection sampling, a fair spread, the Rng built on it, and states saved before deals
were keyed going on exactly as before."""

import json
import random
import subprocess
import sys
from collections import Counter
from itertools import permutations
from pathlib import Path

import pytest

from bot.cards.french import french_deck
from bot.engine import Rng, registry
from bot.engine.deals import DealSeed, Stream, commitment, shuffle

# The README's test vector.
SEED = bytes(range(32))
CLICK = 1234567890123456789
VECTOR = {0: "3 7 6 4 2 5 1 8 0 9", 1: "8 2 1 6 4 9 5 7 0 3"}
COMMITMENT = "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd"
SCRIPT = Path(__file__).parents[2] / "docs" / "verify_deal.py"


class Fixed(Stream):
    """A stream of given bytes, to walk the sampler's paths."""

    def __init__(self, data: bytes) -> None:
        super().__init__(b"", 0, 0)
        self.data = data

    def take(self, count: int) -> bytes:
        taken, self.data = self.data[:count], self.data[count:]
        assert len(taken) == count, "the sampler read more bytes than the test gave"
        return taken


@pytest.mark.parametrize("draw", sorted(VECTOR))
def test_the_test_vector(draw):
    deck = [str(n) for n in range(10)]
    shuffle(deck, Stream(SEED, draw, CLICK))
    assert " ".join(deck) == VECTOR[draw]
    assert commitment(SEED) == COMMITMENT


@pytest.mark.parametrize("draw", sorted(VECTOR))
def test_the_standalone_script_deals_the_same(draw):
    cards = [str(n) for n in range(10)]
    command = [sys.executable, str(SCRIPT), SEED.hex(), str(CLICK), str(draw), *cards]
    out = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    assert out.splitlines() == [f"commitment {COMMITMENT}", VECTOR[draw]]
    assert len(SCRIPT.read_text().splitlines()) <= 30


def test_a_keyed_rng_deals_the_vector_draw_after_draw():
    rng = Rng.starting(DealSeed(SEED, CLICK))
    assert [" ".join(rng.shuffled(map(str, range(10)))) for _ in VECTOR] == list(VECTOR.values())
    assert rng.draws == 2


def test_values_past_n_are_thrown_away_not_folded():
    # Below 3: two bits; 3 is rejected (a modulo would have made it 0), then 2 is taken.
    assert Fixed(bytes([0b11, 0b10])).below(3) == 2
    # Below 5: three bits of 0xFD are 5, rejected; then 0x02 is 2.
    assert Fixed(bytes([0xFD, 0x02])).below(5) == 2
    # Below 300: two bytes, masked to nine bits: 0x01FF is 511, rejected; 0x012B is 299.
    assert Fixed(bytes([0x01, 0xFF, 0x01, 0x2B])).below(300) == 299


def test_the_sampler_edges():
    assert Fixed(b"").below(1) == 0  # one choice: no byte read
    assert Fixed(b"\xff" * 16).below(2**128) == 2**128 - 1  # Delphi's salt size
    with pytest.raises(ValueError):
        Fixed(b"").below(0)


def test_long_draws_read_several_hmac_blocks():
    stream = Stream(SEED, 0, CLICK)
    stream.take(70)
    assert stream.blocks == 3


def test_every_order_of_three_is_about_equally_likely():
    counts = Counter(
        tuple(Rng.starting(DealSeed(SEED, click)).shuffled("abc")) for click in range(6000)
    )
    assert set(counts) == set(permutations("abc"))
    # Chi-square with 5 degrees of freedom: 20.5 is exceeded by chance once in a thousand runs
    # (the draws are fixed, so this either always passes or always fails).
    chi2 = sum((seen - 1000) ** 2 / 1000 for seen in counts.values())
    assert chi2 < 20.5, counts


def test_randrange_is_spread_over_its_range():
    rng = Rng.starting(DealSeed(SEED, CLICK))
    counts = Counter(rng.randrange(7) for _ in range(7000))
    assert set(counts) == set(range(7))
    assert all(850 < seen < 1150 for seen in counts.values()), counts


def test_the_click_and_the_draw_number_change_the_deal():
    def deal(seed: bytes, click: int) -> list[int]:
        return Rng.starting(DealSeed(seed, click)).shuffled(range(52))

    assert deal(SEED, CLICK) != deal(SEED, CLICK + 1)
    assert deal(SEED, CLICK) != deal(bytes(32), CLICK)
    rng = Rng.starting(DealSeed(SEED, CLICK))
    assert rng.shuffled(range(52)) != rng.shuffled(range(52))


def test_keyed_deals_never_use_pythons_random(monkeypatch):
    def refuse(*_):
        raise AssertionError("random.Random used")

    monkeypatch.setattr(random, "Random", refuse)
    rng = Rng.starting(DealSeed(SEED, CLICK))
    rng.shuffled(range(52))
    rng.randrange(10)


def test_stacked_decks_still_come_first():
    rng = Rng.starting(DealSeed(SEED, CLICK), stacked=[["3", "1"]])
    dealt = rng.shuffled(map(str, range(10)))
    assert dealt[:2] == ["3", "1"] and sorted(dealt) == [str(n) for n in range(10)]


def test_a_keyed_rng_restores_mid_match_and_goes_on_the_same():
    rng = Rng.starting(DealSeed(SEED, CLICK))
    rng.shuffled(range(10))
    restored = Rng.model_validate_json(rng.model_dump_json())
    assert " ".join(restored.shuffled(map(str, range(10)))) == VECTOR[1]


def test_an_rng_saved_the_old_way_goes_on_exactly_as_before():
    """The exact JSON the code before keyed deals saved; the values its next draws gave then."""
    old = Rng.model_validate_json('{"seed":20261122,"draws":3,"stacked":[]}')
    assert old.shuffled(range(10)) == [9, 5, 4, 1, 3, 0, 2, 8, 7, 6]
    assert old.randrange(1000) == 150
    assert old.draws == 5


def test_a_game_saved_the_old_way_shuffles_its_next_deck_as_before():
    big_two = registry.get("bigtwo")
    snapshot = json.loads(big_two.new_match(None, [0, 0, 0], seed=5).snapshot())
    snapshot["rng"] = {"seed": 5, "draws": 1, "stacked": []}  # as saved before keyed deals
    state = big_two.restore(json.dumps(snapshot))
    cards = [card.code for card in state.rng.shuffled(french_deck())]
    assert cards[:8] == ["Qd", "3c", "6c", "6s", "4h", "7s", "3d", "4s"]
