"""The statistical tests the workbench states: Fisher's exact test for two rates, the
Mann-Whitney U test for two distributions (its large-sample normal approximation), and the
Holm-Bonferroni correction for many comparisons."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from scipy import stats


def fisher_exact(a: int, b: int, c: int, d: int) -> float:
    """The two-sided p-value of Fisher's exact test of the 2x2 table [[a, b], [c, d]]
    (rows the samples, columns success and failure; 1.0 when a row or column is empty).
    """
    if min(a, b, c, d) < 0:
        raise ValueError("a contingency table holds counts of at least 0")
    return float(stats.fisher_exact([[a, b], [c, d]], alternative="two-sided").pvalue)


def mann_whitney(first: Mapping[int, int], second: Mapping[int, int]) -> float:
    """The two-sided p-value of the Mann-Whitney U test of two histograms (value -> count):
    normal approximation, tie and continuity corrected; 1.0 when a sample is empty or constant.
    """
    if min([*first.values(), *second.values(), 0]) < 0:
        raise ValueError("a histogram holds counts of at least 0")
    x = [value for value, count in first.items() for _ in range(count)]
    y = [value for value, count in second.items() for _ in range(count)]
    if not (x and y):
        return 1.0
    result = stats.mannwhitneyu(
        x,
        y,
        use_continuity=True,
        alternative="two-sided",
        method="asymptotic",
    )
    return float(result.pvalue)


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm-Bonferroni adjusted p-values, in the order given (each at most 1)."""
    order = sorted(range(len(p_values)), key=lambda i: p_values[i])
    adjusted = [1.0] * len(p_values)
    running = 0.0
    for rank, index in enumerate(order):
        running = max(running, min(1.0, (len(p_values) - rank) * p_values[index]))
        adjusted[index] = running
    return adjusted
