"""The table's own steps are logged as models whose JSON is, byte for byte, the text the
runtime wrote by hand before (old databases hold it), and reads back as the same model."""

import pytest

from bot.tables.actions import (
    CLOSE,
    EMPTY_TABLE_CLOSE,
    HOUSE_CANNOT_COVER,
    LEAVE,
    NEXT_HAND,
    WINDOW_CLOSED,
    EmptyTableClose,
    TableAction,
)

# What table_actions.action held for these steps, as the runtime wrote it by hand.
STORED = [
    (WINDOW_CLOSED, '{"kind":"window_closed"}'),
    (NEXT_HAND, '{"kind":"next_hand"}'),
    (LEAVE, '{"kind":"leave"}'),
    (CLOSE, '{"kind":"close"}'),
    (HOUSE_CANNOT_COVER, '{"kind":"house_cannot_cover"}'),
    (EMPTY_TABLE_CLOSE, '"close"'),  # a bare JSON string, as it always was
]


@pytest.mark.parametrize(("action", "stored"), STORED)
def test_a_table_action_is_logged_as_the_text_old_databases_hold(action, stored):
    assert action.model_dump_json().encode() == stored.encode()
    assert type(action).model_validate_json(stored) == action


def test_the_table_actions_are_frozen_and_name_no_other_kind():
    with pytest.raises(ValueError, match="frozen"):
        NEXT_HAND.kind = "leave"
    with pytest.raises(ValueError):
        TableAction(kind="deal")
    with pytest.raises(ValueError):
        EmptyTableClose.model_validate_json('"open"')
