"""The searches try what a player may not do (issue 24, part 5).

The rules refuse a shot at a seat with no living player (S4.2.1a, S1.2; R19), an item the
owner does not hold (S4.2.2; R24), a rescue with an item that is no rescue item or one not
held (S4.3.1; R10), a Magician's payment of the wrong size (S2.6; R8), a discard of an item
not held (S4.4.3; R12) and a decision out of turn. The executable spec's random walks try
such inputs among the legal ones, and bounded model checking leaves every input free, so a
guard that wrongly lets one through is reached by a path from an initial state, not only
shown by a proof.
"""

from __future__ import annotations

import random

import pytest
from faults.mutants import MUTANTS, Mutant
from model_helpers import default_config

from buckshot.spec.chart_data import StateKind
from buckshot.spec.ruleset import load_ruleset
from buckshot.verification.model.executable import ExecutableSpec
from buckshot.verification.model.layout import RESCUE_CODES, SEATS
from buckshot.verification.proofs.bmc import bounded_per_n
from buckshot.verification.proofs.induction import property_by_id
from buckshot.verification.proofs.reach import Table, find_reachable

DRIVER_FAULTS = ("shot_at_the_dead", "shot_at_an_empty_seat", "item_unheld")
"""The faults of guards that let through what a player may not do."""


def _fault(name: str) -> Mutant:
    return next(mutant for mutant in MUTANTS if mutant.name == name)


@pytest.mark.slow
def test_no_refused_input_is_legal_and_each_kind_is_tried() -> None:
    """Over seeded games of every count, the model takes none of the refused inputs, and
    among them are shots at eliminated players and at empty seats, unheld items, rescues
    with other items and decisions out of turn."""
    spec = ExecutableSpec(load_ruleset(), (2, 8))
    shoot = {e.code for e in spec.layout.edges if e.edge.event == "shoot"}
    use = {e.code for e in spec.layout.edges if e.edge.event == "use_item"}
    rescue = {e.code for e in spec.layout.edges if e.edge.event == "use_rescue"}
    flip = {e.code for e in spec.layout.edges if e.edge.event == "flip_shell"}
    discard = {e.code for e in spec.layout.edges if e.edge.event == "discard_item"}
    cost = spec.cfg.ruleset.magician.cost
    seen: set[str] = set()
    for n in range(2, 9):
        for step in spec.random_game(n, random.Random(n), max_steps=600, refused=True):
            s = step.before
            top = spec.top(s)
            refused = list(spec.refused(s))
            assert all(not spec.result(s, inp).ok for inp in refused), top.id
            if top.kind is not StateKind.DECISION:
                assert refused == []
                continue
            for inp in refused:
                if spec.layout.edges[inp.edge].source != top.code:
                    seen.add("out of turn")
                elif inp.edge in shoot:
                    seen.add("eliminated" if inp.target < s.n else "empty seat")
                elif inp.edge in use and s.items[s.owner][inp.item] == 0:
                    seen.add("unheld")
                elif inp.edge in rescue and inp.item not in RESCUE_CODES:
                    seen.add("no rescue item")
                elif inp.edge in rescue:
                    assert s.items[s.fwho[s.depth - 1]][inp.item] == 0
                    seen.add("unheld rescue item")
                elif inp.edge in flip:
                    assert sum(inp.pay) in (cost - 1, cost + 1)
                    seen.add("wrong-size payment")
                elif inp.edge in discard:
                    assert s.items[s.owner][inp.item] == 0
                    seen.add("unheld discard")
    assert seen == {
        "out of turn",
        "eliminated",
        "empty seat",
        "unheld",
        "no rescue item",
        "unheld rescue item",
        "wrong-size payment",
        "unheld discard",
    }


@pytest.mark.slow
def test_a_walk_that_tries_refused_inputs_takes_only_legal_steps() -> None:
    """Trying the refused inputs changes which legal step a seed picks, never its legality:
    every step of a game that tries them is a legal input of its state."""
    spec = ExecutableSpec(load_ruleset(), (2, 8))
    game = spec.random_game(4, random.Random(7), max_steps=400, refused=True)
    assert game
    for step in game:
        assert step.input in spec.legal_inputs(step.before)


@pytest.mark.slow
@pytest.mark.parametrize("name", DRIVER_FAULTS)
def test_a_guard_that_lets_a_refused_input_through_is_reached(name: str) -> None:
    """A seeded walk that tries the refused inputs reaches the bug (a path from an initial
    state breaking the property named first); the same walk without them does not."""
    fault = _fault(name)
    prop = property_by_id(fault.caught_by[0])
    lo, _ = fault.counts or (2, 8)
    found = find_reachable(default_config(), fault.patch, [prop], steps=20_000, table=Table(lo))
    assert found is not None and found.property_id == prop.id and found.players == lo
    blind = find_reachable(default_config(), fault.patch, [prop], steps=4_000, refused=False)
    assert blind is None


@pytest.mark.parametrize(
    ("name", "seat_ok"), [("shot_at_an_empty_seat", False), ("item_unheld", True)]
)
@pytest.mark.slow
def test_bounded_model_checking_finds_them_with_its_free_inputs(name: str, seat_ok: bool) -> None:
    """The bounded search leaves every input field free, so it finds the shortest path to the
    refused input (at two players, within the first turn), replayed on the executable spec."""
    fault = _fault(name)
    prop = property_by_id(fault.caught_by[0])
    result = bounded_per_n(default_config(2, 2), [prop], 6, fault.patch)
    assert result.status == "violated"
    violation = result.violations[0]
    assert violation.property_id == prop.id and violation.witness.replayed
    last = violation.witness.steps[-1]
    if seat_ok:
        owner = last.before.owner
        assert last.before.items[owner][last.input.item] == 0
    else:
        assert last.input.target >= 2 and last.input.target < SEATS
