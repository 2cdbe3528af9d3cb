"""Last One on Discord: its GameUI (how its table, hands and events read) and RULES, what
`/lastone rules` shows, read from rules.md beside this module. Its slash commands are
cogs/last_one.py."""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.cards import Rank, Suit
from bot.discord.controls import MAX_SELECT_OPTIONS, ActionButton, ActionSelect, Controls
from bot.discord.format import kind_name, relative_time
from bot.discord.game_ui import GameUI, rules_beside
from bot.discord.picker import cards_text
from bot.discord.points import player_line
from bot.engine import Action, Event
from bot.games.last_one import (
    LAST_ONE,
    SUIT_NAMES,
    SUITS,
    Call,
    Called,
    CardNamed,
    Continue,
    Dealt,
    Draw,
    Drew,
    EndedTurn,
    EndTurn,
    HandScored,
    LastOneOptions,
    LastOneView,
    MeleeContinued,
    MeleeEnded,
    MeleeStarted,
    NameCard,
    NameSuit,
    Play,
    Played,
    Reversed,
    Skipped,
    StockRebuilt,
    SuitNamed,
    named_text,
)
from bot.i18n import N_, _, n_
from bot.tables import Table, action_token

MAX_BUTTONS = 5  # one row: more plays than that go in a select

RULES = rules_beside(__name__)

SUIT_LABELS = {Suit.SPADES: N_("Spades"), Suit.HEARTS: N_("Hearts"),
               Suit.DIAMONDS: N_("Diamonds"), Suit.CLUBS: N_("Clubs")}  # fmt: skip


def points_text(points: int) -> str:
    return n_("{count} point", "{count} points", points)


def seat_line(view: LastOneView, seat: int, name: str) -> str:
    points = points_text(view.scores[seat])
    if view.out[seat]:
        return _("~~{name}~~ · out · {points}", name=name, points=points)
    if seat in view.players:
        held = n_("{count} card", "{count} cards", view.counts[seat])
    else:
        held = _("not dealt")
    return player_line(name, [held, points], turn=seat == view.turn, dealer=seat == view.dealer)


def upcard_text(view: LastOneView) -> str:
    if view.upcard is None:
        return _("none")
    if view.named is not None:
        named = named_text(view.named.rank, view.named.suit)
        return _("{card} as {named}", card=view.upcard.label, named=named)
    if view.suit is not None:
        suit = _(SUIT_NAMES[view.suit])
        return _("{card}: {suit} named", card=view.upcard.label, suit=suit)
    return view.upcard.label


def direction_text(direction: int) -> str:
    return _("to the left") if direction == 1 else _("to the right")


def add_melee(embed: discord.Embed, table: Table, view: LastOneView, names: list[str]) -> None:
    """The melee under way, if there is one: who attacks, who defends, who may continue."""
    melee = view.melee
    if melee is None:
        return
    words = {
        "attacker": names[melee.aggressor],
        "defender": names[melee.defender],
        "card": named_text(Rank(melee.rank + 1), melee.suit),
    }
    draws = int(melee.rank)
    if table.record.deadline:
        text = n_(
            "{attacker} attacks, {defender} defends. Whoever holds {card} (or a joker) may "
            "continue now, from their DM or My hand; the window closes {time}. If nobody does, "
            "{defender} draws {count}.",
            "{attacker} attacks, {defender} defends. Whoever holds {card} (or a joker) may "
            "continue now, from their DM or My hand; the window closes {time}. If nobody does, "
            "{defender} draws {count}.",
            draws,
            time=relative_time(table.record.deadline),
            **words,
        )
    else:
        text = n_(
            "{attacker} attacks, {defender} defends. Whoever holds {card} (or a joker) may "
            "continue now, from their DM or My hand; the window lasts {seconds} s. If nobody "
            "does, {defender} draws {count}.",
            "{attacker} attacks, {defender} defends. Whoever holds {card} (or a joker) may "
            "continue now, from their DM or My hand; the window lasts {seconds} s. If nobody "
            "does, {defender} draws {count}.",
            draws,
            seconds=view.melee_seconds,
            **words,
        )
    embed.add_field(name=_("Melee!"), value=text, inline=False)


CALL_OPEN = N_(
    "A player down to one card may call Last one! now, from their DM or My hand, until "
    "another player plays or draws."
)


class LastOneUI(GameUI[LastOneView, LastOneOptions]):
    game_id = LAST_ONE.id
    colour = discord.Colour.dark_teal()

    # ---- the table ---------------------------------------------------------------------------

    def public_embed(self, table: Table, view: LastOneView, names: list[str]) -> discord.Embed:
        title = _("Last One · hand {number}", number=view.hand)
        embed = discord.Embed(title=title, colour=self.colour)
        embed.description = "\n".join(
            seat_line(view, seat, name) for seat, name in enumerate(names)
        )
        embed.add_field(name=_("Upcard"), value=upcard_text(view))
        stock = _("{stock} · discards {discards}", stock=view.stock, discards=view.discards)
        embed.add_field(name=_("Stock"), value=stock)
        embed.add_field(name=_("Play goes"), value=direction_text(view.direction))
        add_melee(embed, table, view, names)
        if view.call_open:  # whose call is not said: the table only learns it is open
            embed.add_field(name=_("Last one!"), value=_(CALL_OPEN), inline=False)
        embed.set_footer(
            text=_(
                "{cards} cards each · out at {threshold} points · the last player in wins",
                cards=view.cards_each,
                threshold=view.threshold,
            )
        )
        return embed

    def private_embed(self, table: Table, view: LastOneView, names: list[str]) -> discord.Embed:
        title = _("Your Last One hand · table {table}", table=str(table.id))
        embed = discord.Embed(title=title, colour=self.colour)
        hand = view.my_cards or []
        count = n_("{count} card", "{count} cards", len(hand))
        embed.description = f"{cards_text(hand)}  ({count})"
        embed.add_field(name=_("Upcard"), value=upcard_text(view))
        assert view.seat is not None  # a private view is its seat's
        embed.add_field(name=_("Your score"), value=points_text(view.scores[view.seat]))
        if view.my_playable is not None:
            embed.add_field(
                name=_("You may play"), value=cards_text(view.my_playable), inline=False
            )
        add_melee(embed, table, view, names)
        if view.must_call:
            embed.add_field(
                name=_("One card left"),
                value=_("Press Last one! before another player plays, or draw two."),
                inline=False,
            )
        return embed

    def hand_summary(
        self, table: Table, view: LastOneView, names: list[str]
    ) -> discord.Embed | None:
        if view.last_points is None or view.revealed is None:
            return None
        title = _("Last One · hand {number} over", number=view.hand)
        embed = discord.Embed(title=title, colour=self.colour)
        lines = []
        for seat in view.players:
            cards = view.revealed[seat]
            if not cards:
                lines.append(_("**{name}** · out of cards · 0", name=names[seat]))
                continue
            points = view.last_points[seat]
            parts = [
                f"**{names[seat]}**",
                cards_text(cards),
                _("{points} (one card)", points=points) if len(cards) == 1 else str(points),
                _("total {total}", total=view.scores[seat]),
            ]
            if view.out[seat]:
                parts.append(_("**out of the game**"))
            lines.append(" · ".join(parts))
        embed.description = "\n".join(lines)
        embed.set_footer(text=n_("Out at {count} point.", "Out at {count} points.", view.threshold))
        return embed

    def options_text(self, options: LastOneOptions) -> str:
        if options.hand_size == 9:
            return _(
                "hand size: {size} (by joining, every player accepts nine cards; five players at "
                "most), threshold: {threshold}, melee seconds: {seconds}",
                size=options.hand_size,
                threshold=options.threshold,
                seconds=options.melee_seconds,
            )
        return _(
            "hand size: {size}, threshold: {threshold}, melee seconds: {seconds}",
            size=options.hand_size,
            threshold=options.threshold,
            seconds=options.melee_seconds,
        )

    # ---- controls ------------------------------------------------------------------------------

    def private_controls(self, table: Table, seat: int) -> discord.ui.View | None:
        """Buttons for a few choices; the cards you may play in a select when there are more;
        a joker's card named from one select per suit."""
        actions = table.legal_actions(seat)
        if not actions:
            return None
        view = table.view(seat)
        assert isinstance(view, LastOneView)  # a Last One table's
        prompt = table.seats[seat].prompt
        plays = [a for a in actions if isinstance(a, Play)]
        names = [a for a in actions if isinstance(a, NameCard)]
        others = [a for a in actions if not isinstance(a, Play | NameCard)]
        if len(plays) + len(others) <= MAX_BUTTONS:
            others, plays = plays + others, []
        controls = Controls()
        for action in others:
            label = self.action_label(view, action)
            controls.button(**ActionButton.look(table.id, prompt, action_token(action), label))
        for part, start in enumerate(range(0, len(plays), MAX_SELECT_OPTIONS)):
            chunk = self.options(view, plays[start : start + MAX_SELECT_OPTIONS])
            controls.select(**ActionSelect.look(table.id, prompt, "play", chunk, part))
        for suit in SUITS if names else ():
            chunk = self.options(view, [a for a in names if a.suit == suit])
            kind = f"name_{SUIT_NAMES[suit]}"
            controls.select(**ActionSelect.look(table.id, prompt, kind, chunk))
        return controls

    def options(self, view: LastOneView, actions: Sequence[Action]) -> list[tuple[str, str]]:
        return [(action_token(action), self.action_label(view, action)) for action in actions]

    # ---- words ---------------------------------------------------------------------------------

    def chosen_text(self, view: LastOneView, action: Action) -> str:
        """A named card in words: it may lie hidden in someone's hand (`named_text`)."""
        if isinstance(action, NameCard):
            return named_text(action.rank, action.suit)
        return self.action_label(view, action)

    def action_label(self, view: LastOneView, action: Action) -> str:
        match action:
            case Play():
                card = action.card
                if card.is_joker:
                    return _("Play {card} (then name a card)", card=card.label)
                if card.rank == Rank.EIGHT:
                    return _("Play {card} (then name a suit)", card=card.label)
                return _("Play {card}", card=card.label)
            case Draw():
                if view.stock or view.discards:
                    return _("Draw a card")
                return _("Pass (nothing to draw)")
            case EndTurn():
                return _("End your turn")
            case NameSuit():
                return f"{action.suit.symbol} {_(SUIT_LABELS[action.suit])}"
            case NameCard():
                return f"{action.rank.label}{action.suit.symbol}"
            case Continue():
                card = action.card
                if card.is_joker:
                    assert view.melee is not None  # a melee is continued only while it is on
                    standing = named_text(action.rank, view.melee.suit)
                    return _("Continue with {card} as {named}", card=card.label, named=standing)
                return _("Continue with {card}", card=card.label)
            case Call():
                return _("Last one!")
        return kind_name(action.kind)

    def event_line(self, event: Event, names: list[str]) -> str | None:
        match event:
            case Dealt():
                return n_(
                    "{name} deals {count} card each; the upcard is {card}.",
                    "{name} deals {count} cards each; the upcard is {card}.",
                    event.cards_each,
                    name=names[event.dealer],
                    card=event.upcard.label,
                )
            case Played():
                name, card = names[event.seat], event.card.label
                if event.free:
                    return n_(
                        "{name} adds {card} ({count} left).",
                        "{name} adds {card} ({count} left).",
                        event.left,
                        name=name,
                        card=card,
                    )
                return n_(
                    "{name} plays {card} ({count} left).",
                    "{name} plays {card} ({count} left).",
                    event.left,
                    name=name,
                    card=card,
                )
            case EndedTurn():
                return _("{name} adds no card.", name=names[event.seat])
            case SuitNamed():
                suit = _(SUIT_NAMES[event.suit])
                return _("{name} names {suit}.", name=names[event.seat], suit=suit)
            case CardNamed():
                named = named_text(event.rank, event.suit)
                return _("{name}'s joker stands for {named}.", name=names[event.seat], named=named)
            case Skipped():
                return _("{name} is skipped.", name=names[event.seat])
            case Reversed():
                if event.direction == 1:
                    return _("Play now goes to the left.")
                return _("Play now goes to the right.")
            case Drew():
                return self.drew_line(event, names)
            case StockRebuilt():
                return n_(
                    "The discards ({count} card) are shuffled into a new stock; the upcard stays.",
                    "The discards ({count} cards) are shuffled into a new stock; the upcard stays.",
                    event.count,
                )
            case MeleeStarted() | MeleeContinued() | MeleeEnded():
                return self.melee_line(event, names)
            case Called():
                return _("{name} calls Last one!", name=names[event.seat])
            case HandScored():
                line = _("{name} goes out: the hand is over.", name=names[event.winner])
                for seat in event.eliminated:
                    line += " " + _(
                        "{name} reaches {total} and is out of the game.",
                        name=names[seat],
                        total=event.totals[seat],
                    )
                return line
        return None

    def melee_line(
        self, event: MeleeStarted | MeleeContinued | MeleeEnded, names: list[str]
    ) -> str:
        if isinstance(event, MeleeStarted):
            return _(
                "Melee! {attacker} attacks, {defender} defends: whoever holds {card} (or a joker) "
                "may continue.",
                attacker=names[event.seat],
                defender=names[event.defender],
                card=named_text(Rank.FIVE, event.suit),
            )
        if isinstance(event, MeleeEnded):
            if event.rank == Rank.KING:
                return _("The King ends the melee.")
            return _("Nobody goes on: the melee is over.")
        card = event.card.label
        if event.card.is_joker:
            named = named_text(event.rank, event.suit)
            card = _("{card} as {named}", card=card, named=named)
        return n_(
            "{name} continues the melee with {card} ({count} left): {defender} defends.",
            "{name} continues the melee with {card} ({count} left): {defender} defends.",
            event.left,
            name=names[event.seat],
            card=card,
            defender=names[event.defender],
        )

    def drew_line(self, event: Drew, names: list[str]) -> str:
        if event.audience is not None:  # the drawer's own copy
            if event.cards:
                return _("You drew {cards}.", cards=cards_text(event.cards))
            return _("You drew nothing.")
        who, count, short = names[event.seat], event.count, event.count < event.wanted
        match event.reason:
            case "draw":
                if not event.wanted or not event.count:
                    return _("{name} passes: nothing is left to draw.", name=who)
                return _("{name} draws a card.", name=who)
            case "two" if short:
                return n_(
                    "{name} draws {count} card for the 2 (only {count}: the stock and the "
                    "discards ran out).",
                    "{name} draws {count} cards for the 2 (only {count}: the stock and the "
                    "discards ran out).",
                    count,
                    name=who,
                )
            case "two":
                return n_(
                    "{name} draws {count} card for the 2.",
                    "{name} draws {count} cards for the 2.",
                    count,
                    name=who,
                )
            case "melee" if short:
                return n_(
                    "{name}, the last defender, draws {count} card (only {count}: the stock "
                    "and the discards ran out).",
                    "{name}, the last defender, draws {count} cards (only {count}: the stock "
                    "and the discards ran out).",
                    count,
                    name=who,
                )
            case "melee":
                return n_(
                    "{name}, the last defender, draws {count} card.",
                    "{name}, the last defender, draws {count} cards.",
                    count,
                    name=who,
                )
        if short:
            return n_(
                "{name} didn't call Last one! in time: {count} card as a penalty (only "
                "{count}: the stock and the discards ran out).",
                "{name} didn't call Last one! in time: {count} cards as a penalty (only "
                "{count}: the stock and the discards ran out).",
                count,
                name=who,
            )
        return n_(
            "{name} didn't call Last one! in time: {count} card as a penalty.",
            "{name} didn't call Last one! in time: {count} cards as a penalty.",
            count,
            name=who,
        )
