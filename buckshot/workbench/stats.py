"""The statistical tests the workbench states: Fisher's exact test for two rates, the
Mann-Whitney U test for two distributions, Pearson's chi-square goodness of fit, an exact
binomial test, and the Holm-Bonferroni correction for many comparisons.

Small, well-known textbook procedures written out here so that the package needs no scipy;
each is checked in the tests against published worked examples.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

_RELATIVE: float = 1 + 1e-7
"""Tables whose probability is within this factor of the observed one count as extreme."""


def _log_choose(n: int, k: int) -> float:
    return math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)


def fisher_exact(a: int, b: int, c: int, d: int) -> float:
    """The two-sided p-value of Fisher's exact test of the 2x2 table [[a, b], [c, d]].

    Rows are the two samples, columns success and failure; the p-value sums the
    hypergeometric probabilities of every table with the same margins that is no more
    likely than the observed one.
    """
    if min(a, b, c, d) < 0:
        raise ValueError("a contingency table holds counts of at least 0")
    row1, row2, col1 = a + b, c + d, a + c
    total = row1 + row2
    if total == 0 or row1 == 0 or row2 == 0 or col1 == 0 or col1 == total:
        return 1.0
    low, high = max(0, col1 - row2), min(col1, row1)
    denominator = _log_choose(total, col1)

    def log_p(x: int) -> float:
        return _log_choose(row1, x) + _log_choose(row2, col1 - x) - denominator

    observed = log_p(a)
    bound = observed + math.log(_RELATIVE)
    p = sum(math.exp(log_p(x)) for x in range(low, high + 1) if log_p(x) <= bound)
    return min(1.0, p)


def _normal_sf(z: float) -> float:
    """P(Z > z) for a standard normal Z."""
    return 0.5 * math.erfc(z / math.sqrt(2))


def mann_whitney(first: Mapping[int, int], second: Mapping[int, int]) -> float:
    """The two-sided p-value of the Mann-Whitney U test of two samples given as histograms.

    Each sample maps a value to how many times it occurs. Normal approximation with the
    correction for ties and a continuity correction (the usual large-sample form); 1.0 when a
    sample is empty or every value is the same.
    """
    n1, n2 = sum(first.values()), sum(second.values())
    if n1 == 0 or n2 == 0:
        return 1.0
    rank_sum = 0.0
    ties = 0.0
    below = 0
    for value in sorted(set(first) | set(second)):
        tied = first.get(value, 0) + second.get(value, 0)
        mid_rank = below + (tied + 1) / 2
        rank_sum += first.get(value, 0) * mid_rank
        ties += tied**3 - tied
        below += tied
    n = n1 + n2
    u = rank_sum - n1 * (n1 + 1) / 2
    mean = n1 * n2 / 2
    variance = n1 * n2 / 12 * ((n + 1) - ties / (n * (n - 1)))
    if variance <= 0:
        return 1.0
    z = (abs(u - mean) - 0.5) / math.sqrt(variance)
    return min(1.0, 2 * _normal_sf(max(0.0, z)))


def _lower_gamma_series(s: float, x: float) -> float:
    """The regularized lower incomplete gamma P(s, x) by its series (x < s + 1)."""
    term = total = 1.0 / s
    k = s
    while abs(term) > abs(total) * 1e-15:
        k += 1
        term *= x / k
        total += term
    return total * math.exp(-x + s * math.log(x) - math.lgamma(s))


def _upper_gamma_fraction(s: float, x: float) -> float:
    """The regularized upper incomplete gamma Q(s, x) by its continued fraction (x >= s + 1)."""
    tiny = 1e-300
    b = x + 1 - s
    c = 1 / tiny
    d = 1 / b
    h = d
    for i in range(1, 10_000):
        an = -i * (i - s)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        step = d * c
        h *= step
        if abs(step - 1) < 1e-15:
            break
    return h * math.exp(-x + s * math.log(x) - math.lgamma(s))


def chi_square_sf(statistic: float, dof: int) -> float:
    """P(X >= statistic) for X chi-square distributed with ``dof`` degrees of freedom."""
    if dof < 1:
        raise ValueError("a chi-square distribution has at least 1 degree of freedom")
    if statistic <= 0:
        return 1.0
    s, x = dof / 2, statistic / 2
    if x < s + 1:
        return max(0.0, 1.0 - _lower_gamma_series(s, x))
    return _upper_gamma_fraction(s, x)


def chi_square_fit(observed: Sequence[int], expected_shares: Sequence[float]) -> float:
    """The p-value of Pearson's chi-square test that ``observed`` counts follow the shares.

    Categories with an expected share of 0 must have no observations (else the p-value is
    0); the degrees of freedom are the categories with a positive share, less one.
    """
    if len(observed) != len(expected_shares):
        raise ValueError("one expected share per observed category")
    total = sum(observed)
    weight = sum(expected_shares)
    statistic = 0.0
    categories = 0
    for count, share in zip(observed, expected_shares, strict=True):
        if share <= 0:
            if count:
                return 0.0
            continue
        categories += 1
        expected = total * share / weight
        statistic += (count - expected) ** 2 / expected
    if categories < 2:
        return 1.0
    return chi_square_sf(statistic, categories - 1)


def binomial_test(successes: int, trials: int, chance: float) -> float:
    """The two-sided exact binomial p-value of ``successes`` in ``trials`` at ``chance``.

    Sums the probabilities of every outcome no more likely than the observed one.
    """
    if not 0 <= successes <= trials:
        raise ValueError("successes must be between 0 and trials")
    if chance in (0.0, 1.0):
        return 1.0 if successes == chance * trials else 0.0

    def log_p(k: int) -> float:
        return _log_choose(trials, k) + k * math.log(chance) + (trials - k) * math.log1p(-chance)

    bound = log_p(successes) + math.log(_RELATIVE)
    return min(1.0, sum(math.exp(log_p(k)) for k in range(trials + 1) if log_p(k) <= bound))


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm-Bonferroni adjusted p-values, in the order given (each at most 1).

    Reject a hypothesis at level alpha when its adjusted p-value is below alpha; the
    family-wise error rate over all of them is then at most alpha.
    """
    order = sorted(range(len(p_values)), key=lambda i: p_values[i])
    adjusted = [1.0] * len(p_values)
    running = 0.0
    for rank, index in enumerate(order):
        running = max(running, min(1.0, (len(p_values) - rank) * p_values[index]))
        adjusted[index] = running
    return adjusted
