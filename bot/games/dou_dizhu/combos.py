"""Dou Dizhu's combinations: the rank order, what a set of cards is (`classify`), what
beats what, and why a play is refused.
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache
from itertools import pairwise

from pydantic import BaseModel, ConfigDict

from bot.cards import FrenchCard, Joker, Rank
from bot.engine import IllegalAction
from bot.i18n import N_, _, n_
from bot.text import upper_first

PLAYERS, HAND, WIDOW = 3, 17, 3
ACE, TWO, BLACK_JOKER, RED_JOKER = 11, 12, 13, 14
JOKER_NAMES = {BLACK_JOKER: N_("black joker"), RED_JOKER: N_("red joker")}


def order(card: FrenchCard) -> int:
    """3 -> 0 ... A -> 11, 2 -> 12, black joker 13, red joker 14."""
    rank = card.rank
    if rank is None:  # a joker
        return BLACK_JOKER if card.joker is Joker.BLACK else RED_JOKER
    return (rank - 3) % 13


def rank_name(rank: int) -> str:
    """A rank (`order`'s) as combinations name it: "7", "A" (as the cards show it), or
    "black joker"."""
    if rank >= BLACK_JOKER:
        return _(JOKER_NAMES[rank])
    return Rank((rank + 2) % 13 + 1).label


POWER = {"rocket": 2, "bomb": 1}  # by shape; 0 for the others


class Combo(BaseModel):
    """`shape` says what must match to compete ("pair", "straight:7", "airplane:2:single");
    `rank` orders combinations of one shape; bombs and the rocket beat every other shape."""

    model_config = ConfigDict(frozen=True)
    shape: str
    rank: int

    @property
    def power(self) -> int:
        return POWER.get(self.shape, 0)

    @property
    def name(self) -> str:
        """How it reads, in the language of the moment: "pair of 7s", "3 trios in a row"
        (worked out when asked: combinations are remembered, in no language)."""
        return combo_name(self.shape, self.rank)

    def beats(self, other: Combo) -> bool:
        if self.power != other.power:
            return self.power > other.power
        return self.shape == other.shape and self.rank > other.rank


def consecutive(ranks: list[int]) -> bool:
    """A run for a chain: consecutive, and no 2s or jokers in it."""
    return ranks[-1] <= ACE and all(b - a == 1 for a, b in pairwise(ranks))


def kickers_ok(kickers: Counter, size: int, count: int, main: set[int]) -> bool:
    """`count` kickers of `size` cards each, all of different ranks, none of the main ranks,
    and never both jokers."""
    if sorted(kickers.values()) != [size] * count or set(kickers) & main:
        return False
    return not {BLACK_JOKER, RED_JOKER} <= set(kickers)


def classify(cards: list[FrenchCard]) -> Combo:
    """The combination these cards make, or IllegalAction saying why they make none."""
    if not cards or len(cards) != len(set(cards)):
        raise IllegalAction(_("Choose one or more different cards."))
    return combo_of(tuple(sorted(order(card) for card in cards)))


@lru_cache(maxsize=4096)
def combo_of(played: tuple[int, ...]) -> Combo:
    """The combination of these card ranks (sorted); remembered, as plays on the table recur."""
    counts = Counter(played)
    ranks = sorted(counts)
    n, shape = len(played), sorted(counts.values(), reverse=True)
    top = ranks[-1]
    if n == 2 and set(ranks) == {BLACK_JOKER, RED_JOKER}:
        return Combo(shape="rocket", rank=RED_JOKER)
    if shape == [1] * n and n == 1:
        return Combo(shape="single", rank=top)
    if shape == [2]:
        return Combo(shape="pair", rank=top)
    if shape == [3]:
        return Combo(shape="trio", rank=top)
    if shape == [4]:
        return Combo(shape="bomb", rank=top)
    if shape == [1] * n and n >= 5 and consecutive(ranks):
        return Combo(shape=f"straight:{n}", rank=top)
    if shape == [2] * (n // 2) and n // 2 >= 3 and n % 2 == 0 and consecutive(ranks):
        return Combo(shape=f"pairs:{n // 2}", rank=top)
    found = trio_combo(counts, n) or four_with_two(counts, n)
    if found:
        return found
    raise IllegalAction(reason(n, counts))


def trio_combo(counts: Counter, n: int) -> Combo | None:
    """Trios with a single or a pair, and chains of trios (airplanes) with or without kickers."""
    trio_ranks = sorted(r for r, c in counts.items() if c >= 3)
    best = None
    for length in range(1, len(trio_ranks) + 1):
        for start in range(len(trio_ranks) - length + 1):
            run = trio_ranks[start : start + length]
            if length > 1 and not consecutive(run):
                continue
            rest = counts.copy()
            for rank in run:
                rest[rank] -= 3
            rest = +rest
            kind = None
            if not rest and length > 1:
                kind = "plain"
            elif kickers_ok(rest, 1, length, set(run)):
                kind = "single"
            elif kickers_ok(rest, 2, length, set(run)):
                kind = "pair"
            if kind is None or (kind == "plain" and length == 1):
                continue
            if length == 1:
                combo = Combo(shape=f"trio+{kind}", rank=run[0])
            else:
                combo = Combo(shape=f"airplane:{length}:{kind}", rank=run[-1])
            if best is None or combo.rank > best.rank:
                best = combo
    return best


def four_with_two(counts: Counter, n: int) -> Combo | None:
    for rank, count in counts.items():
        if count == 4:
            rest = counts.copy()
            del rest[rank]
            for size in (1, 2):
                if n == 4 + 2 * size and kickers_ok(rest, size, 2, {rank}):
                    what = "singles" if size == 1 else "pairs"
                    return Combo(shape=f"four+2{what}", rank=rank)
    return None


def combo_name(shape: str, rank: int) -> str:
    """A combination's name from its shape and rank, in the language of the moment."""
    family, *rest = shape.split(":")
    named = rank_name(rank)
    match family:
        case "rocket":
            return _("the rocket")
        case "single":
            return named
        case "pair":
            return _("pair of {rank}s", rank=named)
        case "trio":
            return _("three {rank}s", rank=named)
        case "bomb":
            return _("bomb of {rank}s", rank=named)
        case "trio+single":
            return _("three {rank}s with a single", rank=named)
        case "trio+pair":
            return _("three {rank}s with a pair", rank=named)
        case "four+2singles":
            return _("four {rank}s with two singles", rank=named)
        case "four+2pairs":
            return _("four {rank}s with two pairs", rank=named)
        case "straight":
            return n_(
                "{count}-card straight to {rank}",
                "{count}-card straight to {rank}",
                int(rest[0]),
                rank=named,
            )
        case "pairs":
            return n_(
                "{count} pair in a row to {rank}",
                "{count} pairs in a row to {rank}",
                int(rest[0]),
                rank=named,
            )
    length, kind = int(rest[0]), rest[1]  # an airplane
    if kind == "single":
        return n_(
            "{count} trio in a row with singles", "{count} trios in a row with singles", length
        )
    if kind == "pair":
        return n_("{count} trio in a row with pairs", "{count} trios in a row with pairs", length)
    return n_("{count} trio in a row", "{count} trios in a row", length)


def reason(n: int, counts: Counter) -> str:
    if n == 2:
        return _("A pair must be two cards of the same rank.")
    if any(r > ACE for r in counts) and len(counts) >= 5:
        return _("2s and jokers can't be part of a straight or a chain.")
    return _("Those cards make no Dou Dizhu combination.")


def check_play(cards: list[FrenchCard], to_beat: list[FrenchCard]) -> None:
    """Raise IllegalAction with the reason unless `cards` may be played on `to_beat` (the
    engine's verify and the player's preview of a pick both ask this)."""
    combo = classify(cards)
    if to_beat and not combo.beats(target := classify(to_beat)):
        raise IllegalAction(
            _(
                "{combination} does not beat {target}.",
                combination=upper_first(combo.name),
                target=target.name,
            )
        )
