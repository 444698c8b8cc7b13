"""The workbench's statistical tests against published worked examples and hand computation."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
from chance_stats import binomial_test, chi_square_fit, chi_square_sf

from buckshot.workbench.balance import fisher_exact, holm, mann_whitney


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


# Far tails, against independent exact computation: a check that decides at p < 1e-6 needs
# these right to many digits, where a normal approximation is off by a factor. abs=0:
# pytest.approx otherwise also accepts anything within 1e-12, which hides these tails.


def _exact_binomial_two_sided(successes: int, trials: int, chance: Fraction) -> Fraction:
    """Sum of the exact binomial probabilities no greater than the observed one."""
    probabilities = [
        math.comb(trials, k) * chance**k * (1 - chance) ** (trials - k) for k in range(trials + 1)
    ]
    return sum((q for q in probabilities if q <= probabilities[successes]), Fraction(0))


def _exact_fisher_two_sided(a: int, b: int, c: int, d: int) -> Fraction:
    """Sum of the exact hypergeometric probabilities no greater than the observed table's."""
    row1, row2, col1 = a + b, c + d, a + c

    def probability(x: int) -> Fraction:
        return Fraction(
            math.comb(row1, x) * math.comb(row2, col1 - x), math.comb(row1 + row2, col1)
        )

    tables = range(max(0, col1 - row2), min(col1, row1) + 1)
    observed = probability(a)
    return sum((probability(x) for x in tables if probability(x) <= observed), Fraction(0))


def test_binomial_far_tail_is_exact_with_both_tails() -> None:
    # 100 of 200 at 3/10: 2.60e-9 above, 1.44e-9 from 0..24 below; total 4.031e-9 (the
    # normal approximation with continuity correction gives 1.09e-9, a one-sided sum 2.60e-9)
    expected = _exact_binomial_two_sided(100, 200, Fraction(3, 10))
    assert float(expected) == pytest.approx(4.0312941515e-9, rel=1e-9, abs=0)
    assert binomial_test(100, 200, 0.3) == pytest.approx(float(expected), rel=1e-9, abs=0)
    # 0 of 30 at 1/2: exactly 2 / 2^30
    assert binomial_test(0, 30, 0.5) == pytest.approx(2 / 2**30, rel=1e-12, abs=0)
    # 2 of 200 at 3/10: about 5.9e-28, still to many digits
    expected = _exact_binomial_two_sided(2, 200, Fraction(3, 10))
    assert binomial_test(2, 200, 0.3) == pytest.approx(float(expected), rel=1e-9, abs=0)


def test_binomial_edge_cases() -> None:
    assert binomial_test(0, 0, 0.5) == 1.0
    assert binomial_test(10, 10, 1.0) == 1.0
    assert binomial_test(3, 10, 0.0) == 0.0
    with pytest.raises(ValueError):
        binomial_test(11, 10, 0.5)


def test_fisher_exact_far_tail_is_exact() -> None:
    # [[20, 0], [0, 20]]: the two extreme tables, each 1 / C(40, 20)
    assert fisher_exact(20, 0, 0, 20) == pytest.approx(2 / math.comb(40, 20), rel=1e-12, abs=0)
    # [[25, 5], [3, 30]]: 1.259e-9 in the observed tail and 5.3e-11 in the other
    expected = _exact_fisher_two_sided(25, 5, 3, 30)
    assert float(expected) == pytest.approx(1.3118870042e-9, rel=1e-9, abs=0)
    assert fisher_exact(25, 5, 3, 30) == pytest.approx(float(expected), rel=1e-9, abs=0)
    assert fisher_exact(0, 0, 4, 6) == 1.0
    with pytest.raises(ValueError):
        fisher_exact(-1, 2, 3, 4)


@pytest.mark.parametrize(
    ("statistic", "dof", "p"),
    [
        # closed forms: Q(1/2, x/2) = erfc(sqrt(x/2)); for even dof 2m,
        # exp(-x/2) * sum_{i<m} (x/2)^i / i!
        (37.3, 1, math.erfc(math.sqrt(37.3 / 2))),
        (41.45, 2, math.exp(-41.45 / 2)),
        (80.0, 10, math.exp(-40) * sum(40**i / math.factorial(i) for i in range(5))),
        (0.0, 3, 1.0),
    ],
)
def test_chi_square_far_tail_matches_closed_forms(statistic: float, dof: int, p: float) -> None:
    assert chi_square_sf(statistic, dof) == pytest.approx(p, rel=1e-9, abs=0)


def test_chi_square_fit_drops_impossible_categories_and_reaches_the_far_tail() -> None:
    # expected 100 each: (50^2 + 50^2 + 0) / 100 = 50 on 2 degrees of freedom, exp(-25)
    assert chi_square_fit([150, 50, 100], [1, 1, 1]) == pytest.approx(
        math.exp(-25), rel=1e-9, abs=0
    )
    # the share-0 category is no degree of freedom: expected 60, 30, 30, statistic
    # 100/60 + 25/30 + 25/30 = 10/3 on 2 degrees of freedom, exp(-5/3)
    assert chi_square_fit([0, 70, 25, 25], [0, 2, 1, 1]) == pytest.approx(
        math.exp(-5 / 3), rel=1e-9
    )
    assert chi_square_fit([0, 0, 0], [1, 1, 1]) == 1.0
    assert chi_square_fit([7, 0], [1, 0]) == 1.0
    with pytest.raises(ValueError):
        chi_square_fit([1, 2], [1])


def test_mann_whitney_with_ties_and_unequal_samples_by_hand() -> None:
    # first: 20 ones, 10 twos; second: 10 twos, 30 threes. Mid-ranks 10.5 (ones), 30.5
    # (twos), 55.5 (threes): R1 = 20 * 10.5 + 10 * 30.5 = 515, U1 = 515 - 30 * 31 / 2 = 50,
    # mean 30 * 40 / 2 = 600; tie groups of 20, 20 and 30 out of 70
    ties = 2 * (20**3 - 20) + (30**3 - 30)
    variance = 30 * 40 / 12 * (71 - ties / (70 * 69))
    z = (600 - 50 - 0.5) / math.sqrt(variance)
    expected = math.erfc(z / math.sqrt(2))  # two-sided: 2 * P(Z > z), about 3e-12
    first, second = {1: 20, 2: 10}, {2: 10, 3: 30}
    assert mann_whitney(first, second) == pytest.approx(expected, rel=1e-9, abs=0)
    assert mann_whitney(second, first) == pytest.approx(expected, rel=1e-9, abs=0)
    assert mann_whitney({}, {1: 3}) == 1.0
    with pytest.raises(ValueError):
        mann_whitney({1: -1}, {1: 3})
