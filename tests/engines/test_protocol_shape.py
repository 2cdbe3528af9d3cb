"""The protocol's shape (bot/engine/protocol.py), checked where mypy can't: each game's AI is a
`Policy` of the very view its state shows, each game's decisions are its own `DecisionKind`s,
and no engine compares a decision's kind with a bare string. (The conformance test checks the
capabilities a game uses are the ones it opts into.)"""

import ast
import typing

import pytest

from bot.engine import DecisionKind, GameState, HandByHand, Policy
from bot.games import GAMES
from tests import ROOT
from tests.framework_games import FRAMEWORK_GAMES

ENGINES = ROOT / "bot" / "games"
# A game's Discord presentation (ui.py) is no engine: it reads views, not decisions' kinds.
PRESENTATION = {"ui.py"}


def view_of_policy(policy: Policy) -> type:
    """The view type `X` of a policy class declared `Policy[X]`."""
    for base in type(policy).__orig_bases__:
        if typing.get_origin(base) is Policy:
            (view,) = typing.get_args(base)
            return view
    raise AssertionError(f"{type(policy).__name__} is no Policy[<the game's view>]")


WITH_AI = [spec for spec in [*GAMES, *FRAMEWORK_GAMES] if spec.ai is not None]


def test_most_games_have_an_ai_to_check():
    assert len(WITH_AI) >= len(GAMES) - 1  # Soliterrapin, played alone, has none


@pytest.mark.parametrize("spec", WITH_AI, ids=lambda spec: spec.id)
def test_the_ai_is_a_policy_of_the_states_view(spec):
    shown = typing.get_type_hints(spec.state_model.view)["return"]
    assert view_of_policy(spec.ai) is shown


def test_the_core_is_what_a_game_must_write():
    """GameState's abstract methods are the eight every game writes; a capability adds its
    own (HandByHand: the pause between hands)."""
    assert GameState.__abstractmethods__ == {
        "pending",
        "legal_actions",
        "_apply",
        "view",
        "default_action",
        "is_over",
        "all_cards",
        "hidden_from",
    }
    assert HandByHand.__abstractmethods__ - GameState.__abstractmethods__ == {
        "awaiting_next_hand",
        "next_hand",
        "leave",
    }


def test_a_decision_kind_equals_its_string():
    """Code that compares kinds with strings (a cog) keeps working."""

    class Kind(DecisionKind):
        BET = "bet"

    assert Kind.BET == "bet" and f"{Kind.BET}" == "bet" and Kind("bet") is Kind.BET


def kind_comparisons(tree: ast.AST) -> list[int]:
    """Lines comparing a decision's `.kind` with a string literal (`==`, `!=`, `in`, `case`)."""

    def is_kind(node: ast.AST) -> bool:
        return (
            isinstance(node, ast.Attribute)
            and node.attr == "kind"
            and isinstance(node.value, ast.Name)
            and (node.value.id == "d" or "decision" in node.value.id)
        )

    def has_string(node: ast.AST) -> bool:
        return any(
            isinstance(sub, ast.Constant) and isinstance(sub.value, str) for sub in ast.walk(node)
        )

    lines = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare) and is_kind(node.left):
            if any(has_string(right) for right in node.comparators):
                lines.append(node.lineno)
        elif isinstance(node, ast.Match) and is_kind(node.subject):
            lines += [case.pattern.lineno for case in node.cases if has_string(case.pattern)]
    return sorted(lines)


def test_no_engine_compares_a_decision_kind_with_a_string():
    found = {}
    for path in sorted(ENGINES.rglob("*.py")):
        if path.name in PRESENTATION:
            continue
        lines = kind_comparisons(ast.parse(path.read_text()))
        if lines:
            found[path.relative_to(ROOT).as_posix()] = lines
    assert found == {}, "compare Decision.kind with the game's DecisionKind members"


def test_the_check_finds_bare_strings():
    code = """
if decision.kind == "bet": pass
if decision.kind == Kind.BET: pass
match decision.kind:
    case "draw": pass
    case Kind.DRAW: pass
"""
    assert kind_comparisons(ast.parse(code)) == [2, 5]
