"""The framework's test-only games (tests/framework_games.py) pass the conformance test: the
facilities they use (sides, a house, decks by seats, windows, optional decisions, large
action spaces, free text, private events) are all part of what it checks."""

import pytest

from tests.conformance import check_game
from tests.framework_games import FRAMEWORK_GAMES


@pytest.mark.parametrize("spec", FRAMEWORK_GAMES, ids=lambda spec: spec.id)
def test_framework_game_conforms(spec):
    check_game(spec)
