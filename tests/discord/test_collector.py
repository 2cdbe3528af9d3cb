import gc

import pytest

from bot.collector import (
    BUSY_YOUNG_COLLECTION_AFTER,
    FULL_COLLECTION_EVERY,
    YOUNG_COLLECTION_AFTER,
    CollectorPace,
)


@pytest.fixture
def thresholds():
    before = gc.get_threshold()
    yield
    gc.set_threshold(*before)


class Meter:
    """A clock and a CPU counter the test moves by hand."""

    def __init__(self) -> None:
        self.now = self.used = 0.0

    def second(self, cpu_share: float) -> None:
        self.now += 1.0
        self.used += cpu_share


async def test_young_collections_come_rarer_while_the_bot_uses_a_whole_core(thresholds):
    meter = Meter()
    pace = CollectorPace(every=60, cpu=lambda: meter.used, clock=lambda: meter.now)
    middle = gc.get_threshold()[1]
    pace.start()
    try:
        assert gc.get_threshold() == (YOUNG_COLLECTION_AFTER, middle, FULL_COLLECTION_EVERY)
        shares_and_young = [
            (0.5, YOUNG_COLLECTION_AFTER),
            (0.85, YOUNG_COLLECTION_AFTER),  # busy, not saturated
            (0.97, BUSY_YOUNG_COLLECTION_AFTER),
            (0.8, BUSY_YOUNG_COLLECTION_AFTER),  # a dip: no flapping back at once
            (1.0, BUSY_YOUNG_COLLECTION_AFTER),
            (0.4, YOUNG_COLLECTION_AFTER),  # calm again: short pauses for quick answers
        ]
        for share, young in shares_and_young:
            meter.second(share)
            pace.tick()
            assert gc.get_threshold() == (young, middle, FULL_COLLECTION_EVERY), share
    finally:
        pace.stop()


async def test_a_stopped_pace_sets_no_timer_again(thresholds):
    meter = Meter()
    pace = CollectorPace(every=60, cpu=lambda: meter.used, clock=lambda: meter.now)
    pace.start()
    timer = pace._timer
    pace.tick()
    assert pace._timer is not None and pace._timer is not timer  # the next second's
    pace.stop()
    assert pace._timer is None
    pace.tick()  # a tick already due when it stopped
    assert pace._timer is None
