"""Legal-play generation speed for the climbing games, beside rlcard's when it is installed.

    .venv/bin/python bench/legal_plays.py [--hands 120] [--repeats 1]

Dou Dizhu: random 20-card hands (a landlord's, after the widow), on a free lead and against a
random single, pair, straight, plane with wings and bomb; Big Two: random 13-card hands on a
free lead. Medians of microseconds per call to each game's `legal_plays`, and of plays found.
rlcard (`pip install .[bench]`) is timed on the same hands: its free-lead generator and its
`get_gt_cards` when following. With --repeats, the whole measurement runs again on the same
hands (Dou Dizhu's remembered classifications forgotten first) and the medians of the runs'
medians are shown, which steadies figures on a busy machine.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from types import SimpleNamespace

from bot.cards import french_deck
from bot.games import big_two, dou_dizhu
from bot.games.dou_dizhu import ACE, RED_JOKER, TWO, order

try:
    from rlcard.games.doudizhu.judger import DoudizhuJudger
    from rlcard.games.doudizhu.utils import get_gt_cards
except ImportError:  # the optional bench extra
    DoudizhuJudger = get_gt_cards = None

RLCARD_RANKS = "3456789TJQKA2BR"
ROWS = ("free lead", "single", "pair", "straight", "plane with wings", "bomb")


def random_target(rng: random.Random, row: str) -> list[int]:
    """Ranks (Dou Dizhu `order`) of a random combination of the row's kind."""
    if row == "single":
        return [rng.randrange(RED_JOKER + 1)]
    if row == "pair":
        return [rng.randrange(TWO + 1)] * 2
    if row == "bomb":
        return [rng.randrange(TWO + 1)] * 4
    if row == "straight":
        length = rng.randrange(5, 9)
        low = rng.randrange(ACE + 2 - length)
        return list(range(low, low + length))
    length, size = rng.choice([(2, 1), (2, 2), (3, 1), (3, 2)])
    low = rng.randrange(ACE + 2 - length)
    trios = range(low, low + length)
    others = [r for r in range(TWO + 1) if r not in trios]
    kickers = rng.sample(others, length)
    return sorted([r for r in trios for _ in range(3)] + [r for r in kickers for _ in range(size)])


def cards_of(ranks: list[int]) -> list:
    """French cards with these Dou Dizhu ranks (suits don't matter)."""
    unused = sorted(french_deck(jokers=True), key=order)
    cards = []
    for rank in ranks:
        card = next(c for c in unused if order(c) == rank)
        unused.remove(card)
        cards.append(card)
    return cards


def timed(generate, *args, extra: int = 0) -> tuple[float, int]:
    """Microseconds for one call, and how many plays it found (less `extra` entries)."""
    started = time.perf_counter()
    found = generate(*args)
    return (time.perf_counter() - started) * 1e6, len(found) - extra


def dou_dizhu_rows(hands: int, repeats: int) -> None:
    ours: dict[str, list] = {row: [] for row in ROWS}
    theirs: dict[str, list] = {row: [] for row in ROWS}
    for _ in range(repeats):
        dou_dizhu.combo_of.cache_clear()
        for whose, run in zip((ours, theirs), dou_dizhu_run(hands), strict=True):
            for row, figure in run.items():  # rlcard's: none when it isn't installed
                whose[row].append(figure)
    print(f"Dou Dizhu legal plays, {hands} random 20-card hands, medians (us per call, plays):")
    print(f"  {'':20} {'this project':>16} {'rlcard':>16}")
    for row in ROWS:
        label = row if row == "free lead" else f"to beat a {row}"
        print(f"  {label:20} {figures(ours[row]):>16} {figures(theirs[row]):>16}")


def dou_dizhu_run(hands: int) -> tuple[dict[str, tuple], dict[str, tuple]]:
    """One measurement: each row's medians (us, plays), for us and for rlcard."""
    rng = random.Random(2026)
    deck = french_deck(jokers=True)
    ours: dict[str, list] = {row: [] for row in ROWS}
    theirs: dict[str, list] = {row: [] for row in ROWS}
    for _ in range(hands):
        hand = sorted(rng.sample(deck, 20), key=order)
        text = "".join(RLCARD_RANKS[order(card)] for card in hand)
        player = SimpleNamespace(current_hand=[SimpleNamespace(rank=c, suit="") for c in text])
        for row in ROWS:
            target = None if row == "free lead" else random_target(rng, row)
            to_beat = cards_of(target) if target else None
            ours[row].append(timed(dou_dizhu.legal_plays, hand, to_beat))
            if DoudizhuJudger is None:
                continue
            if target is None:
                theirs[row].append(timed(DoudizhuJudger.playable_cards_from_hand, text))
            else:
                played = "".join(RLCARD_RANKS[r] for r in target)
                greater = SimpleNamespace(played_cards=played)
                theirs[row].append(timed(get_gt_cards, player, greater, extra=1))  # less "pass"
    return medians(ours), medians(theirs)


def medians(samples: dict[str, list]) -> dict[str, tuple]:
    return {
        row: tuple(statistics.median(s[i] for s in found) for i in (0, 1))
        for row, found in samples.items()
        if found
    }


def figures(samples: list[tuple[float, int]]) -> str:
    if not samples:
        return "not installed"
    micros = statistics.median(s[0] for s in samples)
    plays = statistics.median(s[1] for s in samples)
    return f"{micros:.0f} us ({plays:.0f})"


def big_two_row(hands: int, repeats: int) -> None:
    rng = random.Random(2026)
    deck = french_deck()
    hands_dealt = [rng.sample(deck, 13) for _ in range(hands)]
    runs = [
        medians({"free lead": [timed(big_two.legal_plays, h, None) for h in hands_dealt]})
        for _ in range(repeats)
    ]
    samples = [run["free lead"] for run in runs]
    print(f"Big Two, {hands} random 13-card hands, free lead: {figures(samples)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=120)
    parser.add_argument("--repeats", type=int, default=1)
    args = parser.parse_args()
    dou_dizhu_rows(args.hands, args.repeats)
    big_two_row(args.hands, args.repeats)


if __name__ == "__main__":
    main()
