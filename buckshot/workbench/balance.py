"""The balance of a ruleset as simulated games show it (win rates per role with 95% Wilson
intervals, traitor wins, draws, game length, item use: integer counts, so merging is exact),
and the tests the workbench states: Fisher's exact, Mann-Whitney U and Holm-Bonferroni.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import Any

from scipy import stats

from buckshot.reference.simulate import GameRecord, Summary, wilson_interval
from buckshot.spec.rulebook import Item, Role

ROLES: tuple[str, ...] = tuple(role.value for role in Role)
ITEMS: tuple[str, ...] = tuple(item.value for item in Item)
ALL_ROLES = "all"
"""The row of an item kind that counts the seats of every role."""


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


@dataclass(frozen=True)
class Rate:
    """k of n, with its 95% Wilson interval."""

    successes: int
    trials: int

    @property
    def value(self) -> float | None:
        """k / n, or None with no trials."""
        return self.successes / self.trials if self.trials else None

    @property
    def interval(self) -> tuple[float, float]:
        """The 95% Wilson score interval."""
        return wilson_interval(self.successes, self.trials)

    def shown(self) -> str:
        """``0.412 [0.390, 0.434]``, or ``-`` with no trials."""
        if self.value is None:
            return "-"
        low, high = self.interval
        return f"{self.value:.3f} [{low:.3f}, {high:.3f}]"

    def against(self, other: Rate) -> float:
        """Fisher's exact two-sided p-value of this rate and ``other`` being equal."""
        return fisher_exact(
            self.successes,
            self.trials - self.successes,
            other.successes,
            other.trials - other.successes,
        )

    def to_json(self) -> dict[str, Any]:
        """The counts, the rate and its interval."""
        low, high = self.interval
        return {
            "successes": self.successes,
            "trials": self.trials,
            "rate": self.value,
            "ci95": [low, high],
        }


@dataclass
class ItemUse:
    """How the seats of one role (or of all) used one item kind, and how the users fared."""

    seats: int = 0
    """Seats counted (one per seat per game); ``users`` used it at least once."""
    users: int = 0
    uses: int = 0
    user_wins: int = 0
    """Winners among the users; ``other_wins`` among the others."""
    other_wins: int = 0

    def add(self, used: int, won: bool) -> None:
        """Count one seat of one game: how often it used the item, and whether it won."""
        self.seats += 1
        self.uses += used
        if used:
            self.users += 1
            self.user_wins += won
        else:
            self.other_wins += won

    def merge(self, other: ItemUse) -> None:
        """Count the seats of ``other`` in."""
        for count in fields(self):
            setattr(self, count.name, getattr(self, count.name) + getattr(other, count.name))

    @property
    def usage(self) -> Rate:
        """Seats that used the item, of all seats counted."""
        return Rate(self.users, self.seats)

    @property
    def uses_per_seat(self) -> float | None:
        """Mean times used per seat and game."""
        return self.uses / self.seats if self.seats else None

    @property
    def win_if_used(self) -> Rate:
        """The win rate of seats that used the item."""
        return Rate(self.user_wins, self.users)

    @property
    def win_if_not(self) -> Rate:
        """The win rate of seats that did not use the item."""
        return Rate(self.other_wins, self.seats - self.users)

    @property
    def p(self) -> float | None:
        """Fisher's exact two-sided p-value of equal win rates (None if a group is empty)."""
        used, unused = self.win_if_used, self.win_if_not
        if not used.trials or not unused.trials:
            return None
        return used.against(unused)

    def to_json(self) -> dict[str, Any]:
        """The counts and the derived rates."""
        return {
            "seats": self.seats,
            "users": self.users,
            "uses": self.uses,
            "usage": self.usage.to_json(),
            "uses_per_seat": self.uses_per_seat,
            "win_if_used": self.win_if_used.to_json(),
            "win_if_not": self.win_if_not.to_json(),
            "p_fisher": self.p,
        }


def _add(counts: dict[int, int], value: int, times: int = 1) -> None:
    counts[value] = counts.get(value, 0) + times


def _mean(histogram: dict[int, int]) -> float | None:
    total = sum(histogram.values())
    return sum(v * n for v, n in histogram.items()) / total if total else None


def _spread(histogram: dict[int, int]) -> float | None:
    """The sample standard deviation of ``histogram``'s values, summed in value order."""
    total = sum(histogram.values())
    mean = _mean(histogram)
    if mean is None or total < 2:
        return None
    squares = sum(n * (v - mean) ** 2 for v, n in sorted(histogram.items()))
    return math.sqrt(squares / (total - 1))


@dataclass
class Balance:
    """The figures of many games of one ruleset, as integer counts."""

    summary: Summary = field(default_factory=Summary)
    lengths: dict[int, int] = field(default_factory=dict)
    """Turns a game lasted -> games that lasted that long."""
    items: dict[str, dict[int, int]] = field(default_factory=dict)
    """Item kind -> (times used in one game -> games), every game counted for every kind."""
    item_use: dict[str, dict[str, ItemUse]] = field(default_factory=dict)
    """Role (or :data:`ALL_ROLES`) -> item kind -> how its seats used it and fared."""

    @property
    def games(self) -> int:
        """Games counted."""
        return self.summary.games

    @property
    def appearances(self) -> dict[str, int]:
        """Seats of each role over all games."""
        return self.summary.appearances

    @property
    def draws(self) -> int:
        """Games that ended with no winner."""
        return self.summary.draws

    def add(self, record: GameRecord) -> None:
        """Count one game in."""
        self.summary.add(record)
        _add(self.lengths, record.turns)
        for kind in ITEMS:
            _add(self.items.setdefault(kind, {}), record.items_used.get(kind, 0))
        for seat, used in enumerate(record.seat_items):
            won = seat in record.winners
            for role in (record.roles[seat], ALL_ROLES):
                row = self.item_use.setdefault(role, {})
                for kind in ITEMS:
                    row.setdefault(kind, ItemUse()).add(used.get(kind, 0), won)

    def item(self, role: str, kind: str) -> ItemUse:
        """How the seats of ``role`` (or :data:`ALL_ROLES`) used ``kind`` and fared."""
        return self.item_use.get(role, {}).get(kind, ItemUse())

    def merge(self, other: Balance) -> None:
        """Count the games of ``other`` in."""
        self.summary.merge(other.summary)
        for turns, n in other.lengths.items():
            _add(self.lengths, turns, n)
        for kind, histogram in other.items.items():
            mine = self.items.setdefault(kind, {})
            for used, n in histogram.items():
                _add(mine, used, n)
        for role, row in other.item_use.items():
            for kind, counts in row.items():
                self.item_use.setdefault(role, {}).setdefault(kind, ItemUse()).merge(counts)

    @classmethod
    def of(cls, records: Iterable[GameRecord]) -> Balance:
        """The balance of ``records``."""
        balance = cls()
        for record in records:
            balance.add(record)
        return balance

    def win_rate(self, role: str) -> Rate:
        """How often a seat of ``role`` was among the winners."""
        return Rate(self.summary.wins.get(role, 0), self.appearances.get(role, 0))

    @property
    def traitor_rate(self) -> Rate:
        """Games won by a traitor."""
        return Rate(self.summary.traitor_wins, self.games)

    @property
    def draw_rate(self) -> Rate:
        """Games that ended with no winner."""
        return Rate(self.draws, self.games)

    @property
    def mean_length(self) -> float | None:
        """Mean game length in turns."""
        return _mean(self.lengths)

    @property
    def length_spread(self) -> float | None:
        """Standard deviation of game length in turns."""
        return _spread(self.lengths)

    def items_per_game(self, kind: str) -> float | None:
        """Mean number of items of ``kind`` used in a game."""
        return _mean(self.items.get(kind, {}))

    def to_json(self) -> dict[str, Any]:
        """Counts and derived figures, JSON-ready, keys in a fixed order."""
        return {
            "games": self.games,
            "roles": {role: self.win_rate(role).to_json() for role in ROLES},
            "traitor_wins": self.traitor_rate.to_json(),
            "draws": self.draw_rate.to_json(),
            "length": {
                "mean": self.mean_length,
                "sd": self.length_spread,
                "histogram": {str(k): self.lengths[k] for k in sorted(self.lengths)},
            },
            "items_used": {
                kind: {
                    "total": sum(v * n for v, n in self.items.get(kind, {}).items()),
                    "per_game": self.items_per_game(kind),
                    "histogram": {str(k): v for k, v in sorted(self.items.get(kind, {}).items())},
                }
                for kind in ITEMS
            },
            "item_use": {
                role: {kind: self.item(role, kind).to_json() for kind in ITEMS}
                for role in (ALL_ROLES, *ROLES)
                if role in self.item_use
            },
        }
