"""What a game's ui module (bot/games/<game>/ui.py) tells the presenter (`GameUI`): how its
views, actions and events read, and the controls under a player's private hand (by default,
`action_controls`); and the game's rules as `/<game> rules` shows them (`rules_beside`)."""

from __future__ import annotations

from collections.abc import Callable
from importlib import resources
from typing import ClassVar, Generic, TypeVar

import discord
from pydantic import BaseModel

from bot.discord.controls import (
    MAX_SELECT_OPTIONS,
    MAX_SELECTS,
    ActionButton,
    ActionSelect,
    Controls,
)
from bot.discord.format import kind_name
from bot.discord.text_answers import TextButton
from bot.engine import Action, Event
from bot.i18n import Nn_, _, p_
from bot.i18n.commands import NAME_CONTEXT
from bot.tables import Table, action_token

# Any object: the UIs several games share (climbing, poker, Terrapin) bound their view by a
# Protocol of the fields they read, which each game's pydantic view satisfies.
ViewT = TypeVar("ViewT")
OptionsT = TypeVar("OptionsT", bound=BaseModel)


class GameUI(Generic[ViewT, OptionsT]):
    """What a game's ui module tells the presenter: how its views and events read. A game's UI
    names its view and options models (`GameUI[BigTwoView, BigTwoOptions]`), which its hooks
    are handed."""

    game_id: str
    colour = discord.Colour.dark_green()
    controls_on_table = False  # a personal game: play on the table message itself, no DMs
    # Kinds of action that give something up (a fold): their buttons are drawn red.
    warning_kinds: ClassVar[frozenset[str]] = frozenset()

    # A game that shows a picture on its table message defines `image(view) -> PNG bytes`;
    # it is rendered off the event loop. Games without one skip that work entirely.
    image: Callable[[ViewT], bytes] | None = None

    def closed_embed(self, table: Table, view: ViewT, names: list[str]) -> discord.Embed | None:
        return None

    def score_noun(self, options: OptionsT) -> tuple[str, str]:
        """A match score's two forms (`Nn_`), said with n_(*forms, score): points, or cards
        won, or wins."""
        return Nn_("{count} point", "{count} points")

    def private_controls(self, table: Table, seat: int) -> discord.ui.View | None:
        """The controls under a player's private hand (by default one per listed action)."""
        return action_controls(table, seat, self)

    def public_embed(self, table: Table, view: ViewT, names: list[str]) -> discord.Embed:
        raise NotImplementedError

    def private_embed(self, table: Table, view: ViewT, names: list[str]) -> discord.Embed:
        raise NotImplementedError

    def action_label(self, view: ViewT, action: Action) -> str:
        return kind_name(action.kind)

    def chosen_text(self, view: ViewT, action: Action) -> str:
        """An action as the channel is told it was taken for a player (a timeout's): by
        default its label."""
        return self.action_label(view, action)

    def event_line(self, event: Event, names: list[str]) -> str | None:
        return None

    def hand_summary(self, table: Table, view: ViewT, names: list[str]) -> discord.Embed | None:
        """A channel message when a hand ends (the showdown players must notice)."""
        return None

    def options_text(self, options: OptionsT) -> str:
        """The options by their /<game> new names, in the reader's language."""
        return ", ".join(
            _("{option}: {value}", option=p_(NAME_CONTEXT, name), value=_option_value(value))
            for name, value in options.model_dump().items()
        )


def _option_value(value: object) -> object:
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    return value


def rules_beside(module: str) -> str:
    """The rules `/<game> rules` shows, from the rules.md in the package of `module` (a game's
    ui module passes its `__name__`), without the file's final newline. Package data, read
    with importlib.resources: an installed bot has it too (pyproject.toml, package-data)."""
    package = module.rpartition(".")[0]
    text = resources.files(package).joinpath("rules.md").read_text(encoding="utf-8")
    return text.removesuffix("\n")


def said_rules(rules: str) -> str:
    """A game's rules in the language of the moment: the catalogs hold each line of a
    rules.md as a message of its own (`python -m bot.i18n extract` reads them there)."""
    return "\n".join(_(line) if line.strip() else line for line in rules.split("\n"))


def action_controls(table: Table, seat: int, ui: GameUI) -> Controls | None:
    """Buttons for one-off actions; selects for a kind that comes in several choices (split
    over several selects past 25, so every legal choice can be picked)."""
    actions = table.legal_actions(seat)
    if not actions:
        return None
    prompt = table.seats[seat].prompt
    view = Controls()
    decision = table.decision(seat)
    if decision is not None and decision.text_question:  # answered in words, in a modal
        view.button(**TextButton.look(table.id, prompt))
        return view
    state_view = table.view(seat)
    by_kind: dict[str, list[Action]] = {}
    for action in actions:
        by_kind.setdefault(action.kind, []).append(action)
    for kind, group in by_kind.items():
        if len(group) == 1:
            label = ui.action_label(state_view, group[0])
            warn = kind in ui.warning_kinds
            look = ActionButton.look(table.id, prompt, action_token(group[0]), label, warn=warn)
            view.button(**look)
            continue
        options = [(action_token(a), ui.action_label(state_view, a)) for a in spread(group)]
        chunks = [
            options[i : i + MAX_SELECT_OPTIONS] for i in range(0, len(options), MAX_SELECT_OPTIONS)
        ]
        for part, chunk in enumerate(chunks):
            view.select(**ActionSelect.look(table.id, prompt, kind, chunk, part))
    return view


def spread(actions: list[Action], limit: int = MAX_SELECT_OPTIONS * MAX_SELECTS) -> list[Action]:
    """At most `limit` of the choices: all when they fit, else evenly spaced with both ends."""
    if len(actions) <= limit:
        return actions
    step = (len(actions) - 1) / (limit - 1)
    return [actions[round(i * step)] for i in range(limit)]
