"""Deliberate bugs of free chance: an engine that draws its own outcomes with the wrong law.

Every case of the suite scripts its chance, so none of these bugs fails a case: only chance mode
(:mod:`buckshot.conformance.chance_mode`) can catch them, and each row of ``manifest.json``
names the experiments that must. A breaker returns the run class whose free plays draw from a
broken source (:attr:`buckshot.reference.adapter.Run.free_chance`, a :class:`SeededChance` with
one kind of outcome drawn otherwise); the scripted cases are played as before.

``python tests/faults/adapter.py --fault NAME`` serves the reference adapter with one of
them (``--list`` lists every served fault).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction

from buckshot.reference.adapter import Run
from buckshot.reference.chance import SeededChance
from buckshot.spec.rulebook import Item, Shell
from buckshot.spec.ruleset import Load
from faults.served import B, Breaker, served_fault

BREAKERS: dict[str, Breaker] = {}
"""Every fault of free chance, by name, in declaration order."""


def chance_fault(name: str) -> Callable[[B], B]:
    """Register the decorated breaker as the chance fault ``name`` (its row of manifest.json
    says what it breaks and what must catch it)."""
    return served_fault(BREAKERS, name)


def _drawing_from(source: type[SeededChance]) -> type[Run]:
    """The run class whose free plays draw from ``source``."""

    class Drawing(Run):
        free_chance = source

    return Drawing


class _Unshuffled(SeededChance):
    def order(self, live: int, blank: int) -> tuple[Shell, ...]:
        return (Shell.LIVE,) * live + (Shell.BLANK,) * blank


@chance_fault("never-shuffles")
def never_shuffles() -> type[Run]:
    """The live shells always come first."""
    return _drawing_from(_Unshuffled)


class _NaiveShuffle(SeededChance):
    def order(self, live: int, blank: int) -> tuple[Shell, ...]:
        shells = [Shell.LIVE] * live + [Shell.BLANK] * blank
        for i in range(len(shells)):  # each place swapped with any place: not uniform
            j = self._rng.randrange(len(shells))
            shells[i], shells[j] = shells[j], shells[i]
        return tuple(shells)


@chance_fault("naive-swap-shuffle")
def naive_swap_shuffle() -> type[Run]:
    """The classic biased shuffle (every place swapped with a place drawn from all)."""
    return _drawing_from(_NaiveShuffle)


class _FirstLoad(SeededChance):
    def load(self, options: Sequence[Load]) -> Load:
        return options[0]


@chance_fault("always-the-first-load")
def always_the_first_load() -> type[Run]:
    """The load table's first entry, always."""
    return _drawing_from(_FirstLoad)


class _CoinPills(SeededChance):
    def pill_heals(self, chance: Fraction) -> bool:
        return super().pill_heals(Fraction(1, 2))


@chance_fault("pills-toss-a-coin")
def pills_toss_a_coin() -> type[Run]:
    """The pills' odds read as one half."""
    return _drawing_from(_CoinPills)


class _InvertedPills(SeededChance):
    def pill_heals(self, chance: Fraction) -> bool:
        return super().pill_heals(1 - chance)


@chance_fault("pills-odds-inverted")
def pills_odds_inverted() -> type[Run]:
    """The pills' odds read as the chance of a loss."""
    return _drawing_from(_InvertedPills)


class _DefaultStreak(SeededChance):
    def gambler_bonus(self, chance: Fraction) -> bool:
        return super().gambler_bonus(Fraction(1, 2))


@chance_fault("lucky-streak-ignores-the-ruleset")
def lucky_streak_ignores_the_ruleset() -> type[Run]:
    """The Lucky Streak's odds fixed at the default's."""
    return _drawing_from(_DefaultStreak)


class _PickByKind(SeededChance):
    def pick(self, held: Sequence[Item]) -> Item:
        kinds = list(dict.fromkeys(held))
        return super().pick(kinds)


@chance_fault("pick-by-kind")
def pick_by_kind() -> type[Run]:
    """The pick drawn among the kinds held."""
    return _drawing_from(_PickByKind)


class _UnweightedItems(SeededChance):
    def item(self, weights: Sequence[tuple[Item, int]]) -> Item:
        return super().item([(item, 1) for item, weight in weights if weight > 0])


@chance_fault("items-ignore-their-weights")
def items_ignore_their_weights() -> type[Run]:
    """Every drawable item kind equally likely."""
    return _drawing_from(_UnweightedItems)
