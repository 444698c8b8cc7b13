"""The payments a player may offer for a cost (:func:`buckshot.spec.payments.payments`):
exactly the held ones of every multiset, in the order of the unrestricted enumeration (so
that seeded model games and the model cases do not change), and the reference engine's flip
options are those payments."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from buckshot.reference.options import enumerator
from buckshot.reference.state import ITEM_ORDER, Seat
from buckshot.spec.payments import payments
from buckshot.spec.rulebook import Role


def _held_ones(held: list[int], size: int) -> list[tuple[int, ...]]:
    """Every multiset of ``size`` kinds in the standard order, as counts, less the unheld."""
    kinds = range(len(held))
    every = itertools.combinations_with_replacement(kinds, size)
    counts = [tuple(combo.count(k) for k in kinds) for combo in every]
    return [pay for pay in counts if all(pay[k] <= held[k] for k in kinds)]


@given(
    held=st.lists(st.integers(min_value=0, max_value=3), min_size=0, max_size=8),
    size=st.integers(min_value=0, max_value=5),
)
def test_payments_are_the_held_ones_of_every_multiset_in_order(held: list[int], size: int) -> None:
    assert list(payments(held, size)) == _held_ones(held, size)


@pytest.mark.parametrize("size", [0, 1, 2, 3])
def test_holding_the_cost_of_every_kind_gives_every_multiset(size: int) -> None:
    every = itertools.combinations_with_replacement(range(8), size)
    assert list(payments([size] * 8, size)) == [
        tuple(combo.count(k) for k in range(8)) for combo in every
    ]


def test_a_large_cost_paid_in_one_kind_is_one_payment() -> None:
    held = [0, 0, 0, 257, 0, 0, 0, 0]
    assert list(payments(held, 257)) == [(0, 0, 0, 257, 0, 0, 0, 0)]
    assert list(payments(held, 258)) == []


def test_a_large_cost_lists_only_the_payments() -> None:
    expected = [
        (a, b, 257 - a - b) for a in range(3, -1, -1) for b in range(100, -1, -1) if a + b >= 57
    ]
    assert list(payments([3, 100, 200], 257)) == expected


def test_a_negative_count_or_cost_is_refused() -> None:
    with pytest.raises(ValueError, match="negative"):
        list(payments([1, -1], 1))
    with pytest.raises(ValueError, match="negative"):
        list(payments([1, 1], -1))


@given(
    held=st.lists(st.integers(min_value=0, max_value=3), min_size=8, max_size=8),
    cost=st.integers(min_value=1, max_value=4),
)
def test_the_engine_offers_a_flip_for_each_payment(held: list[int], cost: int) -> None:
    counts = dict(zip(ITEM_ORDER, held, strict=True))
    hand = Seat(0, "A", Role.MAGICIAN, 4, items={i: c for i, c in counts.items() if c})
    offered = [dict(option.params)["items"] for option in enumerator("flip_shell")([], hand, cost)]
    every = itertools.combinations_with_replacement(ITEM_ORDER, cost)
    assert offered == [combo for combo in every if all(combo.count(i) <= counts[i] for i in combo)]
