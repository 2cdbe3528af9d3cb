"""Provincial Terrapin on Discord: its GameUI (how its table, hands and events read) and RULES,
what `/provincial rules` shows, read from rules.md beside this module. Its slash commands are
cogs/provincial_terrapin.py."""

from __future__ import annotations

import discord

from bot.discord.format import chips, plural
from bot.discord.game_ui import rules_beside
from bot.discord.terrapin import TerrapinShowdownUI, card_list, deal_line
from bot.engine import Action, Event
from bot.games.terrapin.provincial import (
    PROVINCIAL,
    Discard,
    DrawDeck,
    DrawDiscard,
    Exchanged,
    Fist,
    FistClosed,
    FistsOpened,
    HandStarted,
    ProvincialOptions,
    ProvincialView,
    SeatView,
    SetStake,
    StakeSet,
)
from bot.tables import Table

RULES = rules_beside(__name__)

FISTS = {0: "folds", 1: "pays to play", 2: "calls"}
YOUR_FIST = {0: "empty (you fold)", 1: "one chip (you pay to play)", 2: "two chips (you call)"}


class ProvincialUI(TerrapinShowdownUI[ProvincialView, ProvincialOptions]):
    game_id = PROVINCIAL.id
    title = "Provincial Terrapin"

    def public_embed(self, table: Table, view: ProvincialView, names: list[str]) -> discord.Embed:
        embed = discord.Embed(title=f"Provincial Terrapin · hand {view.hand}", colour=self.colour)
        embed.description = "\n".join(self._seat_line(view, seat, names) for seat in view.seats)
        embed.add_field(name="Stake", value=chips(view.stake) if view.stake else "not set yet")
        embed.add_field(name="Pot", value=chips(view.pot))
        embed.add_field(name="Shared", value=card_list(view.shared))
        top = view.discards[-1].label if view.discards else "empty"
        embed.add_field(name="Discard pile", value=f"{top} ({plural(len(view.discards), 'card')})")
        waiting = ", ".join(names[s] for s in view.to_act)
        phase = {
            "stake": f"{waiting} is setting the stake",
            "fists": f"Fists, round {view.fist_round}: waiting for {waiting}",
            "exchange": f"{waiting}: discard a card or draw one",
        }.get(view.phase)
        if phase:
            embed.add_field(name="Now", value=phase, inline=False)
        return embed

    def _seat_line(self, view: ProvincialView, seat: SeatView, names: list[str]) -> str:
        marks = ["dealer"] if seat.seat == view.dealer else []
        shown = seat.fist if not seat.chosen and view.phase != "fists" else None
        if not seat.seated:
            marks.append("left")
        elif seat.chosen:
            marks.append("fist closed")
        elif shown == 0 or (not seat.in_hand and seat.cards):
            marks.append("folded")
        elif shown is not None:
            marks.append(FISTS[shown])
        if seat.known:
            marks.append(f"holds {card_list(seat.known)}")
        acting = seat.seat in view.to_act and view.phase != "fists"
        return self.seat_line(names[seat.seat], seat.stack, marks, acting=acting, cards=seat.cards)

    def private_embed(self, table: Table, view: ProvincialView, names: list[str]) -> discord.Embed:
        embed = super().private_embed(table, view, names)
        if view.stake:
            embed.add_field(name="Stake", value=chips(view.stake))
        if view.my_fist is not None:
            embed.add_field(name="Your fist", value=YOUR_FIST[view.my_fist])
        return embed

    def action_label(self, view: ProvincialView, action: Action) -> str:
        match action:
            case SetStake():
                return f"Stake {action.chips}"
            case Fist():
                assert view.stake is not None  # fists are shown once the dealer sets the stake
                return {
                    0: "Empty fist (fold)",
                    1: f"One chip (pay {view.stake} to play)",
                    2: f"Two chips (call: pay {2 * view.stake})",
                }[action.chips]
            case Discard():
                return f"Discard {action.card.label}"
            case DrawDeck():
                return "Draw from the deck"
            case DrawDiscard():
                return f"Take {view.discards[-1].label} from the discards"
        return action.kind.title()

    def event_line(self, event: Event, names: list[str]) -> str | None:
        match event:
            case HandStarted():
                return deal_line(event.hand, names[event.dealer], event.pot)
            case StakeSet():
                return f"{names[event.seat]} sets the stake at {event.stake}."
            case FistClosed():
                return f"{names[event.seat]} has closed their fist."
            case FistsOpened():
                shown = [
                    f"{names[seat]} {FISTS[chips_]}" + (f" ({event.paid[seat]})" if chips_ else "")
                    for seat, chips_ in event.fists.items()
                ]
                return "Fists open: " + ", ".join(shown) + "."
            case Exchanged():
                name = names[event.seat]
                if event.discarded:
                    return f"{name} discards {event.discarded.label}."
                if event.took_discard:
                    return f"{name} takes {event.took_discard.label} from the discard pile."
                return f"{name} draws from the deck."
        return super().event_line(event, names)
