"""Every playable game, by id. bot/games/__init__.py registers the games it lists (`GAMES`,
the one list of them); tests register their own test-only games."""

from __future__ import annotations

from bot.engine.spec import GameSpec

_GAMES: dict[str, GameSpec] = {}


def register(spec: GameSpec) -> GameSpec:
    if spec.id in _GAMES and _GAMES[spec.id] is not spec:
        raise ValueError(f"a game with id {spec.id!r} is already registered")
    _GAMES[spec.id] = spec
    return spec


def get(game_id: str) -> GameSpec:
    try:
        return _GAMES[game_id]
    except KeyError:
        raise KeyError(f"no game with id {game_id!r}") from None


def games() -> list[GameSpec]:
    return sorted(_GAMES.values(), key=lambda spec: spec.id)
