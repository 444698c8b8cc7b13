"""The lockstep walks compare who is privately shown the chamber's first shell (S2.3, S4.1.3;
R11): at a fresh load every living Dealer who is not a traitor, at phase 1's preview the
Dealer owner. An engine whose Dealers miss a fresh load parts from the model."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from faults import seams
from faults.manifest import serve

from buckshot.spec.ruleset import load_ruleset
from buckshot.verification.engine.lockstep import random_walks
from buckshot.verification.model.executable import ExecutableSpec

RULES = load_ruleset()
SPEC = ExecutableSpec(RULES, (2, 8))


@pytest.fixture
def dealers_miss_fresh_loads() -> Iterator[None]:
    serve("dealers-miss-fresh-loads")
    try:
        yield
    finally:
        seams.reset()


@pytest.mark.slow
def test_the_walks_agree_on_previews() -> None:
    walks = random_walks(SPEC, RULES, 600, seed=5, players=(2, 3, 4))
    assert walks.agreed, [d.text() for d in walks.disagreements]


@pytest.mark.usefixtures("dealers_miss_fresh_loads")
def test_an_engine_whose_dealers_miss_a_fresh_load_parts_from_the_model() -> None:
    walks = random_walks(SPEC, RULES, 3000, seed=5, players=(2, 3, 4), stop_at_first=True)
    assert not walks.agreed
    first = walks.disagreements[0]
    assert first.what == "the seats shown the first shell differ", first.text()
    assert "load_chamber" in first.where or "check_chamber" in first.where
