"""Errors that are the user's mistake: the message is shown to them as is, nothing changed."""


class UserError(Exception):
    """A refusal a player should read: one short sentence, no traceback, nothing changed."""
