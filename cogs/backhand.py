"""/backhand: Backhand tables (1-7 players, each against the house, for chips or for wins)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot.cards import FrenchCard
from bot.discord.commands import table_game_cog
from bot.discord.controls import ActionButton, Controls, TextButton
from bot.discord.format import plural, signed_chips
from bot.discord.game_ui import GameUI, action_controls
from bot.discord.house import send_house_report
from bot.engine import Action, Event
from bot.errors import UserError
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
from bot.tables import Table, action_token

if TYPE_CHECKING:
    from bot.app import CardTableBot

RULES = f"""\
**Backhand** · 1-7 players, each against the house · one pack per two players, the whole \
shoe shuffled every hand · every card is dealt face up; only the stock is hidden.
**Goal.** Predict when the next card will take your hand over {BUST_OVER}: you can never stand.
**Values.** Aces 1, J Q K 10, other cards their pips.
**Deal.** Two cards to each player. When your turn comes, any ace among those two is \
discarded and replaced from the stock; a replacement ace is kept. A hand under \
{AUTO_DEAL_BELOW} is dealt cards until it reaches {AUTO_DEAL_BELOW}.
**Play.** Players act one at a time from the first seat (the house deals every hand). From \
{AUTO_DEAL_BELOW} on, **Hit** (one card: over {BUST_OVER} you bust and lose; five cards \
without busting win) or **Call backhand**: one card is turned, not added to your hand; you win \
if it would have taken you over {BUST_OVER}, else you lose.
**Push hands.** Your first two cards (after aces are replaced) totalling {PUSH_LOW}-{PUSH_HIGH} \
make a push hand: no backhand. **Push away** (discard them and get two new cards, aces replaced, \
and push again if it's another push hand) or **Play the push** (one card: {BUST_OVER} or less \
wins, over it loses).
**For chips.** Before each hand everyone with the minimum bet bets at once, between the \
table's minimum and maximum (and at most your stack): a button, or Other amount for any \
number. The house pays wins at even money and collects losses. It covers every hand from its \
balance on this server: as you bet, it holds your bet's win at the table, and takes its chips \
back when the hand ends. So the table's limits hold as long as the house can cover them; a bet \
it can't cover is refused (bet less, or a server manager adds chips with /chips bankroll), and \
a timed-out bet it can't cover closes the table with every bet given back. When nobody has the \
minimum bet left, the table closes and everyone takes their stack.
**For wins.** No chips and no buy-in: the first to win the target number of hands wins the \
match.
**Leaving.** Leave between hands (or at once when you sit a hand out) and take your stack; the \
table goes on for the others.
**House decisions.** Hitting a push hand is playing the push. Five cards reached by the \
automatic deal win, like five cards by hitting \
(the automatic deal can't bust). Aces are replaced when your turn comes, in the order of your \
two cards. With a hand limit, the match ends after that many hands (wins-only: most wins \
first). In wins-only mode players still seated place before those who left, then by wins; \
two players reaching the target in the same hand share first place. Bets are placed \
together, in the open; wins are paid and losses collected when the whole hand ends. If the \
stock runs low mid-hand, the cards out of play are shuffled back into it. On timeout: the \
minimum bet; a push hand is pushed away; otherwise you call backhand."""


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
        if decision is None or decision.kind != "bet":
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


class OptionsClash(UserError, app_commands.AppCommandError):
    """Options that don't go together, refused before the command runs."""


# The base is the class table_game_cog makes: mypy can't follow a base made by a call.
class Backhand(table_game_cog("backhand", BACKHAND, RULES)):  # type: ignore[misc]
    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        """`/backhand new` for wins plays no chips: a buy-in given with it is refused with
        the reason, not ignored (the generic command offers a buy-in for the chips mode)."""
        given, command = interaction.namespace, interaction.command
        opening = command is not None and command.name == "new"
        if opening and given.mode == "wins" and "buy_in" in given:
            raise OptionsClash(
                "A table for wins plays no chips, so it takes no buy-in: leave buy_in out."
            )
        return True

    @app_commands.command(
        name="house",
        description="The house's balance and its net per day and game (Manage Server).",
    )
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.checks.has_permissions(manage_guild=True)
    async def house(self, interaction: discord.Interaction) -> None:
        await send_house_report(interaction)


async def setup(bot: CardTableBot) -> None:
    bot.presenter.register(BackhandUI())
    await bot.add_cog(Backhand(bot))
