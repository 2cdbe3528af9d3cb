"""Every game (bot.games.GAMES), and the test-only High Card game, pass the conformance test."""

import pytest

from bot.games import GAMES
from tests.conformance import check_game
from tests.tinygame import TINY

# Long games play shorter here (a lower target, fewer cards): the same rules, met sooner.
QUICKER = {"delphi": {"cards": 12}, "lastone": {"threshold": 80}, "porrazo": {"target": 31}}


@pytest.mark.parametrize("spec", [TINY, *GAMES], ids=lambda spec: spec.id)
@pytest.mark.slow
def test_game_conforms(spec):
    check_game(spec, options=QUICKER.get(spec.id))
