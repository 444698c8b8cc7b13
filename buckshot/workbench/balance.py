"""The balance of a ruleset as simulated games show it: win rate per role with its 95% Wilson
interval, traitor wins, draws, the distribution of game length and of items used per kind.

A :class:`Balance` holds only integer counts, so adding games in any order or merging the
balances of chunks gives exactly the same figures.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from buckshot.reference.simulate import GameRecord, Summary, wilson_interval
from buckshot.spec.rulebook import Item, Role

ROLES: tuple[str, ...] = tuple(role.value for role in Role)
"""The roles, in rulebook order."""
ITEMS: tuple[str, ...] = tuple(item.value for item in Item)
"""The item kinds, in rulebook order."""


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

    def to_json(self) -> dict[str, Any]:
        """The counts, the rate and its interval."""
        low, high = self.interval
        return {
            "successes": self.successes,
            "trials": self.trials,
            "rate": self.value,
            "ci95": [low, high],
        }


def _add(counts: dict[int, int], value: int, times: int = 1) -> None:
    counts[value] = counts.get(value, 0) + times


def _mean(histogram: dict[int, int]) -> float | None:
    total = sum(histogram.values())
    return sum(v * n for v, n in histogram.items()) / total if total else None


def _spread(histogram: dict[int, int]) -> float | None:
    """The sample standard deviation of the values of ``histogram``, summed in value order
    (so that the same counts give the same float whatever order they were added in)."""
    total = sum(histogram.values())
    mean = _mean(histogram)
    if mean is None or total < 2:
        return None
    squares = sum(n * (v - mean) ** 2 for v, n in sorted(histogram.items()))
    return math.sqrt(squares / (total - 1))


@dataclass
class Balance:
    """The figures of many games of one ruleset, as integer counts: ``simulate``'s summary,
    and the distributions of game length and of items used per game."""

    summary: Summary = field(default_factory=Summary)
    lengths: dict[int, int] = field(default_factory=dict)
    """Turns a game lasted -> games that lasted that long."""
    items: dict[str, dict[int, int]] = field(default_factory=dict)
    """Item kind -> (times used in one game -> games), every game counted for every kind."""

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

    def merge(self, other: Balance) -> None:
        """Count the games of ``other`` in."""
        self.summary.merge(other.summary)
        for turns, n in other.lengths.items():
            _add(self.lengths, turns, n)
        for kind, histogram in other.items.items():
            mine = self.items.setdefault(kind, {})
            for used, n in histogram.items():
                _add(mine, used, n)

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
        }
