"""The tests' statistics of chance: Pearson's chi-square goodness of fit and an exact binomial
test, each accurate far into the tail (p of 1e-9 and below), so a check may decide at a small p."""

from __future__ import annotations

from collections.abc import Sequence

from scipy import stats


def chi_square_sf(statistic: float, dof: int) -> float:
    """P(X >= statistic) for X chi-square distributed with ``dof`` degrees of freedom."""
    if dof < 1:
        raise ValueError("a chi-square distribution has at least 1 degree of freedom")
    return float(stats.chi2.sf(statistic, dof))


def chi_square_fit(observed: Sequence[int], expected_shares: Sequence[float]) -> float:
    """The p-value of Pearson's chi-square test that ``observed`` counts follow the shares.

    Categories with an expected share of 0 must have no observations (else the p-value is
    0); the degrees of freedom are the categories with a positive share, less one. 1.0 when
    there are no observations or fewer than two such categories.
    """
    if len(observed) != len(expected_shares):
        raise ValueError("one expected share per observed category")
    counts: list[int] = []
    shares: list[float] = []
    for count, share in zip(observed, expected_shares, strict=True):
        if share > 0:
            counts.append(count)
            shares.append(share)
        elif count:
            return 0.0
    total = sum(counts)
    if len(counts) < 2 or total == 0:
        return 1.0
    weight = sum(shares)
    expected = [total * share / weight for share in shares]
    return float(stats.chisquare(counts, expected).pvalue)


def binomial_test(successes: int, trials: int, chance: float) -> float:
    """The two-sided exact binomial p-value of ``successes`` in ``trials`` at ``chance``.

    Sums the probabilities of every outcome no more likely than the observed one (1.0 when
    there are no trials).
    """
    if not 0 <= successes <= trials:
        raise ValueError("successes must be between 0 and trials")
    if trials == 0:
        return 1.0
    return float(stats.binomtest(successes, trials, chance, alternative="two-sided").pvalue)
