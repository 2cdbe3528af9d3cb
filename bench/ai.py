"""The AI players against random legal players, per game: how often the AI wins, and how long
it takes to decide.

    .venv/bin/python bench/ai.py [GAME ...] [--matches 1000] [--seed 0]

Seat 0 is the game's AI policy, every other seat a random legal player. Points games play
whole matches: the AI's share of first places, with a 95% Wilson interval, against the 1/N a
random player would get. Chip games play single hands from fresh stacks (Liar's Terrapin,
one pot to the end, whole matches): the AI's chips won per hand less the random players'
average, with a 95% interval, against the 0 of equals. Decision time is the wall time of each
AI decision (`ai_move`), p50 and p99 over every decision of the run.
"""

from __future__ import annotations

import argparse
import math
import statistics
import time

import bot.games  # noqa: F401  (registers every game)
import bot.games.simulate as simulate
from bot.engine import GameSpec, registry
from bot.games import ai
from bot.games.simulate import Seats, play_match, policies_for, usual_players

Z95 = 1.96
# Players per game, and options, where the defaults would not make a fair or quick benchmark.
PLAYERS = {"botifarra": 4, "backhand": 2}
OPTIONS = {"lastone": {"threshold": 100}, "delphi": {"oracle": "bot", "cards": 26}}
# Chip games whose pot is only settled by the whole match (Liar's Terrapin plays one pot to
# the last player in): they play whole matches, scored by the chips won over the match.
WHOLE_MATCHES = {"liars"}


def wilson(successes: float, trials: int) -> tuple[float, float]:
    if trials == 0:
        return 0.0, 1.0
    share = successes / trials
    centre = share + Z95**2 / (2 * trials)
    spread = Z95 * math.sqrt(share * (1 - share) / trials + Z95**2 / (4 * trials**2))
    scale = 1 + Z95**2 / trials
    return (centre - spread) / scale, (centre + spread) / scale


class Timed:
    """Times every AI decision (wraps `ai.ai_move`, which the simulator calls)."""

    def __init__(self) -> None:
        self.seconds: list[float] = []
        self.original = ai.ai_move

    def __call__(self, *args, **kwargs):
        started = time.perf_counter()
        try:
            return self.original(*args, **kwargs)
        finally:
            self.seconds.append(time.perf_counter() - started)

    def percentile(self, share: float) -> float:
        ordered = sorted(self.seconds)
        return ordered[min(len(ordered) - 1, int(share * len(ordered)))] * 1000 if ordered else 0


def players_for(spec: GameSpec) -> int:
    return PLAYERS.get(spec.id, usual_players(spec))


def bench(spec: GameSpec, matches: int, seed: int) -> str:
    players = players_for(spec)
    options = spec.options_model(**OPTIONS.get(spec.id, {}))
    chips = spec.chips_for(options)
    timed = Timed()
    simulate.ai_move = timed
    wins, won, started = 0.0, [], time.perf_counter()
    try:
        for match in range(matches):
            seats = Seats(policies_for(spec, players, "random"), seed + match)
            single = chips and spec.id not in WHOLE_MATCHES
            result = play_match(
                spec, seats, seed + match, options=options, most_hands=1 if single else None
            )
            firsts = [seat for seat, place in enumerate(result.placings) if place == 1]
            wins += 1 / len(firsts) if 0 in firsts else 0
            others = result.chips[1:] or [0]
            won.append(result.chips[0] - statistics.fmean(others))
    finally:
        simulate.ai_move = timed.original
    elapsed = time.perf_counter() - started
    timing = f"decision p50 {timed.percentile(0.5):.2f} ms, p99 {timed.percentile(0.99):.2f} ms"
    if chips:
        mean = statistics.fmean(won)
        half = Z95 * statistics.stdev(won) / math.sqrt(len(won)) if len(won) > 1 else 0
        verdict = "beats random" if mean - half > 0 else "NOT clearly better"
        outcome = (
            f"{matches} {'matches' if spec.id in WHOLE_MATCHES else 'hands'}, "
            f"AI chips per {'match' if spec.id in WHOLE_MATCHES else 'hand'} over random's "
            f"{mean:+.2f} "
            f"(95% CI {mean - half:+.2f} to {mean + half:+.2f}) vs 0: {verdict}"
        )
    else:
        low, high = wilson(wins, matches)
        even = 1 / players
        verdict = "beats random" if low > even else "NOT clearly better"
        outcome = (
            f"{matches} matches, AI first {wins / matches:.1%} "
            f"(95% CI {low:.1%} to {high:.1%}) vs {even:.1%}: {verdict}"
        )
    return f"{spec.name} ({players} players): {outcome}; {timing}; {elapsed:.0f} s"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", help="game ids (default: every game with an AI)")
    parser.add_argument("--matches", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    arguments = parser.parse_args()
    ids = arguments.games or [spec.id for spec in registry.games() if spec.ai]
    for game_id in ids:
        print(bench(registry.get(game_id), arguments.matches, arguments.seed), flush=True)


if __name__ == "__main__":
    main()
