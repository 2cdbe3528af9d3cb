"""Legal-play generation speed for the climbing games.

    .venv/bin/python bench/legal_plays.py [--hands 200]

For random 13-card Big Two hands and 20-card Dou Dizhu hands (a landlord's, after the widow)
on a free lead: how many plays, and microseconds per call to each game's `legal_plays`.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from bot.cards import french_deck
from bot.games import big_two, dou_dizhu


def measure(name: str, generate, deck, size: int, hands: int) -> None:
    rng = random.Random(2026)
    counts, micros = [], []
    for _ in range(hands):
        cards = deck()
        rng.shuffle(cards)
        hand = cards[:size]
        started = time.perf_counter()
        plays = generate(hand, None)
        micros.append((time.perf_counter() - started) * 1e6)
        counts.append(len(plays))
    print(
        f"{name}, {size} cards, free lead, {hands} random hands: plays median "
        f"{statistics.median(counts):.0f} (max {max(counts)}); "
        f"{statistics.median(micros):.0f} us per call median (max {max(micros):.0f})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=200)
    hands = parser.parse_args().hands
    measure("Big Two", big_two.legal_plays, french_deck, 13, hands)
    measure("Dou Dizhu", dou_dizhu.legal_plays, lambda: french_deck(jokers=True), 20, hands)


if __name__ == "__main__":
    main()
