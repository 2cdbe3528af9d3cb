import logging

import pytest

from tests.e2e import world  # noqa: F401  (the end-to-end fixture, for every test module)


@pytest.fixture
def restore_logging():
    """main() configures logging for the process; put it back for the tests after."""
    handlers, level = logging.root.handlers[:], logging.root.level
    discord_level = logging.getLogger("discord").level
    yield
    logging.root.handlers[:] = handlers
    logging.root.setLevel(level)
    logging.getLogger("discord").setLevel(discord_level)
