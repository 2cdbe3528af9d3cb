"""Triple Draw Lowball on Discord: its GameUI (how its table, hands and events read) and RULES,
what `/lowball rules` shows, read from rules.md beside this module. Its slash commands are
cogs/lowball.py."""

from __future__ import annotations

import discord

from bot.discord.format import chips, plural
from bot.discord.game_ui import rules_beside
from bot.discord.picker import Group, Picked, Picker, PickerUI, Zone, cards_text
from bot.discord.poker import BettingUI, result_lines
from bot.engine import Action, Event
from bot.games.lowball import (
    BETTING_ROUNDS,
    DRAWS,
    HAND_SIZE,
    LOWBALL,
    MAX_BETS,
    CardsDrawn,
    Draw,
    Drew,
    HandStarted,
    LowballOptions,
    LowballView,
    Revealed,
    SeatView,
    StandPat,
    StubReshuffled,
)
from bot.tables import Table

RULES = rules_beside(__name__)


def limits_text(small_bet: int) -> str:
    return f"blinds {small_bet // 2}/{small_bet}, bets {small_bet} then {2 * small_bet}"


class LowballUI(PickerUI[LowballView, LowballOptions], BettingUI[LowballView, LowballOptions]):
    game_id = LOWBALL.id
    colour = discord.Colour.dark_blue()

    # ---- the table -------------------------------------------------------------------------

    def public_embed(self, table: Table, view: LowballView, names: list[str]) -> discord.Embed:
        embed = discord.Embed(title=f"Triple Draw Lowball · hand {view.hand}", colour=self.colour)
        embed.description = "\n".join(self._seat_line(view, seat, names) for seat in view.seats)
        embed.add_field(name="Pot", value=chips(view.pot))
        embed.add_field(
            name="Stub", value=f"{plural(view.stub_left, 'card')} · {view.discards} discarded"
        )
        if view.phase == "betting" and view.to_act is not None:
            embed.add_field(
                name=self._round_title(view),
                value=self._to_act_text(view.to_act, view.to_call, names),
                inline=False,
            )
        elif view.phase == "draw" and view.to_act is not None:
            embed.add_field(
                name=f"Draw {view.draw_round} of {DRAWS}",
                value=f"{names[view.to_act]} is drawing",
                inline=False,
            )
        embed.set_footer(
            text=f"Fixed limit: {limits_text(view.small_bet)} · "
            "deuce-to-seven: aces high, straights and flushes count; best 7-5-4-3-2"
        )
        return embed

    @staticmethod
    def _round_title(view: LowballView) -> str:
        capped = " · capped" if view.bets >= MAX_BETS else ""
        return (
            f"Betting round {view.betting_round} of {BETTING_ROUNDS} · "
            f"{chips(view.bet_size)} a bet · {view.bets} of {MAX_BETS} bets{capped}"
        )

    @staticmethod
    def _to_act_text(to_act: int, to_call: int, names: list[str]) -> str:
        owed = f"{to_call} to call" if to_call else "nothing to call"
        return f"{names[to_act]}: {owed}"

    def _seat_line(self, view: LowballView, seat: SeatView, names: list[str]) -> str:
        dealt = seat.in_hand or seat.folded
        blinds = [("small blind", view.small_blind), ("big blind", view.big_blind)]
        roles = [role for role, blind in blinds if dealt and seat.seat == blind]
        drew = ["drew " + ", ".join(map(str, seat.draws))] if seat.draws else []
        cards = seat.cards if seat.in_hand else None
        return self.betting_seat_line(view, seat, names, roles=roles, marks=drew, cards=cards)

    def private_embed(self, table: Table, view: LowballView, names: list[str]) -> discord.Embed:
        embed = discord.Embed(
            title=f"Your Triple Draw Lowball hand · table {table.id}", colour=self.colour
        )
        if view.my_cards:
            embed.description = cards_text(view.my_cards)
            embed.add_field(name="Your hand", value=view.my_hand)
        else:
            embed.description = "You hold no cards now."
        embed.add_field(name="Pot", value=chips(view.pot))
        if view.phase == "betting" and view.to_act is not None:
            to_act = self._to_act_text(view.to_act, view.to_call, names)
            embed.add_field(name=self._round_title(view), value=to_act)
        return embed

    def options_text(self, options: LowballOptions) -> str:
        return f"small bet {options.small_bet} ({limits_text(options.small_bet)})"

    # ---- drawing with the card picker ------------------------------------------------------

    def picker(self, view: LowballView) -> Picker | None:
        if view.phase != "draw" or not view.my_cards:
            return None
        return Picker(
            zones=(Zone("your hand", view.my_cards),),
            groups=(Group("Throw", low=1, high=HAND_SIZE),),
            kinds=frozenset({"draw"}),
            verb="Throw selected and draw",
        )

    def pick_action(self, view: LowballView, picked: Picked) -> Action:
        return Draw(cards=list(picked.cards))

    def pick_of(self, view: LowballView, action: Action) -> list[list] | None:
        return None  # no suggested throws: the player picks

    # ---- words ------------------------------------------------------------------------------

    def action_label(self, view: LowballView, action: Action) -> str:
        match action:
            case StandPat():
                return "Stand pat"
            case Draw():
                return f"Throw {cards_text(action.cards)}"
        return super().action_label(view, action)

    def event_line(self, event: Event, names: list[str]) -> str | None:
        match event:
            case HandStarted():
                small, big = event.blinds
                return (
                    f"Hand {event.hand}: {names[event.dealer]} deals; "
                    f"{names[event.small_blind]} posts the small blind ({small}), "
                    f"{names[event.big_blind]} the big blind ({big})."
                )
            case Drew():
                if event.count == 0:
                    return f"{names[event.seat]} stands pat."
                return f"{names[event.seat]} draws {plural(event.count, 'card')}."
            case CardsDrawn():
                return f"You draw {cards_text(event.cards)}."
            case StubReshuffled():
                return (
                    f"The stub ran out: {plural(event.cards, 'discard')} shuffled into a new one."
                )
            case Revealed():
                return f"{names[event.seat]} shows {cards_text(event.cards)}: {event.description}."
        return super().event_line(event, names)

    def hand_summary(
        self, table: Table, view: LowballView, names: list[str]
    ) -> discord.Embed | None:
        result = view.result
        if result is None:
            return None
        embed = discord.Embed(
            title=f"Triple Draw Lowball · hand {view.hand} result", colour=self.colour
        )
        lines = [
            f"**{names[shown.seat]}**: {cards_text(shown.cards)} · {shown.description}"
            for shown in result.shown
        ]
        lines += result_lines(result.won, result.net, 0, names)  # odd chips never stay
        embed.description = "\n".join(lines)
        return embed
