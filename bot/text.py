"""Counts in words, for any layer's messages (rules' refusals, the runtime's, Discord's)."""

from bot.i18n import n_


def plural(count: int, noun: str, nouns: str | None = None) -> str:
    """ "1 chip", "2 chips"; `nouns` for a plural that isn't noun + "s" ("matches")."""
    return f"{count:,} {noun if count == 1 else nouns or noun + 's'}"


def chips(amount: int) -> str:
    return n_("{count} chip", "{count} chips", amount)


def signed_chips(amount: int) -> str:
    """A result: "+1 chip", "-30 chips", "±0 chips"."""
    sign = "±" if amount == 0 else "+" if amount > 0 else "-"
    return f"{sign}{chips(abs(amount))}"


def upper_first(text: str) -> str:
    """`text` with its first letter a capital, the rest as it is (str.capitalize would lower
    a German noun or a card's letter: "pair of Ks")."""
    return text[:1].upper() + text[1:]
