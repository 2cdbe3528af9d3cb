"""Porrazo on Discord: its GameUI (how its table, hands and events read) and RULES, what
`/porrazo rules` shows, read from rules.md beside this module. Its slash commands are
cogs/porrazo.py."""

from __future__ import annotations

import discord

from bot.discord.format import side_letter
from bot.discord.game_ui import rules_beside
from bot.discord.picker import Group, Picked, Picker, PickerUI, Zone, cards_text
from bot.engine import Action, Event
from bot.games.porrazo import (
    PORRAZO,
    Dealt,
    DealTendido,
    Declare,
    Declared,
    HandDealt,
    HandScored,
    NoTendido,
    OddCards,
    Play,
    Played,
    PorrazoOptions,
    PorrazoView,
    Replenished,
    SanBenito,
    Scored,
    Swept,
    TendidoDealt,
    TendidoDeferred,
    meant_take,
    move_of,
    pip,
    play_problem,
    run_order,
)
from bot.i18n import N_, _, n_
from bot.tables import Table

RULES = rules_beside(__name__)

# A set a player declares or may declare, by its name in the records ("ronda", "rondine").
A_SET = {"ronda": N_("a ronda"), "rondine": N_("a rondine")}
DECLARE_LABELS = {"ronda": N_("Declare your ronda"), "rondine": N_("Declare your rondine")}
DECLARED = {"ronda": N_("{name} a ronda"), "rondine": N_("{name} a rondine")}
DECLARES = {"ronda": N_("{name} declares a ronda."), "rondine": N_("{name} declares a rondine.")}
# A point-scoring line, by why it scored (`{total}`: the side's points after it, counted).
SCORES = {
    "in_place": N_("{name} scores {points} for a {rank} in place · {side}: {total}."),
    "ronda": N_("{name} scores {points} for the highest ronda, {cards} · {side}: {total}."),
    "rondine": N_("{name} scores {points} for the highest rondine, {cards} · {side}: {total}."),
    "limpia": N_("{name} scores {points} for a limpia ({cards}) · {side}: {total}."),
    "porrazo": N_("{name} scores {points} for a porrazo ({cards}) · {side}: {total}."),
    "counter_porrazo": N_(
        "{name} scores {points} for a counter-porrazo ({cards}) · {side}: {total}."
    ),
    "tendido": N_("{name} scores {points} for the tendido · {side}: {total}."),
    "cards": N_("{name} scores {points} for the most cards · {side}: {total}."),
}
# A limpia scored by the last rank taken, which has no cards of its own to show.
LIMPIA_UP_TO = N_("{name} scores {points} for a limpia (up to the {rank}) · {side}: {total}.")
TENDIDO_SETS = {2: N_("a pair of {rank}s"), 3: N_("three of {rank}s"), 4: N_("four of {rank}s")}


def side_name(seats: list[int], names: list[str]) -> str:
    return " & ".join(names[seat] for seat in seats)


def score_line(event: Scored, names: list[str]) -> str:
    """`{name} scores 2 for a porrazo (7♠ 7♥) · Ann & Cy: 12 points.`"""
    words = dict(
        name=names[event.seat],
        points=event.points,
        side=side_name(event.side_seats, names),
        total=n_("{count} point", "{count} points", event.total),
        rank=event.rank.label if event.rank is not None else "",
        cards=cards_text(event.cards),
    )
    if event.why == "in_place":
        assert event.rank is not None  # the card's, scoring its pip
    if event.why == "limpia" and not event.cards:
        assert event.rank is not None  # the last rank taken, which it scores as a ronda of
        return _(LIMPIA_UP_TO, **words)
    return _(SCORES[event.why], **words)


class PorrazoUI(PickerUI[PorrazoView, PorrazoOptions]):
    game_id = PORRAZO.id
    colour = discord.Colour.dark_gold()

    def options_text(self, options: PorrazoOptions) -> str:
        if options.partnerships:
            return _("two partnerships, game to {target}", target=options.target)
        return _("everyone for themselves, game to {target}", target=options.target)

    # ---- the table -----------------------------------------------------------------------------

    def seat_lines(self, view: PorrazoView, names: list[str]) -> list[str]:
        lines = []
        partners = len(view.sides) < len(names)
        for seat, name in enumerate(names):
            pointer = "▶ " if seat == view.turn else ""
            bold = f"**{name}**"
            who = _("{name} (dealer)", name=bold) if seat == view.dealer else bold
            line = f"{pointer}{who} · " + n_("{count} card", "{count} cards", view.counts[seat])
            if not partners:
                line += " · " + points_won(view.scores[seat], view.won[seat])
            lines.append(line)
        if partners:
            lines += [
                _(
                    "**Side {side}** ({players})",
                    side=side_letter(side),
                    players=side_name(seats, names),
                )
                + " · "
                + points_won(view.scores[side], view.won[side])
                for side, seats in enumerate(view.sides)
            ]
        return lines

    def add_table(self, embed: discord.Embed, view: PorrazoView, names: list[str]) -> None:
        table = cards_text(view.table) if view.table else _("empty")
        embed.add_field(name=_("Table"), value=table)
        if view.porrazo:
            rank, seat = view.porrazo[0].rank, view.porrazo_seat
            # Porrazo's pack has no jokers, and a pending porrazo names its player.
            assert rank is not None and seat is not None
            words = dict(name=names[seat], cards=cards_text(view.porrazo), rank=rank.label)
            if len(view.porrazo) == 2:
                title = _("Porrazo")
                if view.porrazo_limpia:
                    text = _(
                        "{name}'s porrazo: {cards} (a {rank} next counters it; a limpia too if "
                        "it stands)",
                        **words,
                    )
                else:
                    text = _("{name}'s porrazo: {cards} (a {rank} next counters it)", **words)
            else:
                title = _("Counter-porrazo")
                if view.porrazo_limpia:
                    text = _(
                        "{name}'s counter-porrazo: {cards} (a {rank} next counters it; a limpia "
                        "too if it stands)",
                        **words,
                    )
                else:
                    text = _(
                        "{name}'s counter-porrazo: {cards} (a {rank} next counters it)", **words
                    )
            embed.add_field(name=title, value=text, inline=False)
        if view.declared:
            declared = ", ".join(_(DECLARED[d.set_name], name=names[d.seat]) for d in view.declared)
            embed.add_field(name=_("Declared"), value=declared, inline=False)

    def public_embed(self, table: Table, view: PorrazoView, names: list[str]) -> discord.Embed:
        embed = discord.Embed(
            title=_("Porrazo · hand {hand} · deal {deal}", hand=view.hand, deal=view.deal),
            colour=self.colour,
        )
        embed.description = "\n".join(self.seat_lines(view, names))
        self.add_table(embed, view, names)
        embed.add_field(name=_("Stock"), value=n_("{count} card", "{count} cards", view.stock))
        if view.tendido:
            embed.add_field(name=_("Tendido"), value=cards_text(view.tendido))
        elif view.phase in ("tendido", "play"):
            dealer = names[view.dealer]
            embed.add_field(name=_("Tendido"), value=_("{name} hasn't dealt it yet", name=dealer))
        embed.set_footer(
            text=n_(
                "The first side to {count} point wins.",
                "The first side to {count} points wins.",
                view.target,
            )
        )
        return embed

    def private_embed(self, table: Table, view: PorrazoView, names: list[str]) -> discord.Embed:
        title = _("Your Porrazo hand · table {table}", table=str(table.id))
        embed = discord.Embed(title=title, colour=self.colour)
        hand = view.my_cards or []
        embed.description = n_(
            "{cards}  ({count} card, deal {deal})",
            "{cards}  ({count} cards, deal {deal})",
            len(hand),
            cards=cards_text(hand),
            deal=view.deal,
        )
        side = next(i for i, seats in enumerate(view.sides) if view.seat in seats)
        embed.add_field(
            name=_("Your side") if len(view.sides[side]) > 1 else _("Your score"),
            value=f"{side_name(view.sides[side], names)} · "
            + n_("{count} point", "{count} points", view.scores[side])
            + " · "
            + _("{count} cards won", count=view.won[side]),
        )
        if view.my_declared:
            embed.add_field(name=_("You declared"), value=cards_text(view.my_declared))
        elif view.my_declarable:
            embed.add_field(name=_("You may declare"), value=_(A_SET[view.my_declarable]))
        self.add_table(embed, view, names)
        return embed

    def hand_summary(
        self, table: Table, view: PorrazoView, names: list[str]
    ) -> discord.Embed | None:
        if view.result is None:
            return None
        title = _("Porrazo · hand {hand} over", hand=view.hand)
        embed = discord.Embed(title=title, colour=self.colour)
        embed.description = "\n".join(
            f"**{side_name(seats, names)}**: "
            + n_("{count} card won", "{count} cards won", view.won[side])
            + " · "
            + n_("{count} point this hand", "{count} points this hand", view.hand_points[side])
            + " · "
            + _("total {points}", points=view.scores[side])
            for side, seats in enumerate(view.sides)
        )
        embed.set_footer(text=_("The side with the most cards scores the difference to the next."))
        return embed

    # ---- picking a card and what it takes -------------------------------------------------------

    def picker(self, view: PorrazoView) -> Picker | None:
        if view.phase != "play" or view.turn != view.seat or not view.my_cards:
            return None
        return Picker(
            zones=(
                Zone(_("your hand"), view.my_cards, low=1, high=1),
                Zone(_("the table"), [*view.table, *view.porrazo]),
            ),
            groups=(Group(_("Selected"), low=1, high=None),),
            verb=_("Play selected"),
        )

    def pick_action(self, view: PorrazoView, picked: Picked) -> Play:
        (card,), taken = picked.zones
        return Play(card=card, take=meant_take(card, taken, view.table, view.porrazo))

    def pick_reason(self, view: PorrazoView, picked: Picked) -> str | None:
        assert view.my_cards is not None  # only a hand that holds cards has a picker
        play = self.pick_action(view, picked)
        return play_problem(play.card, play.take, view.my_cards, view.table, view.porrazo)

    def pick_text(self, view: PorrazoView, picked: Picked) -> str | None:
        return play_label(view, self.pick_action(view, picked))

    def pick_of(self, view: PorrazoView, action: Action) -> list[list] | None:
        return [[action.card, *action.take]] if isinstance(action, Play) else None

    # ---- words ---------------------------------------------------------------------------------

    def action_label(self, view: PorrazoView, action: Action) -> str:
        match action:
            case Declare():
                if view.my_declarable:
                    return _(DECLARE_LABELS[view.my_declarable])
                return _("Declare your set")
            case DealTendido():
                return _("Deal the tendido now")
            case NoTendido():
                return _("Not yet")
            case Play():
                return play_label(view, action)
        return super().action_label(view, action)

    def event_line(self, event: Event, names: list[str]) -> str | None:
        match event:
            case HandDealt():
                first = names[(event.dealer + 1) % len(names)]
                return _(
                    "{dealer} deals; {first} plays first.", dealer=names[event.dealer], first=first
                )
            case Replenished():
                return _(
                    "Deal {deal}: three cards each ({stock} left in the stock).",
                    deal=event.deal,
                    stock=event.stock,
                )
            case Dealt():
                return None  # your hand shows the deal: a line per deal would only pile up
            case TendidoDealt():
                return tendido_line(event, names)
            case TendidoDeferred():
                return _("{name} keeps the tendido for a later deal.", name=names[event.dealer])
            case OddCards():
                return _(
                    "The odd cards go face up on the table: {cards}.", cards=cards_text(event.cards)
                )
            case Declared():
                return _(DECLARES[event.set_name], name=names[event.seat])
            case Played():
                return played_line(event, names)
            case Scored():
                if event.why == "cards":
                    return None  # the hand's count says it
                return score_line(event, names)
            case SanBenito():
                side = side_name(event.side_seats, names)
                if len(event.side_seats) > 1:
                    return _("San benito: {players} win the game!", players=side)
                return _("San benito: {players} wins the game!", players=side)
            case Swept():
                name = names[event.seat]
                if not event.cards:
                    return _("{name}'s last card takes the rest of the table: nothing.", name=name)
                return _(
                    "{name}'s last card takes the rest of the table: {cards}.",
                    name=name,
                    cards=cards_text(event.cards),
                )
            case HandScored():
                return hand_line(event, names)
        return None


def points_won(points: int, won: int) -> str:
    """A player's or side's points and the cards they won this hand: `12 points · 5 won`."""
    return n_("{count} point", "{count} points", points) + " · " + _("{count} won", count=won)


def play_label(view: PorrazoView, action: Play) -> str:
    """How a play reads on a button or in the suggestions."""
    card, take = action.card.label, cards_text(run_order(action.card, action.take))
    move = move_of(action.card, action.take, view.table, view.porrazo, view.trailed)
    match move:
        case "placed":
            return _("Place {card}", card=card)
        case "in_place":
            return _("{card} in place (+{points})", card=card, points=pip(action.card))
        case "porrazo":
            if len(view.table) == 1:
                return _(
                    "{card} porrazo on {taken}, a limpia too if it stands", card=card, taken=take
                )
            return _("{card} porrazo on {taken}", card=card, taken=take)
        case "limpia":
            return _("{card} takes {taken} (limpia)", card=card, taken=take)
        case "counter":
            return _("{card} takes {taken}: counter-porrazo!", card=card, taken=take)
        case "san_benito":
            return _("{card} takes {taken}: san benito!", card=card, taken=take)
    return _("{card} takes {taken}", card=card, taken=take)


def played_line(event: Played, names: list[str]) -> str:
    words = dict(name=names[event.seat], card=event.card.label, taken=cards_text(event.taken))
    match event.move:
        case "placed":
            return _("{name} places {card}.", **words)
        case "in_place":
            return _("{name} plays {card} in place.", **words)
        case "porrazo":
            return _("{name} plays {card} on {taken}: porrazo!", **words)
        case "counter":
            return _("{name} plays {card} on {taken}: counter-porrazo!", **words)
        case "san_benito":
            return _("{name} plays {card} on {taken}: san benito!", **words)
        case "last":
            return _("{name} plays the last card, {card}.", **words)
        case "limpia":
            return _("{name} plays {card} and takes {taken}: limpia!", **words)
    return _("{name} plays {card} and takes {taken}.", **words)


def tendido_line(event: TendidoDealt, names: list[str]) -> str:
    parts = []
    if event.in_place:
        parts.append(_("{cards} in place", cards=cards_text(event.in_place)))
    for found in event.sets:
        parts.append(_(TENDIDO_SETS[found.count], rank=found.rank.label))
    words = dict(name=names[event.dealer], cards=cards_text(event.cards))
    if not parts:
        return _("{name} deals the tendido: {cards}: nothing scores.", **words)
    return _("{name} deals the tendido: {cards} ({scoring}).", scoring="; ".join(parts), **words)


def hand_line(event: HandScored, names: list[str]) -> str:
    result = event.result
    counts = " · ".join(
        f"{side_name(seats, names)} {result.won[side]}" for side, seats in enumerate(event.sides)
    )
    if result.side is None:
        return _(
            "Hand over, cards won: {counts}. A tie for the most: nobody scores.", counts=counts
        )
    winner = side_name(event.sides[result.side], names)
    return _(
        "Hand over, cards won: {counts}. {winner} +{points}.",
        counts=counts,
        winner=winner,
        points=result.points,
    )
