"""/lowball: Triple Draw Lowball tables."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord

from bot.discord.commands import table_game_cog
from bot.discord.format import chips, plural
from bot.discord.picker import Group, Picked, Picker, PickerUI, Zone, add_picker, cards_text
from bot.discord.poker import BettingUI, result_lines
from bot.engine import Action, Event
from bot.games.lowball import (
    BETTING_ROUNDS,
    DRAWS,
    HAND_SIZE,
    LOWBALL,
    MAX_BETS,
    CardsDrawn,
    Draw,
    Drew,
    HandStarted,
    LowballOptions,
    LowballView,
    Revealed,
    SeatView,
    StandPat,
    StubReshuffled,
)
from bot.tables import Table

if TYPE_CHECKING:
    from bot.app import CardTableBot

RULES = """\
**Triple Draw Lowball** · 2-6 players · 52 cards · the lowest hand wins
**Ranking: deuce-to-seven.** Aces are high, and straights and flushes count against you \
(A-2-3-4-5 is no straight: it is ace-high). The best hand is 7-5-4-3-2 in mixed suits, then \
7-6-4-3-2, 7-6-5-3-2 ... Any hand without a pair, straight or flush beats one with; then one \
pair, two pairs, three of a kind, straight, flush, full house, four of a kind, straight flush \
(the worst). Hands of the same kind compare as in poker (the pair first, then the highest \
card down): the lower one wins.
**A hand.** The player on the dealer's left posts the small blind (half the small bet, rounded \
down), the next player the big blind (the small bet). Five cards each, one at a time from the \
dealer's left. The first betting round starts left of the big blind. Then the first draw, from \
the first player still in on the dealer's left: each throws 0 to 5 cards face down (none: you \
stand pat) and gets as many from the stub. Everyone sees how many you draw; only you see which \
cards. Then the second betting round, from the dealer's left, the second draw, the third round, \
the third draw and the fourth round; then the showdown. The deal passes left every hand.
**Heads-up.** With two players the dealer posts the small blind and acts first before the first \
draw; after that the other player acts first.
**Fixed limit.** Bets and raises are the small bet in rounds 1 and 2 and twice it (the big bet) \
in rounds 3 and 4. A round is capped at a bet and three raises, and the big blind counts as the \
bet in round 1; once capped you may only call or fold. You may check when there is nothing to \
call (the big blind may check or raise when everyone only called).
**Showdown.** Every hand still in is shown; none is mucked. The last player to bet or raise \
in the fourth round shows first; if nobody did, the first player still in on the dealer's \
left; then clockwise. The best hand wins each pot; equal hands split it, and odd chips go one \
each to the winners from the dealer's left. The hand's result gives each player's net chips \
and what they took from the pot.
**House decisions.** A player with fewer chips than a blind posts what they have and is all-in; \
the others must still match the full big blind while two of them can bet. A player with chips \
facing an all-in blind or bet is asked to call it (up to the all-in amount) or fold, even when \
nobody acts after them; no raise is offered when everyone else still in is all-in. All-in \
players keep drawing and win only the pots they paid into (side pots). Chips nobody called go \
back when the round ends. An all-in \
raise for less than a full bet counts as a raise towards the cap and reopens the betting. \
Thrown cards and folded hands go face down to the discards. If the stub runs out during a \
draw, the discards are shuffled into a new stub; the drawing player's own throw joins the \
discards only afterwards, so it never comes straight back. A player left alone wins without \
showing. On timeout you check if you can, else fold; stand pat in a draw. Twice in one hand \
and you are marked away (press My hand to come back). You can \
leave between hands (or ask to leave when the current one ends) and your chips go with you; \
players out of chips sit out, and the table goes on while two players have chips. Players \
join before the start."""


def limits_text(small_bet: int) -> str:
    return f"blinds {small_bet // 2}/{small_bet}, bets {small_bet} then {2 * small_bet}"


class LowballUI(PickerUI[LowballView, LowballOptions], BettingUI[LowballView, LowballOptions]):
    game_id = LOWBALL.id
    colour = discord.Colour.dark_blue()

    # ---- the table -------------------------------------------------------------------------

    def public_embed(self, table: Table, view: LowballView, names: list[str]) -> discord.Embed:
        embed = discord.Embed(title=f"Triple Draw Lowball · hand {view.hand}", colour=self.colour)
        embed.description = "\n".join(self._seat_line(view, seat, names) for seat in view.seats)
        embed.add_field(name="Pot", value=chips(view.pot))
        embed.add_field(
            name="Stub", value=f"{plural(view.stub_left, 'card')} · {view.discards} discarded"
        )
        if view.phase == "betting" and view.to_act is not None:
            embed.add_field(
                name=self._round_title(view),
                value=self._to_act_text(view.to_act, view.to_call, names),
                inline=False,
            )
        elif view.phase == "draw" and view.to_act is not None:
            embed.add_field(
                name=f"Draw {view.draw_round} of {DRAWS}",
                value=f"{names[view.to_act]} is drawing",
                inline=False,
            )
        embed.set_footer(
            text=f"Fixed limit: {limits_text(view.small_bet)} · "
            "deuce-to-seven: aces high, straights and flushes count; best 7-5-4-3-2"
        )
        return embed

    @staticmethod
    def _round_title(view: LowballView) -> str:
        capped = " · capped" if view.bets >= MAX_BETS else ""
        return (
            f"Betting round {view.betting_round} of {BETTING_ROUNDS} · "
            f"{chips(view.bet_size)} a bet · {view.bets} of {MAX_BETS} bets{capped}"
        )

    @staticmethod
    def _to_act_text(to_act: int, to_call: int, names: list[str]) -> str:
        owed = f"{to_call} to call" if to_call else "nothing to call"
        return f"{names[to_act]}: {owed}"

    def _seat_line(self, view: LowballView, seat: SeatView, names: list[str]) -> str:
        dealt = seat.in_hand or seat.folded
        blinds = [("small blind", view.small_blind), ("big blind", view.big_blind)]
        roles = [role for role, blind in blinds if dealt and seat.seat == blind]
        drew = ["drew " + ", ".join(map(str, seat.draws))] if seat.draws else []
        cards = seat.cards if seat.in_hand else None
        return self.betting_seat_line(view, seat, names, roles=roles, marks=drew, cards=cards)

    def private_embed(self, table: Table, view: LowballView, names: list[str]) -> discord.Embed:
        embed = discord.Embed(
            title=f"Your Triple Draw Lowball hand · table {table.id}", colour=self.colour
        )
        if view.my_cards:
            embed.description = cards_text(view.my_cards)
            embed.add_field(name="Your hand", value=view.my_hand)
        else:
            embed.description = "You hold no cards now."
        embed.add_field(name="Pot", value=chips(view.pot))
        if view.phase == "betting" and view.to_act is not None:
            to_act = self._to_act_text(view.to_act, view.to_call, names)
            embed.add_field(name=self._round_title(view), value=to_act)
        return embed

    def options_text(self, options: LowballOptions) -> str:
        return f"small bet {options.small_bet} ({limits_text(options.small_bet)})"

    # ---- drawing with the card picker ------------------------------------------------------

    def picker(self, view: LowballView) -> Picker | None:
        if view.phase != "draw" or not view.my_cards:
            return None
        return Picker(
            zones=(Zone("your hand", view.my_cards),),
            groups=(Group("Throw", low=1, high=HAND_SIZE),),
            kinds=frozenset({"draw"}),
            verb="Throw selected and draw",
        )

    def pick_action(self, view: LowballView, picked: Picked) -> Action:
        return Draw(cards=list(picked.cards))

    def pick_of(self, view: LowballView, action: Action) -> list[list] | None:
        return None  # no suggested throws: the player picks

    # ---- words ------------------------------------------------------------------------------

    def action_label(self, view: LowballView, action: Action) -> str:
        match action:
            case StandPat():
                return "Stand pat"
            case Draw():
                return f"Throw {cards_text(action.cards)}"
        return super().action_label(view, action)

    def event_line(self, event: Event, names: list[str]) -> str | None:
        match event:
            case HandStarted():
                small, big = event.blinds
                return (
                    f"Hand {event.hand}: {names[event.dealer]} deals; "
                    f"{names[event.small_blind]} posts the small blind ({small}), "
                    f"{names[event.big_blind]} the big blind ({big})."
                )
            case Drew():
                if event.count == 0:
                    return f"{names[event.seat]} stands pat."
                return f"{names[event.seat]} draws {plural(event.count, 'card')}."
            case CardsDrawn():
                return f"You draw {cards_text(event.cards)}."
            case StubReshuffled():
                return (
                    f"The stub ran out: {plural(event.cards, 'discard')} shuffled into a new one."
                )
            case Revealed():
                return f"{names[event.seat]} shows {cards_text(event.cards)}: {event.description}."
        return super().event_line(event, names)

    def hand_summary(
        self, table: Table, view: LowballView, names: list[str]
    ) -> discord.Embed | None:
        result = view.result
        if result is None:
            return None
        embed = discord.Embed(
            title=f"Triple Draw Lowball · hand {view.hand} result", colour=self.colour
        )
        lines = [
            f"**{names[shown.seat]}**: {cards_text(shown.cards)} · {shown.description}"
            for shown in result.shown
        ]
        lines += result_lines(result.won, result.net, 0, names)  # odd chips never stay
        embed.description = "\n".join(lines)
        return embed


Lowball = table_game_cog("lowball", LOWBALL, RULES)


async def setup(bot: CardTableBot) -> None:
    add_picker(bot)
    bot.presenter.register(LowballUI())
    await bot.add_cog(Lowball(bot))
