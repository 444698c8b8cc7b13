"""Chance nodes give the rules' odds, with the ruleset's numbers, exactly.

Each expectation is stated from the rule text and the rulings: a load is drawn with equal
chance among the options for the living players, then shuffled uniformly (R1); an item
kind with its weight over the sum of weights (R15); expired pills heal with
``pills.heal_chance`` (S3.6); the Gambler's bonus pays with ``gambler.bonus_chance``
(S2.1); a pickpocket takes each held item with equal chance (R23).
"""

from __future__ import annotations

import random
from fractions import Fraction
from math import comb
from pathlib import Path

import pytest
from envs_helpers import write_variant

from buckshot.envs.table import Setup, Table, default_roles
from buckshot.spec.rulebook import Item, Role
from buckshot.spec.ruleset import Load, Ruleset, load_ruleset


def _expected(table: Table, rules: Ruleset, kind: str) -> dict[str, Fraction]:
    """The odds of the draw ``kind`` the table waits for, from the rules, by outcome text."""
    state = table.game.state
    if kind == "load":
        options = rules.loads_for(sum(state.alive()))
        return {f"load #{i}": Fraction(1, len(options)) for i in range(len(options))}
    if kind == "item":
        weights = dict(rules.items.weights)
        total = sum(weights.values())
        return {f"item {k.value}": Fraction(w, total) for k, w in weights.items() if w}
    if kind == "pill":
        heal = rules.pills.heal_chance
        return {"pill heal": heal, "pill lose": 1 - heal}
    if kind == "gambler":
        bonus = rules.gambler.bonus_chance
        return {"gambler bonus": bonus, "gambler none": 1 - bonus}
    if kind == "pick":
        assert table.pending is not None
        target = int(table.pending[1].rsplit("target=", 1)[1])
        hand = state.seats[target].items
        held = sum(hand.values())
        return {f"pick {k.value}": Fraction(n, held) for k, n in hand.items()}
    raise AssertionError(kind)


def _odds(table: Table) -> dict[str, Fraction]:
    codes = table.setup.codes
    return {codes.describe(outcome): chance for outcome, chance in table.chances()}


@pytest.mark.parametrize("variant", [False, True])
def test_every_draw_has_the_rules_odds(variant: bool, tmp_path: Path) -> None:
    rules = write_variant(tmp_path)[1] if variant else load_ruleset()
    roles = (Role.GAMBLER, Role.DOCTOR, Role.MAGICIAN, Role.GAMBLER)
    seen: set[str] = set()
    for seed in range(4):
        rng = random.Random(seed)
        table = Table(Setup.of(rules, roles))
        while not table.over:
            if table.draw is None:
                table.act(rng.choice(table.legal()))
                continue
            kind = table.draw.kind
            seen.add(kind)
            if kind != "shell":  # the shuffle: test_a_load_is_shuffled_uniformly
                expected = {k: v for k, v in _expected(table, rules, kind).items() if v}
                if len(expected) > 1:  # a certain draw is taken without asking
                    assert _odds(table) == expected
            outcomes, odds = zip(*table.chances(), strict=True)
            table.chance(rng.choices(outcomes, [float(p) for p in odds])[0])
    assert seen >= {"load", "shell", "item", "pill", "gambler", "pick"}


def _orders(table: Table) -> dict[tuple[str, ...], Fraction]:
    """Every order the load being shuffled at the start can come out in (read from the
    chamber once the start settles, the other draws made anyhow), with its probability."""
    if table.draw is None or table.draw.kind != "shell":
        settled = table.copy()
        while settled.draw is not None:
            settled.chance(settled.chances()[0][0])
        return {tuple(shell.value for shell in settled.game.state.shells): Fraction(1)}
    orders: dict[tuple[str, ...], Fraction] = {}
    for outcome, chance in table.chances():
        after = table.copy()
        after.chance(outcome)
        for order, p in _orders(after).items():
            orders[order] = orders.get(order, Fraction(0)) + chance * p
    return orders


@pytest.mark.parametrize("live,blank", [(2, 2), (3, 2), (4, 4)])
def test_a_load_is_shuffled_uniformly(live: int, blank: int) -> None:
    rules = load_ruleset()
    table = Table(Setup.of(rules, default_roles(4)))
    options = rules.loads_for(4)
    assert table.draw is not None and table.draw.kind == "load"
    table.chance(table.setup.codes.base("load") + options.index(Load(live, blank)))
    orders = _orders(table)
    assert len(orders) == comb(live + blank, live)
    assert set(orders.values()) == {Fraction(1, comb(live + blank, live))}
    for order in orders:
        assert order.count("live") == live and len(order) == live + blank


def test_a_draw_with_one_outcome_is_not_asked() -> None:
    rules = load_ruleset().with_changes(
        {"players.max": 2, "shells.loads": [{"players": 2, "options": [[1, 0]]}]}
    )
    table = Table(Setup.of(rules, (Role.MEDIC, Role.MEDIC)))
    # one load and one order possible: the first draw asked is an item (S4.1.1)
    assert table.draw is not None and table.draw.kind == "item"
    assert table.game.state.shells == []  # the start is not settled yet
    assert {Item(text.split()[1]) for text in _odds(table)} == set(Item)
