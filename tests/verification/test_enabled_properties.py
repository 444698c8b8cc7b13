"""Enabledness (verification/proofs/rules_enabled.py): what the rules let a player choose is
offered by the model, proved for every player count, and each property has teeth.

A model that removes a legal choice breaks no step property (the stranger's model that
refuses a shot at oneself, S4.2.1a, passed every one). Each enabledness property is proved on
the model for N 2-8; each fault of tests/faults that removes a choice makes its property
fail at every N with a counterexample the executable spec confirms, a seeded game of every N
reaches it, and the path, written as a counterexample document, is followed by
``buckshot replay``, which names the engine's options where the model refused one. The
suite proves each fault's property at one count (test_verification_proofs.py); the claim for
every count, walks and replays included, runs with ``BUCKSHOT_FAULTS_FULL=1``
(tests/faults/full.py).
"""

from __future__ import annotations

import ast
import inspect
import json

import pytest
from faults.full import full_only
from faults.manifest import patch_of, row
from faults.mutants import MUTANTS, Mutant
from model_helpers import default_config

from buckshot.verification.engine.counterexample import load_document, replay, to_document
from buckshot.verification.model.config import Config
from buckshot.verification.model.executable import ExecutableSpec
from buckshot.verification.model.patch import NO_PATCH
from buckshot.verification.proofs import enabled, rules_enabled
from buckshot.verification.proofs.bmc import Violation, Witness
from buckshot.verification.proofs.induction import (
    PROVED,
    VIOLATED,
    all_properties,
    property_by_id,
    prove,
)
from buckshot.verification.proofs.reach import Evidence, Table, find_reachable
from buckshot.verification.run import verify

PROPERTIES = rules_enabled.RULES_ENABLED
IDS = {p.id for p in PROPERTIES}
TEETH = [mutant for mutant in MUTANTS if mutant.caught_by[0] in IDS]
"""The faults named first for an enabledness property."""

PER_N_STEPS = 30_000
"""Steps of random play given to each player count's walk."""


def test_the_enabledness_properties_are_proved_with_the_others() -> None:
    ids = [p.id for p in all_properties()]
    assert set(ids) >= IDS and len(ids) == len(set(ids))
    for prop in PROPERTIES:
        assert prop.offer is not None and prop.clauses
        assert prop.state is None and prop.step is None and not prop.progress


def test_they_read_no_guard_action_or_helper() -> None:
    """The conditions read the backend's operations and the ruleset's numbers only (a
    property that reused the model's guards could not catch a bug in them)."""
    reads = {
        node.attr
        for node in ast.walk(ast.parse(inspect.getsource(rules_enabled)))
        if isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id == "m"
    }
    assert reads <= {"b", "rules"}, reads


def test_every_enabledness_property_is_named_first_by_a_fault() -> None:
    assert IDS - {mutant.caught_by[0] for mutant in TEETH} == set()


@pytest.mark.slow
def test_each_is_proved_for_every_player_count() -> None:
    """On the model as it is, no reachable-looking state (every invariant and lemma holds)
    refuses what a property offers, for N 2-8 (S4.2.1a, S4.2.2, S2.6, S4.3.1, S4.3.2,
    S4.4.3; R4, R8, R10, R12)."""
    for proof in prove(default_config(), PROPERTIES):
        assert [v.n for v in proof.per_n] == list(range(2, 9))
        assert all(v.verdict == PROVED for v in proof.per_n), proof.id


@pytest.mark.slow
def test_the_walks_find_no_refusal_on_the_model() -> None:
    """Seeded games of the model as it is never reach a state that refuses an offer: the
    concrete check agrees with the proofs."""
    assert find_reachable(default_config(), NO_PATCH, PROPERTIES, steps=1_500) is None


def _table(mutant: Mutant, n: int) -> Table:
    if mutant.table is None:
        return Table(n)
    return Table(n, mutant.table.role, mutant.table.prefer)


def _replayed(cfg: Config, mutant: Mutant, found: Evidence) -> str:
    """The walk's path as a counterexample document, through JSON, replayed in the engine;
    its verdict (the path must be followed to its end)."""
    assert found.start is not None
    spec = ExecutableSpec(cfg.ruleset, config=cfg, patch=mutant.patch)
    witness = Witness(found.start, found.path, True, "a seeded random game")
    doc = to_document(spec, Violation(found.property_id, found.steps, witness), "statement")
    result = replay(load_document(json.loads(json.dumps(doc))))
    assert result.followed, result.lines()
    return result.verdict()


@full_only
@pytest.mark.slow
@pytest.mark.parametrize("mutant", TEETH, ids=lambda m: m.name)
def test_each_fault_is_caught_for_every_player_count(mutant: Mutant) -> None:
    """The property named first fails at every N with a confirmed counterexample; a seeded
    game of every N reaches a state that refuses the offer under the fault and offers it
    without; its path replays in the engine, which offers there what the model refused."""
    cfg = default_config()
    prop = property_by_id(mutant.caught_by[0])
    (proof,) = prove(cfg, [prop], mutant.patch)
    for verdict in proof.per_n:
        cex = verdict.counterexample
        assert verdict.verdict == VIOLATED and cex is not None and cex.confirmed, verdict.n
        assert cex.refused is not None
    faulty = ExecutableSpec(cfg.ruleset, config=cfg, patch=mutant.patch)
    right = ExecutableSpec(cfg.ruleset, config=cfg)
    for n in range(2, 9):
        found = find_reachable(
            cfg, mutant.patch, [prop], steps=PER_N_STEPS, table=_table(mutant, n)
        )
        assert found is not None and found.players == n and found.property_id == prop.id, n
        end = found.path[-1].after if found.path else found.start
        assert end is not None
        assert enabled.refused_at(faulty, prop, end) is not None
        assert enabled.refused_at(right, prop, end) is None
        replayed = _replayed(cfg, mutant, found)
        assert "the engine asks" in replayed and prop.id in replayed


def test_verify_saves_a_replayable_path_for_a_refused_choice() -> None:
    """A run whose enabledness proof fails adds, for that N, the path a seeded game finds
    (a violation of the run, written and replayed like a bounded path)."""
    cfg = default_config(3, 3)
    fault = next(m for m in TEETH if m.name == "no_shot_at_the_next_seat")
    report = verify(cfg, depth=0, vacuity=False, only=["A1"], patch=fault.patch, jobs=1)
    assert any("A1 N=3: violated on a path of depth" in f.what for f in report.findings())
    (violation,) = report.violations
    spec = ExecutableSpec(cfg.ruleset, config=cfg, patch=fault.patch)
    end = violation.witness.end
    assert enabled.refused_at(spec, property_by_id("A1"), end) is not None
    doc = to_document(spec, violation, "")
    result = replay(load_document(json.loads(json.dumps(doc))))
    assert result.followed
    # the engine follows the path to where the model refused a choice: the model's bug, so
    # replay exits 1 like any path that blames the model (a stranger found it exiting 0)
    assert not result.spec_at_fault
    assert result.to_dict()["spec_at_fault"] is False  # what --json says, as the exit status


@pytest.mark.slow
def test_the_strangers_shot_at_oneself_is_caught() -> None:
    """The stranger's model that refuses a shot at oneself (S4.2.1a; R19), which every step
    property passed, fails A1 at every N and a seeded game reaches it."""
    patch = patch_of("no_shot_at_oneself")
    assert row("no_shot_at_oneself").batch == "stranger-1"
    prop = property_by_id("A1")
    (proof,) = prove(default_config(), [prop], patch)
    assert all(v.verdict == VIOLATED for v in proof.per_n)
    cex = proof.per_n[0].counterexample
    assert cex is not None and cex.refused is not None
    assert cex.refused.target == cex.after.owner
    found = find_reachable(default_config(), patch, [prop])
    assert found is not None and found.property_id == "A1"


@pytest.mark.slow
@pytest.mark.parametrize(
    ("fault", "pid", "words"),
    [
        ("pills_only_for_oneself", "A2", "item expired_pills"),
        ("flip_needs_two_kinds", "A5", "pay 2 "),
    ],
)
def test_a_refused_decision_is_named_in_words(fault: str, pid: str, words: str) -> None:
    """The counterexample's note names the refused item and payment by kind (a stranger read
    "item 5" and "pay [0, 0, 0, 0, 0, 2, 0, 0]")."""
    patch = next(m for m in MUTANTS if m.name == fault).patch
    (proof,) = prove(default_config(2, 3), [property_by_id(pid)], patch=patch)
    notes = [v.counterexample.note for v in proof.per_n if v.counterexample is not None]
    assert notes and all(words in note and "refused: " in note for note in notes), notes
