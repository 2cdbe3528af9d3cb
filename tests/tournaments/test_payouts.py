import pytest

from bot.tournaments.payouts import SHARES, payout

POOLS = [*range(0, 205), 999, 1001, 123_456_789]


@pytest.mark.parametrize(
    ("pool", "scheme", "expected"),
    [
        (100, "winner", {1: 100}),
        (100, "top2", {1: 65, 2: 35}),
        (100, "top3", {1: 50, 2: 30, 3: 20}),
        (7, "top2", {1: 5, 2: 2}),  # 4 + 2, the chip left over to the winner
        (1, "top3", {1: 1, 2: 0, 3: 0}),
        (0, "top3", {1: 0, 2: 0, 3: 0}),
    ],
)
def test_places_are_paid_their_share(pool, scheme, expected):
    assert payout(pool, scheme, [1, 2, 3, 4]) == expected


def test_places_nobody_fills_go_to_the_winner():
    assert payout(100, "top3", [8, 9]) == {8: 70, 9: 30}
    assert payout(100, "top3", [8]) == {8: 100}


@pytest.mark.parametrize("scheme", SHARES)
@pytest.mark.parametrize("field", [1, 2, 3, 5])
def test_the_payout_always_sums_to_the_pool(scheme, field):
    ranking = [100 + place for place in range(field)]
    for pool in POOLS:
        chips = payout(pool, scheme, ranking)
        assert sum(chips.values()) == pool
        assert list(chips) == ranking[: len(SHARES[scheme])]
        assert all(amount >= 0 for amount in chips.values())
        assert list(chips.values()) == sorted(chips.values(), reverse=True)


@pytest.mark.parametrize("scheme", SHARES)
def test_each_scheme_shares_the_whole_pool(scheme):
    assert sum(SHARES[scheme]) == 100


@pytest.mark.parametrize(
    ("pool", "scheme", "ranking"),
    [(10, "top4", [1]), (10, "winner", []), (-1, "winner", [1]), (10, "top2", [1, 1])],
)
def test_what_cannot_be_paid_is_refused(pool, scheme, ranking):
    with pytest.raises(ValueError):
        payout(pool, scheme, ranking)
