class IllegalAction(Exception):
    """An action the rules refuse. The message is a sentence shown to the player as is."""
