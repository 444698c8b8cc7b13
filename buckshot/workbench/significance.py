"""Which differences between two balances are significant: Fisher's exact test for rates,
Mann-Whitney U for distributions, Holm-Bonferroni over a report, at :data:`ALPHA`.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Final

from buckshot.workbench.balance import ITEMS, ROLES, Balance, holm, mann_whitney

ALPHA: Final = 0.05
"""The family-wise error rate of a report's comparisons."""
FISHER: Final = "Fisher exact"
MANN_WHITNEY: Final = "Mann-Whitney U"


@dataclass(frozen=True)
class Comparison:
    """One figure of two balances, its test, raw and Holm-adjusted p-value."""

    figure: str
    old: str
    new: str
    test: str
    p: float
    adjusted: float

    @property
    def significant(self) -> bool:
        """Whether the adjusted p-value is below :data:`ALPHA`."""
        return self.adjusted < ALPHA

    def to_json(self) -> dict[str, Any]:
        """The comparison as JSON-ready data."""
        return {
            "figure": self.figure,
            "old": self.old,
            "new": self.new,
            "test": self.test,
            "p": self.p,
            "p_holm": self.adjusted,
            "significant": self.significant,
        }


def _mean_shown(value: float | None, spread: float | None = None) -> str:
    if value is None:
        return "-"
    return f"{value:.2f}" if spread is None else f"{value:.1f} ± {spread:.1f}"


def _raw(old: Balance, new: Balance) -> Iterator[tuple[str, str, str, str, float]]:
    """(figure, old, new, test, p) of every figure both balances have data for."""
    for role in ROLES:
        a, b = old.win_rate(role), new.win_rate(role)
        if a.trials and b.trials:
            yield f"win rate: {role}", a.shown(), b.shown(), FISHER, a.against(b)
    for name, a, b in (
        ("traitor wins", old.traitor_rate, new.traitor_rate),
        ("draws", old.draw_rate, new.draw_rate),
    ):
        yield name, a.shown(), b.shown(), FISHER, a.against(b)
    yield (
        "game length (turns)",
        _mean_shown(old.mean_length, old.length_spread),
        _mean_shown(new.mean_length, new.length_spread),
        MANN_WHITNEY,
        mann_whitney(old.lengths, new.lengths),
    )
    for kind in ITEMS:
        yield (
            f"{kind} used per game",
            _mean_shown(old.items_per_game(kind)),
            _mean_shown(new.items_per_game(kind)),
            MANN_WHITNEY,
            mann_whitney(old.items.get(kind, {}), new.items.get(kind, {})),
        )


def compare_balances(pairs: Sequence[tuple[Balance, Balance]]) -> list[list[Comparison]]:
    """For each (old, new) pair, its comparisons; Holm's correction over all of them."""
    raw = [list(_raw(old, new)) for old, new in pairs]
    adjusted = iter(holm([row[4] for rows in raw for row in rows]))
    return [[Comparison(*row, next(adjusted)) for row in rows] for rows in raw]
