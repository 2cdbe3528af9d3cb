"""Soliterrapin board pictures: PNG size and render time over whole games.

    .venv/bin/python bench/board_render.py [--games 5]

Renders the board after every placement of random games (as the bot does after each move)
and prints the median and largest size and time.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from bot.games.terrapin.soliterrapin import SOLITERRAPIN, Place
from bot.games.terrapin.soliterrapin.picture import render_board


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5)
    games = parser.parse_args().games
    render_board(SOLITERRAPIN.new_match(None, [0], 0).view(None))  # load the font once
    sizes, times = [], []
    for seed in range(games):
        state, rng = SOLITERRAPIN.new_match(None, [0], seed), random.Random(seed)
        while state.deck:
            row, col = rng.choice(state.legal_spots())
            state.apply(0, Place(row=row, col=col))
            started = time.perf_counter()
            sizes.append(len(render_board(state.view(None))))
            times.append((time.perf_counter() - started) * 1000)
    print(f"{len(sizes)} renders over {games} games")
    median_kib, max_kib = statistics.median(sizes) / 1024, max(sizes) / 1024
    print(f"PNG size: median {median_kib:.1f} KiB, max {max_kib:.1f} KiB")
    print(f"render time: median {statistics.median(times):.1f} ms, max {max(times):.1f} ms")


if __name__ == "__main__":
    main()
