"""`python -m bot simulate GAME --players N --hands K --seed S [--policy ai|random]`: AI
players play the game without Discord; prints each seat's results and hands per second.

With `--policy ai` every seat is the game's AI; with `--policy random` seat 1 is the AI and the
others play random legal moves. Matches are played one after another (chip games a hand at a
time, from fresh stacks) until K hands have been played."""

from __future__ import annotations

import argparse
import time

import bot.games  # noqa: F401  (registers every game)
from bot.engine import registry
from bot.games.simulate import Seats, Tally, play_match, policies_for, usual_players
from bot.text import signed_chips


def parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bot simulate", description=__doc__)
    parser.add_argument("game", choices=[spec.id for spec in registry.games() if not spec.solo])
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--hands", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--policy", choices=["ai", "random"], default="ai")
    return parser.parse_args(argv)


def main(argv: list[str]) -> int:
    arguments = parse(argv)
    spec = registry.get(arguments.game)
    players = arguments.players or usual_players(spec)
    if not spec.min_players <= players <= spec.max_players:
        print(f"{spec.name} is played by {spec.min_players} to {spec.max_players} players.")
        return 2
    chips = spec.chips_for(spec.options_model())
    tally, started = Tally(players), time.perf_counter()
    while tally.hands < arguments.hands:
        seed = arguments.seed + tally.matches
        seats = Seats(policies_for(spec, players, arguments.policy), seed)
        tally.add(play_match(spec, seats, seed, most_hands=1 if chips else None))
    elapsed = time.perf_counter() - started
    print(report(spec.name, tally, arguments.policy, chips, elapsed))
    return 0


def report(name: str, tally: Tally, against: str, chips: bool, elapsed: float) -> str:
    lines = [
        f"{name}: {count(tally.matches, 'match', 'matches')}, {count(tally.hands, 'hand')}, "
        f"{count(tally.steps, 'decision')} "
        f"in {elapsed:.2f} s ({tally.hands / elapsed:.1f} hands/s)"
    ]
    for seat in range(tally.seats):
        who = "AI" if against == "ai" or seat == 0 else "random"
        # a first place shared by two counts half a win each
        won = signed_chips(tally.chips[seat]) if chips else f"{tally.firsts[seat]:.2f} wins"
        lines.append(f"  seat {seat + 1} ({who}): {won}")
    return "\n".join(lines)


def count(number: int, noun: str, nouns: str | None = None) -> str:
    return f"{number:,} {noun if number == 1 else nouns or noun + 's'}"
