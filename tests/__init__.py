"""The tests, grouped by the layer they test (README, Development); the helpers every group
shares (the fake Discord, the end-to-end world, the conformance test) sit beside the groups."""

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent  # the checkout: bot/, cogs/, README.md
DATA = ROOT / "tests" / "data"  # the reference files tests compare against
