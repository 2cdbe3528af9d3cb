"""The benches' own tests (bench/): each still runs, small, in CI."""
