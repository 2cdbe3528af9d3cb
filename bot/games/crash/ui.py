"""Crash on Discord: its GameUI (how its table, hands and events read) and RULES, what
`/crash rules` shows, read from rules.md beside this module. Its slash commands are
cogs/crash.py.

Setting is made for a phone, with the card picker's arrangement under review
(bot/discord/picker): a tapped card goes into the first hand with room (tapped again, it comes
out), "Fill the rest" completes the hands from the cards left, and a suggestion fills all four;
each complete hand is named, and nothing is set before "Set these hands". What is placed so far
travels in the controls' custom_ids, so the setting survives a restart."""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.cards import FrenchCard
from bot.discord.game_ui import rules_beside
from bot.discord.picker import Group, Picked, Picker, PickerUI, Zone, cards_text
from bot.engine import Action, Event
from bot.errors import UserError
from bot.games.crash import (
    CRASH,
    HAND_CARDS,
    MAX_HANDS,
    Arrange,
    CrashOptions,
    CrashView,
    DeclareSixPairs,
    HandResult,
    HandStarted,
    HandVoid,
    Ready,
    RevealStraight,
    Showdown,
    StraightRevealed,
    arrangement_problem,
    fill_hands,
    hand_name,
)
from bot.i18n import N_, _, n_
from bot.tables import Table

RULES = rules_beside(__name__)

SET_LABEL = N_("Set these hands")
HOW_TO_SET = N_(
    "Tap a card to put it in the first hand with room (Hand 1 to Hand 4); tap it again to "
    "take it out. **Fill the rest** keeps your complete hands and makes the best hands of "
    "the other cards; a **suggestion** fills all four. Change what you like, then press "
    "**{verb}**: only then are they set, for good. Each hand must be a pair or "
    "better; cards left out are discarded, and the bot ranks your hands. On timeout your "
    "first suggestion is set."
)
PLACES = (N_("1st"), N_("2nd"), N_("3rd"), N_("4th"))


def hand_groups() -> tuple[Group, ...]:
    """Up to four hands of three, each tagged with its number ("7♠ ·2"); an empty one is
    fine. Named in the language of the moment."""
    return tuple(
        Group(_("Hand {number}", number=n), str(n), 0, HAND_CARDS) for n in range(1, MAX_HANDS + 1)
    )


def place_of(position: int) -> str:
    return _(PLACES[position - 1])


def hand_line(cards: Sequence) -> str:
    return f"{cards_text(cards)} ({hand_name(cards)})"


def names_list(seats: Sequence[int], names: list[str]) -> str:
    """ "Ann", "Ann and Bob", "Ann and Bob and Cy"."""
    text = ""
    for seat in seats:
        text = _("{first} and {second}", first=text, second=names[seat]) if text else names[seat]
    return text


def position_lines(result: HandResult, names: list[str]) -> list[str]:
    """How each position went: who won it with what, a stick-up, or nobody there."""
    lines = []
    for position in result.positions:
        place = place_of(position.position)
        if position.winner is not None:
            seat = position.winner
            hand = result.sets[seat][position.position - 1]
            name, named = names[seat], hand_name(hand)
            if len(position.contenders) == 1:
                line = _(
                    "{place}: {name} (alone there), {hand}", place=place, name=name, hand=named
                )
            else:
                line = _("{place}: {name}, {hand}", place=place, name=name, hand=named)
            lines.append(line)
        elif position.best:
            hand = result.sets[position.best[0]][position.position - 1]
            tied = names_list(position.best, names)
            lines.append(
                _(
                    "{place}: stick-up, {names} tie with {hand}: nobody scores",
                    place=place,
                    names=tied,
                    hand=hand_name(hand),
                )
            )
        else:
            lines.append(_("{place}: nobody set a hand", place=place))
    if result.bonus is not None:
        rank = result.bonus.rank.label
        name = names[result.bonus.seat]
        lines.append(_("Four {rank}s used in full: 1 more to {name}", rank=rank, name=name))
    if result.crash is not None:
        lines.append(
            _("**Crash!** {name} won all four positions and the game.", name=names[result.crash])
        )
    elif result.target_reached:
        leader = max(range(len(names)), key=lambda seat: result.totals[seat])
        lines.append(
            _("{name} reaches the target and wins; the rest isn't scored.", name=names[leader])
        )
    return lines


def showdown_text(result: HandResult, names: list[str]) -> str:
    """One line: who took which position."""
    parts = []
    for position in result.positions:
        place = place_of(position.position)
        if position.winner is not None:
            parts.append(_("{place} {name}", place=place, name=names[position.winner]))
        elif position.best:
            parts.append(_("{place} stick-up", place=place))
        else:
            parts.append(_("{place} nobody", place=place))
    text = _("Hands revealed: {positions}.", positions=", ".join(parts))
    if result.bonus is not None:
        rank, name = result.bonus.rank.label, names[result.bonus.seat]
        text += " " + _("Four {rank}s: 1 more to {name}.", rank=rank, name=name)
    if result.crash is not None:
        text += " " + _("{name} crashes!", name=names[result.crash])
    return text


def add_result(embed: discord.Embed, result: HandResult, names: list[str]) -> None:
    """Every player's hands as revealed, and how the positions went."""
    for seat, hands in enumerate(result.sets):
        lines = [f"{number}. {hand_line(hand)}" for number, hand in enumerate(hands, start=1)]
        discards = result.discards[seat]
        lines.append(n_("{count} card discarded", "{count} cards discarded", discards))
        points = result.points[seat]
        name = n_("{name} · +{count} point", "{name} · +{count} points", points, name=names[seat])
        embed.add_field(name=name, value="\n".join(lines), inline=False)
    embed.add_field(
        name=_("Positions"), value="\n".join(position_lines(result, names))[:1024], inline=False
    )


def points_text(points: int) -> str:
    return n_("{count} point", "{count} points", points)


class CrashUI(PickerUI[CrashView, CrashOptions]):
    game_id = CRASH.id
    colour = discord.Colour.dark_purple()

    # ---- the table ------------------------------------------------------------------------

    def public_embed(self, table: Table, view: CrashView, names: list[str]) -> discord.Embed:
        embed = discord.Embed(
            title=_("Crash · hand {number}", number=view.hand), colour=self.colour
        )
        lines = []
        for seat in view.seats:
            name = names[seat.seat]
            parts = [
                _("**{name}** (dealer)", name=name) if seat.seat == view.dealer else f"**{name}**",
                points_text(seat.score),
            ]
            if view.phase == "setting":
                parts.append(_("ready") if seat.ready else _("setting…"))
            lines.append(" · ".join(parts))
        lines.append(_("First to {target} wins.", target=view.target))
        embed.description = "\n".join(lines)
        if view.result is not None:
            add_result(embed, view.result, names)
        self.add_specials(embed, view, names)
        return embed

    def add_specials(self, embed: discord.Embed, view: CrashView, names: list[str]) -> None:
        if view.void and view.phase == "between":
            declared = [s.seat for s in view.seats if s.declared]
            embed.add_field(
                name=_("Void hand"),
                value=n_(
                    "{names} declared six pairs: nobody scores, and {dealer} deals again.",
                    "{names} declared six pairs: nobody scores, and {dealer} deals again.",
                    len(declared),
                    names=names_list(declared, names),
                    dealer=names[view.dealer],
                ),
                inline=False,
            )
        for seat in view.seats:
            if seat.straight is not None:
                embed.add_field(
                    name=_("{name}'s thirteen-card straight", name=names[seat.seat]),
                    value=_("{cards}: wins the game.", cards=cards_text(seat.straight)),
                    inline=False,
                )

    def hand_summary(self, table: Table, view: CrashView, names: list[str]) -> discord.Embed:
        title = _("Crash · hand {number}: the reveal", number=view.hand)
        embed = discord.Embed(title=title, colour=self.colour)
        if view.result is not None:
            add_result(embed, view.result, names)
            totals = ", ".join(f"{names[s]} {t}" for s, t in enumerate(view.result.totals))
            embed.set_footer(
                text=_("Scores: {totals} (first to {target})", totals=totals, target=view.target)
            )
        self.add_specials(embed, view, names)
        return embed

    def closed_embed(self, table: Table, view: CrashView, names: list[str]) -> discord.Embed:
        embed = discord.Embed(title=_("Crash: the game is over"), colour=discord.Colour.dark_grey())
        embed.description = "\n".join(
            f"**{names[seat.seat]}** · {points_text(seat.score)}" for seat in view.seats
        )
        if view.result is not None:
            embed.add_field(
                name=_("Last hand"),
                value="\n".join(position_lines(view.result, names))[:1024],
                inline=False,
            )
        self.add_specials(embed, view, names)
        return embed

    def private_embed(self, table: Table, view: CrashView, names: list[str]) -> discord.Embed:
        cards = view.my_cards or []
        title = _("Your Crash hand · table {table}", table=str(table.id))
        embed = discord.Embed(title=title, colour=self.colour)
        count = n_("{count} card", "{count} cards", len(cards))
        embed.description = f"{cards_text(cards)}  ({count})"
        if view.my_straight:
            embed.add_field(
                name=_("Thirteen-card straight"),
                value=_("Ace down to 2: reveal it and you win the game."),
                inline=False,
            )
        if view.my_set is not None:
            used = {card for hand in view.my_set for card in hand}
            lines = [f"{n}. {hand_line(hand)}" for n, hand in enumerate(view.my_set, start=1)]
            discarded = cards_text([c for c in cards if c not in used])
            lines.append(_("Discarded: {cards}", cards=discarded))
            embed.add_field(name=_("Your hands, as set"), value="\n".join(lines), inline=False)
        if view.my_declared:
            embed.add_field(name=_("Six pairs"), value=_("You declared six pairs."), inline=False)
        elif view.my_six_pairs:
            embed.add_field(
                name=_("Six pairs"),
                value=_(
                    "You may declare them instead of setting: the hand is then void and "
                    "the same dealer deals again."
                ),
                inline=False,
            )
        if setting_now(view):
            how = _(HOW_TO_SET, verb=_(SET_LABEL))
            embed.add_field(name=_("How to set"), value=how, inline=False)
        return embed

    # ---- setting the hands: the picker's hooks ---------------------------------------------

    def picker(self, view: CrashView) -> Picker | None:
        if not setting_now(view):  # a straight to reveal, or nothing to do now
            return None
        # Each card tapped into the first hand with room; a suggestion or "Fill the rest"
        # fills the hands for review; nothing is set before the verb.
        return Picker(
            zones=(Zone(_("your hand"), held(view)),),
            groups=hand_groups(),
            kinds=frozenset({"arrange"}),
            verb=_(SET_LABEL),
            first_with_room=True,
            full=_("Your four hands are full: tap a card in one to take it out."),
            review=True,
            tool=_("Fill the rest"),
            title=_("Your hands (not set yet)"),
            left_out=_("Left out (discarded when set)"),
            suggested=_("Suggested hands (to review before setting)…"),
        )

    def pick_action(self, view: CrashView, picked: Picked) -> Arrange:
        hands = [list(hand) for hand in picked.groups if hand]
        if not hands:
            raise UserError(_("Tap cards into your hands first, or choose a suggestion."))
        return Arrange(hands=hands)

    def pick_of(self, view: CrashView, action: Action) -> list[list[FrenchCard]] | None:
        return [list(hand) for hand in action.hands] if isinstance(action, Arrange) else None

    def pick_tool(self, view: CrashView, picked: Picked) -> list[list[FrenchCard]]:
        """Fill the rest: the complete hands kept, the best hands made of every other card."""
        hands = picked.groups
        if all(len(hand) == HAND_CARDS for hand in hands):
            raise UserError(_("Your four hands are full already."))
        filled = fill_hands(hands, held(view), len(view.seats) - 1)
        if [set(hand) for hand in filled] == [set(hand) for hand in hands]:
            raise UserError(_("The other cards make no more hands of a pair or better."))
        return filled

    def group_text(self, view: CrashView, cards: Sequence[FrenchCard]) -> str:
        return hand_review(cards)

    def pick_verdict(self, view: CrashView, picked: Picked) -> str:
        return hands_verdict(picked.groups, held(view))

    def waiting_reason(self, view: CrashView) -> str:
        if view.my_set is not None:
            return _("Your hands are set: a set can't be changed.")
        return _("There are no hands to set now.")

    # ---- words ----------------------------------------------------------------------------

    def options_text(self, options: CrashOptions) -> str:
        return _("target: {target}", target=options.target)

    def action_label(self, view: CrashView, action: Action) -> str:
        if isinstance(action, DeclareSixPairs):
            return _("Declare six pairs (void the hand)")
        if isinstance(action, RevealStraight):
            return _("Reveal your thirteen-card straight")
        if isinstance(action, Arrange):
            return " | ".join(cards_text(hand) for hand in action.hands) or _("Discard everything")
        return super().action_label(view, action)

    def event_line(self, event: Event, names: list[str]) -> str | None:
        match event:
            case HandStarted():
                dealer = names[event.dealer]
                if event.redeal:
                    return _(
                        "Hand {number}: {dealer} deals again: the last hand was void. "
                        "Set your hands!",
                        number=event.hand,
                        dealer=dealer,
                    )
                return _(
                    "Hand {number}: {dealer} deals. Set your hands!",
                    number=event.hand,
                    dealer=dealer,
                )
            case Ready():
                return _("{name} is ready.", name=names[event.seat])
            case Showdown():
                return showdown_text(event.result, names)
            case HandVoid():
                return n_(
                    "{names} declared six pairs: the hand is void, and {dealer} deals again.",
                    "{names} declared six pairs: the hand is void, and {dealer} deals again.",
                    len(event.declared),
                    names=names_list(event.declared, names),
                    dealer=names[event.dealer],
                )
            case StraightRevealed():
                return n_(
                    "{names} reveals a thirteen-card straight and wins the game!",
                    "{names} reveal a thirteen-card straight and win the game!",
                    len(event.seats),
                    names=names_list(event.seats, names),
                )
        return None


# ---- setting the hands: the card picker's arrangement under review ----------------------------


def setting_now(view: CrashView) -> bool:
    """Whether the viewing seat has hands to set now (a straight is only revealed)."""
    unset = view.my_set is None and not view.my_declared and not view.my_straight
    return view.phase == "setting" and unset and bool(view.my_cards)


def held(view: CrashView) -> list[FrenchCard]:
    """The viewer's cards while it sets its hands: the picker is drawn only then."""
    assert view.my_cards is not None  # a seat's own view, with its hand dealt
    return view.my_cards


def hand_review(hand: Sequence[FrenchCard]) -> str:
    """A hand under review: its cards, named once complete."""
    if not hand:
        return _("empty")
    if len(hand) < HAND_CARDS:
        return cards_text(hand)
    return hand_line(hand)


def hands_verdict(hands: Sequence[Sequence[FrenchCard]], held: Sequence[FrenchCard]) -> str:
    """What the hands under review still need, why the rules would refuse them, or that
    they are ready to be set."""
    for number, hand in enumerate(hands, start=1):
        if 0 < len(hand) < HAND_CARDS:
            return n_(
                "Hand {number} needs {count} more card.",
                "Hand {number} needs {count} more cards.",
                HAND_CARDS - len(hand),
                number=number,
            )
    made = [hand for hand in hands if hand]
    if not made:
        return _("Tap cards to put them in your hands, or choose a suggestion.")
    problem = arrangement_problem(made, held)
    if problem:
        return _("Can't be set: {problem}", problem=problem)
    return _(
        "Ready: nothing is set until you press **{verb}**; then it can't be changed.",
        verb=_(SET_LABEL),
    )
