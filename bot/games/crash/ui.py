"""Crash on Discord: its GameUI (how its table, hands and events read) and RULES, what
`/crash rules` shows, read from rules.md beside this module. Its slash commands are
cogs/crash.py.

Setting is made for a phone, with the card picker's arrangement under review
(bot/discord/picker): a tapped card goes into the first hand with room (tapped again, it comes
out), "Fill the rest" completes the hands from the cards left, and a suggestion fills all four;
each complete hand is named, and nothing is set before "Set these hands". What is placed so far
travels in the controls' custom_ids, so the setting survives a restart."""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.cards import FrenchCard
from bot.discord.format import plural
from bot.discord.game_ui import rules_beside
from bot.discord.picker import Group, Picked, Picker, PickerUI, Zone, cards_text
from bot.engine import Action, Event
from bot.errors import UserError
from bot.games.crash import (
    CRASH,
    HAND_CARDS,
    MAX_HANDS,
    Arrange,
    CrashOptions,
    CrashView,
    DeclareSixPairs,
    HandResult,
    HandStarted,
    HandVoid,
    Ready,
    RevealStraight,
    Showdown,
    StraightRevealed,
    arrangement_problem,
    fill_hands,
    hand_name,
)
from bot.tables import Table

RULES = rules_beside(__name__)

SET_LABEL = "Set these hands"
HOW_TO_SET = (
    "Tap a card to put it in the first hand with room (Hand 1 to Hand 4); tap it again to "
    "take it out. **Fill the rest** keeps your complete hands and makes the best hands of "
    "the other cards; a **suggestion** fills all four. Change what you like, then press "
    f"**{SET_LABEL}**: only then are they set, for good. Each hand must be a pair or "
    "better; cards left out are discarded, and the bot ranks your hands. On timeout your "
    "first suggestion is set."
)
PLACES = ("1st", "2nd", "3rd", "4th")
# Up to four hands of three, each tagged with its number ("7♠ ·2"); an empty one is fine.
HANDS = tuple(Group(f"Hand {n}", str(n), 0, HAND_CARDS) for n in range(1, MAX_HANDS + 1))


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


class CrashUI(PickerUI[CrashView, CrashOptions]):
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
        if setting_now(view):
            embed.add_field(name="How to set", value=HOW_TO_SET, inline=False)
        return embed

    # ---- setting the hands: the picker's hooks ---------------------------------------------

    def picker(self, view: CrashView) -> Picker | None:
        if not setting_now(view):  # a straight to reveal, or nothing to do now
            return None
        # Each card tapped into the first hand with room; a suggestion or "Fill the rest"
        # fills the hands for review; nothing is set before the verb.
        return Picker(
            zones=(Zone("your hand", held(view)),),
            groups=HANDS,
            kinds=frozenset({"arrange"}),
            verb=SET_LABEL,
            first_with_room=True,
            full="Your four hands are full: tap a card in one to take it out.",
            review=True,
            tool="Fill the rest",
            title="Your hands (not set yet)",
            left_out="Left out (discarded when set)",
            suggested="Suggested hands (to review before setting)…",
        )

    def pick_action(self, view: CrashView, picked: Picked) -> Arrange:
        hands = [list(hand) for hand in picked.groups if hand]
        if not hands:
            raise UserError("Tap cards into your hands first, or choose a suggestion.")
        return Arrange(hands=hands)

    def pick_of(self, view: CrashView, action: Action) -> list[list[FrenchCard]] | None:
        return [list(hand) for hand in action.hands] if isinstance(action, Arrange) else None

    def pick_tool(self, view: CrashView, picked: Picked) -> list[list[FrenchCard]]:
        """Fill the rest: the complete hands kept, the best hands made of every other card."""
        hands = picked.groups
        if all(len(hand) == HAND_CARDS for hand in hands):
            raise UserError("Your four hands are full already.")
        filled = fill_hands(hands, held(view), len(view.seats) - 1)
        if [set(hand) for hand in filled] == [set(hand) for hand in hands]:
            raise UserError("The other cards make no more hands of a pair or better.")
        return filled

    def group_text(self, view: CrashView, cards: Sequence[FrenchCard]) -> str:
        return hand_review(cards)

    def pick_verdict(self, view: CrashView, picked: Picked) -> str:
        return hands_verdict(picked.groups, held(view))

    def waiting_reason(self, view: CrashView) -> str:
        if view.my_set is not None:
            return "Your hands are set: a set can't be changed."
        return "There are no hands to set now."

    # ---- words ----------------------------------------------------------------------------

    def action_label(self, view: CrashView, action: Action) -> str:
        if isinstance(action, DeclareSixPairs):
            return "Declare six pairs (void the hand)"
        if isinstance(action, RevealStraight):
            return "Reveal your thirteen-card straight"
        if isinstance(action, Arrange):
            return " | ".join(cards_text(hand) for hand in action.hands) or "Discard everything"
        return super().action_label(view, action)

    def event_line(self, event: Event, names: list[str]) -> str | None:
        match event:
            case HandStarted():
                again = " again: the last hand was void" if event.redeal else ""
                return f"Hand {event.hand}: {names[event.dealer]} deals{again}. Set your hands!"
            case Ready():
                return f"{names[event.seat]} is ready."
            case Showdown():
                return showdown_text(event.result, names)
            case HandVoid():
                declared = names_list(event.declared, names)
                return (
                    f"{declared} declared six pairs: the hand is void, and "
                    f"{names[event.dealer]} deals again."
                )
            case StraightRevealed():
                winners = names_list(event.seats, names)
                if len(event.seats) == 1:
                    return f"{winners} reveals a thirteen-card straight and wins the game!"
                return f"{winners} reveal a thirteen-card straight and win the game!"
        return None


# ---- setting the hands: the card picker's arrangement under review ----------------------------


def setting_now(view: CrashView) -> bool:
    """Whether the viewing seat has hands to set now (a straight is only revealed)."""
    unset = view.my_set is None and not view.my_declared and not view.my_straight
    return view.phase == "setting" and unset and bool(view.my_cards)


def held(view: CrashView) -> list[FrenchCard]:
    """The viewer's cards while it sets its hands: the picker is drawn only then."""
    assert view.my_cards is not None  # a seat's own view, with its hand dealt
    return view.my_cards


def hand_review(hand: Sequence[FrenchCard]) -> str:
    """A hand under review: its cards, named once complete."""
    if not hand:
        return "empty"
    if len(hand) < HAND_CARDS:
        return cards_text(hand)
    return hand_line(hand)


def hands_verdict(hands: Sequence[Sequence[FrenchCard]], held: Sequence[FrenchCard]) -> str:
    """What the hands under review still need, why the rules would refuse them, or that
    they are ready to be set."""
    for number, hand in enumerate(hands, start=1):
        if 0 < len(hand) < HAND_CARDS:
            return f"Hand {number} needs {plural(HAND_CARDS - len(hand), 'more card')}."
    made = [hand for hand in hands if hand]
    if not made:
        return "Tap cards to put them in your hands, or choose a suggestion."
    problem = arrangement_problem(made, held)
    if problem:
        return f"Can't be set: {problem}"
    return f"Ready: nothing is set until you press **{SET_LABEL}**; then it can't be changed."
