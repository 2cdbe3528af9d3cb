"""The bot process and its Discord layer (bot/discord, bot/app.py, cogs): the presenter's
pieces on their own, and the tests marked e2e that play through the fake Discord."""
