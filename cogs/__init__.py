"""The bot's extensions: modules whose `setup(bot)` adds their cogs. Every module here is set
up (bot/app.py finds them; a name starting with `_` is skipped): economy and table are the
house's, each other presents one game whose package, bot/games/<game>/, holds its GameUI
(ui.py) and its rules text (rules.md)."""

import pkgutil


def extensions() -> list[str]:
    """Every extension to load, by dotted name (the docstring above gives the rule)."""
    found = pkgutil.iter_modules(__path__)
    return sorted(f"cogs.{module.name}" for module in found if not module.name.startswith("_"))
