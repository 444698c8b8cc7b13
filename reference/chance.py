"""Chance is a port: every random outcome of a game comes from a :class:`Chance` source.

:class:`SeededChance` draws from its own seeded generator; :class:`ScriptedChance` supplies
each outcome by kind and value, as conformance scripts name them. Nothing in the engine
calls a global random generator.
"""

from __future__ import annotations

import copy
import random
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from itertools import accumulate
from typing import Any, Protocol

from mypy_extensions import mypyc_attr

from buckshot.reference.errors import Code, GameError
from buckshot.spec.rulebook import Item, Shell
from buckshot.spec.ruleset import Load


class Chance(Protocol):
    """A source of the game's random outcomes, one method per kind of outcome."""

    def load(self, options: Sequence[Load]) -> Load:
        """Which of the ruleset's loads fills the chamber (R1)."""
        ...

    def order(self, live: int, blank: int) -> tuple[Shell, ...]:
        """The shuffled order of a load, first shell first (R1)."""
        ...

    def item(self, weights: Sequence[tuple[Item, int]]) -> Item:
        """One random item, with chance proportional to its weight (R15)."""
        ...

    def pill_heals(self, chance: Fraction) -> bool:
        """Whether expired pills heal (else the target loses HP) (S3.6)."""
        ...

    def gambler_bonus(self, chance: Fraction) -> bool:
        """Whether the Gambler's Lucky Streak pays out (S2.1)."""
        ...

    def pick(self, held: Sequence[Item]) -> Item:
        """Which held item a pickpocket takes, each held item equally likely (R23)."""
        ...

    def snapshot(self) -> dict[str, Any]:
        """The source's whole state as JSON-ready data."""
        ...


_RandomState = tuple[Any, ...]
"""What ``random.Random.getstate()`` returns."""


@cache
def _running_sums(weights: tuple[tuple[Item, int], ...]) -> tuple[int, ...]:
    """The running sums of a ruleset's item weights (the same for every draw of a game)."""
    return tuple(accumulate(weight for _, weight in weights))


@mypyc_attr(allow_interpreted_subclasses=True)  # subclassed by tests' sources
class SeededChance:
    """Outcomes drawn from a private ``random.Random`` seeded with ``seed``, or set to the
    generator's ``state`` when it is given (a clone's, a restored source's)."""

    def __init__(self, seed: int = 0, state: _RandomState | None = None) -> None:
        self.seed = seed
        if state is None:
            self._rng = random.Random(seed)
        else:
            self._rng = random.Random.__new__(random.Random)  # not seeded, then set
            self._rng.setstate(state)
        self._state = state
        """The generator's state while no draw has changed it (kept for clones)."""

    def load(self, options: Sequence[Load]) -> Load:
        """A load drawn with equal chance among ``options``."""
        self._state = None
        return options[self._rng.randrange(len(options))]

    def order(self, live: int, blank: int) -> tuple[Shell, ...]:
        """The load shuffled uniformly."""
        self._state = None
        shells = [Shell.LIVE] * live + [Shell.BLANK] * blank
        self._rng.shuffle(shells)
        return tuple(shells)

    def item(self, weights: Sequence[tuple[Item, int]]) -> Item:
        """An item drawn by weight: a roll below the weights' sum falls on the first item
        whose running sum lies above it."""
        self._state = None
        bounds = _running_sums(tuple(weights))
        roll = self._rng.randrange(bounds[-1] if bounds else 0)
        return weights[bisect_right(bounds, roll)][0]

    def _bernoulli(self, chance: Fraction) -> bool:
        self._state = None
        return self._rng.randrange(chance.denominator) < chance.numerator

    def pill_heals(self, chance: Fraction) -> bool:
        """True with probability ``chance``, exactly."""
        return self._bernoulli(chance)

    def gambler_bonus(self, chance: Fraction) -> bool:
        """True with probability ``chance``, exactly."""
        return self._bernoulli(chance)

    def pick(self, held: Sequence[Item]) -> Item:
        """One of ``held`` with equal chance."""
        self._state = None
        return held[self._rng.randrange(len(held))]

    def snapshot(self) -> dict[str, Any]:
        """The seed and the generator's internal state."""
        version, internal, gauss = self._rng.getstate()
        return {"kind": "seeded", "seed": self.seed, "state": [version, list(internal), gauss]}

    def clone(self) -> SeededChance:
        """An independent source in the same state: it draws what this one would next."""
        state = self._state
        if state is None:
            state = self._state = self._rng.getstate()
        return SeededChance(self.seed, state)

    @classmethod
    def restore(cls, data: dict[str, Any]) -> SeededChance:
        """The source saved by :meth:`snapshot`."""
        version, internal, gauss = data["state"]
        return cls(int(data["seed"]), (int(version), tuple(int(x) for x in internal), gauss))


@dataclass(frozen=True)
class Outcome:
    """One scripted chance outcome: its kind and its value, as the conformance cases name them.

    Kinds and values: ``load`` ``[live, blank]``; ``order`` a list of ``"live"``/``"blank"``;
    ``item`` an item name; ``pill`` ``"heal"`` or ``"lose"``; ``gambler`` ``true``/``false``;
    ``pick`` an item name.
    """

    kind: str
    value: Any


@mypyc_attr(allow_interpreted_subclasses=True)  # subclassed by tests' sources
class ScriptedChance:
    """Outcomes taken in order from a script; asking for a kind out of turn is an error."""

    def __init__(self, outcomes: Sequence[Outcome | dict[str, Any]]) -> None:
        self.outcomes = [
            o if isinstance(o, Outcome) else Outcome(o["kind"], o["value"]) for o in outcomes
        ]
        self.cursor = 0

    def next_value(self, kind: str) -> Any:
        """The next outcome's value, unchecked; ``chance.invalid`` when there is none or it is
        of another kind than ``kind`` (each method of a kind checks the value it reads)."""
        if self.cursor >= len(self.outcomes):
            raise GameError(Code.CHANCE, f"the script has no more outcomes; a {kind!r} was needed")
        outcome = self.outcomes[self.cursor]
        if outcome.kind != kind:
            raise GameError(
                Code.CHANCE,
                f"outcome #{self.cursor} is a {outcome.kind!r}, but a {kind!r} was needed",
            )
        self.cursor += 1
        return outcome.value

    def load(self, options: Sequence[Load]) -> Load:
        """The scripted load, which must be one of ``options``."""
        live, blank = self.next_value("load")
        load = Load(int(live), int(blank))
        if load not in options:
            raise GameError(
                Code.CHANCE, f"load {live} live {blank} blank is not in the ruleset's table"
            )
        return load

    def order(self, live: int, blank: int) -> tuple[Shell, ...]:
        """The scripted order, which must hold ``live`` live and ``blank`` blank shells."""
        shells = tuple(Shell(value) for value in self.next_value("order"))
        if shells.count(Shell.LIVE) != live or shells.count(Shell.BLANK) != blank:
            raise GameError(
                Code.CHANCE, f"order {list(shells)} is not {live} live and {blank} blank"
            )
        return shells

    def item(self, weights: Sequence[tuple[Item, int]]) -> Item:
        """The scripted item, which must have a positive weight."""
        item = Item(self.next_value("item"))
        if dict(weights).get(item, 0) <= 0:
            raise GameError(Code.CHANCE, f"item {item.value} cannot be drawn (weight 0)")
        return item

    def pill_heals(self, chance: Fraction) -> bool:
        """``"heal"`` or ``"lose"`` from the script."""
        value = self.next_value("pill")
        if value not in ("heal", "lose"):
            raise GameError(Code.CHANCE, f"pill outcome must be 'heal' or 'lose', got {value!r}")
        return bool(value == "heal")

    def gambler_bonus(self, chance: Fraction) -> bool:
        """``true`` or ``false`` from the script."""
        value = self.next_value("gambler")
        if not isinstance(value, bool):
            raise GameError(Code.CHANCE, f"gambler outcome must be true or false, got {value!r}")
        return value

    def pick(self, held: Sequence[Item]) -> Item:
        """The scripted item, which must be one the target holds."""
        item = Item(self.next_value("pick"))
        if item not in held:
            raise GameError(Code.CHANCE, f"pick {item.value} is not held by the target")
        return item

    def snapshot(self) -> dict[str, Any]:
        """The script and how far it has been read."""
        return {
            "kind": "scripted",
            "outcomes": [{"kind": o.kind, "value": o.value} for o in self.outcomes],
            "cursor": self.cursor,
        }

    @classmethod
    def restore(cls, data: dict[str, Any]) -> ScriptedChance:
        """The source saved by :meth:`snapshot`."""
        source = cls(data["outcomes"])
        source.cursor = int(data["cursor"])
        return source


def clone_chance(chance: Chance) -> Chance:
    """An independent copy of ``chance``: it draws what ``chance`` would draw next, and
    drawing from one leaves the other as it was."""
    if type(chance) is SeededChance:
        return chance.clone()
    if type(chance) is ScriptedChance:
        scripted = ScriptedChance(chance.outcomes)
        scripted.cursor = chance.cursor
        return scripted
    return copy.deepcopy(chance)  # another source (a subclass, a test's): copied whole


def restore_chance(data: dict[str, Any]) -> Chance:
    """The chance source saved by a ``snapshot()``."""
    if data.get("kind") == "seeded":
        return SeededChance.restore(data)
    if data.get("kind") == "scripted":
        return ScriptedChance.restore(data)
    raise ValueError(f"unknown chance source kind {data.get('kind')!r}")
