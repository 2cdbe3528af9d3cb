"""Last One on Discord: its GameUI (how its table, hands and events read) and RULES, what
`/lastone rules` shows, read from rules.md beside this module. Its slash commands are
cogs/last_one.py."""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.cards import Rank
from bot.discord.controls import MAX_SELECT_OPTIONS, ActionButton, ActionSelect, Controls
from bot.discord.format import plural, relative_time
from bot.discord.game_ui import GameUI, rules_beside
from bot.discord.picker import cards_text
from bot.discord.points import player_line
from bot.engine import Action, Event
from bot.games.last_one import (
    LAST_ONE,
    SUIT_NAMES,
    SUITS,
    Call,
    Called,
    CardNamed,
    Continue,
    Dealt,
    Draw,
    Drew,
    EndedTurn,
    EndTurn,
    HandScored,
    LastOneOptions,
    LastOneView,
    MeleeContinued,
    MeleeEnded,
    MeleeStarted,
    NameCard,
    NameSuit,
    Play,
    Played,
    Reversed,
    Skipped,
    StockRebuilt,
    SuitNamed,
    named_text,
)
from bot.tables import Table, action_token

MAX_BUTTONS = 5  # one row: more plays than that go in a select

RULES = rules_beside(__name__)


def seat_line(view: LastOneView, seat: int, name: str) -> str:
    points = plural(view.scores[seat], "point")
    if view.out[seat]:
        return f"~~{name}~~ · out · {points}"
    held = plural(view.counts[seat], "card") if seat in view.players else "not dealt"
    return player_line(name, [held, points], turn=seat == view.turn, dealer=seat == view.dealer)


def upcard_text(view: LastOneView) -> str:
    if view.upcard is None:
        return "none"
    if view.named is not None:
        return f"{view.upcard.label} as {named_text(view.named.rank, view.named.suit)}"
    if view.suit is not None:
        return f"{view.upcard.label}: {SUIT_NAMES[view.suit]} named"
    return view.upcard.label


def direction_text(direction: int) -> str:
    return "to the left" if direction == 1 else "to the right"


def add_melee(embed: discord.Embed, table: Table, view: LastOneView, names: list[str]) -> None:
    """The melee under way, if there is one: who attacks, who defends, who may continue."""
    melee = view.melee
    if melee is None:
        return
    step = named_text(Rank(melee.rank + 1), melee.suit)
    closes = (
        f"closes {relative_time(table.record.deadline)}"
        if table.record.deadline
        else f"lasts {view.melee_seconds} s"
    )
    text = (
        f"{names[melee.aggressor]} attacks, {names[melee.defender]} defends. Whoever holds "
        f"{step} (or a joker) may continue now, from their DM or My hand; the window "
        f"{closes}. If nobody does, {names[melee.defender]} draws {int(melee.rank)}."
    )
    embed.add_field(name="Melee!", value=text, inline=False)


CALL_OPEN = (
    "A player down to one card may call Last one! now, from their DM or My hand, until "
    "another player plays or draws."
)


class LastOneUI(GameUI[LastOneView, LastOneOptions]):
    game_id = LAST_ONE.id
    colour = discord.Colour.dark_teal()

    # ---- the table ---------------------------------------------------------------------------

    def public_embed(self, table: Table, view: LastOneView, names: list[str]) -> discord.Embed:
        embed = discord.Embed(title=f"Last One · hand {view.hand}", colour=self.colour)
        embed.description = "\n".join(
            seat_line(view, seat, name) for seat, name in enumerate(names)
        )
        embed.add_field(name="Upcard", value=upcard_text(view))
        embed.add_field(name="Stock", value=f"{view.stock} · discards {view.discards}")
        embed.add_field(name="Play goes", value=direction_text(view.direction))
        add_melee(embed, table, view, names)
        if view.call_open:  # whose call is not said: the table only learns it is open
            embed.add_field(name="Last one!", value=CALL_OPEN, inline=False)
        embed.set_footer(
            text=f"{view.cards_each} cards each · out at {view.threshold} points · "
            "the last player in wins"
        )
        return embed

    def private_embed(self, table: Table, view: LastOneView, names: list[str]) -> discord.Embed:
        embed = discord.Embed(title=f"Your Last One hand · table {table.id}", colour=self.colour)
        hand = view.my_cards or []
        embed.description = f"{cards_text(hand)}  ({plural(len(hand), 'card')})"
        embed.add_field(name="Upcard", value=upcard_text(view))
        assert view.seat is not None  # a private view is its seat's
        embed.add_field(name="Your score", value=plural(view.scores[view.seat], "point"))
        if view.my_playable is not None:
            embed.add_field(name="You may play", value=cards_text(view.my_playable), inline=False)
        add_melee(embed, table, view, names)
        if view.must_call:
            embed.add_field(
                name="One card left",
                value="Press Last one! before another player plays, or draw two.",
                inline=False,
            )
        return embed

    def hand_summary(
        self, table: Table, view: LastOneView, names: list[str]
    ) -> discord.Embed | None:
        if view.last_points is None or view.revealed is None:
            return None
        embed = discord.Embed(title=f"Last One · hand {view.hand} over", colour=self.colour)
        lines = []
        for seat in view.players:
            cards = view.revealed[seat]
            if not cards:
                lines.append(f"**{names[seat]}** · out of cards · 0")
                continue
            why = " (one card)" if len(cards) == 1 else ""
            out = " · **out of the game**" if view.out[seat] else ""
            lines.append(
                f"**{names[seat]}** · {cards_text(cards)} · {view.last_points[seat]}{why} · "
                f"total {view.scores[seat]}{out}"
            )
        embed.description = "\n".join(lines)
        embed.set_footer(text=f"Out at {view.threshold} points.")
        return embed

    def options_text(self, options: LastOneOptions) -> str:
        size = f"hand size: {options.hand_size}"
        if options.hand_size == 9:
            size += " (by joining, every player accepts nine cards; five players at most)"
        return f"{size}, threshold: {options.threshold}, melee seconds: {options.melee_seconds}"

    # ---- controls ------------------------------------------------------------------------------

    def private_controls(self, table: Table, seat: int) -> discord.ui.View | None:
        """Buttons for a few choices; the cards you may play in a select when there are more;
        a joker's card named from one select per suit."""
        actions = table.legal_actions(seat)
        if not actions:
            return None
        view = table.view(seat)
        assert isinstance(view, LastOneView)  # a Last One table's
        prompt = table.seats[seat].prompt
        plays = [a for a in actions if isinstance(a, Play)]
        names = [a for a in actions if isinstance(a, NameCard)]
        others = [a for a in actions if not isinstance(a, Play | NameCard)]
        if len(plays) + len(others) <= MAX_BUTTONS:
            others, plays = plays + others, []
        controls = Controls()
        for action in others:
            label = self.action_label(view, action)
            controls.button(**ActionButton.look(table.id, prompt, action_token(action), label))
        for part, start in enumerate(range(0, len(plays), MAX_SELECT_OPTIONS)):
            chunk = self.options(view, plays[start : start + MAX_SELECT_OPTIONS])
            controls.select(**ActionSelect.look(table.id, prompt, "play", chunk, part))
        for suit in SUITS if names else ():
            chunk = self.options(view, [a for a in names if a.suit == suit])
            kind = f"name_{SUIT_NAMES[suit]}"
            controls.select(**ActionSelect.look(table.id, prompt, kind, chunk))
        return controls

    def options(self, view: LastOneView, actions: Sequence[Action]) -> list[tuple[str, str]]:
        return [(action_token(action), self.action_label(view, action)) for action in actions]

    # ---- words ---------------------------------------------------------------------------------

    def action_label(self, view: LastOneView, action: Action) -> str:
        match action:
            case Play():
                card = action.card
                then = ""
                if card.is_joker:
                    then = " (then name a card)"
                elif card.rank == Rank.EIGHT:
                    then = " (then name a suit)"
                return f"Play {card.label}{then}"
            case Draw():
                return "Draw a card" if view.stock or view.discards else "Pass (nothing to draw)"
            case EndTurn():
                return "End your turn"
            case NameSuit():
                return f"{action.suit.symbol} {SUIT_NAMES[action.suit].capitalize()}"
            case NameCard():
                return f"{action.rank.label}{action.suit.symbol}"
            case Continue():
                if action.card.is_joker:
                    assert view.melee is not None  # a melee is continued only while it is on
                    standing = named_text(action.rank, view.melee.suit)
                    return f"Continue with {action.card.label} as {standing}"
                return f"Continue with {action.card.label}"
            case Call():
                return "Last one!"
        return action.kind.title()

    def event_line(self, event: Event, names: list[str]) -> str | None:
        match event:
            case Dealt():
                return (
                    f"{names[event.dealer]} deals {event.cards_each} cards each; "
                    f"the upcard is {event.upcard.label}."
                )
            case Played():
                verb = "adds" if event.free else "plays"
                return f"{names[event.seat]} {verb} {event.card.label} ({event.left} left)."
            case EndedTurn():
                return f"{names[event.seat]} adds no card."
            case SuitNamed():
                return f"{names[event.seat]} names {SUIT_NAMES[event.suit]}."
            case CardNamed():
                return (
                    f"{names[event.seat]}'s joker stands for {named_text(event.rank, event.suit)}."
                )
            case Skipped():
                return f"{names[event.seat]} is skipped."
            case Reversed():
                return f"Play now goes {direction_text(event.direction)}."
            case Drew():
                return self.drew_line(event, names)
            case StockRebuilt():
                return (
                    f"The discards ({plural(event.count, 'card')}) are shuffled into a new "
                    "stock; the upcard stays."
                )
            case MeleeStarted() | MeleeContinued() | MeleeEnded():
                return self.melee_line(event, names)
            case Called():
                return f"{names[event.seat]} calls Last one!"
            case HandScored():
                line = f"{names[event.winner]} goes out: the hand is over."
                for seat in event.eliminated:
                    line += f" {names[seat]} reaches {event.totals[seat]} and is out of the game."
                return line
        return None

    def melee_line(
        self, event: MeleeStarted | MeleeContinued | MeleeEnded, names: list[str]
    ) -> str:
        if isinstance(event, MeleeStarted):
            step = named_text(Rank.FIVE, event.suit)
            return (
                f"Melee! {names[event.seat]} attacks, {names[event.defender]} defends: "
                f"whoever holds {step} (or a joker) may continue."
            )
        if isinstance(event, MeleeEnded):
            if event.rank == Rank.KING:
                return "The King ends the melee."
            return "Nobody goes on: the melee is over."
        card = event.card.label
        if event.card.is_joker:
            card += f" as {named_text(event.rank, event.suit)}"
        return (
            f"{names[event.seat]} continues the melee with {card} ({event.left} left): "
            f"{names[event.defender]} defends."
        )

    def drew_line(self, event: Drew, names: list[str]) -> str:
        if event.audience is not None:  # the drawer's own copy
            return f"You drew {cards_text(event.cards)}." if event.cards else "You drew nothing."
        who, count = names[event.seat], plural(event.count, "card")
        short = (
            f" (only {event.count}: the stock and the discards ran out)"
            if event.count < event.wanted
            else ""
        )
        match event.reason:
            case "draw":
                if not event.wanted or not event.count:
                    return f"{who} passes: nothing is left to draw."
                return f"{who} draws a card."
            case "two":
                return f"{who} draws {count} for the 2{short}."
            case "melee":
                return f"{who}, the last defender, draws {count}{short}."
        return f"{who} didn't call Last one! in time: {count} as a penalty{short}."
