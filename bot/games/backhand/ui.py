"""Backhand on Discord: its GameUI (how its table, hands and events read) and RULES, what
`/backhand rules` shows, read from rules.md beside this module. Its slash commands are
cogs/backhand.py."""

from __future__ import annotations

import discord

from bot.cards import FrenchCard
from bot.discord.controls import ActionButton, Controls, TextButton
from bot.discord.format import plural, signed_chips
from bot.discord.game_ui import GameUI, action_controls, rules_beside
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
from bot.games.backhand.records import BackhandKind
from bot.tables import Table, action_token

RULES = rules_beside(__name__)


def cards_text(cards: list[FrenchCard]) -> str:
    return " ".join(card.label for card in cards) or "-"


OUTCOMES = {
    "five_cards": "wins with five cards",
    "bust": "busts and loses",
    "backhand_won": "wins: the backhand card busts",
    "backhand_lost": "loses: the backhand card doesn't bust",
    "push_won": "wins the push",
    "push_lost": "busts playing the push",
}


def bust_hint(total: int, push: bool) -> str:
    """Which next card busts (or wins the push), from the public cards alone."""
    if push:
        safe = BUST_OVER - total
        return f"Playing the push wins with a card of {safe} or less (ace = 1)."
    busting = BUST_OVER + 1 - total
    if busting <= 1:
        return "Any card busts you: calling backhand wins."
    if busting > 10:
        return "No card can bust you yet."
    return f"A card of {busting} or more (faces count 10) busts you."


class BackhandUI(GameUI[BackhandView, BackhandOptions]):
    game_id = BACKHAND.id
    colour = discord.Colour.dark_teal()

    def score_noun(self, options: BackhandOptions) -> tuple[str, str]:
        return "win", "wins"  # only the wins-only mode has match scores

    # ---- the table ------------------------------------------------------------------------------

    def public_embed(self, table: Table, view: BackhandView, names: list[str]) -> discord.Embed:
        embed = discord.Embed(title=f"Backhand · hand {view.hand}", colour=self.colour)
        embed.description = self.header(view)
        for seat, player in enumerate(view.players):
            mark = " ▶" if view.turn == seat else ""
            embed.add_field(name=f"{names[seat]}{mark}"[:256], value=self.player_text(view, player))
        embed.set_footer(
            text=f"Hit or call backhand from {AUTO_DEAL_BELOW}; {PUSH_LOW}-{PUSH_HIGH} on two "
            "cards is a push hand. /backhand rules"
        )
        return embed

    def header(self, view: BackhandView) -> str:
        limit = f" · hand {view.hand} of {view.hand_limit}" if view.hand_limit else ""
        if view.mode == "wins":
            about = f"For wins: the first to {plural(view.target, 'win')} takes the match"
        else:
            about = f"For chips against the house · bets {view.min_bet} to {view.max_bet}"
            if view.bank:
                about += f" · the house holds **{plural(view.bank, 'chip')}** for this hand"
        lines = [about + limit]
        if view.phase == "betting":
            lines.append("Place your bets.")
        if view.ended:
            lines.append(f"**Match over.** {view.ended}")
        return "\n".join(lines)

    def player_text(self, view: BackhandView, player: PlayerView) -> str:
        money = (
            f"{plural(player.wins, 'win')}"
            if view.mode == "wins"
            else f"stack {player.stack:,}" + (f" · bet {player.bet:,}" if player.bet else "")
        )
        if not player.seated:
            return f"left the table · {money}"
        if not player.dealt_in:
            return f"{money}\nsits this hand out"
        lines = [money]
        if view.phase == "betting":
            lines.append("bet placed" if player.bet is not None else "betting…")
        elif player.cards:
            push = " · push hand" if player.push else ""
            lines.append(f"{cards_text(player.cards)} = **{player.total}**{push}")
        if player.backhand:
            lines.append(f"backhand card {player.backhand.label}")
        if player.discarded:
            lines.append(f"discarded {cards_text(player.discarded)}")
        if player.outcome:
            lines.append(("✅ " if player.outcome in WINNING else "❌ ") + OUTCOMES[player.outcome])
        return "\n".join(lines)[:1024]

    def private_embed(self, table: Table, view: BackhandView, names: list[str]) -> discord.Embed:
        embed = discord.Embed(title=f"Your Backhand hand · table {table.id}", colour=self.colour)
        assert view.seat is not None  # a private view is its seat's
        me = view.players[view.seat]
        embed.description = self.player_text(view, me)
        if view.turn == view.seat and me.cards and me.outcome is None:
            embed.add_field(name="Odds", value=bust_hint(me.total, me.push), inline=False)
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
            lines.append(f"**{names[seat]}** {OUTCOMES[outcome]}{chips}")
        embed = discord.Embed(title=f"Backhand · hand {view.hand} over", colour=self.colour)
        embed.description = "\n".join(lines)
        return embed

    def options_text(self, options: BackhandOptions) -> str:
        if options.mode == "wins":
            text = f"for wins: first to {options.target}"
        else:
            text = f"for chips: bets {options.min_bet} to {options.max_bet}"
        limit = f", {plural(options.hand_limit, 'hand')} at most" if options.hand_limit else ""
        return text + limit

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
        view.button(**TextButton.look(table.id, prompt, "Other amount"))
        return view

    def action_label(self, view: BackhandView, action: Action) -> str:
        match action:
            case Bet():
                return f"Bet {action.chips:,}"
            case CallBackhand():
                return "Call backhand"
            case PushAway():
                return "Push away"
            case PlayPush():
                return "Play the push"
        return action.kind.title()

    # ---- words ----------------------------------------------------------------------------------

    def event_line(self, event: Event, names: list[str]) -> str | None:
        match event:
            case BetPlaced():
                return f"{names[event.seat]} bets {plural(event.chips, 'chip')}."
            case Dealt():
                return "Dealt: " + "; ".join(
                    f"{names[seat]} {cards_text(cards)}" for seat, cards in event.cards.items()
                )
            case AcesReplaced():
                return (
                    f"{names[event.seat]}'s {cards_text(event.aces)} replaced by "
                    f"{cards_text(event.replacements)}."
                )
            case PushHandDealt():
                return f"{names[event.seat]} has a push hand ({event.total})."
            case AutoDealt():
                return f"{names[event.seat]} is dealt {cards_text(event.cards)}: {event.total}."
            case CardHit():
                return f"{names[event.seat]} hits: {event.card.label}, {event.total}."
            case BackhandCalled():
                return f"{names[event.seat]} calls backhand on {event.total}: {event.card.label}."
            case PushedAway():
                return (
                    f"{names[event.seat]} pushes {cards_text(event.discarded)} away and gets "
                    f"{cards_text(event.cards)}."
                )
            case PushPlayed():
                return f"{names[event.seat]} plays the push: {event.card.label}, {event.total}."
            case Settled():
                chips = f" ({signed_chips(event.chips)})" if event.chips else ""
                return f"{names[event.seat]} {OUTCOMES[event.outcome]}{chips}."
            case StockRefilled():
                return f"The stock ran low: {plural(event.cards, 'card')} out of play shuffled in."
            case MatchOver():
                return f"Match over: {event.reason}"
        return None
