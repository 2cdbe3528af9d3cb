"""Porrazo on Discord: its GameUI (how its table, hands and events read) and RULES, what
`/porrazo rules` shows, read from rules.md beside this module. Its slash commands are
cogs/porrazo.py."""

from __future__ import annotations

import discord

from bot.cards import Rank
from bot.discord.format import SIDE_NAMES, plural
from bot.discord.game_ui import rules_beside
from bot.discord.picker import Group, Picked, Picker, PickerUI, Zone, cards_text
from bot.engine import Action, Event
from bot.games.porrazo import (
    PORRAZO,
    Dealt,
    DealTendido,
    Declare,
    Declared,
    HandDealt,
    HandScored,
    NoTendido,
    OddCards,
    Play,
    Played,
    PorrazoOptions,
    PorrazoView,
    Replenished,
    SanBenito,
    Scored,
    Swept,
    TendidoDealt,
    TendidoDeferred,
    meant_take,
    move_of,
    pip,
    play_problem,
    run_order,
)
from bot.tables import Table

RULES = rules_beside(__name__)

MOVES = {
    "counter": "counter-porrazo!",
    "san_benito": "san benito!",
}
LONE_LIMPIA = "a limpia too if it stands"
REASONS = {
    "limpia": "a limpia",
    "porrazo": "a porrazo",
    "counter_porrazo": "a counter-porrazo",
    "tendido": "the tendido",
    "cards": "the most cards",
}


def side_name(seats: list[int], names: list[str]) -> str:
    return " & ".join(names[seat] for seat in seats)


def rank_plural(rank: Rank) -> str:
    return f"{rank.label}s"


def score_reason(event: Scored) -> str:
    if event.why == "in_place":
        assert event.rank is not None  # the card's, scoring its pip
        return f"a {event.rank.label} in place"
    if event.why in ("ronda", "rondine"):
        return f"the highest {event.why}, {cards_text(event.cards)}"
    reason = REASONS[event.why]
    if event.why == "limpia" and not event.cards:
        assert event.rank is not None  # the last rank taken, which it scores as a ronda of
        return f"{reason} (up to the {event.rank.label})"
    if event.cards:
        return f"{reason} ({cards_text(event.cards)})"
    return reason


class PorrazoUI(PickerUI[PorrazoView, PorrazoOptions]):
    game_id = PORRAZO.id
    colour = discord.Colour.dark_gold()

    def options_text(self, options: PorrazoOptions) -> str:
        who = "two partnerships" if options.partnerships else "everyone for themselves"
        return f"{who}, game to {options.target}"

    # ---- the table -----------------------------------------------------------------------------

    def seat_lines(self, view: PorrazoView, names: list[str]) -> list[str]:
        lines = []
        partners = len(view.sides) < len(names)
        for seat, name in enumerate(names):
            pointer = "▶ " if seat == view.turn else ""
            dealer = " (dealer)" if seat == view.dealer else ""
            line = f"{pointer}**{name}**{dealer} · {plural(view.counts[seat], 'card')}"
            if not partners:
                line += f" · {plural(view.scores[seat], 'point')} · {view.won[seat]} won"
            lines.append(line)
        if partners:
            lines += [
                f"**Side {SIDE_NAMES[side]}** ({side_name(seats, names)}) · "
                f"{plural(view.scores[side], 'point')} · {view.won[side]} won"
                for side, seats in enumerate(view.sides)
            ]
        return lines

    def add_table(self, embed: discord.Embed, view: PorrazoView, names: list[str]) -> None:
        embed.add_field(name="Table", value=cards_text(view.table) if view.table else "empty")
        if view.porrazo:
            kind = "porrazo" if len(view.porrazo) == 2 else "counter-porrazo"
            rank, seat = view.porrazo[0].rank, view.porrazo_seat
            # Porrazo's pack has no jokers, and a pending porrazo names its player.
            assert rank is not None and seat is not None
            limpia = f"; {LONE_LIMPIA}" if view.porrazo_limpia else ""
            embed.add_field(
                name=kind.capitalize(),
                value=f"{names[seat]}'s {kind}: {cards_text(view.porrazo)} "
                f"(a {rank.label} next counters it{limpia})",
                inline=False,
            )
        if view.declared:
            declared = ", ".join(f"{names[d.seat]} a {d.set_name}" for d in view.declared)
            embed.add_field(name="Declared", value=declared, inline=False)

    def public_embed(self, table: Table, view: PorrazoView, names: list[str]) -> discord.Embed:
        embed = discord.Embed(
            title=f"Porrazo · hand {view.hand} · deal {view.deal}", colour=self.colour
        )
        embed.description = "\n".join(self.seat_lines(view, names))
        self.add_table(embed, view, names)
        embed.add_field(name="Stock", value=plural(view.stock, "card"))
        if view.tendido:
            embed.add_field(name="Tendido", value=cards_text(view.tendido))
        elif view.phase in ("tendido", "play"):
            embed.add_field(name="Tendido", value=f"{names[view.dealer]} hasn't dealt it yet")
        embed.set_footer(text=f"The first side to {view.target} points wins.")
        return embed

    def private_embed(self, table: Table, view: PorrazoView, names: list[str]) -> discord.Embed:
        embed = discord.Embed(title=f"Your Porrazo hand · table {table.id}", colour=self.colour)
        hand = view.my_cards or []
        embed.description = f"{cards_text(hand)}  ({plural(len(hand), 'card')}, deal {view.deal})"
        side = next(i for i, seats in enumerate(view.sides) if view.seat in seats)
        embed.add_field(
            name="Your side" if len(view.sides[side]) > 1 else "Your score",
            value=f"{side_name(view.sides[side], names)} · "
            f"{plural(view.scores[side], 'point')} · {view.won[side]} cards won",
        )
        if view.my_declared:
            embed.add_field(name="You declared", value=cards_text(view.my_declared))
        elif view.my_declarable:
            embed.add_field(name="You may declare", value=f"a {view.my_declarable}")
        self.add_table(embed, view, names)
        return embed

    def hand_summary(
        self, table: Table, view: PorrazoView, names: list[str]
    ) -> discord.Embed | None:
        if view.result is None:
            return None
        embed = discord.Embed(title=f"Porrazo · hand {view.hand} over", colour=self.colour)
        embed.description = "\n".join(
            f"**{side_name(seats, names)}**: {plural(view.won[side], 'card')} won · "
            f"{plural(view.hand_points[side], 'point')} this hand · total {view.scores[side]}"
            for side, seats in enumerate(view.sides)
        )
        embed.set_footer(text="The side with the most cards scores the difference to the next.")
        return embed

    # ---- picking a card and what it takes -------------------------------------------------------

    def picker(self, view: PorrazoView) -> Picker | None:
        if view.phase != "play" or view.turn != view.seat or not view.my_cards:
            return None
        return Picker(
            zones=(
                Zone("your hand", view.my_cards, low=1, high=1),
                Zone("the table", [*view.table, *view.porrazo]),
            ),
            groups=(Group("Selected", low=1, high=None),),
            verb="Play selected",
        )

    def pick_action(self, view: PorrazoView, picked: Picked) -> Play:
        (card,), taken = picked.zones
        return Play(card=card, take=meant_take(card, taken, view.table, view.porrazo))

    def pick_reason(self, view: PorrazoView, picked: Picked) -> str | None:
        assert view.my_cards is not None  # only a hand that holds cards has a picker
        play = self.pick_action(view, picked)
        return play_problem(play.card, play.take, view.my_cards, view.table, view.porrazo)

    def pick_text(self, view: PorrazoView, picked: Picked) -> str | None:
        return play_label(view, self.pick_action(view, picked))

    def pick_of(self, view: PorrazoView, action: Action) -> list[list] | None:
        return [[action.card, *action.take]] if isinstance(action, Play) else None

    # ---- words ---------------------------------------------------------------------------------

    def action_label(self, view: PorrazoView, action: Action) -> str:
        match action:
            case Declare():
                return f"Declare your {view.my_declarable or 'set'}"
            case DealTendido():
                return "Deal the tendido now"
            case NoTendido():
                return "Not yet"
            case Play():
                return play_label(view, action)
        return super().action_label(view, action)

    def event_line(self, event: Event, names: list[str]) -> str | None:
        match event:
            case HandDealt():
                first = names[(event.dealer + 1) % len(names)]
                return f"{names[event.dealer]} deals; {first} plays first."
            case Replenished():
                return f"Deal {event.deal}: three cards each ({event.stock} left in the stock)."
            case Dealt():
                return None  # your hand shows the deal: a line per deal would only pile up
            case TendidoDealt():
                return tendido_line(event, names)
            case TendidoDeferred():
                return f"{names[event.dealer]} keeps the tendido for a later deal."
            case OddCards():
                return f"The odd cards go face up on the table: {cards_text(event.cards)}."
            case Declared():
                return f"{names[event.seat]} declares a {event.set_name}."
            case Played():
                return played_line(event, names)
            case Scored():
                if event.why == "cards":
                    return None  # the hand's count says it
                side = side_name(event.side_seats, names)
                return (
                    f"{names[event.seat]} scores {event.points} for {score_reason(event)} "
                    f"· {side}: {plural(event.total, 'point')}."
                )
            case SanBenito():
                wins = "win" if len(event.side_seats) > 1 else "wins"
                return f"San benito: {side_name(event.side_seats, names)} {wins} the game!"
            case Swept():
                taken = cards_text(event.cards) if event.cards else "nothing"
                return f"{names[event.seat]}'s last card takes the rest of the table: {taken}."
            case HandScored():
                return hand_line(event, names)
        return None


def play_label(view: PorrazoView, action: Play) -> str:
    """How a play reads on a button or in the suggestions."""
    card, take = action.card.label, cards_text(run_order(action.card, action.take))
    move = move_of(action.card, action.take, view.table, view.porrazo, view.trailed)
    match move:
        case "placed":
            return f"Place {card}"
        case "in_place":
            return f"{card} in place (+{pip(action.card)})"
        case "porrazo":
            lone = f", {LONE_LIMPIA}" if len(view.table) == 1 else ""
            return f"{card} porrazo on {take}{lone}"
        case "limpia":
            return f"{card} takes {take} (limpia)"
        case "counter" | "san_benito":
            return f"{card} takes {take}: {MOVES[move]}"
    return f"{card} takes {take}"


def played_line(event: Played, names: list[str]) -> str:
    who, card = names[event.seat], event.card.label
    match event.move:
        case "placed":
            return f"{who} places {card}."
        case "in_place":
            return f"{who} plays {card} in place."
        case "porrazo":
            return f"{who} plays {card} on {cards_text(event.taken)}: porrazo!"
        case "counter" | "san_benito":
            return f"{who} plays {card} on {cards_text(event.taken)}: {MOVES[event.move]}"
        case "last":
            return f"{who} plays the last card, {card}."
    limpia = ": limpia!" if event.move == "limpia" else "."
    return f"{who} plays {card} and takes {cards_text(event.taken)}{limpia}"


def tendido_line(event: TendidoDealt, names: list[str]) -> str:
    parts = []
    if event.in_place:
        parts.append(f"{cards_text(event.in_place)} in place")
    for found in event.sets:
        size = {2: "a pair", 3: "three", 4: "four"}[found.count]
        parts.append(f"{size} of {rank_plural(found.rank)}")
    scoring = f" ({'; '.join(parts)})" if parts else ": nothing scores"
    return f"{names[event.dealer]} deals the tendido: {cards_text(event.cards)}{scoring}."


def hand_line(event: HandScored, names: list[str]) -> str:
    result = event.result
    counts = " · ".join(
        f"{side_name(seats, names)} {result.won[side]}" for side, seats in enumerate(event.sides)
    )
    if result.side is None:
        return f"Hand over, cards won: {counts}. A tie for the most: nobody scores."
    winner = side_name(event.sides[result.side], names)
    return f"Hand over, cards won: {counts}. {winner} +{result.points}."
