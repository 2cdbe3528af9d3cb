"""A Discord bot for group card play."""
