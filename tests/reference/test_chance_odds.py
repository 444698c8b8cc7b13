"""The engine's chance draws follow the ruleset (issue 15, item 5): in seeded bot games, every
draw the engine asks for is recorded with what it asked, then checked two ways: the engine
passes the ruleset's own numbers (the load table for the living players, the item weights,
the pill and Gambler odds), and the outcomes fit those numbers by a chi-square or exact
binomial test at a fixed seed. The ruleset is a skewed variant, so that an engine that used
uniform or default odds instead would fail; a source with a planted bias shows the tests
have the power to see one.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from fractions import Fraction
from functools import cache
from typing import Any, TypeVar

import pytest
from chance_stats import binomial_test, chi_square_fit

from buckshot.reference.agents import RandomAgent, play_out
from buckshot.reference.chance import SeededChance
from buckshot.reference.game import Game
from buckshot.spec.rulebook import Item, Role, Shell
from buckshot.spec.ruleset import Load, Ruleset, load_ruleset
from buckshot.workbench.overrides import with_values

GAMES = 150
SEED = 20261130
FIT = 0.001
"""A fit is refused below this p-value (each check, at the fixed seed)."""
WEIGHTS = {item: index + 1 for index, item in enumerate(Item)}
"""Skewed item weights 1..8, in rulebook order."""


def skewed_rules() -> Ruleset:
    """The default ruleset with unequal item weights and odds unlike the default's."""
    settings: list[tuple[str, int | str]] = [
        (f"items.weights.{item.value}", weight) for item, weight in WEIGHTS.items()
    ]
    settings += [("pills.heal_chance", "1/5"), ("gambler.bonus_chance", "3/4")]
    return with_values(load_ruleset(), settings)


T = TypeVar("T")


class RecordingChance(SeededChance):
    """A seeded source that records each draw: its kind, what the engine passed, the outcome,
    and how many players were alive; ``bias`` plants a wrong pill chance (the power check)."""

    def __init__(self, seed: int, bias: Fraction | None = None) -> None:
        super().__init__(seed)
        self.game: Game | None = None
        self.draws: list[tuple[str, Any, Any, int]] = []
        self._bias = bias

    def _note(self, kind: str, asked: Any, outcome: T) -> T:
        assert self.game is not None
        living = sum(seat.alive for seat in self.game.state.seats)
        self.draws.append((kind, asked, outcome, living))
        return outcome

    def load(self, options: Sequence[Load]) -> Load:
        return self._note("load", tuple(options), super().load(options))

    def order(self, live: int, blank: int) -> tuple[Shell, ...]:
        return self._note("order", (live, blank), super().order(live, blank))

    def item(self, weights: Sequence[tuple[Item, int]]) -> Item:
        return self._note("item", tuple(weights), super().item(weights))

    def pill_heals(self, chance: Fraction) -> bool:
        used = self._bias if self._bias is not None else chance
        return self._note("pill", chance, super().pill_heals(used))

    def gambler_bonus(self, chance: Fraction) -> bool:
        return self._note("gambler", chance, super().gambler_bonus(chance))

    def pick(self, held: Sequence[Item]) -> Item:
        return self._note("pick", tuple(held), super().pick(held))


def play(rules: Ruleset, bias: Fraction | None = None) -> list[tuple[str, Any, Any, int]]:
    """Every chance draw of GAMES seeded games of random bots, 4 seats, all roles in turn."""
    draws: list[tuple[str, Any, Any, int]] = []
    roles = list(Role)
    for number in range(GAMES):
        seats = [roles[(number + i) % len(roles)] for i in range(4)]
        chance = RecordingChance(SEED + number, bias)
        game = Game(rules, seats, chance, record=False)
        chance.game = game
        game.start()
        bots = [RandomAgent(SEED * 7 + number * 4 + i) for i in range(4)]
        play_out(game, bots)
        draws.extend(chance.draws)
    return draws


@cache
def skewed_draws() -> tuple[tuple[str, Any, Any, int], ...]:
    return tuple(play(skewed_rules()))


def of(kind: str) -> list[tuple[Any, Any, int]]:
    return [(asked, outcome, living) for k, asked, outcome, living in skewed_draws() if k == kind]


def test_loads_come_from_the_table_for_the_living_players_with_equal_chance() -> None:
    rules = skewed_rules()
    by_table: dict[int, Counter[Load]] = defaultdict(Counter)
    for asked, outcome, living in of("load"):
        assert asked == rules.loads_for(living)
        by_table[living][outcome] += 1
    assert sum(sum(c.values()) for c in by_table.values()) > 300
    tested = 0
    for living, counts in by_table.items():
        options = rules.loads_for(living)
        if sum(counts.values()) >= 20 * len(options):
            observed = [counts[option] for option in options]
            assert chi_square_fit(observed, [1] * len(options)) > FIT, (living, observed)
            tested += 1
    assert tested >= 2


def test_shell_orders_are_uniform_shuffles_of_the_load() -> None:
    first_live = Counter[tuple[int, int]]()
    total = Counter[tuple[int, int]]()
    for (live, blank), order, _ in of("order"):
        assert order.count(Shell.LIVE) == live and order.count(Shell.BLANK) == blank
        total[(live, blank)] += 1
        first_live[(live, blank)] += order[0] is Shell.LIVE
    tested = 0
    for (live, blank), n in total.items():
        if n >= 100:
            assert binomial_test(first_live[(live, blank)], n, live / (live + blank)) > FIT
            tested += 1
    assert tested >= 2


def test_items_are_drawn_by_the_ruleset_weights() -> None:
    rules = skewed_rules()
    counts = Counter[Item]()
    for asked, outcome, _ in of("item"):
        assert asked == rules.items.weights
        counts[outcome] += 1
    assert sum(counts.values()) > 2000
    observed = [counts[item] for item in Item]
    assert chi_square_fit(observed, [WEIGHTS[item] for item in Item]) > FIT, observed
    # the same counts do not fit equal weights: the test can tell the two apart
    assert chi_square_fit(observed, [1] * len(observed)) < 1e-9


def test_pills_and_the_gambler_bonus_follow_the_ruleset_odds() -> None:
    for kind, chance in (("pill", Fraction(1, 5)), ("gambler", Fraction(3, 4))):
        draws = of(kind)
        assert draws and all(asked == chance for asked, _, _ in draws)
        successes = sum(bool(outcome) for _, outcome, _ in draws)
        assert len(draws) >= 60, kind
        assert binomial_test(successes, len(draws), float(chance)) > FIT, (kind, successes)


def test_a_pickpocket_takes_each_held_item_with_equal_chance() -> None:
    positions = Counter[tuple[int, int]]()
    for held, outcome, _ in of("pick"):
        assert outcome in held
        if len(set(held)) == len(held):  # with a kind held twice, its place is not known
            positions[(len(held), held.index(outcome))] += 1
    sizes = Counter[int]()
    for (size, _), n in positions.items():
        sizes[size] += n
    size = max(sizes, key=lambda s: sizes[s])
    observed = [positions[(size, i)] for i in range(size)]
    assert sum(observed) >= 30
    assert chi_square_fit(observed, [1] * size) > FIT, observed


@pytest.mark.parametrize("bias", [Fraction(1, 3)])
def test_a_planted_bias_in_the_pill_odds_is_found(bias: Fraction) -> None:
    draws = [(a, o) for k, a, o, _ in play(skewed_rules(), bias) if k == "pill"]
    successes = sum(bool(outcome) for _, outcome in draws)
    assert binomial_test(successes, len(draws), 1 / 5) < FIT
