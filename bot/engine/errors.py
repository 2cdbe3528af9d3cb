from bot.errors import UserError


class IllegalAction(UserError):
    """An action the rules refuse. The message is a sentence shown to the player as is."""
