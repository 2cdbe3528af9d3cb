"""Soliterrapin on Discord: its GameUI (how its table, hands and events read) and RULES, what
`/soliterrapin rules` shows, read from rules.md beside this module. Its slash commands are
cogs/soliterrapin.py. Its board picture is picture.py."""

from __future__ import annotations

import discord

from bot.discord.game_ui import GameUI, rules_beside
from bot.engine import Action
from bot.games.terrapin.soliterrapin import (
    SOLITERRAPIN,
    Abandon,
    Place,
    SoliterrapinOptions,
    SoliterrapinView,
)
from bot.games.terrapin.soliterrapin.picture import render_board, text_board
from bot.i18n import _, n_
from bot.tables import Table

RULES = rules_beside(__name__)


class SoliterrapinUI(GameUI[SoliterrapinView, SoliterrapinOptions]):
    game_id = SOLITERRAPIN.id
    controls_on_table = True
    warning_kinds = frozenset({"abandon"})

    def public_embed(self, table: Table, view: SoliterrapinView, names: list[str]) -> discord.Embed:
        embed = self._board_embed(view, names[0])
        card = view.next_card
        assert card is not None  # a board still in play has a card to place (closed_embed after)
        embed.description = "\n".join(
            [
                n_(
                    "Card to place: **{card}** · {count} in the deck, this one included",
                    "Card to place: **{card}** · {count} in the deck, this one included",
                    view.deck_left,
                    card=card.label,
                ),
                _("Score so far: **{score}** · choose a yellow spot below", score=view.total),
            ]
        )
        embed.set_footer(text=_("Only {name} can play this board.", name=names[0]))
        return embed

    def closed_embed(self, table: Table, view: SoliterrapinView, names: list[str]) -> discord.Embed:
        embed = self._board_embed(view, names[0])
        if view.abandoned:
            embed.description = n_(
                "{name} abandoned this board ({count} card down).",
                "{name} abandoned this board ({count} cards down).",
                len(view.cells),
                name=names[0],
            )
        else:
            embed.description = _(
                "{name} placed every card. Final score: **{score}**",
                name=names[0],
                score=view.total,
            )
        return embed

    def _board_embed(self, view: SoliterrapinView, owner: str) -> discord.Embed:
        title = (
            _("Soliterrapin · {name} · daily {day}", name=owner, day=view.daily)
            if view.daily
            else _("Soliterrapin · {name}", name=owner)
        )
        embed = discord.Embed(title=title, colour=self.colour)
        embed.add_field(
            name=_("Board as text"), value=f"```\n{text_board(view)}\n```", inline=False
        )
        return embed

    def private_embed(
        self, table: Table, view: SoliterrapinView, names: list[str]
    ) -> discord.Embed:
        return self.public_embed(table, view, names)

    def image(self, view: SoliterrapinView) -> bytes:
        return render_board(view)

    def action_label(self, view: SoliterrapinView, action: Action) -> str:
        match action:
            case Abandon():
                return _("Abandon")
            case Place():
                return next(
                    s.label for s in view.legal if (s.row, s.col) == (action.row, action.col)
                )
        return super().action_label(view, action)
