"""Climbing games on Discord (Big Two, Dou Dizhu): pick cards with toggle buttons, then Play,
Pass or Clear, or take one of the suggested plays. The selection lives in the custom_ids (a
bit per card of the hand), so no state is kept in memory and the buttons survive restarts.
An illegal selection is refused with the rules' reason ("does not beat pair of 7s"); a
custom_id the bot could not have made for this player now is refused as invalid."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import discord
from pydantic import BaseModel

from bot.cards import FrenchCard
from bot.discord.format import plural
from bot.discord.tables import (
    MAX_SELECT_OPTIONS,
    ActionButton,
    ActionSelect,
    GameUI,
    TableItem,
    play,
)
from bot.engine import Action, Event, IllegalAction
from bot.errors import InvalidComponent, UserError
from bot.games.climbing import Pass, Play
from bot.tables import Table, action_token

if TYPE_CHECKING:
    from bot.app import CardTableBot

CARDS_PER_PAGE = 15  # three rows of five; the fourth row holds Play / Pass / Clear / More


def cards_text(cards: list[FrenchCard]) -> str:
    return " ".join(card.label for card in cards) or "none"


def selected(hand: list[FrenchCard], mask: int) -> list[FrenchCard]:
    return [card for index, card in enumerate(hand) if mask >> index & 1]


class ClimbingUI(GameUI):
    title = "Climbing"

    def private_embed(
        self, table: Table, view: BaseModel, names: list[str], mask: int = 0
    ) -> discord.Embed:
        hand = view.my_cards or []
        embed = discord.Embed(
            title=f"Your {self.title} hand · table {table.id}", colour=self.colour
        )
        embed.description = f"{cards_text(hand)}  ({plural(len(hand), 'card')})"
        embed.add_field(name="To beat", value=self.to_beat_text(view, names), inline=False)
        if mask:
            chosen = selected(hand, mask)
            embed.add_field(
                name="Selected",
                value=f"{cards_text(chosen)} · {self.judge(table, chosen)}",
                inline=False,
            )
        return embed

    def judge(self, table: Table, cards: list[FrenchCard]) -> str:
        seat = next((s for s in table.pending_seats()), None)
        try:
            table.state.verify(seat, Play(cards=cards))
        except IllegalAction as refusal:
            return f"can't be played: {refusal}"
        return "ready to play"

    def to_beat_text(self, view: BaseModel, names: list[str]) -> str:
        if view.phase != "playing" or view.turn is None:
            return "nothing yet"
        if not view.to_beat:
            return f"free lead ({names[view.turn]} leads anything)"
        return f"{view.to_beat_name}: {cards_text(view.to_beat)} (by {names[view.last_player]})"

    def private_controls(self, table: Table, seat: int) -> discord.ui.View | None:
        """Card toggles when there are cards to play; otherwise (an auction) one button each."""
        if not plays_cards(table, seat):
            return super().private_controls(table, seat)
        return card_controls(table, seat, self, mask=0, page=0)

    def action_label(self, view: BaseModel, action: Action) -> str:
        if isinstance(action, Pass):
            return "Pass"
        return cards_text(action.cards)

    def event_line(self, event: Event, names: list[str]) -> str | None:
        match event.kind:
            case "played":
                cards = cards_text(event.cards)
                # A single card is its own name: "plays J♦", not "plays J♦: J♦".
                what = cards if len(event.cards) == 1 else f"{event.combination}: {cards}"
                return f"{names[event.seat]} plays {what} ({event.left} left)."
            case "passed":
                return f"{names[event.seat]} passes."
            case "trick_won":
                return f"Everyone else passed: {names[event.seat]} leads."
        return None


def card_controls(
    table: Table, seat: int, ui: ClimbingUI, mask: int, page: int
) -> discord.ui.View | None:
    """Toggles for the cards on this page, Play / Pass / Clear (/ More), suggested plays."""
    legal = table.state.legal_actions(seat)
    if not legal:
        return None
    hand, prompt = table.state.hands[seat], table.seats[seat].prompt
    view = discord.ui.View(timeout=None)
    first = page * CARDS_PER_PAGE
    for index in range(first, min(first + CARDS_PER_PAGE, len(hand))):
        on = bool(mask >> index & 1)
        view.add_item(
            CardToggle(
                table.id, prompt, mask, index, page, hand[index].label, on, row=(index - first) // 5
            )
        )
    view.add_item(CardButton(table.id, prompt, mask, page, "play", row=3))
    if Pass() in legal:
        view.add_item(ActionButton(table.id, prompt, "pass", "Pass", row=3))
    view.add_item(CardButton(table.id, prompt, mask, page, "clear", row=3))
    if len(hand) > CARDS_PER_PAGE:
        view.add_item(CardButton(table.id, prompt, mask, page, "more", row=3))
    plays = [a for a in legal if isinstance(a, Play)][:MAX_SELECT_OPTIONS]
    if plays:
        state_view = table.state.view(seat)
        options = [(action_token(a), ui.action_label(state_view, a)[:100]) for a in plays]
        select = ActionSelect(table.id, prompt, "suggested", options)
        select.item.placeholder = "Suggested plays…"
        select.item.row = 4
        view.add_item(select)
    return view


def card_pages(hand: list[FrenchCard]) -> int:
    return max(1, -(-len(hand) // CARDS_PER_PAGE))


def plays_cards(table: Table, seat: int) -> bool:
    """Whether `seat` has cards to play now (not, say, a Dou Dizhu bid)."""
    return any(isinstance(action, Play) for action in table.state.legal_actions(seat))


class CardControl(TableItem):
    """What the card toggles and the Play / Clear / More buttons share: the selection they
    carry (a bit per card of the hand, and the page shown), checked against the table before
    anything is done. The bot makes them only for the player to act in a climbing game, so
    one that doesn't fit the hand, or reaches any other table, was forged."""

    table_id: int
    prompt: int
    mask: int
    page: int

    def your_hand(
        self, interaction: discord.Interaction, bot: CardTableBot
    ) -> tuple[Table, int, ClimbingUI]:
        """The table, the player's seat and the game's UI, once the control fits them."""
        if interaction.data.get("custom_id") != self.custom_id:
            raise InvalidComponent()  # not the form the bot writes (leading zeros, say)
        table = bot.runtime.get(self.table_id)
        ui = bot.presenter.games.get(table.game.id)
        if not isinstance(ui, ClimbingUI) or table.state is None:
            raise InvalidComponent()
        seat = table.seat_of(interaction.user.id)
        if seat is None:
            raise UserError("You are not seated at this table.")
        if seat.seat not in table.pending_seats():
            raise UserError("It is not your turn.")
        if seat.prompt != self.prompt:
            raise UserError("This prompt has expired.")
        hand = table.state.hands[seat.seat]
        fits = not self.mask >> len(hand) and self.page < card_pages(hand)
        if not (fits and plays_cards(table, seat.seat)):
            raise InvalidComponent()
        return table, seat.seat, ui


async def redraw(
    interaction: discord.Interaction, table: Table, seat: int, ui: ClimbingUI, mask: int, page: int
) -> None:
    """Show the player's hand again with this selection, in the message they tapped."""
    embed = ui.private_embed(table, table.state.view(seat), table.names(), mask)
    await interaction.response.edit_message(
        embed=embed, view=card_controls(table, seat, ui, mask, page)
    )


class CardToggle(
    CardControl,
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"tc:(?P<table>\d+):(?P<prompt>\d+):(?P<mask>[0-9a-f]+):(?P<index>\d+):(?P<page>\d)",
):
    def __init__(
        self,
        table_id: int,
        prompt: int,
        mask: int,
        index: int,
        page: int,
        label: str = "",
        on: bool = False,
        row: int | None = None,
    ) -> None:
        self.table_id, self.prompt, self.mask, self.page = table_id, prompt, mask, page
        self.index = index
        style = discord.ButtonStyle.success if on else discord.ButtonStyle.secondary
        custom_id = f"tc:{table_id}:{prompt}:{mask:x}:{index}:{page}"
        super().__init__(
            discord.ui.Button(label=label or "?", style=style, custom_id=custom_id, row=row)
        )

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str]) -> CardToggle:
        return cls(
            int(match["table"]),
            int(match["prompt"]),
            int(match["mask"], 16),
            int(match["index"]),
            int(match["page"]),
        )

    async def run(self, interaction: discord.Interaction, bot: CardTableBot) -> None:
        table, seat, ui = self.your_hand(interaction, bot)
        first = self.page * CARDS_PER_PAGE
        last = min(first + CARDS_PER_PAGE, len(table.state.hands[seat]))
        if not first <= self.index < last:
            raise InvalidComponent()  # not a card shown on its page
        await redraw(interaction, table, seat, ui, self.mask ^ (1 << self.index), self.page)


class CardButton(
    CardControl,
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"tp:(?P<table>\d+):(?P<prompt>\d+):(?P<mask>[0-9a-f]+):(?P<page>\d):(?P<verb>play|clear|more)",
):
    LABELS = {
        "play": ("Play selected", discord.ButtonStyle.primary),
        "clear": ("Clear", discord.ButtonStyle.secondary),
        "more": ("More cards", discord.ButtonStyle.secondary),
    }

    def __init__(
        self, table_id: int, prompt: int, mask: int, page: int, verb: str, row: int | None = None
    ) -> None:
        self.table_id, self.prompt, self.mask, self.page = table_id, prompt, mask, page
        self.verb = verb
        label, style = self.LABELS[verb]
        custom_id = f"tp:{table_id}:{prompt}:{mask:x}:{page}:{verb}"
        super().__init__(discord.ui.Button(label=label, style=style, custom_id=custom_id, row=row))

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str]) -> CardButton:
        return cls(
            int(match["table"]),
            int(match["prompt"]),
            int(match["mask"], 16),
            int(match["page"]),
            match["verb"],
        )

    async def run(self, interaction: discord.Interaction, bot: CardTableBot) -> None:
        table, seat, ui = self.your_hand(interaction, bot)
        hand = table.state.hands[seat]
        if self.verb == "clear":
            await redraw(interaction, table, seat, ui, 0, self.page)
        elif self.verb == "more":
            next_page = (self.page + 1) % card_pages(hand)
            await redraw(interaction, table, seat, ui, self.mask, next_page)
        else:
            cards = selected(hand, self.mask)
            if not cards:
                raise UserError(
                    "Pick one or more cards first (tap them), or choose a suggested play."
                )
            await play(interaction, bot, self.table_id, self.prompt, action=Play(cards=cards))


CLIMBING_ITEMS = (CardToggle, CardButton)
