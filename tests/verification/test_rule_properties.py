"""The rule properties (verification/proofs/rules_*.py): stated apart from the model, each with
teeth.

Every rule property is named first by at least one deliberate bug of tests/faults; under
that bug its proof fails for every player count with a counterexample the executable spec
confirms, and a seeded random game reaches the bug at every player count (a replayable path
from an initial state). The suite proves each fault's property at one count
(tests/verification/test_verification_proofs.py); the every-count claim runs with
``BUCKSHOT_FAULTS_FULL=1`` (tests/faults/full.py). The properties read the state only through
the rule text's readers: no model guard, action or helper.
"""

from __future__ import annotations

import ast
import inspect
import pickle
from types import ModuleType

import pytest
from faults.full import full_only
from faults.mutants import MUTANTS, Mutant
from model_helpers import default_config

from buckshot.verification.proofs import (
    invariants,
    lemmas,
    properties,
    rules_chance,
    rules_counters,
    rules_enabled,
    rules_items,
    rules_pauses,
    rules_roles,
    rules_turn,
)
from buckshot.verification.proofs.induction import (
    RULES,
    VIOLATED,
    all_properties,
    property_by_id,
    prove,
)
from buckshot.verification.proofs.reach import Table, find_reachable

MODULES = (
    rules_turn,
    rules_counters,
    rules_items,
    rules_roles,
    rules_pauses,
    rules_chance,
)

READABLE = {"b", "rules", "cfg", "layout"}
"""What a rule property may read of the model: the backend's operations, the ruleset's
numbers, the configuration's bounds and the charts' codes."""
RERUN = {"step", "transitions"}
"""What the chance properties may also call: the step under test, run a second time."""

PER_N_STEPS = 30_000
"""Steps of random play given to each player count's walk (more than a mutant run's
:data:`~buckshot.verification.proofs.reach.WALK_STEPS`: some bugs show only late in long
games, such as a game's end at eight players)."""

TEETH = [mutant for mutant in MUTANTS if mutant.caught_by[0] in {p.id for p in RULES}]
"""The faults named first for a rule property."""


def test_the_rule_properties_are_proved_with_the_others() -> None:
    ids = [p.id for p in all_properties()]
    assert len(ids) == len(set(ids))
    assert {p.id for p in RULES} <= set(ids)
    assert all(p.clauses and p.step is not None for p in RULES)


def _model_reads(tree: ast.AST) -> set[str]:
    """The attributes read of a name ``m`` (the model) in a module's code."""
    return {
        node.attr
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id == "m"
    }


MODEL_PREDICATES = {"top_in", "game_over_condition", "over_cap", "conversion_pending"}
"""The predicates of properties.py that read model helpers (its docstring says which and
why); the rest of it, the rule readers and the items' facts, may not."""


@pytest.mark.parametrize("module", [*MODULES, properties], ids=lambda m: m.__name__)
def test_rule_properties_read_no_guard_action_or_helper(module: ModuleType) -> None:
    """A property that reused the code it checks could not catch a bug in it."""
    allowed = READABLE | (RERUN if module is rules_chance else set())
    tree = ast.parse(inspect.getsource(module))
    tree.body = [
        node
        for node in tree.body
        if not (isinstance(node, ast.FunctionDef) and node.name in MODEL_PREDICATES)
    ]
    reads = _model_reads(tree)
    assert reads <= allowed, reads - allowed


RULEBOOK_NAMES = {"ITEMS", "ItemSpec", "item_spec", "Target"}
RULEBOOK_NAMES |= {"RESCUE_CODES", "SHELL_CODES", "TARGET_OF"}
"""The rulebook's item table, and the model's readings of it (layout's codes)."""
ITEM_FLAGS = {"needs_shell", "rescue", "target"}
"""The fields of an item's entry (``target`` but the decision's own, ``inp.target``)."""


@pytest.mark.parametrize(
    "module",
    [*MODULES, rules_enabled, invariants, lemmas, properties],
    ids=lambda m: m.__name__,
)
def test_properties_state_the_item_facts_themselves(module: ModuleType) -> None:
    """No property reads the rulebook's item table (need of a shell, target rule, rescue)
    for the fact it asserts: the model and the engine read that table, so a misreading there
    would move the property with them (issue 33). The facts are written from the rule text
    in properties.py (CHAMBER_ITEMS, RESCUE_ITEMS, TARGETED_ANY, TARGETED_OTHER)."""
    found = []
    for node in ast.walk(ast.parse(inspect.getsource(module))):
        if isinstance(node, ast.Name | ast.alias):
            name = node.id if isinstance(node, ast.Name) else node.name
            if name in RULEBOOK_NAMES:
                found.append(name)
        elif isinstance(node, ast.Attribute) and node.attr in ITEM_FLAGS:
            owner = node.value
            if not (isinstance(owner, ast.Name) and owner.id in ("inp", "chosen", "decision")):
                found.append(f"line {node.lineno}: .{node.attr}")
    assert not found, found


CHART_NAMES = {"chart_model", "chart_models", "ChartModel", "StateKind", "PHASES", "Phase"}
"""The charts as data, and the rulebook's list of the turn's phases."""
CHART_STRUCTURE = {"parent", "entry", "states", "pushes", "initial", "resume_event"}
CHART_STRUCTURE |= {"push_frame", "is_resume", "leaving", "resumes", "final_codes"}
CHART_STRUCTURE |= {"suspended_states", "decision_states", "final_states"}
"""What the charts say of their states and transitions: where an edge goes, which state
belongs to which phase, which waits for which frame. Naming a transition to see whether it
fired (``fired``, ``fired_action``, an edge's source, event or trigger) stays allowed."""


@pytest.mark.parametrize(
    "module",
    [*MODULES, rules_enabled, invariants, properties],
    ids=lambda m: m.__name__,
)
def test_properties_state_the_chart_facts_themselves(module: ModuleType) -> None:
    """No property reads the charts' structure for the fact it asserts (which phase a state
    is in, T3; which frame a state waits for and where a pop resumes, I2): the model and the
    engine run those charts, so an edit there would move the property with them (issue 33).
    The facts are written from the rule text (properties.TURN_PHASES, invariants.PAUSES).
    The lemmas are left out: they state the model's well-formedness (each slot holds a state
    of its frame's chart), not a rule."""
    found = []
    for node in ast.walk(ast.parse(inspect.getsource(module))):
        if isinstance(node, ast.Name | ast.alias):
            name = node.id if isinstance(node, ast.Name) else node.name
            if name in CHART_NAMES:
                found.append(f"line {getattr(node, 'lineno', '?')}: {name}")
        elif isinstance(node, ast.Attribute) and node.attr in CHART_STRUCTURE:
            found.append(f"line {node.lineno}: .{node.attr}")
    assert not found, found


def test_the_rule_readers_read_no_guard_action_or_helper() -> None:
    source = ast.parse(inspect.getsource(properties))
    readers = [
        node
        for node in source.body
        if isinstance(node, ast.FunctionDef)
        and (node.name.startswith("rule_") or node.name == "fired_event")
    ]
    assert len(readers) >= 10
    for reader in readers:
        assert _model_reads(reader) <= READABLE, reader.name


def test_every_rule_property_is_named_first_by_a_fault() -> None:
    named = {mutant.caught_by[0] for mutant in TEETH}
    assert {p.id for p in RULES} - named == set()


@pytest.mark.parametrize("mutant", MUTANTS, ids=lambda m: m.name)
def test_every_fault_travels_to_a_worker_process(mutant: Mutant) -> None:
    """``benchmarks/faults.py`` sends each fault's patch to a worker: it must pickle."""
    assert pickle.loads(pickle.dumps(mutant.patch)) == mutant.patch


def _table(mutant: Mutant, n: int) -> Table:
    """Where the walk for ``n`` players looks: the fault's role and preferences, if any."""
    if mutant.table is None:
        return Table(n)
    return Table(n, mutant.table.role, mutant.table.prefer)


@full_only
@pytest.mark.slow
@pytest.mark.parametrize("mutant", TEETH, ids=lambda m: m.name)
def test_each_rule_fault_is_caught_for_every_player_count(mutant: Mutant) -> None:
    """The property named first fails for every N with a confirmed counterexample, and a
    seeded game of every N reaches the bug (a path from an initial state that breaks it);
    every N at which the bug can show, for a fault that names those counts."""
    cfg = default_config()
    prop = property_by_id(mutant.caught_by[0])
    lo, hi = mutant.counts or (cfg.players_lo, cfg.players_hi)
    (proof,) = prove(cfg, [prop], mutant.patch)
    for verdict in proof.per_n:
        if not lo <= verdict.n <= hi:
            continue  # the bug cannot show at this count (a death ends a game of two)
        cex = verdict.counterexample
        assert verdict.verdict == VIOLATED and cex is not None and cex.confirmed, verdict.n
    for n in range(lo, hi + 1):
        found = find_reachable(
            cfg, mutant.patch, [prop], steps=PER_N_STEPS, table=_table(mutant, n)
        )
        assert found is not None and found.players == n, n
        assert found.property_id == prop.id
