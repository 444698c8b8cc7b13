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

import math
from collections.abc import Callable, Sequence
from fractions import Fraction

from buckshot.reference.adapter import Run
from buckshot.reference.chance import SeededChance
from buckshot.spec.rulebook import Item, Shell
from buckshot.spec.ruleset import Load, load_ruleset
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


# --- odds misread: rounded, cut short, or taken from the default ruleset ---------------------


def _whole_percents(chance: Fraction) -> Fraction:
    return Fraction(round(chance * 100), 100)


def _three_places(chance: Fraction) -> Fraction:
    return Fraction(math.floor(chance * 1000), 1000)


def _misread(odds: Callable[[Fraction], Fraction]) -> type[SeededChance]:
    """A source that reads every odds of the ruleset through ``odds``: the pills', the Lucky
    Streak's and each item kind's (its weight over the total)."""

    class Misread(SeededChance):
        def pill_heals(self, chance: Fraction) -> bool:
            return super().pill_heals(odds(chance))

        def gambler_bonus(self, chance: Fraction) -> bool:
            return super().gambler_bonus(odds(chance))

        def item(self, weights: Sequence[tuple[Item, int]]) -> Item:
            total = sum(weight for _, weight in weights)
            chances = [(item, odds(Fraction(weight, total))) for item, weight in weights]
            scale = math.lcm(*(chance.denominator for _, chance in chances))
            return super().item([(item, int(chance * scale)) for item, chance in chances])

    return Misread


@chance_fault("odds-rounded-to-whole-percents")
def odds_rounded_to_whole_percents() -> type[Run]:
    """Every odds rounded to the nearest whole percent (1/3 is 0.33; below 0.5% is 0)."""
    return _drawing_from(_misread(_whole_percents))


@chance_fault("odds-cut-to-three-places")
def odds_cut_to_three_places() -> type[Run]:
    """Every odds cut after its third decimal place, as a float of few digits (1/3 is
    0.333; below 0.001 is 0)."""
    return _drawing_from(_misread(_three_places))


_DEFAULT = load_ruleset()


class _DefaultOdds(SeededChance):
    def pill_heals(self, chance: Fraction) -> bool:
        return super().pill_heals(_DEFAULT.pills.heal_chance)

    def gambler_bonus(self, chance: Fraction) -> bool:
        return super().gambler_bonus(_DEFAULT.gambler.bonus_chance)

    def item(self, weights: Sequence[tuple[Item, int]]) -> Item:
        return super().item(list(_DEFAULT.items.weights))


@chance_fault("odds-read-from-the-default-ruleset")
def odds_read_from_the_default_ruleset() -> type[Run]:
    """The pills', the Lucky Streak's and the items' odds read from the default ruleset,
    whatever the ruleset of the game says."""
    return _drawing_from(_DefaultOdds)
