"""/totit: Totit tables."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord

from bot.discord.commands import table_game_cog
from bot.discord.format import plural
from bot.discord.picker import Group, Picked, Picker, PickerUI, Zone, add_picker, cards_text
from bot.discord.points import player_line
from bot.engine import Action, Event
from bot.games.totit import (
    HAND_SIZE,
    HEADS_UP_HAND_SIZE,
    TABLE_CARDS,
    TOTIT,
    Capture,
    Captured,
    Dealt,
    HandScored,
    TotitOptions,
    TotitView,
    Trail,
    Trailed,
    capture_reason,
    trail_reason,
)
from bot.tables import Table

if TYPE_CHECKING:
    from bot.app import CardTableBot

RULES = f"""\
**Totit** · 2-6 players · the 60-card Totit deck: two copies each of A-9♠, A-9♥, A-9♦ and \
J♣ Q♣ K♣ (a second copy shows as #2: 5♠#2 is identical to 5♠)
**Deal.** {TABLE_CARDS} cards face up to the table, then {HAND_SIZE} to each player \
({HEADS_UP_HAND_SIZE} each with two players), one at a time from the dealer's left. The other \
cards are set aside face down and play no part.
**Play.** From the dealer's left, each turn you either take one table card with one card from \
your hand (both go to your captured pile), or trail one card face up to the table. One capture \
per turn, always one hand card and one table card.
**First turn.** On your first turn of a hand you may only take a card identical to one of yours \
(same rank and suit).
**Later turns.** You may take a card of the same rank, whatever its suit. A, J, Q and K count \
as one rank: A♠ and K♣ take each other, so do J♣ and Q♣.
**Identical pairs last.** When two identical cards lie on the table beside other cards of \
their rank, the odd cards must be taken first; one of the identical pair may be taken only \
when they are the only cards of that rank left.
**Scoring.** When the hands are played out, the table's cards are discarded and each pair of \
identical cards in your captured pile scores 1 point, however the two were captured. The deal \
passes left; the game ends when every player has dealt once. The highest total wins.
**House decisions.** You must capture when you can, and trail only when you can't (the rule \
text lets only a player who cannot capture trail); the option trail when able lets you trail \
anyway. The first dealer is the first seat (the table's host). Every capture is seen by all, \
so the table shows how many cards each player has captured, their pairs this hand and their \
total; your own captured cards are listed with your hand. Equal \
top totals share first place. Leaving between hands ends the game for everyone, the leaver \
placed last; leaving during a hand takes effect when it ends. On timeout you make the capture \
that completes the most pairs (the first one listed on a tie), or else trail your lowest card \
(2 up to 9, then A, J, Q, K; ♠ ♥ ♦ ♣)."""


def seat_line(view: TotitView, seat: int, name: str) -> str:
    first = ["first turn"] if view.first_turn[seat] else []
    taken = len(view.captured[seat])
    captured = (
        f"captured {taken}, {plural(view.pairs[seat], 'pair')}" if taken else "nothing captured"
    )
    details = [plural(view.counts[seat], "card"), *first, captured, f"total {view.scores[seat]}"]
    return player_line(name, details, turn=seat == view.turn, dealer=seat == view.dealer)


class TotitUI(PickerUI[TotitView, TotitOptions]):
    game_id = TOTIT.id
    colour = discord.Colour.dark_teal()

    # ---- the table -------------------------------------------------------------------------

    def public_embed(self, table: Table, view: TotitView, names: list[str]) -> discord.Embed:
        embed = discord.Embed(title=f"Totit · hand {view.hand} of {view.deals}", colour=self.colour)
        embed.description = "\n".join(
            seat_line(view, seat, name) for seat, name in enumerate(names)
        )
        left = "left on the table" if view.phase == "play" else "discarded"
        embed.add_field(
            name=f"Table ({len(view.table)})",
            value=cards_text(view.table) if view.phase == "play" else f"{len(view.table)} {left}",
            inline=False,
        )
        aside = f" {plural(view.set_aside, 'card')} set aside." if view.set_aside else ""
        embed.set_footer(
            text="A pair of identical cards captured scores 1. A, J, Q, K count as one rank."
            + aside
        )
        return embed

    def private_embed(self, table: Table, view: TotitView, names: list[str]) -> discord.Embed:
        hand = view.my_cards or []
        embed = discord.Embed(title=f"Your Totit hand · table {table.id}", colour=self.colour)
        embed.description = f"{cards_text(hand)}  ({plural(len(hand), 'card')})"
        if view.phase == "play":
            embed.add_field(name="Table", value=cards_text(view.table), inline=False)
        assert view.seat is not None  # a private view is its seat's
        mine = view.captured[view.seat]
        if mine:
            embed.add_field(
                name=f"Your captures ({plural(view.pairs[view.seat], 'pair')})",
                value=cards_text(mine),
                inline=False,
            )
        return embed

    # ---- picking cards ------------------------------------------------------------------------

    def picker(self, view: TotitView) -> Picker | None:
        if view.phase != "play" or view.turn != view.seat:
            return None
        return Picker(
            zones=(
                Zone("your hand", view.my_cards or [], low=1, high=1),
                Zone("the table", view.table, low=0, high=1),
            ),
            groups=(Group("Selected", low=1, high=2),),
            kinds=frozenset({"capture", "trail"}),
            verb="Play selected",
        )

    def pick_action(self, view: TotitView, picked: Picked) -> Action:
        (card,), taken = picked.zones
        return Capture(card=card, target=taken[0]) if taken else Trail(card=card)

    def pick_of(self, view: TotitView, action: Action) -> list[list] | None:
        match action:
            case Capture():
                return [[action.card, action.target]]
            case Trail():
                return [[action.card]]
        return None

    def pick_reason(self, view: TotitView, picked: Picked) -> str | None:
        held, taken = picked.zones
        if len(held) != 1:
            return None  # the counts say what is missing
        assert view.seat is not None  # only a seat's own turn has a picker
        hand, first = view.my_cards or [], view.first_turn[view.seat]
        if taken:
            return capture_reason(held[0], taken[0], hand, view.table, first)
        return trail_reason(held[0], hand, view.table, first, view.trail_when_able)

    # ---- words ------------------------------------------------------------------------------

    def action_label(self, view: TotitView, action: Action) -> str:
        match action:
            case Capture():
                return f"Take {action.target.label} with {action.card.label}"
            case Trail():
                return f"Trail {action.card.label}"
        return super().action_label(view, action)

    def options_text(self, options: TotitOptions) -> str:
        return f"trail when able: {'yes' if options.trail_when_able else 'no'}"

    def event_line(self, event: Event, names: list[str]) -> str | None:
        match event:
            case Dealt():
                aside = f" ({event.set_aside} set aside)" if event.set_aside else ""
                return (
                    f"Hand {event.hand} of {event.deals}: {names[event.dealer]} deals "
                    f"{TABLE_CARDS} cards face up and {event.hand_size} to each player"
                    f"{aside}; {names[event.first]} plays first."
                )
            case Captured():
                line = f"{names[event.seat]} takes {event.target.label} with {event.card.label}."
                if event.pairs:
                    line += f" {plural(event.pairs, 'pair')} of identical cards!"
                return line
            case Trailed():
                return f"{names[event.seat]} trails {event.card.label}."
            case HandScored():
                pairs = ", ".join(f"{names[s]} {n}" for s, n in enumerate(event.pairs))
                totals = ", ".join(f"{names[s]} {n}" for s, n in enumerate(event.totals))
                return (
                    f"Hand over: {plural(event.discarded, 'card')} left on the table "
                    f"are discarded. Pairs: {pairs}. Totals: {totals}."
                )
        return None


Totit = table_game_cog("totit", TOTIT, RULES)


async def setup(bot: CardTableBot) -> None:
    add_picker(bot)
    bot.presenter.register(TotitUI())
    await bot.add_cog(Totit(bot))
