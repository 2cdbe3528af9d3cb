"""/turup: Turup tables (2-12 players, each for themselves, a points match)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord

from bot.discord.commands import table_game_cog
from bot.discord.format import plural
from bot.discord.picker import Group, Picked, Picker, PickerUI, Zone, add_picker, cards_text
from bot.engine import Action, Event, IllegalAction
from bot.games.captures import verify_sum_capture
from bot.games.turup import (
    TURUP,
    Capture,
    Captured,
    Dealt,
    Place,
    Placed,
    RoundScored,
    RoundStarted,
    TurupOptions,
    TurupView,
)
from bot.tables import Table

if TYPE_CHECKING:
    from bot.app import CardTableBot

RULES = """\
**Turup** · 2-12 players, each for themselves · one French pack for 2-4 players, two for \
5-7, three for 8-12
**The deal.** Four cards to each player and four face up on the community pile. The player on \
the dealer's left plays first, then play goes left; the deal passes left after each round.
**A turn.** Play one card from your hand: either it captures from the pile, or you place it \
on the pile. With the pile empty you must place a card. Capturing is never compulsory.
**Captures.** Aces count 1, number cards as printed. A card takes single pile cards of its \
own rank (a match, whatever the suits) and groups of number cards adding up to its value (an \
addition), as many disjoint groups as you like in one turn: a 5 takes 2 + 3 and the 5 beside \
them; a 10 takes A + 2 + 3 + 4. J, Q and K take only matching faces (a K may take every K on \
the pile) and are never part of an addition. Your card and the cards taken go to your pile of \
cards won.
**More cards.** When every hand is empty, four more each. When the stock can't give everyone \
four, what is left is dealt one card at a time round the table from the dealer's left, and \
the cards that can't go round are turned onto the pile. The round ends when the stock is \
dealt out and every hand played.
**Winning.** Each player counts the cards they won; the cards left on the pile count for \
nobody. The table plays the number of rounds it was opened with (1 unless set); the most \
cards won over all rounds wins, equal totals share the place.
**House decisions.** The four cards go to each player in turn from the dealer's left, then \
four to the pile; later deals the same, without the pile. Pick your card and the pile cards it \
takes, then Play selected (no pile card: you place it); the suggested plays list the biggest \
captures found for each card. A player who leaves between rounds forfeits and is placed last; \
the others play on while two remain. On timeout: the suggested capture taking the most cards, \
else your lowest card (ace up to king) is placed on the pile."""


class TurupUI(PickerUI[TurupView, TurupOptions]):
    game_id = TURUP.id
    colour = discord.Colour.dark_gold()

    def score_noun(self, options: TurupOptions) -> tuple[str, str]:
        return "card won", "cards won"

    # ---- the table -----------------------------------------------------------------------------

    def seat_line(self, view: TurupView, seat: int, names: list[str]) -> str:
        pointer = "▶ " if seat == view.turn else ""
        dealer = " (dealer)" if seat == view.dealer else ""
        if not view.playing[seat]:
            return f"{names[seat]}{dealer} · left the game"
        parts = [plural(view.counts[seat], "card"), f"{view.won[seat]} won"]
        if view.rounds > 1:
            parts.append(f"total {view.totals[seat]}")
        return f"{pointer}**{names[seat]}**{dealer} · {' · '.join(parts)}"

    def public_embed(self, table: Table, view: TurupView, names: list[str]) -> discord.Embed:
        embed = discord.Embed(
            title=f"Turup · round {view.hand} of {view.rounds}", colour=self.colour
        )
        embed.description = "\n".join(self.seat_line(view, s, names) for s in range(len(names)))
        embed.add_field(name="Community pile", value=pile_text(view), inline=False)
        embed.add_field(name="Stock", value=plural(view.stock, "card"))
        embed.set_footer(
            text="The most cards won wins. The pile left at the end counts for nobody."
        )
        return embed

    def private_embed(self, table: Table, view: TurupView, names: list[str]) -> discord.Embed:
        hand = view.my_cards or []
        embed = discord.Embed(title=f"Your Turup hand · table {table.id}", colour=self.colour)
        embed.description = f"{cards_text(hand)}  ({plural(len(hand), 'card')})"
        embed.add_field(name="Community pile", value=pile_text(view), inline=False)
        if view.seat is not None:
            embed.add_field(name="Cards you won", value=str(view.won[view.seat]))
        return embed

    def hand_summary(self, table: Table, view: TurupView, names: list[str]) -> discord.Embed | None:
        if view.phase not in ("between", "over"):
            return None
        embed = discord.Embed(title=f"Turup · round {view.hand} over", colour=self.colour)
        lines = [
            f"**{names[seat]}**: {plural(view.won[seat], 'card')} won"
            + (f" · total {view.totals[seat]}" if view.rounds > 1 else "")
            for seat in range(len(names))
            if view.playing[seat]
        ]
        embed.description = "\n".join(lines)
        left = cards_text(view.pile) if view.pile else "nothing"
        embed.add_field(name="Left on the pile (counts for nobody)", value=left, inline=False)
        return embed

    # ---- picking a card and what it takes --------------------------------------------------

    def picker(self, view: TurupView) -> Picker | None:
        if view.phase != "play" or view.turn != view.seat or not view.my_cards:
            return None
        return Picker(
            zones=(Zone("your hand", view.my_cards, 1, 1), Zone("the pile", view.pile)),
            groups=(Group("Selected", low=1),),
            kinds=frozenset({"capture", "place"}),
            verb="Play selected",
        )

    def pick_action(self, view: TurupView, picked: Picked) -> Action:
        (card,), taken = picked.zones
        return Capture(card=card, cards=list(taken)) if taken else Place(card=card)

    def pick_reason(self, view: TurupView, picked: Picked) -> str | None:
        (card,), taken = picked.zones
        if not taken:
            return None
        try:
            verify_sum_capture(card, taken, view.pile)
        except IllegalAction as refusal:
            return str(refusal)
        return None

    def pick_of(self, view: TurupView, action: Action) -> list[list] | None:
        if isinstance(action, Capture):
            return [[action.card, *action.cards]]
        return [[action.card]] if isinstance(action, Place) else None

    # ---- words ---------------------------------------------------------------------------------

    def action_label(self, view: TurupView, action: Action) -> str:
        if isinstance(action, Capture):
            return f"{action.card.label} takes {cards_text(action.cards)}"
        if isinstance(action, Place):
            return f"Place {action.card.label} on the pile"
        return action.kind.title()

    def event_line(self, event: Event, names: list[str]) -> str | None:
        match event:
            case RoundStarted():
                packs = plural(event.packs, "pack")
                return (
                    f"Round {event.hand} of {event.rounds} ({packs}): {names[event.dealer]} "
                    f"deals, {names[event.first]} plays first; the pile: "
                    f"{cards_text(event.pile)}."
                )
            case Captured():
                won = plural(len(event.cards) + 1, "card")
                return (
                    f"{names[event.seat]}'s {event.card.label} takes "
                    f"{cards_text(event.cards)} ({won} won)."
                )
            case Placed():
                return f"{names[event.seat]} places {event.card.label} on the pile."
            case Dealt():
                return dealt_line(event)
            case RoundScored():
                scores = ", ".join(
                    f"{names[seat]} {won}" for seat, won in enumerate(event.won) if won
                )
                return f"Round {event.round} over. Cards won: {scores or 'none'}."
        return None


def pile_text(view: TurupView) -> str:
    if view.pile:
        return f"{cards_text(view.pile)}  ({plural(len(view.pile), 'card')})"
    return "empty: the next player places a card"


def dealt_line(event: Dealt) -> str:
    stock = f"{plural(event.stock, 'card')} left in the stock"
    if not event.turned:
        return f"Every hand is empty: {plural(event.each, 'more card')} each, {stock}."
    verb = "is" if len(event.turned) == 1 else "are"
    turned = f"{cards_text(event.turned)} {verb} turned onto the pile"
    if event.each:
        return (
            f"The end of the stock goes round one card at a time: {event.each} each; "
            f"{turned}, as {'it' if verb == 'is' else 'they'} can't go round."
        )
    return f"Every hand is empty and the last cards can't go round: {turned}."


Turup = table_game_cog("turup", TURUP, RULES)


async def setup(bot: CardTableBot) -> None:
    add_picker(bot)
    bot.presenter.register(TurupUI())
    await bot.add_cog(Turup(bot))
