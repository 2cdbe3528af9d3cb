"""Backhand on Discord: its GameUI (how its table, hands and events read) and RULES, what
`/backhand rules` shows, read from rules.md beside this module. Its slash commands are
cogs/backhand.py."""

from __future__ import annotations

import re

import discord

from bot.cards import FrenchCard
from bot.discord.controls import ActionButton, Controls
from bot.discord.format import kind_name
from bot.discord.game_ui import GameUI, action_controls, rules_beside
from bot.discord.text_answers import TextButton
from bot.engine import Action, Event
from bot.games.backhand import (
    AUTO_DEAL_BELOW,
    BACKHAND,
    BUST_OVER,
    PUSH_HIGH,
    PUSH_LOW,
    WINNING,
    AcesReplaced,
    AutoDealt,
    BackhandCalled,
    BackhandOptions,
    BackhandView,
    Bet,
    BetPlaced,
    CallBackhand,
    CardHit,
    Dealt,
    Hit,
    MatchOver,
    PlayerView,
    PlayPush,
    PushAway,
    PushedAway,
    PushHandDealt,
    PushPlayed,
    Settled,
    StockRefilled,
)
from bot.games.backhand.records import LAST_HAND, NO_MINIMUM_BET, BackhandKind
from bot.i18n import N_, Nn_, _, n_
from bot.tables import Table, action_token
from bot.tables.actions import HOUSE_CLOSING
from bot.text import signed_chips

RULES = rules_beside(__name__)


def cards_text(cards: list[FrenchCard]) -> str:
    return " ".join(card.label for card in cards) or "-"


# How a hand ended, under its player's name (the table, a private hand)...
OUTCOMES = {
    "five_cards": N_("wins with five cards"),
    "bust": N_("busts and loses"),
    "backhand_won": N_("wins: the backhand card busts"),
    "backhand_lost": N_("loses: the backhand card doesn't bust"),
    "push_won": N_("wins the push"),
    "push_lost": N_("busts playing the push"),
}
# ... and in a line of its own.
OUTCOME_LINES = {
    "five_cards": N_("{name} wins with five cards"),
    "bust": N_("{name} busts and loses"),
    "backhand_won": N_("{name} wins: the backhand card busts"),
    "backhand_lost": N_("{name} loses: the backhand card doesn't bust"),
    "push_won": N_("{name} wins the push"),
    "push_lost": N_("{name} busts playing the push"),
}


def _pattern(template: str) -> re.Pattern[str]:
    """`template` (one of the records' reasons) as a pattern reading its numbers back."""
    seen: set[str] = set()

    def number(match: re.Match[str]) -> str:
        name = match[1]
        first = name not in seen
        seen.add(name)
        return rf"(?P<{name}>[\d,]+)" if first else rf"(?P={name})"

    return re.compile(re.sub(r"\\\{(\w+)\\\}", number, re.escape(template)))


NO_MINIMUM_SAID = _pattern(NO_MINIMUM_BET)
LAST_HAND_SAID = _pattern(LAST_HAND)
HOUSE_CLOSING_SAID = [_pattern(form) for form in HOUSE_CLOSING]


def _whole(found: re.Match[str], name: str) -> int:
    return int(found[name].replace(",", ""))  # as English wrote it


def match_end(reason: str) -> str:
    """Why the match ended, which the table keeps in English (records.py), in the reader's
    language; a reason from elsewhere (the house's) is said as a message of its own."""
    found = NO_MINIMUM_SAID.fullmatch(reason)
    if found:
        return _(
            "Nobody at the table has the minimum bet of {min_bet} chips left.",
            min_bet=_whole(found, "min_bet"),
        )
    found = LAST_HAND_SAID.fullmatch(reason)
    if found:
        return _("That was hand {limit} of {limit}, the last.", limit=_whole(found, "limit"))
    found = next(filter(None, (form.fullmatch(reason) for form in HOUSE_CLOSING_SAID)), None)
    if found:
        needed = _whole(found, "count")
        return n_(*HOUSE_CLOSING, needed, available=_whole(found, "available"))
    return _(reason)


def bust_hint(total: int, push: bool) -> str:
    """Which next card busts (or wins the push), from the public cards alone."""
    if push:
        safe = BUST_OVER - total
        return _("Playing the push wins with a card of {value} or less (ace = 1).", value=safe)
    busting = BUST_OVER + 1 - total
    if busting <= 1:
        return _("Any card busts you: calling backhand wins.")
    if busting > 10:
        return _("No card can bust you yet.")
    return _("A card of {value} or more (faces count 10) busts you.", value=busting)


class BackhandUI(GameUI[BackhandView, BackhandOptions]):
    game_id = BACKHAND.id
    colour = discord.Colour.dark_teal()

    def score_noun(self, options: BackhandOptions) -> tuple[str, str]:
        return Nn_("{count} win", "{count} wins")  # only the wins-only mode has match scores

    # ---- the table ------------------------------------------------------------------------------

    def public_embed(self, table: Table, view: BackhandView, names: list[str]) -> discord.Embed:
        title = _("Backhand · hand {hand}", hand=view.hand)
        embed = discord.Embed(title=title, colour=self.colour)
        embed.description = self.header(view)
        for seat, player in enumerate(view.players):
            mark = " ▶" if view.turn == seat else ""
            embed.add_field(name=f"{names[seat]}{mark}"[:256], value=self.player_text(view, player))
        embed.set_footer(
            text=_(
                "Hit or call backhand from {low}; {push_low}-{push_high} on two cards is a push "
                "hand. /backhand rules",
                low=AUTO_DEAL_BELOW,
                push_low=PUSH_LOW,
                push_high=PUSH_HIGH,
            )
        )
        return embed

    def header(self, view: BackhandView) -> str:
        if view.mode == "wins":
            about = n_(
                "For wins: the first to {count} win takes the match",
                "For wins: the first to {count} wins takes the match",
                view.target,
            )
        else:
            about = _(
                "For chips against the house · bets {low} to {high}",
                low=view.min_bet,
                high=view.max_bet,
            )
            if view.bank:
                about += " · " + n_(
                    "the house holds **{count} chip** for this hand",
                    "the house holds **{count} chips** for this hand",
                    view.bank,
                )
        if view.hand_limit:
            about += " · " + _("hand {hand} of {limit}", hand=view.hand, limit=view.hand_limit)
        lines = [about]
        if view.phase == "betting":
            lines.append(_("Place your bets."))
        if view.ended:
            lines.append(_("**Match over.** {reason}", reason=match_end(view.ended)))
        return "\n".join(lines)

    def player_text(self, view: BackhandView, player: PlayerView) -> str:
        if view.mode == "wins":
            money = n_("{count} win", "{count} wins", player.wins)
        else:
            money = _("stack {amount}", amount=player.stack)
            if player.bet:
                money += " · " + _("bet {amount}", amount=player.bet)
        if not player.seated:
            return _("left the table · {money}", money=money)
        if not player.dealt_in:
            return money + "\n" + _("sits this hand out")
        lines = [money]
        if view.phase == "betting":
            lines.append(_("bet placed") if player.bet is not None else _("betting…"))
        elif player.cards:
            push = " · " + _("push hand") if player.push else ""
            lines.append(f"{cards_text(player.cards)} = **{player.total}**{push}")
        if player.backhand:
            lines.append(_("backhand card {card}", card=player.backhand.label))
        if player.discarded:
            lines.append(_("discarded {cards}", cards=cards_text(player.discarded)))
        if player.outcome:
            mark = "✅ " if player.outcome in WINNING else "❌ "
            lines.append(mark + _(OUTCOMES[player.outcome]))
        return "\n".join(lines)[:1024]

    def private_embed(self, table: Table, view: BackhandView, names: list[str]) -> discord.Embed:
        title = _("Your Backhand hand · table {table}", table=str(table.id))
        embed = discord.Embed(title=title, colour=self.colour)
        assert view.seat is not None  # a private view is its seat's
        me = view.players[view.seat]
        embed.description = self.player_text(view, me)
        if view.turn == view.seat and me.cards and me.outcome is None:
            embed.add_field(name=_("Odds"), value=bust_hint(me.total, me.push), inline=False)
        return embed

    def hand_summary(
        self, table: Table, view: BackhandView, names: list[str]
    ) -> discord.Embed | None:
        settled = [
            (seat, player, player.outcome)
            for seat, player in enumerate(view.players)
            if player.outcome
        ]
        if not settled:
            return None
        lines = []
        for seat, player, outcome in settled:
            chips = ""
            if view.mode == "chips" and player.bet:
                won = player.bet if outcome in WINNING else -player.bet
                chips = f" · {signed_chips(won)}"
            bold = f"**{names[seat]}**"
            lines.append(_(OUTCOME_LINES[outcome], name=bold) + chips)
        title = _("Backhand · hand {hand} over", hand=view.hand)
        embed = discord.Embed(title=title, colour=self.colour)
        embed.description = "\n".join(lines)
        return embed

    def options_text(self, options: BackhandOptions) -> str:
        if options.mode == "wins":
            text = _("for wins: first to {target}", target=options.target)
        else:
            text = _("for chips: bets {low} to {high}", low=options.min_bet, high=options.max_bet)
        if not options.hand_limit:
            return text
        return n_(
            "{options}, {count} hand at most",
            "{options}, {count} hands at most",
            options.hand_limit,
            options=text,
        )

    # ---- controls -------------------------------------------------------------------------------

    def private_controls(self, table: Table, seat: int) -> discord.ui.View | None:
        """A bet: one button per suggested amount, and Other amount for any other."""
        decision = table.decision(seat)
        if decision is None or decision.kind != BackhandKind.BET:
            return action_controls(table, seat, self)
        prompt = table.seats[seat].prompt
        state_view = table.view(seat)
        assert isinstance(state_view, BackhandView)  # a Backhand table's
        view = Controls()
        for action in table.legal_actions(seat):
            label = self.action_label(state_view, action)
            view.button(**ActionButton.look(table.id, prompt, action_token(action), label), row=0)
        view.button(**TextButton.look(table.id, prompt, _("Other amount")))
        return view

    def action_label(self, view: BackhandView, action: Action) -> str:
        match action:
            case Bet():
                return _("Bet {amount}", amount=action.chips)
            case Hit():
                return _("Hit")
            case CallBackhand():
                return _("Call backhand")
            case PushAway():
                return _("Push away")
            case PlayPush():
                return _("Play the push")
        return kind_name(action.kind)

    # ---- words ----------------------------------------------------------------------------------

    def event_line(self, event: Event, names: list[str]) -> str | None:
        match event:
            case BetPlaced():
                return n_(
                    "{name} bets {count} chip.",
                    "{name} bets {count} chips.",
                    event.chips,
                    name=names[event.seat],
                )
            case Dealt():
                hands = "; ".join(
                    f"{names[seat]} {cards_text(cards)}" for seat, cards in event.cards.items()
                )
                return _("Dealt: {hands}", hands=hands)
            case AcesReplaced():
                return _(
                    "{name}'s {aces} replaced by {cards}.",
                    name=names[event.seat],
                    aces=cards_text(event.aces),
                    cards=cards_text(event.replacements),
                )
            case PushHandDealt():
                return _(
                    "{name} has a push hand ({total}).", name=names[event.seat], total=event.total
                )
            case AutoDealt():
                return _(
                    "{name} is dealt {cards}: {total}.",
                    name=names[event.seat],
                    cards=cards_text(event.cards),
                    total=event.total,
                )
            case CardHit():
                return _(
                    "{name} hits: {card}, {total}.",
                    name=names[event.seat],
                    card=event.card.label,
                    total=event.total,
                )
            case BackhandCalled():
                return _(
                    "{name} calls backhand on {total}: {card}.",
                    name=names[event.seat],
                    total=event.total,
                    card=event.card.label,
                )
            case PushedAway():
                return _(
                    "{name} pushes {discarded} away and gets {cards}.",
                    name=names[event.seat],
                    discarded=cards_text(event.discarded),
                    cards=cards_text(event.cards),
                )
            case PushPlayed():
                return _(
                    "{name} plays the push: {card}, {total}.",
                    name=names[event.seat],
                    card=event.card.label,
                    total=event.total,
                )
            case Settled():
                outcome = _(OUTCOME_LINES[event.outcome], name=names[event.seat])
                if event.chips:
                    return _(
                        "{outcome} ({chips}).", outcome=outcome, chips=signed_chips(event.chips)
                    )
                return _("{outcome}.", outcome=outcome)
            case StockRefilled():
                return n_(
                    "The stock ran low: {count} card out of play shuffled in.",
                    "The stock ran low: {count} cards out of play shuffled in.",
                    event.cards,
                )
            case MatchOver():
                return _("Match over: {reason}", reason=match_end(event.reason))
        return None
