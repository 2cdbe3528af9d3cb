"""A game is one package and one registration: bot.games.GAMES lists every game once; each
spec names its AI (the policy from the game's own package). Its presentation (ui.py, rules.md)
and its cog are checked in tests/discord/test_game_packages.py."""

import importlib
import random

import pytest
from pydantic import ValidationError

from bot.app import cog_modules
from bot.engine import GameSpec, registry
from bot.games import GAMES
from tests import ROOT
from tests.tinygame import TINY

COGS = ROOT / "cogs"


def package_of(spec: GameSpec) -> str:
    """The game's package: its state's module is `<package>.<module>`."""
    return spec.state_model.__module__.rpartition(".")[0]


def test_games_lists_every_registered_game_once():
    ids = [spec.id for spec in GAMES]
    assert len(ids) == len(set(ids)) == 17
    assert all(registry.get(spec.id) is spec for spec in GAMES)


@pytest.mark.parametrize("spec", GAMES, ids=lambda spec: spec.id)
def test_a_game_is_one_package_exporting_its_spec(spec):
    package = importlib.import_module(package_of(spec))
    assert package.__name__.startswith("bot.games.")
    assert [name for name in package.__all__ if getattr(package, name) is spec]
    if spec.ai is not None:
        assert type(spec.ai).__module__ == f"{package.__name__}.ai"
        assert spec.ai.game_id == spec.id  # its warnings name the game
    assert (spec.ai is None) == spec.solo  # every table game seats AI players


def test_every_cog_on_disk_is_loaded():
    """The bot finds its cogs (bot/app.py): every module under cogs/, none named anywhere."""
    on_disk = {f"cogs.{path.stem}" for path in COGS.glob("*.py") if not path.stem.startswith("_")}
    assert on_disk == set(cog_modules())
    assert {"cogs.economy", "cogs.table"} < on_disk


@pytest.mark.parametrize("spec", GAMES, ids=lambda spec: spec.id)
def test_a_stored_action_reads_back_as_its_class(spec):
    """`actions` reads every action the game lists back into its own class."""
    options = spec.options_model()
    stacks = [100 if spec.chips_for(options) else 0] * spec.min_players
    state = spec.new_match(options, stacks, seed=1)
    chooser = random.Random(1)
    for _ in range(20):
        seat = state.pending_seats()[0]
        for action in state.legal_actions(seat) or [state.default_action(seat)]:
            assert spec.actions.validate_json(action.model_dump_json()) == action
        state.apply(seat, state.sample(seat, chooser))
        if state.is_over() or state.awaiting_next_hand() or not state.required_seats():
            break


def test_a_spec_has_one_deck():
    def packs(seats: int) -> list:
        return TINY.deck_for(2) * seats

    fields = TINY.model_dump(exclude={"deck", "deck_by_seats"})
    with pytest.raises(ValidationError, match="give either deck or deck_by_seats"):
        GameSpec(**fields)
    with pytest.raises(ValidationError, match="give either deck or deck_by_seats"):
        GameSpec(**fields, deck=TINY.deck, deck_by_seats=packs)
    assert len(GameSpec(**fields, deck_by_seats=packs).deck_for(3)) == 3 * 52
