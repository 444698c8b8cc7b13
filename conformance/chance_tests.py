"""The statistical tests of chance mode: Pearson's chi-square (by group, when the law depends
on something observed with the outcome) or the exact binomial test, each rejecting at
:data:`ALPHA`; an outcome the law gives no chance fails outright."""

from __future__ import annotations

import itertools
from collections import Counter, defaultdict
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from scipy import stats

ALPHA = 1e-6
"""The false-alarm rate of every test: a correct implementation fails one so rarely."""

Observation = tuple[Any, Any]
"""One outcome read from a play: ``(group, outcome)``; the group is None for most laws."""

SHOWN_ROWS = 12
"""How many rows of expected against observed counts a failed test shows."""


@dataclass(frozen=True)
class Row:
    """One outcome's expected and observed counts (within its group)."""

    group: Any
    outcome: Any
    expected: float
    observed: int

    def to_json(self) -> dict[str, Any]:
        """The row in a report."""
        return {
            "group": _plain(self.group),
            "outcome": _plain(self.outcome),
            "expected": round(self.expected, 3),
            "observed": self.observed,
        }


@dataclass
class LawVerdict:
    """A test's verdict, its p-value and the counts behind it."""

    id: str
    rule: str
    method: str
    observations: int
    p_value: float
    rows: list[Row] = field(default_factory=list)
    note: str | None = None
    """Why the test failed outright (no outcome seen, an impossible outcome), if it did."""

    @property
    def passed(self) -> bool:
        """True when the law is not rejected at :data:`ALPHA`."""
        return self.note is None and self.p_value >= ALPHA

    def summary(self) -> str:
        """One line: the verdict, the p-value, the rule."""
        verdict = "ok  " if self.passed else "FAIL"
        text = (
            f"{verdict} {self.id}: {self.method}, n = {self.observations}, "
            f"p = {self.p_value:.3g} ({self.rule})"
        )
        return text if self.note is None else f"{text}: {self.note}"

    def table(self) -> list[str]:
        """The rows that differ most from what the law expects, as text."""
        ranked = sorted(self.rows, key=lambda row: -abs(row.observed - row.expected))
        lines = [
            f"{_label(row.group, row.outcome)}: "
            f"expected {row.expected:.1f}, observed {row.observed}"
            for row in ranked[:SHOWN_ROWS]
        ]
        if len(ranked) > SHOWN_ROWS:
            lines.append(f"... {len(ranked) - SHOWN_ROWS} more outcomes")
        return lines

    def to_json(self) -> dict[str, Any]:
        """The test in a report."""
        return {
            "id": self.id,
            "rule": self.rule,
            "method": self.method,
            "observations": self.observations,
            "p_value": self.p_value,
            "passed": self.passed,
            "note": self.note,
            "rows": [row.to_json() for row in self.rows],
        }


NOTHING_SEEN = "no outcome of this kind was observed"


def categorical(
    ident: str,
    rule: str,
    observations: Sequence[Observation],
    law: Callable[[Any], dict[Any, Fraction]],
) -> LawVerdict:
    """Chi-square goodness of fit of ``observations`` to ``law(group)``, group by group."""
    by_group: dict[Any, Counter[Any]] = defaultdict(Counter)
    for group, outcome in observations:
        by_group[_hashable(group)][_hashable(outcome)] += 1
    verdict = LawVerdict(ident, rule, "chi-square", len(observations), 1.0)
    if not observations:
        verdict.p_value, verdict.note = 0.0, NOTHING_SEEN
        return verdict
    statistic, freedom, impossible = 0.0, 0, []
    for group, counts in sorted(by_group.items(), key=lambda item: repr(item[0])):
        try:
            expected = law(group)
        except (KeyError, StopIteration, TypeError, ValueError):
            expected = {}
        total = sum(counts.values())
        possible = {key: chance for key, chance in expected.items() if chance > 0}
        for key, chance in possible.items():
            row = Row(group, key, float(total * chance), counts.get(key, 0))
            verdict.rows.append(row)
            statistic += (row.observed - row.expected) ** 2 / row.expected
        freedom += max(len(possible) - 1, 0)
        for key, seen in counts.items():
            if key not in possible:
                verdict.rows.append(Row(group, key, 0.0, seen))
                impossible.append(f"{_label(group, key)} ({seen} times)")
    if impossible:
        verdict.p_value = 0.0
        verdict.note = "outcomes the rules cannot produce: " + ", ".join(impossible[:5])
        return verdict
    verdict.p_value = float(stats.chi2.sf(statistic, freedom)) if freedom else 1.0
    return verdict


def bernoulli(
    ident: str, rule: str, observations: Sequence[Observation], chance: Fraction
) -> LawVerdict:
    """The exact two-sided binomial test of yes/no outcomes (booleans) against ``chance`` of
    ``True``."""
    values = [value for _, value in observations]
    verdict = LawVerdict(ident, rule, "exact binomial", len(values), 1.0)
    odd = [value for value in values if not isinstance(value, bool)]
    if odd or not values:
        verdict.p_value = 0.0
        verdict.note = f"not a boolean: {odd[0]!r}" if odd else NOTHING_SEEN
        return verdict
    yes = sum(values)
    verdict.rows = [
        Row(None, True, float(len(values) * chance), yes),
        Row(None, False, float(len(values) * (1 - chance)), len(values) - yes),
    ]
    verdict.p_value = float(stats.binomtest(yes, len(values), float(chance)).pvalue)
    return verdict


def multiset_orders(live: int, blank: int) -> list[tuple[str, ...]]:
    """Every distinct order of ``live`` live and ``blank`` blank shells, first shell first."""
    size = live + blank
    orders = []
    for places in itertools.combinations(range(size), live):
        orders.append(tuple("live" if i in places else "blank" for i in range(size)))
    return orders


def _hashable(value: Any) -> Hashable:
    if isinstance(value, list | tuple):
        return tuple(_hashable(item) for item in value)
    if isinstance(value, dict):
        return tuple(sorted((str(k), _hashable(v)) for k, v in value.items()))
    return value  # type: ignore[no-any-return]


def _plain(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_plain(item) for item in value]
    return value


def _label(group: Any, outcome: Any) -> str:
    shown = _show(outcome)
    return shown if group is None else f"{_show(group)} -> {shown}"


def _show(value: Any) -> str:
    if isinstance(value, tuple):
        return "[" + ", ".join(_show(item) for item in value) + "]"
    return str(value).lower() if isinstance(value, bool) else str(value)
