"""Calabrasella on Discord: its GameUI (how its table, hands and events read) and RULES, what
`/calabrasella rules` shows, read from rules.md beside this module. Its slash commands are
cogs/calabrasella.py."""

from __future__ import annotations

import discord

from bot.discord.game_ui import rules_beside
from bot.discord.picker import Group, Picked, Picker, PickerUI, Zone, cards_text
from bot.discord.points import player_line
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
from bot.i18n import _, n_
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
    plays = plays_text(view.trick, names) or _("nothing yet")
    return _("{name} leads: {plays}", name=names[view.leader], plays=plays)


class CalabrasellaUI(PickerUI[CalabrasellaView, CalabrasellaOptions]):
    game_id = CALABRASELLA.id
    colour = discord.Colour.dark_red()

    # ---- the table -------------------------------------------------------------------------

    def public_embed(self, table: Table, view: CalabrasellaView, names: list[str]) -> discord.Embed:
        embed = discord.Embed(
            title=_("Calabrasella · hand {hand}", hand=view.hand), colour=self.colour
        )
        embed.description = "\n".join(
            seat_line(view, seat, name) for seat, name in enumerate(names)
        )
        if view.phase in ("bidding", "naming", "giving_back", "discarding"):
            embed.add_field(
                name=_("Widow"),
                value=n_("{count} card face down", "{count} cards face down", view.widow_count),
            )
        elif view.widow is not None and view.phase in ("taking", "playing"):
            widow = cards_text(view.widow)
            if view.phase == "taking":
                widow = _("{cards} (taking {count})", cards=widow, count=view.to_take)
            embed.add_field(name=_("Widow"), value=widow)
        if view.phase in ("taking", "playing"):
            embed.add_field(
                name=_("Discards"),
                value=n_("{count} face down", "{count} face down", view.discard_count),
            )
        if view.phase == "playing":
            embed.add_field(name=_("Trick"), value=trick_text(view, names), inline=False)
            if view.last_trick:
                embed.add_field(
                    name=_("Last trick"), value=plays_text(view.last_trick, names), inline=False
                )
            embed.add_field(
                name=_("Won so far"),
                value=_(
                    "declarer {tricks}, {points} · defenders {their_tricks}, {their_points}",
                    tricks=n_("{count} trick", "{count} tricks", view.tricks[0]),
                    points=n_("{count} point", "{count} points", view.points[0]),
                    their_tricks=n_("{count} trick", "{count} tricks", view.tricks[1]),
                    their_points=n_("{count} point", "{count} points", view.points[1]),
                ),
                inline=False,
            )
        embed.set_footer(
            text=_(
                "A hand costs at most {slam} chips a defender and {worst} the declarer; "
                "short: holds less, and pays what they hold.",
                slam=SLAM_PAYMENT,
                worst=WORST_CASE,
            )
        )
        return embed

    def private_embed(
        self, table: Table, view: CalabrasellaView, names: list[str]
    ) -> discord.Embed:
        hand = view.my_cards or []
        embed = discord.Embed(
            title=_("Your Calabrasella hand · table {table}", table=str(table.id)),
            colour=self.colour,
        )
        cards = n_("{count} card", "{count} cards", len(hand))
        embed.description = f"{cards_text(hand)}  ({cards})"
        if view.my_discards:
            embed.add_field(name=_("Your discards"), value=cards_text(view.my_discards))
        if view.named_card is not None:
            embed.add_field(name=_("Card named"), value=view.named_card.label)
        if view.given_back is not None:
            embed.add_field(name=_("Card given back"), value=view.given_back.label)
        if view.widow is not None and view.phase in ("taking", "playing"):
            embed.add_field(name=_("Widow (face up)"), value=cards_text(view.widow))
        if view.phase == "playing":
            embed.add_field(name=_("Trick"), value=trick_text(view, names), inline=False)
        return embed

    # ---- picking cards ------------------------------------------------------------------------

    def picker(self, view: CalabrasellaView) -> Picker | None:
        hand = view.my_cards or []
        match view.phase:
            case "giving_back":
                return Picker(
                    zones=(Zone(_("your hand"), hand),),
                    groups=(Group(_("Give back"), low=1, high=1),),
                    kinds=frozenset({"give_back"}),
                    verb=_("Give back selected"),
                )
            case "discarding":
                return Picker(
                    zones=(Zone(_("your hand"), hand),),
                    groups=(Group(_("Discard"), low=1, high=4),),
                    kinds=frozenset({"discard"}),
                    verb=_("Discard selected"),
                )
            case "taking":
                count = view.to_take
                return Picker(
                    zones=(Zone(_("the widow"), view.widow or []),),
                    groups=(Group(_("Take"), low=count, high=count),),
                    kinds=frozenset({"take"}),
                    verb=_("Take selected"),
                )
            case "playing":
                return Picker(
                    zones=(Zone(_("your hand"), hand),),
                    groups=(Group(_("Play"), low=1, high=1),),
                    kinds=frozenset({"card"}),
                    verb=_("Play selected"),
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
                    return _("Give back another card, not the one you were handed.")
            case "discarding":
                return discard_reason(cards, view.my_cards or [])
            case "taking":
                return take_reason(cards, view.widow or [], view.to_take)
            case "playing":
                if view.legal is not None and cards and cards[0] not in view.legal:
                    return _("You must follow suit.")
        return None

    # ---- words ------------------------------------------------------------------------------

    def action_label(self, view: CalabrasellaView, action: Action) -> str:
        match action:
            case Pass():
                return _("Pass")
            case Declare():
                return _("Play")
            case Name():
                return _("Name {card}", card=action.card.label)
            case GiveBack():
                return _("Give back {card}", card=action.card.label)
            case Discard():
                return _("Discard {cards}", cards=cards_text(action.cards))
            case Take():
                return _("Take {cards}", cards=cards_text(action.cards))
            case PlayCard():
                return action.card.label
        return super().action_label(view, action)

    def event_line(self, event: Event, names: list[str]) -> str | None:
        match event:
            case Dealt():
                return _(
                    "Hand {hand}: {dealer} deals; {first} speaks first.",
                    hand=event.hand,
                    dealer=names[event.dealer],
                    first=names[event.first_bidder],
                )
            case BidMade():
                if event.play:
                    return _("{name} plays and is the declarer.", name=names[event.seat])
                return _("{name} passes.", name=names[event.seat])
            case Redeal():
                return _("Everyone passed: the deal passes left and the cards are dealt again.")
            case Named():
                declarer = names[event.declarer]
                if event.nothing:
                    return _("{name} holds every 3 and every 2: nothing to name.", name=declarer)
                if event.holder is None:
                    return _(
                        "{name} names a card nobody holds: it is in the widow, lost.",
                        name=declarer,
                    )
                return _(
                    "{name} names a card; {holder} hands it over.",
                    name=declarer,
                    holder=names[event.holder],
                )
            case HandedOver():
                return _(
                    "{name} named {card}: {holder} hands it over.",
                    name=names[event.declarer],
                    card=event.card.label,
                    holder=names[event.holder],
                )
            case LostInWidow():
                return _("Nobody holds the card you named: it lies in the widow, lost.")
            case GaveBack():
                declarer, holder = names[event.declarer], names[event.holder]
                if event.card is None:
                    return _("{name} gives {holder} a card back.", name=declarer, holder=holder)
                return _(
                    "{name} gives {card} back to {holder}.",
                    name=declarer,
                    card=event.card.label,
                    holder=holder,
                )
            case Discarded():
                if event.cards:
                    return _("You discarded {cards}.", cards=cards_text(event.cards))
                return n_(
                    "{name} discards {count} card face down.",
                    "{name} discards {count} cards face down.",
                    event.count,
                    name=names[event.seat],
                )
            case WidowTurned():
                return _("The widow is turned face up: {cards}.", cards=cards_text(event.cards))
            case Took():
                return _(
                    "{name} takes {cards} from the widow.",
                    name=names[event.seat],
                    cards=cards_text(event.cards),
                )
            case Played():
                return _("{name} plays {card}.", name=names[event.seat], card=event.card.label)
            case TrickWon():
                return n_(
                    "{name} wins the trick ({count} point).",
                    "{name} wins the trick ({count} points).",
                    event.points,
                    name=names[event.seat],
                )
            case Settled():
                return settled_line(event, names)
        return None


def seat_line(view: CalabrasellaView, seat: int, name: str) -> str:
    """`▶ **Ann** (dealer) · declarer · 12 cards · 300 chips · short`."""
    details = []
    if view.declarer is not None:
        details.append(_("declarer") if seat == view.declarer else _("defender"))
    elif view.bids and view.bids[seat] is False:
        details.append(_("passed"))
    details.append(n_("{count} card", "{count} cards", view.counts[seat]))
    details.append(n_("{count} chip", "{count} chips", view.stacks[seat]))
    if view.stacks[seat] < WORST_CASE:
        details.append(_("short"))
    return player_line(name, details, turn=seat == view.turn, dealer=seat == view.dealer)


def settled_line(event: Settled, names: list[str]) -> str:
    declarer = names[event.declarer]
    mine, theirs = event.points
    set_aside = cards_text(event.set_aside)
    lines = [
        _(
            "The discards and the unused widow ({cards}) go to the declarer, "
            "who took the last trick.",
            cards=set_aside,
        )
        if event.to_side == 0
        else _(
            "The discards and the unused widow ({cards}) go to the defenders, "
            "who took the last trick.",
            cards=set_aside,
        ),
        _(
            "{name} {points} - defenders {their_points}:",
            name=declarer,
            points=mine,
            their_points=theirs,
        ),
    ]
    each = event.per_defender
    slam = abs(each) == SLAM_PAYMENT
    if each > 0:
        paid = n_("{count} chip", "{count} chips", each)
        lines.append(
            _("each defender pays {name} {chips} (35-0).", name=declarer, chips=paid)
            if slam
            else _("each defender pays {name} {chips}.", name=declarer, chips=paid)
        )
    elif each < 0:
        paid = n_("{count} chip", "{count} chips", -each)
        lines.append(
            _("{name} pays each defender {chips} (35-0).", name=declarer, chips=paid)
            if slam
            else _("{name} pays each defender {chips}.", name=declarer, chips=paid)
        )
    else:
        lines.append(_("nothing to pay."))
    if event.short:
        paid = ", ".join(f"{names[s]} {n:+}" for s, n in enumerate(event.net) if n)
        lines.append(_("Short stacks pay what they hold: {paid}.", paid=paid))
    return " ".join(lines)
