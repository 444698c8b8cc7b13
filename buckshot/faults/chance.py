"""Deliberate bugs of free chance: an engine that draws its own outcomes with the wrong law.

Every case of the suite scripts its chance, so none of these bugs fails a case: only chance
mode (:mod:`buckshot.conformance.chance_mode`) can catch them, and each names the
experiments that must. A breaker returns the run class whose free plays draw from a broken
source (:attr:`buckshot.reference.adapter.Run.free_chance`, a :class:`SeededChance` with one
kind of outcome drawn otherwise); the scripted cases are played as before.

``python -m buckshot.faults.chance_adapter --fault NAME`` serves the reference adapter with
one of them (``--list`` lists them).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction

from buckshot.faults.declare import Room
from buckshot.faults.served import B, ServedFault, served_fault
from buckshot.reference.adapter import Run
from buckshot.reference.chance import SeededChance
from buckshot.spec.rulebook import Item, Shell
from buckshot.spec.ruleset import Load

FAULTS: dict[str, ServedFault] = {}
"""Every fault of free chance, by name, in declaration order."""


def chance_fault(
    name: str, summary: str, *, breaks: tuple[str, ...], caught_by: tuple[str, ...]
) -> Callable[[B], B]:
    """Declare the decorated breaker as the chance fault ``name``: it breaks ``breaks``, and
    every chance-mode experiment of ``caught_by`` must fail with it."""
    return served_fault(Room.CONTRACT, FAULTS, name, summary, breaks, caught_by)


def _drawing_from(source: type[SeededChance]) -> type[Run]:
    """The run class whose free plays draw from ``source``."""

    class Drawing(Run):
        free_chance = source

    return Drawing


class _Unshuffled(SeededChance):
    def order(self, live: int, blank: int) -> tuple[Shell, ...]:
        return (Shell.LIVE,) * live + (Shell.BLANK,) * blank


@chance_fault(
    "never-shuffles",
    "a load goes into the chamber live shells first, never shuffled",
    breaks=("R1", "M2.5a"),
    caught_by=("chance.first-load-two-seats",),
)
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


@chance_fault(
    "naive-swap-shuffle",
    "a load shuffled by swapping each place with any place, which favours some orders",
    breaks=("R1", "M2.5a"),
    caught_by=("chance.shuffle-of-three-and-three",),
)
def naive_swap_shuffle() -> type[Run]:
    """The classic biased shuffle (every place swapped with a place drawn from all)."""
    return _drawing_from(_NaiveShuffle)


class _FirstLoad(SeededChance):
    def load(self, options: Sequence[Load]) -> Load:
        return options[0]


@chance_fault(
    "always-the-first-load",
    "the first load of the table every time instead of one drawn with equal chance",
    breaks=("R1", "M2.5a"),
    caught_by=("chance.first-load-two-seats", "chance.load-for-the-living"),
)
def always_the_first_load() -> type[Run]:
    """The load table's first entry, always."""
    return _drawing_from(_FirstLoad)


class _CoinPills(SeededChance):
    def pill_heals(self, chance: Fraction) -> bool:
        return super().pill_heals(Fraction(1, 2))


@chance_fault(
    "pills-toss-a-coin",
    "expired pills heal half the time, whatever the ruleset's odds",
    breaks=("S3.6", "M2.5a"),
    caught_by=("chance.pills-default-odds", "chance.pills-other-odds"),
)
def pills_toss_a_coin() -> type[Run]:
    """The pills' odds read as one half."""
    return _drawing_from(_CoinPills)


class _InvertedPills(SeededChance):
    def pill_heals(self, chance: Fraction) -> bool:
        return super().pill_heals(1 - chance)


@chance_fault(
    "pills-odds-inverted",
    "expired pills heal with the chance of losing: the odds read the other way round",
    breaks=("S3.6", "M2.5a"),
    caught_by=("chance.pills-default-odds", "chance.pills-other-odds"),
)
def pills_odds_inverted() -> type[Run]:
    """The pills' odds read as the chance of a loss."""
    return _drawing_from(_InvertedPills)


class _DefaultStreak(SeededChance):
    def gambler_bonus(self, chance: Fraction) -> bool:
        return super().gambler_bonus(Fraction(1, 2))


@chance_fault(
    "lucky-streak-ignores-the-ruleset",
    "the Lucky Streak pays out with the default ruleset's odds, whatever the ruleset says",
    breaks=("S2.1", "R20", "M2.5a"),
    caught_by=("chance.lucky-streak-other-odds",),
)
def lucky_streak_ignores_the_ruleset() -> type[Run]:
    """The Lucky Streak's odds fixed at the default's."""
    return _drawing_from(_DefaultStreak)


class _PickByKind(SeededChance):
    def pick(self, held: Sequence[Item]) -> Item:
        kinds = list(dict.fromkeys(held))
        return super().pick(kinds)


@chance_fault(
    "pick-by-kind",
    "the pickpocket picks a kind the target holds, each kind equally likely, "
    "not one of the items held",
    breaks=("S3.7", "R23", "M2.5a"),
    caught_by=("chance.pickpocket-picks-an-item",),
)
def pick_by_kind() -> type[Run]:
    """The pick drawn among the kinds held."""
    return _drawing_from(_PickByKind)


class _UnweightedItems(SeededChance):
    def item(self, weights: Sequence[tuple[Item, int]]) -> Item:
        return super().item([(item, 1) for item, weight in weights if weight > 0])


@chance_fault(
    "items-ignore-their-weights",
    "random items drawn with equal chance among the kinds that can be drawn, "
    "whatever their weights",
    breaks=("R15", "M2.5a"),
    caught_by=("chance.items-by-weight",),
)
def items_ignore_their_weights() -> type[Run]:
    """Every drawable item kind equally likely."""
    return _drawing_from(_UnweightedItems)
