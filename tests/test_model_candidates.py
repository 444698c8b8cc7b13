"""The executable spec's payment candidates: exactly the payments the asked player holds, in
the order of the unrestricted enumeration (so that seeded model games do not change)."""

from __future__ import annotations

import itertools

from hypothesis import given
from hypothesis import strategies as st

from buckshot.verification.model.executable import _held_combinations


@given(
    held=st.lists(st.integers(min_value=0, max_value=3), min_size=1, max_size=8),
    size=st.integers(min_value=0, max_value=5),
)
def test_held_payments_are_the_held_ones_of_every_payment_in_order(
    held: list[int], size: int
) -> None:
    kinds = range(len(held))
    every = itertools.combinations_with_replacement(kinds, size)
    held_ones = [combo for combo in every if all(combo.count(k) <= held[k] for k in kinds)]
    assert list(_held_combinations(held, size)) == held_ones


def test_a_large_cost_paid_in_one_kind_is_one_payment() -> None:
    held = [0, 0, 0, 257, 0, 0, 0, 0]
    assert list(_held_combinations(held, 257)) == [(3,) * 257]
    assert list(_held_combinations(held, 258)) == []
