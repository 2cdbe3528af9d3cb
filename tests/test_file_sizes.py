"""No product file (bot/, cogs/) is over 500 lines: past that, a module holds more than one
concern, and is to be split by concern."""

from tests import ROOT

MOST_LINES = 500


def test_no_product_file_is_over_500_lines():
    paths = [*ROOT.joinpath("bot").rglob("*.py"), *ROOT.joinpath("cogs").rglob("*.py")]
    lines = {path.relative_to(ROOT).as_posix(): path.read_text().count("\n") for path in paths}
    assert len(lines) > 50  # it looked where the product is
    assert {path: count for path, count in lines.items() if count > MOST_LINES} == {}
