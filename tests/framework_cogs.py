"""Discord faces for the test-only framework games (tests/framework_games.py): a test loads
this extension with `load_framework_games(world)`, then plays them like any game."""

from __future__ import annotations

import discord

from bot.discord.commands import table_game_cog
from bot.discord.format import SIDE_NAMES
from bot.discord.game_ui import GameUI
from bot.engine import Action, Event, registry
from tests.framework_games import BANKER, FRAMEWORK_GAMES, PARTNERS, SNAP


def cards(hand) -> str:
    return " ".join(card.label for card in hand) or "none"


class PartnersUI(GameUI):
    game_id = PARTNERS.id

    def public_embed(self, table, view, names) -> discord.Embed:
        embed = discord.Embed(title=f"Partners · hand {view.hand}")
        sides = [f"{SIDE_NAMES[side]} {points}" for side, points in enumerate(view.points)]
        embed.add_field(name="Points", value=" · ".join(sides))
        played = ", ".join(f"{names[s]} {card.label}" for s, card in view.played.items())
        embed.add_field(name="Played", value=played or "nothing yet")
        return embed

    def private_embed(self, table, view, names) -> discord.Embed:
        return discord.Embed(title="Your Partners hand", description=cards(view.my_cards))

    def action_label(self, view, action: Action) -> str:
        return f"Play {action.card.label}" if action.kind == "play" else action.kind.title()

    def event_line(self, event: Event, names: list[str]) -> str | None:
        if event.kind == "dealt":
            return f"You were dealt {cards(event.cards)}."
        if event.kind == "played":
            return f"{names[event.seat]} plays {event.card.label}."
        if event.kind == "point":
            return f"Side {SIDE_NAMES[event.side]} scores; the word was “{event.word}”."
        return None


class BankerUI(GameUI):
    game_id = BANKER.id

    def public_embed(self, table, view, names) -> discord.Embed:
        embed = discord.Embed(title=f"Banker · hand {view.hand}")
        for seat, name in enumerate(names):
            bet = "bet placed" if view.has_bet[seat] else "thinking"
            embed.add_field(name=name, value=f"{view.stacks[seat]} chips · {bet}")
        return embed

    def private_embed(self, table, view, names) -> discord.Embed:
        return discord.Embed(title="Your Banker bet", description=f"Bet: {view.my_bet or '-'}")

    def action_label(self, view, action: Action) -> str:
        return f"Bet {action.chips}"

    def event_line(self, event: Event, names: list[str]) -> str | None:
        if event.kind == "showdown":
            duels = [
                f"{names[s]} {card.label} vs house {event.house_cards[s].label}"
                for s, card in event.cards.items()
            ]
            return "; ".join(duels) + "."
        return None


class SnapUI(GameUI):
    game_id = SNAP.id

    def public_embed(self, table, view, names) -> discord.Embed:
        embed = discord.Embed(title=f"Snap · hand {view.hand}")
        embed.add_field(name="Pile", value=cards(view.pile[-3:]))
        counts = ", ".join(f"{names[s]} {n}" for s, n in enumerate(view.counts))
        embed.add_field(name="Cards", value=counts)
        if view.window_open:
            embed.add_field(name="Snap!", value="Anyone holding that rank may snap now.")
        return embed

    def private_embed(self, table, view, names) -> discord.Embed:
        return discord.Embed(title="Your Snap hand", description=cards(view.my_cards))

    def action_label(self, view, action: Action) -> str:
        if action.kind in ("play", "snap"):
            return f"{action.kind.title()} {action.card.label}"
        if action.kind == "throw":
            return f"Throw away {cards(action.cards)}"
        return {"draw": "Draw", "call": "Last one!"}[action.kind]

    def event_line(self, event: Event, names: list[str]) -> str | None:
        if event.kind == "drew":
            if event.card is not None:
                return f"You drew {event.card.label}."
            return f"{names[event.seat]} draws a card."
        if event.kind in ("played", "snapped"):
            verb = {"played": "plays", "snapped": "snaps"}[event.kind]
            return f"{names[event.seat]} {verb} {event.card.label}."
        return None


RULES = "A test-only game (tests/framework_games.py)."
COGS = {
    PARTNERS.id: table_game_cog("fwpartners", PARTNERS, RULES),
    BANKER.id: table_game_cog("fwbanker", BANKER, RULES),
    SNAP.id: table_game_cog("fwsnap", SNAP, RULES),
}


async def setup(bot) -> None:
    for spec in FRAMEWORK_GAMES:
        registry.register(spec)
    for ui in (PartnersUI(), BankerUI(), SnapUI()):
        bot.presenter.register(ui)
    for cog in COGS.values():
        await bot.add_cog(cog(bot))


async def load_framework_games(world) -> None:
    """Load the test games into the running bot and sync their commands to the fake."""
    await world.bot.load_extension("tests.framework_cogs")
    await world.bot.sync_commands()
