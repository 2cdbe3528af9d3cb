"""The seed order: best first, by rating; ties and the unrated drawn from the tournament's
committed seed, so anyone can check the draw afterwards."""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence

from bot.tournaments.model import Entrant


def seeding_rng(seed: bytes) -> random.Random:
    """The draw's generator: the committed seed, hashed under its own label."""
    digest = hashlib.sha256(b"seeding:" + seed).digest()
    return random.Random(int.from_bytes(digest, "big"))


def seed_order(entrants: Sequence[Entrant], seed: bytes) -> list[int]:
    """Member ids, best seed first: rated by rating (highest first), then the unrated."""
    ids = [entrant.member_id for entrant in entrants]
    if len(set(ids)) != len(ids):
        raise ValueError("an entrant is listed twice")
    # Sorting by id first makes the draw independent of the order entrants came in.
    drawn = sorted(entrants, key=lambda entrant: entrant.member_id)
    seeding_rng(seed).shuffle(drawn)
    # A stable sort keeps the drawn order among equal ratings and among the unrated.
    drawn.sort(key=_strength)
    return [entrant.member_id for entrant in drawn]


def _strength(entrant: Entrant) -> tuple[bool, float]:
    """Sorts the rated first, highest rating first."""
    if entrant.rating is None:
        return (True, 0.0)
    return (False, -entrant.rating)
