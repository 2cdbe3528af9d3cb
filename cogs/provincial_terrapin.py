"""/provincial: Provincial Terrapin tables."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord

from bot.discord.commands import table_game_cog
from bot.discord.format import chips, plural
from bot.discord.terrapin import CARRIED_POT, SCORING, TerrapinShowdownUI, card_list, deal_line
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

if TYPE_CHECKING:
    from bot.app import CardTableBot

RULES = f"""\
**Provincial Terrapin** · 2-7 players · the 36-card Decktet
{SCORING}
**A hand.** Everyone antes 1 chip and gets three private cards; two cards are dealt face up. \
The dealer looks at their hand and sets the stake (1 to the table's stake limit). Then \
everyone still in secretly chooses a fist: **empty** (fold), **one chip** (pay the stake to \
play) or **two chips** (call: pay twice the stake). Fists open all at once.
**After the fists open.** Players who paid to play, from the dealer's left, must either discard \
one card face up or draw one (the top of the discard pile or of the deck), never both or \
neither. If anyone called there is a showdown among callers and payers, starting with the \
caller nearest the dealer's left; the best hand without Turtle Butt takes the pot. A player \
left alone takes the pot. If everyone folds the pot stays, everyone antes again and the deal \
passes left. Otherwise there is another round of fists at the same stake.
**Ties and Turtle Butt.** Ties split the pot; odd chips stay in it. If every hand shown is \
Turtle Butt the pot stays for the next hand.
**House decisions.** You can only show chips you can pay. Cards taken from the discard pile \
were seen by everyone, so the table shows who holds them. On timeout: the dealer stakes 1, a \
fist is empty (fold), and a payer draws from the deck. You can leave between hands; chips left \
in the pot when the table closes are shared out from the dealer's left. {CARRIED_POT} Players \
join before the start."""

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


ProvincialTerrapin = table_game_cog("provincial", PROVINCIAL, RULES)


async def setup(bot: CardTableBot) -> None:
    bot.presenter.register(ProvincialUI())
    await bot.add_cog(ProvincialTerrapin(bot))
