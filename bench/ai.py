"""The AI players against random legal players, per game: how often the AI wins, and how long
it takes to decide; or one AI level against another (`--versus expert:standard`).

    .venv/bin/python bench/ai.py [GAME ...] [--matches 1000] [--seed 0]
    .venv/bin/python bench/ai.py [GAME ...] --versus expert:standard [--matches 200] [--worlds N]
        [--paired] [--seeing-all]

Seat 0 is the game's AI policy, every other seat a random legal player. Points games play
whole matches: the AI's share of first places, with a 95% Wilson interval, against the 1/N a
random player would get. Chip games play single hands from fresh stacks (Liar's Terrapin,
one pot to the end, whole matches): the AI's chips won per hand less the random players'
average, with a 95% interval, against the 0 of equals. Decision time is the wall time of each
AI decision (`ai_move`), p50 and p99 over every decision of the run.

With `--versus A:B`, level A plays half the seats and level B the others, the seats swapped
from one deal to the next (an odd table gives A the extra seat every other deal; partners sit
across, so in Botifarra each level is a partnership). Each deal is one hand from fresh stacks
(a whole match where only the match decides: Last One, Turup, Liar's Terrapin). The result is
A's share of what the two levels won, per seat: for points games the hands (or matches) won,
for chip games the chips won, as A's chips per hand per seat less B's, each with a 95%
interval (a Wilson interval on the shares of two-player deals; else a bootstrap over deals).
Decision time is each level's own, p50 and p99; for Expert, also the worlds each search
played out (p10 and p50 over the decisions it searched: fewer worlds are not always the
time's fault, as a search also ends once every candidate is dropped as no better). With
`--worlds N` an Expert search plays N worlds and has no time limit: its strength whatever the
machine's load (the decision times then say what N worlds cost). With `--paired` each deal is
played with every seat at B, then once for each seat with that seat alone at A: A's gain is
the seat's take less what the same seat took with everyone at B, on the same cards and random
numbers, so the luck of the deal cancels out and far fewer deals tell (each deal costs a
playing per seat and one more). With `--seeing-all` the Expert's search plays out the true
deal rather than worlds the seat may believe in: no level plays so, but it says how much a
search could gain from every hidden card known, the most that reading the others' play could
add to it (`TrueWorlds`).
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time

import orjson

import bot.games  # noqa: F401  (registers every game)
import bot.games.expert as expert
import bot.games.simulate as simulate
from bot.engine import GameSpec, registry
from bot.games import ai
from bot.games.expert import DEFAULT_BUDGET, Budget, search
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
    parser.add_argument(
        "--versus", metavar="A:B", help="two levels (beginner, standard, expert) against each other"
    )
    parser.add_argument(
        "--paired",
        action="store_true",
        help="with --versus A:B, each deal all B, then once per seat with that seat A",
    )
    parser.add_argument(
        "--worlds",
        type=int,
        help="an Expert search's worlds, with no time limit: its strength on a busy machine",
    )
    parser.add_argument(
        "--seeing-all",
        action="store_true",
        help="Expert's worlds are the true deal: what perfect information would give its search",
    )
    arguments = parser.parse_args()
    if arguments.seeing_all:
        see_everything()
    budget = DEFAULT_BUDGET
    if arguments.worlds:
        budget = Budget(worlds=arguments.worlds, seconds=None)
    ids = arguments.games or [spec.id for spec in registry.games() if spec.ai]
    for game_id in ids:
        spec = registry.get(game_id)
        if arguments.versus:
            first, second = arguments.versus.split(":")
            compare = paired if arguments.paired else versus
            print(
                compare(spec, first, second, arguments.matches, arguments.seed, budget),
                flush=True,
            )
        else:
            print(bench(spec, arguments.matches, arguments.seed), flush=True)


# ---- one level against another ------------------------------------------------------------


class TrueWorlds:
    """Stands in for the search's `Worlds` (--seeing-all): every world is the state as it is,
    only its random source new (the stock's order to come), so the search sees every hidden
    card. No level plays so: the bench measures how far the search could get with every
    card known, a bound for what reading the others' play can add (docs/performance.md)."""

    def __init__(self, state, seat: int) -> None:
        self.tree = orjson.loads(state.snapshot())

    def sample(self, rng: random.Random) -> str:
        world = dict(self.tree)
        if "rng" in world:
            world["rng"] = {"seed": rng.getrandbits(62), "draws": 0, "fresh_order": True}
        return orjson.dumps(world).decode()


def see_everything() -> None:
    """The Expert's search in this process plays out the true deal (`TrueWorlds`), shaped no
    further: this bench's own stand-in, never the bot's."""
    expert.Worlds = TrueWorlds  # type: ignore[misc, assignment]
    expert.shapes_worlds = lambda spec: False


# Games whose hands don't decide anything alone: a level's strength shows over the match.
MATCH_ONLY = {"lastone", "turup", "liars"}
BOOTSTRAP = 400


def mover(
    spec: GameSpec,
    level: str,
    seed: int,
    seat: int,
    timed: list[float],
    worlds: list[int],
    budget: Budget = DEFAULT_BUDGET,
):
    """A player of `level` in `seat` for `Seats`, timing each decision into `timed` (and an Expert's
    worlds played out, where it searched, into `worlds`); an Expert searches within `budget`."""
    # Each seat its own numbers, as at the bot's tables: two seats of a level sharing them
    # would gamble alike (Delphi's Expert draws among its better answers).
    rng = random.Random(f"{level}:{seed}:{seat}")
    policy = spec.ai
    assert policy is not None

    def move(state, seat):
        started = time.perf_counter()
        try:
            if level == ai.EXPERT:
                move, played = search(spec, state, seat, rng, budget)
                if played:
                    worlds.append(played)
                return move
            if level == ai.BEGINNER:
                return ai.beginner_move(state, seat, policy, rng)
            return ai.ai_move(state, seat, policy, rng)
        finally:
            timed.append(time.perf_counter() - started)

    return move


def versus(
    spec: GameSpec,
    first: str,
    second: str,
    deals: int,
    seed: int,
    budget: Budget = DEFAULT_BUDGET,
) -> str:
    players = players_for(spec)
    options = spec.options_model(**OPTIONS.get(spec.id, {}))
    chips = spec.chips_for(options)
    times: dict[str, list[float]] = {first: [], second: []}
    worlds: list[int] = []
    per_deal: list[tuple[float, float]] = []  # (first's per-seat take, second's)
    started = time.perf_counter()
    for deal in range(deals):
        mine = {seat for seat in range(players) if (seat + deal) % 2 == 0}
        levels = [first if seat in mine else second for seat in range(players)]
        takes = play_deal(spec, options, levels, seed + deal, times, worlds, budget)
        ours = sum(takes[s] for s in mine) / len(mine)
        theirs = sum(takes[s] for s in range(players) if s not in mine) / (players - len(mine))
        per_deal.append((ours, theirs))
    timing = timings(times, worlds, (first, second))
    unit, one = ("matches", "match") if spec.id in MATCH_ONLY else ("hands", "hand")
    if chips:
        gains = [ours - theirs for ours, theirs in per_deal]
        mean = statistics.fmean(gains)
        half = Z95 * statistics.stdev(gains) / math.sqrt(len(gains)) if len(gains) > 1 else 0
        outcome = (
            f"{deals} {unit}, {first}'s chips per {one} per seat over {second}'s "
            f"{mean:+.2f} (95% CI {mean - half:+.2f} to {mean + half:+.2f})"
        )
    else:
        share = won_share(per_deal)
        low, high = share_interval(per_deal, players, seed)
        outcome = (
            f"{deals} {unit}, {first} won {share:.1%} of what the two won per seat "
            f"(95% CI {low:.1%} to {high:.1%})"
        )
    elapsed = time.perf_counter() - started
    return (
        f"{spec.name} ({players} players), {first} v {second}: {outcome}; {timing}; {elapsed:.0f} s"
    )


def play_deal(
    spec: GameSpec,
    options,
    levels: list[str],
    seed: int,
    times: dict[str, list[float]],
    worlds: list[int],
    budget: Budget,
) -> list[float]:
    """One deal (a hand, or a match where only the match decides) with each seat at its level:
    what each seat took, its chips or its share of the first places."""
    movers = {
        seat: mover(spec, level, seed, seat, times.setdefault(level, []), worlds, budget)
        for seat, level in enumerate(levels)
    }
    seats = Seats(policies_for(spec, len(levels), "ai"), seed, movers=movers)
    most_hands = None if spec.id in MATCH_ONLY else 1
    result = play_match(spec, seats, seed, options=options, most_hands=most_hands)
    if spec.chips_for(options):
        return [float(c) for c in result.chips]
    firsts = [seat for seat, place in enumerate(result.placings) if place == 1]
    return [1 / len(firsts) if seat in firsts else 0.0 for seat in range(len(levels))]


def timings(times: dict[str, list[float]], worlds: list[int], levels: tuple[str, ...]) -> str:
    """Each level's decision times, and how many worlds Expert's searches played."""
    timing = "; ".join(
        f"{level} decision p50 {percentile(times[level], 0.5):.0f} ms, "
        f"p99 {percentile(times[level], 0.99):.0f} ms, most {percentile(times[level], 1):.0f} ms"
        for level in levels
    )
    if worlds:
        ordered = sorted(worlds)
        timing += (
            f"; expert worlds per search p10 {ordered[len(ordered) // 10]}, "
            f"p50 {ordered[len(ordered) // 2]} ({len(ordered)} searches)"
        )
    return timing


def paired(spec: GameSpec, level: str, baseline: str, deals: int, seed: int, budget: Budget) -> str:
    """Each deal played with every seat at `baseline`, then once for each seat with that seat
    alone at `level`: the seat's take less what it took with everyone at `baseline`, on the
    same cards and random numbers. The deal's luck cancels out, so far fewer deals tell."""
    players = players_for(spec)
    options = spec.options_model(**OPTIONS.get(spec.id, {}))
    times: dict[str, list[float]] = {level: [], baseline: []}
    worlds: list[int] = []
    gains: list[float] = []
    started = time.perf_counter()
    for deal in range(deals):
        everyone = play_deal(
            spec, options, [baseline] * players, seed + deal, times, worlds, budget
        )
        for seat in range(players):
            levels = [level if s == seat else baseline for s in range(players)]
            took = play_deal(spec, options, levels, seed + deal, times, worlds, budget)
            gains.append(took[seat] - everyone[seat])
    mean = statistics.fmean(gains)
    half = Z95 * statistics.stdev(gains) / math.sqrt(len(gains)) if len(gains) > 1 else 0
    unit = "chips" if spec.chips_for(options) else "first places"
    one = "match" if spec.id in MATCH_ONLY else "hand"
    elapsed = time.perf_counter() - started
    return (
        f"{spec.name} ({players} players), one {level} seat among {baseline}: {len(gains)} "
        f"seat-{one}s, its {unit} per {one} over the same seat's with every seat {baseline} "
        f"{mean:+.3f} (95% CI {mean - half:+.3f} to {mean + half:+.3f}); "
        f"{timings(times, worlds, (level, baseline))}; {elapsed:.0f} s"
    )


def won_share(per_deal: list[tuple[float, float]]) -> float:
    ours = sum(o for o, _ in per_deal)
    theirs = sum(t for _, t in per_deal)
    return ours / (ours + theirs) if ours + theirs else 0.5


def share_interval(
    per_deal: list[tuple[float, float]], players: int, seed: int
) -> tuple[float, float]:
    """Wilson's interval where each deal is one player against one (a share of wins); else
    a bootstrap over the deals."""
    if players == 2:
        return wilson(sum(o for o, _ in per_deal), len(per_deal))
    rng = random.Random(seed)
    shares = sorted(won_share([rng.choice(per_deal) for _ in per_deal]) for _ in range(BOOTSTRAP))
    return shares[int(0.025 * BOOTSTRAP)], shares[int(0.975 * BOOTSTRAP) - 1]


def percentile(seconds: list[float], share: float) -> float:
    ordered = sorted(seconds)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] * 1000 if ordered else 0


if __name__ == "__main__":
    main()
