"""Triple Draw Lowball on Discord: its GameUI (how its table, hands and events read) and RULES,
what `/lowball rules` shows, read from rules.md beside this module. Its slash commands are
cogs/lowball.py."""

from __future__ import annotations

import discord

from bot.cards import FrenchCard
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
from bot.games.lowball.rules import hand_parts
from bot.i18n import N_, _, n_, p_
from bot.tables import Table
from bot.text import chips

RULES = rules_beside(__name__)


# A deuce-to-seven hand that is no high card, by pokerkit's name of its kind.
HAND_KINDS = {
    "One pair": N_("one pair: {ranks}"),
    "Two pair": N_("two pair: {ranks}"),
    "Three of a kind": N_("three of a kind: {ranks}"),
    "Straight": N_("straight: {ranks}"),
    "Flush": N_("flush: {ranks}"),
    "Full house": N_("full house: {ranks}"),
    "Four of a kind": N_("four of a kind: {ranks}"),
    "Straight flush": N_("straight flush: {ranks}"),
}


def hand_text(cards: list[FrenchCard]) -> str:
    """`8-6-5-4-2` for no pair, straight or flush; else `one pair: 7-7-K-5-2` (the rules'
    `describe`, in the reader's language)."""
    kind, ranks = hand_parts(cards)
    text = "-".join(rank.label for rank in ranks)
    return text if kind == "High card" else _(HAND_KINDS[kind], ranks=text)


def limits_text(small_bet: int) -> str:
    return _(
        "blinds {small_blind}/{big_blind}, bets {small_bet} then {big_bet}",
        small_blind=small_bet // 2,
        big_blind=small_bet,
        small_bet=small_bet,
        big_bet=2 * small_bet,
    )


class LowballUI(PickerUI[LowballView, LowballOptions], BettingUI[LowballView, LowballOptions]):
    game_id = LOWBALL.id
    colour = discord.Colour.dark_blue()

    # ---- the table -------------------------------------------------------------------------

    def public_embed(self, table: Table, view: LowballView, names: list[str]) -> discord.Embed:
        title = _("Triple Draw Lowball · hand {hand}", hand=view.hand)
        embed = discord.Embed(title=title, colour=self.colour)
        embed.description = "\n".join(self._seat_line(view, seat, names) for seat in view.seats)
        embed.add_field(name=_("Pot"), value=chips(view.pot))
        stub = n_(
            "{count} card · {discarded} discarded",
            "{count} cards · {discarded} discarded",
            view.stub_left,
            discarded=view.discards,
        )
        embed.add_field(name=_("Stub"), value=stub)
        if view.phase == "betting" and view.to_act is not None:
            embed.add_field(
                name=self._round_title(view),
                value=self._to_act_text(view.to_act, view.to_call, names),
                inline=False,
            )
        elif view.phase == "draw" and view.to_act is not None:
            embed.add_field(
                name=_("Draw {draw} of {draws}", draw=view.draw_round, draws=DRAWS),
                value=_("{name} is drawing", name=names[view.to_act]),
                inline=False,
            )
        embed.set_footer(
            text=_(
                "Fixed limit: {limits} · deuce-to-seven: aces high, straights and flushes "
                "count; best 7-5-4-3-2",
                limits=limits_text(view.small_bet),
            )
        )
        return embed

    @staticmethod
    def _round_title(view: LowballView) -> str:
        title = n_(
            "Betting round {round} of {rounds} · {count} chip a bet · {bets} of {most} bets",
            "Betting round {round} of {rounds} · {count} chips a bet · {bets} of {most} bets",
            view.bet_size,
            round=view.betting_round,
            rounds=BETTING_ROUNDS,
            bets=view.bets,
            most=MAX_BETS,
        )
        return title + (" · " + _("capped") if view.bets >= MAX_BETS else "")

    @staticmethod
    def _to_act_text(to_act: int, to_call: int, names: list[str]) -> str:
        if to_call:
            return _("{name}: {owed} to call", name=names[to_act], owed=to_call)
        return _("{name}: nothing to call", name=names[to_act])

    def _seat_line(self, view: LowballView, seat: SeatView, names: list[str]) -> str:
        dealt = seat.in_hand or seat.folded
        blinds = [
            (p_("a seat's role", "small blind"), view.small_blind),
            (p_("a seat's role", "big blind"), view.big_blind),
        ]
        roles = [role for role, blind in blinds if dealt and seat.seat == blind]
        drawn = ", ".join(map(str, seat.draws))
        drew = [_("drew {counts}", counts=drawn)] if seat.draws else []
        cards = seat.cards if seat.in_hand else None
        return self.betting_seat_line(view, seat, names, roles=roles, marks=drew, cards=cards)

    def private_embed(self, table: Table, view: LowballView, names: list[str]) -> discord.Embed:
        title = _("Your Triple Draw Lowball hand · table {table}", table=str(table.id))
        embed = discord.Embed(title=title, colour=self.colour)
        if view.my_cards:
            embed.description = cards_text(view.my_cards)
            embed.add_field(name=_("Your hand"), value=hand_text(view.my_cards))
        else:
            embed.description = _("You hold no cards now.")
        embed.add_field(name=_("Pot"), value=chips(view.pot))
        if view.phase == "betting" and view.to_act is not None:
            to_act = self._to_act_text(view.to_act, view.to_call, names)
            embed.add_field(name=self._round_title(view), value=to_act)
        return embed

    def options_text(self, options: LowballOptions) -> str:
        return _(
            "small bet {amount} ({limits})",
            amount=options.small_bet,
            limits=limits_text(options.small_bet),
        )

    # ---- drawing with the card picker ------------------------------------------------------

    def picker(self, view: LowballView) -> Picker | None:
        if view.phase != "draw" or not view.my_cards:
            return None
        return Picker(
            zones=(Zone(_("your hand"), view.my_cards),),
            groups=(Group(_("Throw"), low=1, high=HAND_SIZE),),
            kinds=frozenset({"draw"}),
            verb=_("Throw selected and draw"),
        )

    def pick_action(self, view: LowballView, picked: Picked) -> Action:
        return Draw(cards=list(picked.cards))

    def pick_of(self, view: LowballView, action: Action) -> list[list] | None:
        return None  # no suggested throws: the player picks

    # ---- words ------------------------------------------------------------------------------

    def action_label(self, view: LowballView, action: Action) -> str:
        match action:
            case StandPat():
                return _("Stand pat")
            case Draw():
                return _("Throw {cards}", cards=cards_text(action.cards))
        return super().action_label(view, action)

    def event_line(self, event: Event, names: list[str]) -> str | None:
        match event:
            case HandStarted():
                small, big = event.blinds
                return _(
                    "Hand {hand}: {dealer} deals; {small_blind} posts the small blind ({small}), "
                    "{big_blind} the big blind ({big}).",
                    hand=event.hand,
                    dealer=names[event.dealer],
                    small_blind=names[event.small_blind],
                    small=small,
                    big_blind=names[event.big_blind],
                    big=big,
                )
            case Drew():
                if event.count == 0:
                    return _("{name} stands pat.", name=names[event.seat])
                return n_(
                    "{name} draws {count} card.",
                    "{name} draws {count} cards.",
                    event.count,
                    name=names[event.seat],
                )
            case CardsDrawn():
                return _("You draw {cards}.", cards=cards_text(event.cards))
            case StubReshuffled():
                return n_(
                    "The stub ran out: {count} discard shuffled into a new one.",
                    "The stub ran out: {count} discards shuffled into a new one.",
                    event.cards,
                )
            case Revealed():
                return _(
                    "{name} shows {cards}: {hand}.",
                    name=names[event.seat],
                    cards=cards_text(event.cards),
                    hand=hand_text(event.cards),
                )
        return super().event_line(event, names)

    def hand_summary(
        self, table: Table, view: LowballView, names: list[str]
    ) -> discord.Embed | None:
        result = view.result
        if result is None:
            return None
        title = _("Triple Draw Lowball · hand {hand} result", hand=view.hand)
        embed = discord.Embed(title=title, colour=self.colour)
        lines = [
            f"**{names[shown.seat]}**: {cards_text(shown.cards)} · {hand_text(shown.cards)}"
            for shown in result.shown
        ]
        lines += result_lines(result.won, result.net, 0, names)  # odd chips never stay
        embed.description = "\n".join(lines)
        return embed
