"""Errors that are the user's mistake: the message is shown to them as is, nothing changed.
The message is written when raised, in the language of the moment: a click's, its clicker's."""

from bot.i18n import _


class UserError(Exception):
    """A refusal a player should read: one short sentence, no traceback, nothing changed."""


class InvalidComponent(UserError):
    """A button or select whose custom_id or values don't fit anything the bot made (a
    modified client can send any): refused with nothing changed and nothing logged."""

    def __init__(self) -> None:
        super().__init__(_("This button is no longer valid."))
