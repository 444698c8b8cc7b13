"""Which balance differences are called significant: none between a ruleset and itself on the
same seeds; the draws and game length when only amulets can be drawn (no one can be healed or
hurt more, R9/R15), which the rules make the designer's typical stalemate."""

from __future__ import annotations

import pytest

from buckshot.spec.rulebook import Item
from buckshot.spec.ruleset import load_ruleset
from buckshot.workbench.measure import measure
from buckshot.workbench.overrides import with_values
from buckshot.workbench.significance import compare_balances


def test_a_ruleset_against_itself_differs_in_nothing() -> None:
    rules = load_ruleset()
    first, second = measure(None, [rules, rules], 20, 3, seed=4, agent="random")
    (found,) = compare_balances([(first, second)])
    assert found and all(c.p == pytest.approx(1.0) and not c.significant for c in found)


@pytest.mark.slow
def test_amulets_only_makes_significantly_more_draws_and_longer_games() -> None:
    default = load_ruleset()
    amulets = with_values(
        default,
        [(f"items.weights.{item.value}", 0) for item in Item if item is not Item.AMULET],
    )
    before, after = measure(None, [default, amulets], 20, 3, seed=4)
    (found,) = compare_balances([(before, after)])
    by_figure = {c.figure: c for c in found}
    assert after.draws > before.draws
    assert by_figure["draws"].significant
    assert by_figure["game length (turns)"].significant
    assert by_figure["milk_tea used per game"].new == "0.00"
    # Holm: every adjusted p-value is at least its raw one and at most 1
    assert all(c.p <= c.adjusted <= 1 for c in found)
