"""Western, Provincial and Temptation tell one shared deal event (bot/games/terrapin/table.py),
exported under its old name from each variant, and it reads as each variant's own did."""

import pytest

from bot.engine import HandStarted as AnyHandStarted
from bot.games.terrapin import provincial, table, temptation, western

VARIANTS = [western, provincial, temptation]


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda variant: variant.__name__)
def test_each_variant_exports_the_shared_deal_event(variant):
    assert variant.HandStarted is table.HandStarted
    assert issubclass(table.HandStarted, AnyHandStarted)


@pytest.mark.parametrize(
    ("spec", "pot"),
    [(western.WESTERN, 3), (provincial.PROVINCIAL, 3), (temptation.TEMPTATION, 9)],
    ids=lambda value: getattr(value, "id", str(value)),
)
def test_the_first_deal_reads_as_before(spec, pot):
    """The JSON the table keeps and shows: the same fields, in the same order."""
    _, events = spec.open_match(None, [20, 20, 20], seed=3)
    (started,) = [event for event in events if isinstance(event, AnyHandStarted)]
    assert started.model_dump_json() == (
        '{"kind":"hand_started","audience":null,"hand":1,"dealer":0,'
        f'"players":[1,2,0],"pot":{pot}}}'
    )
