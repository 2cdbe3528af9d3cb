"""The table runtime shared by every game."""

from bot.tables.runtime import Table, TableListener, TableRuntime, action_token

__all__ = ["Table", "TableListener", "TableRuntime", "action_token"]
