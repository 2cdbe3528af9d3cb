"""/calabrasella: Calabrasella tables."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord

from bot.discord.commands import table_game_cog
from bot.discord.format import chips, plural
from bot.discord.picker import Group, Picked, Picker, PickerUI, Zone, add_picker, cards_text
from bot.engine import Action, Event
from bot.games.calabrasella import (
    CALABRASELLA,
    SLAM_PAYMENT,
    BidMade,
    CalabrasellaOptions,
    CalabrasellaView,
    Dealt,
    Declare,
    Discard,
    Discarded,
    GaveBack,
    GiveBack,
    HandedOver,
    LostInWidow,
    Name,
    Named,
    Pass,
    PlayCard,
    Played,
    Redeal,
    Settled,
    Take,
    Took,
    TrickPlayView,
    TrickWon,
    WidowTurned,
    discard_reason,
    take_reason,
)
from bot.tables import Table

if TYPE_CHECKING:
    from bot.app import CardTableBot

WORST_CASE = 2 * SLAM_PAYMENT  # the most a declarer can pay in one hand
DEFAULT_BUY_IN = 300  # covers the costliest hand twice: nobody starts short

RULES = f"""\
**Calabrasella** · 3 players · Italian 40 (A-7, J, Q, K), 12 each and a widow of 4
**Order.** 3 2 A K Q J 7 6 5 4 in every suit; no trumps.
**Bidding.** From the dealer's left each player passes or plays; the first to play is the \
declarer against the other two. If all three pass, the deal passes left and the cards are \
dealt again.
**The exchange.** The declarer names a 3 they don't hold (holding all four 3s: a 2 they \
don't hold). Which card is named stays between the declarer and its holder, who is told in \
private and hands it over; the declarer gives them back any other card, which the third \
player never sees (the table only says a card went back). A named card lying in the widow \
is simply lost. The declarer then discards 1 to 4 cards face down, the widow is turned face \
up, and they take as many cards from it.
**Play.** The declarer's left leads. Follow suit if you can, else play anything; the highest \
card of the suit led wins and leads next. 12 tricks.
**Scoring.** Aces 3 points; 3s, 2s, K, Q, J 1 point; the last trick 3 more. The discards \
and the unused widow go to the side that takes the last trick, so 35 points are at stake. \
If the declarer scores more, each defender pays them the difference; if less, they pay each \
defender the difference. 35-0 pays {SLAM_PAYMENT} each way.
**House decisions.** The table shows the trick in play, who leads, and the tricks and points \
each side has won; the declarer's hand is never shown. Nobody pays more than they hold: a \
hand can cost a defender {SLAM_PAYMENT} chips and the declarer {WORST_CASE}, and the table \
marks a stack short of that; a short defender pays what they hold, and a short declarer's \
chips are split evenly between the defenders (an odd chip to the defender on their left). \
The default buy-in, {DEFAULT_BUY_IN}, covers the costliest hand twice. \
A hand is dealt only while every player holds chips: when one has none, the game ends, and \
the final standings give each player's chips won or lost. \
Leaving between hands ends the game for everyone. On timeout: pass when bidding; name the 3 \
(or 2) of your longest suit; give back your lowest card; discard your lowest card; take the \
widow's best card(s); play your lowest legal card ("lowest": rank 4 up to 3, then fewer \
points, then ♠ ♥ ♦ ♣). Cards are dealt in blocks of twelve from the dealer's left; the \
widow is the last four."""

ROLE_PHASES = ("naming", "giving_back", "discarding", "taking", "playing")


def plays_text(plays: list[TrickPlayView], names: list[str]) -> str:
    return ", ".join(f"{names[p.seat]} {p.card.label}" for p in plays)


def trick_text(view: CalabrasellaView, names: list[str]) -> str:
    """The trick in play and who led it."""
    assert view.leader is not None  # every trick has a leader while the cards are played
    return f"{names[view.leader]} leads: {plays_text(view.trick, names) or 'nothing yet'}"


class CalabrasellaUI(PickerUI[CalabrasellaView, CalabrasellaOptions]):
    game_id = CALABRASELLA.id
    colour = discord.Colour.dark_red()

    # ---- the table -------------------------------------------------------------------------

    def public_embed(self, table: Table, view: CalabrasellaView, names: list[str]) -> discord.Embed:
        embed = discord.Embed(title=f"Calabrasella · hand {view.hand}", colour=self.colour)
        lines = []
        for seat, name in enumerate(names):
            pointer = "▶ " if seat == view.turn else ""
            role = ""
            if view.declarer is not None:
                role = " · declarer" if seat == view.declarer else " · defender"
            elif view.bids and view.bids[seat] is False:
                role = " · passed"
            dealer = " (dealer)" if seat == view.dealer else ""
            short = " · short" if view.stacks[seat] < WORST_CASE else ""
            held = f"{plural(view.counts[seat], 'card')} · {chips(view.stacks[seat])}{short}"
            lines.append(f"{pointer}**{name}**{dealer}{role} · {held}")
        embed.description = "\n".join(lines)
        if view.phase in ("bidding", "naming", "giving_back", "discarding"):
            embed.add_field(name="Widow", value=f"{view.widow_count} cards face down")
        elif view.widow is not None and view.phase in ("taking", "playing"):
            taking = f" (taking {view.to_take})" if view.phase == "taking" else ""
            embed.add_field(name="Widow", value=f"{cards_text(view.widow)}{taking}")
        if view.phase in ("taking", "playing"):
            embed.add_field(name="Discards", value=f"{view.discard_count} face down")
        if view.phase == "playing":
            embed.add_field(name="Trick", value=trick_text(view, names), inline=False)
            if view.last_trick:
                embed.add_field(
                    name="Last trick", value=plays_text(view.last_trick, names), inline=False
                )
            embed.add_field(
                name="Won so far",
                value=f"declarer {plural(view.tricks[0], 'trick')}, "
                f"{plural(view.points[0], 'point')} · defenders "
                f"{plural(view.tricks[1], 'trick')}, {plural(view.points[1], 'point')}",
                inline=False,
            )
        embed.set_footer(
            text=f"A hand costs at most {SLAM_PAYMENT} chips a defender and {WORST_CASE} the "
            "declarer; short: holds less, and pays what they hold."
        )
        return embed

    def private_embed(
        self, table: Table, view: CalabrasellaView, names: list[str]
    ) -> discord.Embed:
        hand = view.my_cards or []
        embed = discord.Embed(
            title=f"Your Calabrasella hand · table {table.id}", colour=self.colour
        )
        embed.description = f"{cards_text(hand)}  ({plural(len(hand), 'card')})"
        if view.my_discards:
            embed.add_field(name="Your discards", value=cards_text(view.my_discards))
        if view.named_card is not None:
            embed.add_field(name="Card named", value=view.named_card.label)
        if view.given_back is not None:
            embed.add_field(name="Card given back", value=view.given_back.label)
        if view.widow is not None and view.phase in ("taking", "playing"):
            embed.add_field(name="Widow (face up)", value=cards_text(view.widow))
        if view.phase == "playing":
            embed.add_field(name="Trick", value=trick_text(view, names), inline=False)
        return embed

    # ---- picking cards ------------------------------------------------------------------------

    def picker(self, view: CalabrasellaView) -> Picker | None:
        hand = view.my_cards or []
        match view.phase:
            case "giving_back":
                return Picker(
                    zones=(Zone("your hand", hand),),
                    groups=(Group("Give back", low=1, high=1),),
                    kinds=frozenset({"give_back"}),
                    verb="Give back selected",
                )
            case "discarding":
                return Picker(
                    zones=(Zone("your hand", hand),),
                    groups=(Group("Discard", low=1, high=4),),
                    kinds=frozenset({"discard"}),
                    verb="Discard selected",
                )
            case "taking":
                count = view.to_take
                return Picker(
                    zones=(Zone("the widow", view.widow or []),),
                    groups=(Group("Take", low=count, high=count),),
                    kinds=frozenset({"take"}),
                    verb="Take selected",
                )
            case "playing":
                return Picker(
                    zones=(Zone("your hand", hand),),
                    groups=(Group("Play", low=1, high=1),),
                    kinds=frozenset({"card"}),
                    verb="Play selected",
                )
        return None

    def pick_action(self, view: CalabrasellaView, picked: Picked) -> Action:
        cards = list(picked.cards)
        match view.phase:
            case "giving_back":
                return GiveBack(card=cards[0])
            case "discarding":
                return Discard(cards=cards)
            case "taking":
                return Take(cards=cards)
        return PlayCard(card=cards[0])

    def pick_of(self, view: CalabrasellaView, action: Action) -> list[list] | None:
        match action:
            case Discard() | Take():
                return [list(action.cards)]
            case Name() | GiveBack() | PlayCard():
                return [[action.card]]
        return None

    def pick_reason(self, view: CalabrasellaView, picked: Picked) -> str | None:
        cards = list(picked.cards)
        match view.phase:
            case "giving_back":
                if cards and cards[0] == view.named_card:
                    return "Give back another card, not the one you were handed."
            case "discarding":
                return discard_reason(cards, view.my_cards or [])
            case "taking":
                return take_reason(cards, view.widow or [], view.to_take)
            case "playing":
                if view.legal is not None and cards and cards[0] not in view.legal:
                    return "You must follow suit."
        return None

    # ---- words ------------------------------------------------------------------------------

    def action_label(self, view: CalabrasellaView, action: Action) -> str:
        match action:
            case Pass():
                return "Pass"
            case Declare():
                return "Play"
            case Name():
                return f"Name {action.card.label}"
            case GiveBack():
                return f"Give back {action.card.label}"
            case Discard():
                return f"Discard {cards_text(action.cards)}"
            case Take():
                return f"Take {cards_text(action.cards)}"
            case PlayCard():
                return action.card.label
        return super().action_label(view, action)

    def event_line(self, event: Event, names: list[str]) -> str | None:
        match event:
            case Dealt():
                dealer, first = names[event.dealer], names[event.first_bidder]
                return f"Hand {event.hand}: {dealer} deals; {first} speaks first."
            case BidMade():
                if event.play:
                    return f"{names[event.seat]} plays and is the declarer."
                return f"{names[event.seat]} passes."
            case Redeal():
                return "Everyone passed: the deal passes left and the cards are dealt again."
            case Named():
                declarer = names[event.declarer]
                if event.nothing:
                    return f"{declarer} holds every 3 and every 2: nothing to name."
                if event.holder is None:
                    return f"{declarer} names a card nobody holds: it is in the widow, lost."
                return f"{declarer} names a card; {names[event.holder]} hands it over."
            case HandedOver():
                declarer, holder = names[event.declarer], names[event.holder]
                return f"{declarer} named {event.card.label}: {holder} hands it over."
            case LostInWidow():
                return "Nobody holds the card you named: it lies in the widow, lost."
            case GaveBack():
                declarer, holder = names[event.declarer], names[event.holder]
                if event.card is None:
                    return f"{declarer} gives {holder} a card back."
                return f"{declarer} gives {event.card.label} back to {holder}."
            case Discarded():
                if event.cards:
                    return f"You discarded {cards_text(event.cards)}."
                return f"{names[event.seat]} discards {plural(event.count, 'card')} face down."
            case WidowTurned():
                return f"The widow is turned face up: {cards_text(event.cards)}."
            case Took():
                return f"{names[event.seat]} takes {cards_text(event.cards)} from the widow."
            case Played():
                return f"{names[event.seat]} plays {event.card.label}."
            case TrickWon():
                return f"{names[event.seat]} wins the trick ({plural(event.points, 'point')})."
            case Settled():
                return settled_line(event, names)
        return None


def settled_line(event: Settled, names: list[str]) -> str:
    declarer = names[event.declarer]
    side = "the declarer" if event.to_side == 0 else "the defenders"
    mine, theirs = event.points
    lines = [
        f"The discards and the unused widow ({cards_text(event.set_aside)}) go to {side}, "
        f"who took the last trick. {declarer} {mine} - defenders {theirs}:"
    ]
    each = event.per_defender
    doubled = " (35-0)" if abs(each) == SLAM_PAYMENT else ""
    if each > 0:
        lines.append(f"each defender pays {declarer} {chips(each)}{doubled}.")
    elif each < 0:
        lines.append(f"{declarer} pays each defender {chips(-each)}{doubled}.")
    else:
        lines.append("nothing to pay.")
    if event.short:
        paid = ", ".join(f"{names[s]} {n:+}" for s, n in enumerate(event.net) if n)
        lines.append(f"Short stacks pay what they hold: {paid}.")
    return " ".join(lines)


Calabrasella = table_game_cog("calabrasella", CALABRASELLA, RULES, buy_in=DEFAULT_BUY_IN)


async def setup(bot: CardTableBot) -> None:
    add_picker(bot)
    bot.presenter.register(CalabrasellaUI())
    await bot.add_cog(Calabrasella(bot))
