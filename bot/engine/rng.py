"""Seeded, serialisable randomness.

A game state carries an `Rng` (a seed and a draw counter) instead of a `random.Random`, so a
snapshot restores the exact same future: every draw (a shuffle, a `randrange`) is made afresh
from the seed and its draw number.

A table's match deals from its table seed (`key`) and the Start click's id by the published
algorithm of bot/engine/deals.py, so anyone can re-deal it once the seed is revealed. An Rng
without a key is the old way, kept so that states saved before deals were keyed (and fixed
test seeds) go on exactly as before: a `random.Random` made from `seed:draws` (string seeds
are hashed with SHA-512 by `random`, so it does not depend on PYTHONHASHSEED or the platform).

Cards gathered back for a shuffle (a hand's cards collected for the next deal, a discard pile
turned into the stock) are shuffled by `shuffled_gathered`: in a match started since issue 50
(`fresh_order`), put back in the game's fresh-deck order first, so every hand is dealt from the
fresh deck and a reshuffle from its gathered cards in that order, which a player re-deals with
docs/verify_deal.py. States saved before then (JSON without `fresh_order`) go on shuffling them
in the order the game gathered them, as they did, so their replays and `/table verify` still
re-deal what they dealt.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import TypeVar

from pydantic import BaseModel, SerializerFunctionWrapHandler, model_serializer

from bot.engine import deals
from bot.engine.deals import DealSeed

T = TypeVar("T")


class Rng(BaseModel):
    seed: int = 0  # the old way's seed (unused once there is a key)
    draws: int = 0
    # Stacked decks, for tests that need exact deals: the next shuffle holding all of a
    # stack's cards (by code) puts them first, in that order, and the rest shuffled after.
    stacked: list[list[str]] = []
    key: str = ""  # the table seed, in hex: secret until the table closes
    player_input: int = 0  # the Start click's interaction id, mixed into every draw
    # Gathered cards are shuffled from the game's fresh-deck order (every match started since
    # issue 50); False, what a state saved before then loads as: in the order gathered.
    fresh_order: bool = False

    @model_serializer(mode="wrap")
    def _as_saved_before(self, handler: SerializerFunctionWrapHandler) -> dict[str, object]:
        """An Rng without `fresh_order` is written without the field, exactly as before it
        existed: an old state saved again (or re-dealt by `/table verify`) keeps its JSON."""
        data: dict[str, object] = handler(self)
        if not self.fresh_order:
            data.pop("fresh_order", None)
        return data

    @classmethod
    def starting(cls, seed: int | DealSeed, stacked: list[list[str]] | None = None) -> Rng:
        """A new match's Rng: keyed deals from a DealSeed, the old way from an int; either
        way gathered cards are shuffled from the fresh-deck order."""
        stacks = [list(deck) for deck in stacked or []]
        if isinstance(seed, DealSeed):
            return cls(
                key=seed.key.hex(),
                player_input=seed.player_input,
                stacked=stacks,
                fresh_order=True,
            )
        return cls(seed=seed, stacked=stacks, fresh_order=True)

    def _stream(self) -> deals.Stream | random.Random:
        """The next draw's source of randomness."""
        draw, self.draws = self.draws, self.draws + 1
        if self.key:
            return deals.Stream(bytes.fromhex(self.key), draw, self.player_input)
        return random.Random(f"{self.seed}:{draw}")

    def shuffled(self, items: Iterable[T]) -> list[T]:
        out = list(items)
        source = self._stream()
        if isinstance(source, deals.Stream):
            deals.shuffle(out, source)
        else:
            source.shuffle(out)
        if self.stacked:
            out = self._stack(out)
        return out

    def shuffled_gathered(self, cards: Iterable[T], deck: Iterable[object]) -> list[T]:
        """`cards` gathered back from play (a hand's cards for the next deal, a discard pile
        for a new stock) shuffled by the next draw: first put in `deck`'s order (the game's
        fresh deck, every card it uses in order) when `fresh_order`, so what is shuffled is
        known from which cards were gathered alone; else as gathered (states saved before)."""
        gathered = list(cards)
        if self.fresh_order:
            gathered = in_deck_order(gathered, deck)
        return self.shuffled(gathered)

    def _stack(self, shuffled: list[T]) -> list[T]:
        by_code = {_code(item): item for item in shuffled}
        if not set(self.stacked[0]) <= by_code.keys():
            return shuffled  # not the deck this stack is for (seats, say)
        top = [by_code[code] for code in self.stacked.pop(0)]
        chosen = {id(item) for item in top}
        return top + [item for item in shuffled if id(item) not in chosen]

    def randrange(self, stop: int) -> int:
        source = self._stream()
        if isinstance(source, deals.Stream):
            return source.below(stop)
        return source.randrange(stop)


def in_deck_order(cards: Iterable[T], deck: Iterable[object]) -> list[T]:
    """`cards` sorted by where their codes first come in `deck` (equal copies keep their
    order: the sort is stable). Every card must be one of the deck's."""
    position: dict[str, int] = {}
    for index, card in enumerate(deck):
        position.setdefault(_code(card), index)
    return sorted(cards, key=lambda card: position[_code(card)])


def _code(item: object) -> str:
    return str(getattr(item, "code", item))
