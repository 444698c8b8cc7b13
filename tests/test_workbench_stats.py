"""The workbench's statistical tests against published worked examples and hand computation."""

from __future__ import annotations

import math

import pytest

from buckshot.workbench.stats import (
    binomial_test,
    chi_square_fit,
    chi_square_sf,
    fisher_exact,
    holm,
    mann_whitney,
)


def test_fisher_exact_matches_the_lady_tasting_tea_and_a_skewed_table() -> None:
    # Fisher's tea-tasting experiment: 3 of 4 right; two-sided p = 34/70
    assert fisher_exact(3, 1, 1, 3) == pytest.approx(34 / 70, rel=1e-9)
    # the textbook table [[1, 9], [11, 3]]: two-sided p = 0.002759 (one-sided 0.001380)
    assert fisher_exact(1, 9, 11, 3) == pytest.approx(0.0027594, rel=1e-4)
    # symmetric in the two samples, and 1 when the samples agree exactly
    assert fisher_exact(11, 3, 1, 9) == pytest.approx(fisher_exact(1, 9, 11, 3))
    assert fisher_exact(5, 5, 5, 5) == pytest.approx(1.0)
    assert fisher_exact(0, 20, 0, 20) == 1.0


def test_mann_whitney_matches_the_hand_computed_normal_approximation() -> None:
    # {1,2,3} against {4,5,6}: U = 0, mean 4.5, variance 3*3*7/12, continuity 0.5
    z = (4.5 - 0.5) / math.sqrt(3 * 3 * 7 / 12)
    expected = math.erfc(z / math.sqrt(2))
    low, high = {1: 1, 2: 1, 3: 1}, {4: 1, 5: 1, 6: 1}
    assert mann_whitney(low, high) == pytest.approx(expected, rel=1e-12)
    assert mann_whitney(high, low) == pytest.approx(expected, rel=1e-12)
    assert mann_whitney({3: 10}, {3: 7}) == 1.0
    # a clear shift in a large sample is found, none in identical samples
    assert mann_whitney({1: 500, 2: 500}, {2: 500, 3: 500}) < 1e-20
    assert mann_whitney({1: 500, 2: 500}, {1: 500, 2: 500}) == pytest.approx(1.0)


@pytest.mark.parametrize(
    ("statistic", "dof", "p"),
    [(3.841, 1, 0.05), (6.635, 1, 0.01), (5.991, 2, 0.05), (15.507, 8, 0.05), (29.588, 10, 0.001)],
)
def test_chi_square_tail_matches_the_table_of_critical_values(
    statistic: float, dof: int, p: float
) -> None:
    assert chi_square_sf(statistic, dof) == pytest.approx(p, rel=2e-3)


def test_chi_square_fit_and_binomial_test() -> None:
    assert chi_square_fit([25, 25, 25, 25], [1, 1, 1, 1]) == pytest.approx(1.0)
    # (30-25)^2/25 * 2 + (20-25)^2/25 * 2 = 4 on 3 degrees of freedom
    assert chi_square_fit([30, 30, 20, 20], [1, 1, 1, 1]) == pytest.approx(chi_square_sf(4.0, 3))
    assert chi_square_fit([1, 10], [0, 1]) == 0.0
    # 7 of 10 at 1/2: two-sided p = 2 * (120 + 45 + 10 + 1) / 1024
    assert binomial_test(7, 10, 0.5) == pytest.approx(352 / 1024, rel=1e-9)
    assert binomial_test(0, 10, 0.0) == 1.0


def test_holm_adjusts_in_step_down_order() -> None:
    # sorted 0.005, 0.01, 0.03, 0.04 times 4, 3, 2, 1, kept non-decreasing
    assert holm([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.03, 0.06, 0.06, 0.02])
    # 0.5 * 2 = 1.0 first, so 0.9 * 1 cannot fall below it
    assert holm([0.5, 0.9]) == pytest.approx([1.0, 1.0])
    assert holm([]) == []
