"""The table runtime shared by every game."""

from bot.store import TableStatus
from bot.tables.actions import action_token
from bot.tables.core import TableListener
from bot.tables.runtime import TableRuntime
from bot.tables.table import Table

__all__ = ["Table", "TableListener", "TableRuntime", "TableStatus", "action_token"]
