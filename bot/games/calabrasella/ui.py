"""Calabrasella on Discord: its GameUI (how its table, hands and events read) and RULES, what
`/calabrasella rules` shows, read from rules.md beside this module. Its slash commands are
cogs/calabrasella.py."""

from __future__ import annotations

import discord

from bot.discord.format import chips, plural
from bot.discord.game_ui import rules_beside
from bot.discord.picker import Group, Picked, Picker, PickerUI, Zone, cards_text
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

WORST_CASE = 2 * SLAM_PAYMENT  # the most a declarer can pay in one hand
DEFAULT_BUY_IN = 300  # covers the costliest hand twice: nobody starts short

RULES = rules_beside(__name__)

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
