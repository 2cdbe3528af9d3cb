"""The prize pool's split among the best placed, in whole chips, summing to the pool."""

from __future__ import annotations

from collections.abc import Sequence

# Percent of the pool per paid place, best first; each scheme's shares sum to 100.
SHARES: dict[str, tuple[int, ...]] = {"winner": (100,), "top2": (65, 35), "top3": (50, 30, 20)}


def payout(pool: int, scheme: str, ranking: Sequence[int]) -> dict[int, int]:
    """Chips per paid member: each place its share rounded down; what rounding leaves and
    the shares of places nobody fills go to the best placed."""
    if scheme not in SHARES:
        raise ValueError(f"no payout scheme {scheme!r}: one of {', '.join(SHARES)}")
    if pool < 0:
        raise ValueError("a prize pool cannot be negative")
    if not ranking:
        raise ValueError("a prize pool needs someone to pay")
    shares = SHARES[scheme][: len(ranking)]  # places beyond the field go unfilled
    paid = ranking[: len(shares)]
    if len(set(paid)) != len(paid):
        raise ValueError("a member holds two paid places")
    chips = {member: pool * share // 100 for member, share in zip(paid, shares, strict=True)}
    chips[paid[0]] += pool - sum(chips.values())
    return chips
