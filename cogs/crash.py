"""/crash: Crash (Thirteen-Card Brag) tables: hands set in secret in each player's DM with the
picker's four groups, revealed together, points per position to 7."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import discord
from pydantic import BaseModel

from bot.discord.format import plural
from bot.discord.picker import Group, Picked, Picker, PickerUI, Zone, add_picker, cards_text
from bot.discord.tables import table_game_cog
from bot.engine import Action, Event, IllegalAction
from bot.games.crash import (
    CRASH,
    HAND_CARDS,
    MAX_HANDS,
    Arrange,
    CrashView,
    DeclareSixPairs,
    HandResult,
    RevealStraight,
    arrangement_problem,
    hand_name,
)
from bot.tables import Table

if TYPE_CHECKING:
    from bot.app import CardTableBot

RULES = """\
**Crash** (Thirteen-Card Brag) · 2-4 players · French 52, thirteen cards each
**Setting.** Everyone sets at the same time, in secret, in their DM: up to four Brag hands \
of three cards, each a pair or better (tap cards into Hand 1 to Hand 4, or choose a \
suggested arrangement). Cards you leave out are discarded face down and never shown. You may \
set fewer hands than you could. The bot ranks your hands itself, strongest first, so a foul \
can't happen; a hand below a pair is refused.
**Brag hands.** Prial (three of a kind: 3-3-3 highest, then A-A-A, K-K-K ... 2-2-2) > \
running flush > run > flush > pair > high card. Runs: A-2-3 highest, then A-K-Q, K-Q-J ... \
4-3-2 lowest (no other wrap). Flushes and high cards compare from the top card down, pairs by \
the pair, then the odd card. Suits never break ties.
**Showdown.** When everyone has set, all hands are shown. Everyone's strongest hands compete \
for position 1, the second strongest for position 2, and so on: the best hand scores 1 \
point, and a player alone at a position (say the only one with a fourth hand) wins it. A tie \
for the best hand is a stick-up: nobody scores it.
**Crash.** A player who wins all four positions wins the game at once.
**Four of a kind.** The highest four of a kind whose four cards are all in the set hands \
(in one hand or spread over two) scores 1 more: 4s highest, then A, K, Q ... 5, 3, 2. A \
four of a kind with a card discarded doesn't compete.
**Six pairs.** Holding six pairs (a three of a kind counts one pair, a four of a kind two), \
you may declare them instead of setting. Declaring is as secret as setting; once everyone is \
ready the hand is void (nobody scores, nothing is shown) and the same dealer deals again. Or \
just set your hands and play.
**Thirteen-card straight.** Ace down to 2, any suits: its holder reveals it (nothing else \
is offered, as it wins) and wins the game at once, whatever the others are doing. Two \
holders would share the win.
**Game.** The first to 7 points (or the table's target) wins at once: positions are scored \
1 to 4 in order, then the four-of-a-kind point, and the hand stops the moment someone \
reaches the target, so two players never reach it together. The deal passes left.
**House decisions.** Thirteen each, dealt in blocks from the dealer's left; the rest is set \
aside unseen. A set can't be changed once made. On timeout you get the first suggestion: the \
arrangement expected to win the most positions, judged against how strong hands at each \
position usually are (never a declaration of six pairs; a thirteen-card straight is \
revealed). Leaving between hands ends the game for everyone; the leaver is placed last."""

PLACES = ("1st", "2nd", "3rd", "4th")


def hand_line(cards: Sequence) -> str:
    return f"{cards_text(cards)} ({hand_name(cards)})"


def names_list(seats: Sequence[int], names: list[str]) -> str:
    return " and ".join(names[seat] for seat in seats)


def position_lines(result: HandResult, names: list[str]) -> list[str]:
    """How each position went: who won it with what, a stick-up, or nobody there."""
    lines = []
    for position in result.positions:
        place = PLACES[position.position - 1]
        if position.winner is not None:
            seat = position.winner
            hand = result.sets[seat][position.position - 1]
            alone = " (alone there)" if len(position.contenders) == 1 else ""
            lines.append(f"{place}: {names[seat]}{alone}, {hand_name(hand)}")
        elif position.best:
            hand = result.sets[position.best[0]][position.position - 1]
            tied = names_list(position.best, names)
            lines.append(f"{place}: stick-up, {tied} tie with {hand_name(hand)}: nobody scores")
        else:
            lines.append(f"{place}: nobody set a hand")
    if result.bonus is not None:
        rank = result.bonus.rank.label
        lines.append(f"Four {rank}s used in full: 1 more to {names[result.bonus.seat]}")
    if result.crash is not None:
        lines.append(f"**Crash!** {names[result.crash]} won all four positions and the game.")
    elif result.target_reached:
        leader = max(range(len(names)), key=lambda seat: result.totals[seat])
        lines.append(f"{names[leader]} reaches the target and wins; the rest isn't scored.")
    return lines


def showdown_text(result: HandResult, names: list[str]) -> str:
    """One line: who took which position."""
    parts = []
    for position in result.positions:
        place = PLACES[position.position - 1]
        if position.winner is not None:
            parts.append(f"{place} {names[position.winner]}")
        else:
            parts.append(f"{place} {'stick-up' if position.best else 'nobody'}")
    text = "Hands revealed: " + ", ".join(parts) + "."
    if result.bonus is not None:
        text += f" Four {result.bonus.rank.label}s: 1 more to {names[result.bonus.seat]}."
    if result.crash is not None:
        text += f" {names[result.crash]} crashes!"
    return text


def add_result(embed: discord.Embed, result: HandResult, names: list[str]) -> None:
    """Every player's hands as revealed, and how the positions went."""
    for seat, hands in enumerate(result.sets):
        lines = [f"{number}. {hand_line(hand)}" for number, hand in enumerate(hands, start=1)]
        lines.append(f"{plural(result.discards[seat], 'card')} discarded")
        points = plural(result.points[seat], "point")
        embed.add_field(name=f"{names[seat]} · +{points}", value="\n".join(lines), inline=False)
    embed.add_field(
        name="Positions", value="\n".join(position_lines(result, names))[:1024], inline=False
    )


class CrashUI(PickerUI):
    game_id = CRASH.id
    colour = discord.Colour.dark_purple()

    # ---- the table ------------------------------------------------------------------------

    def public_embed(self, table: Table, view: CrashView, names: list[str]) -> discord.Embed:
        embed = discord.Embed(title=f"Crash · hand {view.hand}", colour=self.colour)
        lines = []
        for seat in view.seats:
            dealer = " (dealer)" if seat.seat == view.dealer else ""
            status = ""
            if view.phase == "setting":
                status = " · ready" if seat.ready else " · setting…"
            score = plural(seat.score, "point")
            lines.append(f"**{names[seat.seat]}**{dealer} · {score}{status}")
        lines.append(f"First to {view.target} wins.")
        embed.description = "\n".join(lines)
        if view.result is not None:
            add_result(embed, view.result, names)
        self.add_specials(embed, view, names)
        return embed

    def add_specials(self, embed: discord.Embed, view: CrashView, names: list[str]) -> None:
        if view.void and view.phase == "between":
            declared = names_list([s.seat for s in view.seats if s.declared], names)
            embed.add_field(
                name="Void hand",
                value=f"{declared} declared six pairs: nobody scores, and "
                f"{names[view.dealer]} deals again.",
                inline=False,
            )
        for seat in view.seats:
            if seat.straight is not None:
                embed.add_field(
                    name=f"{names[seat.seat]}'s thirteen-card straight",
                    value=f"{cards_text(seat.straight)}: wins the game.",
                    inline=False,
                )

    def hand_summary(self, table: Table, view: CrashView, names: list[str]) -> discord.Embed:
        embed = discord.Embed(title=f"Crash · hand {view.hand}: the reveal", colour=self.colour)
        if view.result is not None:
            add_result(embed, view.result, names)
            totals = ", ".join(f"{names[s]} {t}" for s, t in enumerate(view.result.totals))
            embed.set_footer(text=f"Scores: {totals} (first to {view.target})")
        self.add_specials(embed, view, names)
        return embed

    def closed_embed(self, table: Table, view: CrashView, names: list[str]) -> discord.Embed:
        embed = discord.Embed(title="Crash: the game is over", colour=discord.Colour.dark_grey())
        embed.description = "\n".join(
            f"**{names[seat.seat]}** · {plural(seat.score, 'point')}" for seat in view.seats
        )
        if view.result is not None:
            embed.add_field(
                name="Last hand",
                value="\n".join(position_lines(view.result, names))[:1024],
                inline=False,
            )
        self.add_specials(embed, view, names)
        return embed

    def private_embed(self, table: Table, view: CrashView, names: list[str]) -> discord.Embed:
        cards = view.my_cards or []
        embed = discord.Embed(title=f"Your Crash hand · table {table.id}", colour=self.colour)
        embed.description = f"{cards_text(cards)}  ({plural(len(cards), 'card')})"
        if view.my_straight:
            embed.add_field(
                name="Thirteen-card straight",
                value="Ace down to 2: reveal it and you win the game.",
                inline=False,
            )
        if view.my_set is not None:
            used = {card for hand in view.my_set for card in hand}
            lines = [f"{n}. {hand_line(hand)}" for n, hand in enumerate(view.my_set, start=1)]
            lines.append(f"Discarded: {cards_text([c for c in cards if c not in used])}")
            embed.add_field(name="Your hands, as set", value="\n".join(lines), inline=False)
        if view.my_declared:
            embed.add_field(name="Six pairs", value="You declared six pairs.", inline=False)
        elif view.my_six_pairs:
            embed.add_field(
                name="Six pairs",
                value="You may declare them instead of setting: the hand is then void and "
                "the same dealer deals again.",
                inline=False,
            )
        if self.picker(view) is not None:
            embed.add_field(
                name="How to set",
                value="Tap three cards for Hand 1, press **Fill Hand 2** for the next, and so "
                "on (up to four hands, each a pair or better); cards left out are discarded. "
                "The bot ranks your hands. Or choose a suggested arrangement.",
                inline=False,
            )
        return embed

    # ---- picking cards ------------------------------------------------------------------

    def picker(self, view: CrashView) -> Picker | None:
        setting = view.phase == "setting" and view.my_set is None and not view.my_declared
        if not setting or view.my_straight or not view.my_cards:
            return None
        groups = tuple(
            Group(f"Hand {n}", tag=str(n), low=0, high=HAND_CARDS) for n in range(1, MAX_HANDS + 1)
        )
        return Picker(
            zones=(Zone("your hand", view.my_cards),),
            groups=groups,
            kinds=frozenset({"arrange"}),
            verb="Set these hands",
        )

    def pick_action(self, view: CrashView, picked: Picked) -> Action:
        hands = [list(group) for group in picked.groups if group]
        if not hands:
            raise IllegalAction("Put three cards in a hand first, or choose a suggestion.")
        return Arrange(hands=hands)

    def pick_reason(self, view: CrashView, picked: Picked) -> str | None:
        for number, group in enumerate(picked.groups, start=1):
            if 0 < len(group) < HAND_CARDS:
                return f"Hand {number} has {plural(len(group), 'card')}: a hand takes three."
        hands = [list(group) for group in picked.groups if group]
        return arrangement_problem(hands, view.my_cards or [])

    def pick_of(self, view: CrashView, action: Action) -> list[list] | None:
        return [list(hand) for hand in action.hands] if isinstance(action, Arrange) else None

    # ---- words ----------------------------------------------------------------------------

    def action_label(self, view: BaseModel, action: Action) -> str:
        if isinstance(action, DeclareSixPairs):
            return "Declare six pairs (void the hand)"
        if isinstance(action, RevealStraight):
            return "Reveal your thirteen-card straight"
        if isinstance(action, Arrange):
            return " | ".join(cards_text(hand) for hand in action.hands) or "Discard everything"
        return super().action_label(view, action)

    def event_line(self, event: Event, names: list[str]) -> str | None:
        match event.kind:
            case "hand_started":
                again = " again: the last hand was void" if event.redeal else ""
                return f"Hand {event.hand}: {names[event.dealer]} deals{again}. Set your hands!"
            case "ready":
                return f"{names[event.seat]} is ready."
            case "showdown":
                return showdown_text(event.result, names)
            case "hand_void":
                declared = names_list(event.declared, names)
                return (
                    f"{declared} declared six pairs: the hand is void, and "
                    f"{names[event.dealer]} deals again."
                )
            case "straight_revealed":
                winners = names_list(event.seats, names)
                return f"{winners} reveals a thirteen-card straight and wins the game!"
        return None


Crash = table_game_cog("crash", CRASH, RULES)


async def setup(bot: CardTableBot) -> None:
    add_picker(bot)
    bot.presenter.register(CrashUI())
    await bot.add_cog(Crash(bot))
