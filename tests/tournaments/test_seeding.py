import hashlib
import random

import pytest

from bot.tournaments.model import Entrant
from bot.tournaments.seeding import seed_order

SEED = b"committed seed"


def test_rated_by_rating_highest_first_then_the_unrated():
    entrants = [Entrant(1, None), Entrant(2, 10.0), Entrant(3, -5.0), Entrant(4, 30.5)]
    assert seed_order(entrants, SEED)[:3] == [4, 2, 3]
    assert seed_order(entrants, SEED)[3] == 1


@pytest.mark.parametrize("shuffle_seed", range(6))
def test_the_order_of_the_entrants_given_does_not_matter(shuffle_seed):
    entrants = [Entrant(member, [None, 1.0, 2.0][member % 3]) for member in range(30)]
    shuffled = entrants[:]
    random.Random(shuffle_seed).shuffle(shuffled)
    assert seed_order(shuffled, SEED) == seed_order(entrants, SEED)


def test_the_same_seed_gives_the_same_order():
    entrants = [Entrant(member, None) for member in range(20)]
    assert seed_order(entrants, SEED) == seed_order(list(entrants), bytes(SEED))


def test_ties_are_drawn_from_the_seed_within_their_rating():
    entrants = [Entrant(member, 5.0 if member < 10 else None) for member in range(20)]
    orders = {tuple(seed_order(entrants, bytes([byte]))) for byte in range(8)}
    assert len(orders) > 1  # the seed decides the ties
    for order in orders:
        assert set(order[:10]) == set(range(10))  # the rated stay ahead of the unrated


def test_the_draw_is_the_published_recipe():
    """Anyone holding the committed seed can check the draw."""
    entrants = [Entrant(member, None) for member in (42, 7, 19, 3, 88)]
    digest = hashlib.sha256(b"seeding:" + SEED).digest()
    expected = sorted(entrant.member_id for entrant in entrants)
    random.Random(int.from_bytes(digest, "big")).shuffle(expected)
    assert seed_order(entrants, SEED) == expected


def test_an_entrant_listed_twice_is_refused():
    with pytest.raises(ValueError):
        seed_order([Entrant(1, None), Entrant(1, 3.0)], SEED)


def test_no_entrants_no_seeds():
    assert seed_order([], SEED) == []
