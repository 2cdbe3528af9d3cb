"""Provincial Terrapin on Discord: its GameUI (how its table, hands and events read) and RULES,
what `/provincial rules` shows, read from rules.md beside this module. Its slash commands are
cogs/provincial_terrapin.py."""

from __future__ import annotations

import discord

from bot.discord.format import kind_name
from bot.discord.game_ui import rules_beside
from bot.discord.terrapin import TerrapinShowdownUI, card_list, chips, deal_line
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
from bot.i18n import N_, _, n_, p_
from bot.tables import Table

RULES = rules_beside(__name__)

FISTS = {0: N_("folds"), 1: N_("pays to play"), 2: N_("calls")}  # a seat's mark
# A fist shown, in the line of the fists opened: the player and what they paid.
FISTS_SHOWN = {
    0: N_("{name} folds"),
    1: N_("{name} pays to play ({paid})"),
    2: N_("{name} calls ({paid})"),
}
YOUR_FIST = {
    0: N_("empty (you fold)"),
    1: N_("one chip (you pay to play)"),
    2: N_("two chips (you call)"),
}


class ProvincialUI(TerrapinShowdownUI[ProvincialView, ProvincialOptions]):
    game_id = PROVINCIAL.id
    title = N_("Provincial Terrapin")

    def public_embed(self, table: Table, view: ProvincialView, names: list[str]) -> discord.Embed:
        embed = discord.Embed(
            title=_("Provincial Terrapin · hand {hand}", hand=view.hand), colour=self.colour
        )
        embed.description = "\n".join(self._seat_line(view, seat, names) for seat in view.seats)
        embed.add_field(
            name=_("Stake"), value=chips(view.stake) if view.stake else _("not set yet")
        )
        embed.add_field(name=_("Pot"), value=chips(view.pot))
        embed.add_field(name=_("Shared"), value=card_list(view.shared))
        top = view.discards[-1].label if view.discards else _("empty")
        embed.add_field(
            name=_("Discard pile"),
            value=n_("{top} ({count} card)", "{top} ({count} cards)", len(view.discards), top=top),
        )
        waiting = ", ".join(names[s] for s in view.to_act)
        phase = None
        if view.phase == "stake":
            phase = _("{names} is setting the stake", names=waiting)
        elif view.phase == "fists":
            phase = _(
                "Fists, round {round}: waiting for {names}", round=view.fist_round, names=waiting
            )
        elif view.phase == "exchange":
            phase = _("{names}: discard a card or draw one", names=waiting)
        if phase:
            embed.add_field(name=_("Now"), value=phase, inline=False)
        return embed

    def _seat_line(self, view: ProvincialView, seat: SeatView, names: list[str]) -> str:
        marks = [_("dealer")] if seat.seat == view.dealer else []
        shown = seat.fist if not seat.chosen and view.phase != "fists" else None
        if not seat.seated:
            marks.append(p_("seat", "left"))
        elif seat.chosen:
            marks.append(_("fist closed"))
        elif shown == 0 or (not seat.in_hand and seat.cards):
            marks.append(_("folded"))
        elif shown is not None:
            marks.append(_(FISTS[shown]))
        if seat.known:
            marks.append(_("holds {cards}", cards=card_list(seat.known)))
        acting = seat.seat in view.to_act and view.phase != "fists"
        return self.seat_line(names[seat.seat], seat.stack, marks, acting=acting, cards=seat.cards)

    def private_embed(self, table: Table, view: ProvincialView, names: list[str]) -> discord.Embed:
        embed = super().private_embed(table, view, names)
        if view.stake:
            embed.add_field(name=_("Stake"), value=chips(view.stake))
        if view.my_fist is not None:
            embed.add_field(name=_("Your fist"), value=_(YOUR_FIST[view.my_fist]))
        return embed

    def action_label(self, view: ProvincialView, action: Action) -> str:
        match action:
            case SetStake():
                return _("Stake {chips}", chips=action.chips)
            case Fist():
                assert view.stake is not None  # fists are shown once the dealer sets the stake
                if action.chips == 0:
                    return _("Empty fist (fold)")
                if action.chips == 1:
                    return _("One chip (pay {chips} to play)", chips=view.stake)
                return _("Two chips (call: pay {chips})", chips=2 * view.stake)
            case Discard():
                return _("Discard {card}", card=action.card.label)
            case DrawDeck():
                return _("Draw from the deck")
            case DrawDiscard():
                return _("Take {card} from the discards", card=view.discards[-1].label)
        return kind_name(action.kind)

    def event_line(self, event: Event, names: list[str]) -> str | None:
        match event:
            case HandStarted():
                return deal_line(event.hand, names[event.dealer], event.pot)
            case StakeSet():
                return _(
                    "{name} sets the stake at {stake}.", name=names[event.seat], stake=event.stake
                )
            case FistClosed():
                return _("{name} has closed their fist.", name=names[event.seat])
            case FistsOpened():
                shown = [
                    _(FISTS_SHOWN[chips_], name=names[seat], paid=event.paid.get(seat, 0))
                    for seat, chips_ in event.fists.items()
                ]
                return _("Fists open: {fists}.", fists=", ".join(shown))
            case Exchanged():
                name = names[event.seat]
                if event.discarded:
                    return _("{name} discards {card}.", name=name, card=event.discarded.label)
                if event.took_discard:
                    return _(
                        "{name} takes {card} from the discard pile.",
                        name=name,
                        card=event.took_discard.label,
                    )
                return _("{name} draws from the deck.", name=name)
        return super().event_line(event, names)
