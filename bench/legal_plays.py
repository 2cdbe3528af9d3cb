"""Legal-play generation speed for the climbing games.

    .venv/bin/python bench/legal_plays.py [--hands 200]

For random 13-card Big Two hands on a free lead: how many plays, and microseconds per call
to `legal_plays`. (Dou Dizhu's 20-card free lead is added with its engine.)
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from bot.cards import french_deck
from bot.games.big_two import legal_plays


def measure(hands: int) -> None:
    rng = random.Random(2026)
    counts, micros = [], []
    for _ in range(hands):
        deck = french_deck()
        rng.shuffle(deck)
        hand = deck[:13]
        started = time.perf_counter()
        plays = legal_plays(hand, None)
        micros.append((time.perf_counter() - started) * 1e6)
        counts.append(len(plays))
    print(
        f"Big Two, 13 cards, free lead, {hands} random hands: plays median "
        f"{statistics.median(counts):.0f} (max {max(counts)}); "
        f"{statistics.median(micros):.0f} us per call median (max {max(micros):.0f})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=200)
    measure(parser.parse_args().hands)


if __name__ == "__main__":
    main()
