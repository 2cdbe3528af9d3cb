"""`/table verify`'s work, pure: a closed table re-dealt from its revealed seed and Start click,
its logged steps replayed on that deal (as hand histories replay them, bot/tables/history.py),
and both compared with what the table saved.

A match deals its first hand at Start and every later hand itself (next_hand, reshuffles), all
from the same seed and Start click by the draw number (bot/engine/deals.py), so replaying the
logged steps on the re-dealt first state re-deals every hand; the state that replay ends in
must be the one the table saved when it closed.

Matches started before issue 50 shuffled the cards they gathered back (the next hand's deck, a
discard pile) in the order gathered, not the fresh-deck order (bot/engine/rng.py): their saved
states say so (no `fresh_order`), and their replay re-deals them that way."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel

from bot.engine import GameSpec, GameState
from bot.engine.deals import DealSeed
from bot.i18n import _, n_
from bot.store import TableRecord
from bot.store.history import LoggedStep
from bot.tables import history
from bot.tables.actions import HOUSE_SHORT

HEX_SEED = re.compile(r"[0-9a-f]{64}")
# What the replay says for the reason a house gave for closing the table, which the log does not
# keep: a replayed state holding it matches a saved one with any text in its place.
UNKNOWN_REASON = HOUSE_SHORT


def parse_hex(text: str) -> bytes | None:
    """32 bytes written as 64 hex digits (spaces around and case ignored), else None."""
    cleaned = text.strip().lower()
    return bytes.fromhex(cleaned) if HEX_SEED.fullmatch(cleaned) else None


def deal_seed(record: TableRecord) -> DealSeed:
    """What the table's match deals from: its seed and the Start click's id."""
    assert record.deal_seed is not None  # drawn when the table opened
    return DealSeed(bytes.fromhex(record.deal_seed), record.deal_input or 0)


def verdict(
    game: GameSpec, record: TableRecord, first_state: str | None, steps: Sequence[LoggedStep]
) -> str:
    """The answer to `/table verify` for a closed table whose seed was just checked against
    its commitment: its first deal re-dealt, then every later one by replaying its logged
    `steps` (bot/tables/history.py), compared with its saved `first_state` (None for tables
    started before first states were kept) and its final state."""
    table = str(record.id)  # an id: not written as a number
    options = game.options_model.model_validate_json(record.options)
    unseeded = game.unseeded_deal(options)
    if unseeded is not None:
        return _(
            "This is table #{table}'s seed, but its deck was not dealt from it. {why}",
            table=table,
            why=unseeded,
        )
    if record.deal_input is None:
        return _(
            "Match: this is table #{table}'s seed; it closed before its first deal.", table=table
        )
    state = first_deal(game, options, record, dealt_fresh(record, first_state))
    if first_state is not None and json.loads(state.snapshot()) != json.loads(first_state):
        return _("Mismatch: this seed does not give table #{table}'s first deal.", table=table)
    try:
        history.play_log(game, state, steps)
    except Exception:  # a step the re-dealt state refuses: it was not dealt from this seed
        return _(
            "Mismatch: table #{table}'s logged play does not fit the deal this seed gives.",
            table=table,
        )
    state.cash_out()  # the close pays everyone out of the state it saves
    if record.state is None or not same(json.loads(state.snapshot()), json.loads(record.state)):
        return _(
            "Mismatch: this seed gives table #{table}'s first deal but not every later one.",
            table=table,
        )
    return n_(
        "Match: this is table #{table}'s seed, and re-dealing from it with the Start click "
        "({click}) gives its first deal and, over its {count} logged step, every later one.",
        "Match: this is table #{table}'s seed, and re-dealing from it with the Start click "
        "({click}) gives its first deal and, over its {count} logged steps, every later one.",
        len(steps),
        table=table,
        click=str(record.deal_input),
    )


def first_deal(
    game: GameSpec, options: BaseModel, record: TableRecord, fresh_order: bool = True
) -> GameState:
    """The match's first state, dealt again from the record's seed and Start click; its later
    shuffles gather cards in the fresh-deck order or, for a match started before that, as
    gathered. (A first deal is the fresh deck either way.)"""
    stacks = [record.buy_in] * len(record.seats)
    state = game.open_match(options, stacks, deal_seed(record))[0]
    state.rng.fresh_order = fresh_order
    return state


def dealt_fresh(record: TableRecord, first_state: str | None) -> bool:
    """Whether the table's match gathered cards in the fresh-deck order, as its saved states
    say (one saved before that has no `fresh_order`)."""
    saved = first_state if first_state is not None else record.state
    if saved is None:
        return True
    return bool(json.loads(saved).get("rng", {}).get("fresh_order", False))


def same(replayed: Any, saved: Any) -> bool:
    """Equal JSON, where text holding UNKNOWN_REASON stands for any text in its place."""
    if isinstance(replayed, dict) and isinstance(saved, dict):
        return replayed.keys() == saved.keys() and all(
            same(replayed[key], saved[key]) for key in replayed
        )
    if isinstance(replayed, list) and isinstance(saved, list):
        return len(replayed) == len(saved) and all(map(same, replayed, saved))
    if isinstance(replayed, str) and UNKNOWN_REASON in replayed and isinstance(saved, str):
        before, _reason, after = replayed.partition(UNKNOWN_REASON)
        return saved.startswith(before) and saved.endswith(after)
    return replayed == saved
