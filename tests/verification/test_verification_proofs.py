"""The Z3 side of the verification: inductive proofs, BMC with witness re-check, vacuity, teeth."""

from __future__ import annotations

import random
from typing import Any

import pytest
from faults.manifest import Row, patch_of, select
from faults.mutants import ci_checks, run_ci_check
from model_helpers import default_config

from buckshot.spec.ruleset import load_ruleset
from buckshot.verification.model.branches import branch
from buckshot.verification.model.executable import Concrete, ExecutableSpec
from buckshot.verification.model.layout import layout
from buckshot.verification.proofs.bmc import Unrolling, bounded_per_n
from buckshot.verification.proofs.induction import (
    PROVED,
    VIOLATED,
    all_properties,
    merge_chunks,
    proof_model,
    prove,
    prove_property,
)
from buckshot.verification.proofs.invariants import INVARIANTS
from buckshot.verification.proofs.properties import Property
from buckshot.verification.proofs.vacuity import (
    NOT_SHOWN,
    REACHED_BMC,
    VacuityTarget,
    _search_bounded,
    check_vacuity,
    targets,
)
from buckshot.verification.render import trace


def _holds(spec: ExecutableSpec, s: Concrete) -> list[str]:
    return [p.id for p in all_properties() if p.state is not None and not p.state(spec.sem, s)]


def test_initial_states_satisfy_every_state_property() -> None:
    """Init => P, on the executable spec, for every N."""
    spec = ExecutableSpec(load_ruleset())
    for n in range(2, 9):
        assert _holds(spec, spec.initial(n, [n % 6] * n)) == [], n


@pytest.mark.slow
def test_random_games_keep_every_property() -> None:
    """Every state and step of seeded random games satisfies every invariant and lemma."""
    spec = ExecutableSpec(load_ruleset())
    rng = random.Random(3)
    for n in (2, 4):
        for step in spec.random_game(n, rng, max_steps=600):
            assert _holds(spec, step.after) == [], step.edge.edge.id
            res = spec.result(step.before, step.input)
            for prop in all_properties():
                if prop.step is not None:
                    assert prop.step(spec.sem, step.before, step.input, res), prop.id


@pytest.mark.parametrize("pid", ["I1", "I2", "I4", "I6", "I9"])
@pytest.mark.slow
def test_structural_invariants_are_inductive_for_every_n(pid: str) -> None:
    """A sample of the inductive proofs, all N in one query each."""
    (result,) = prove(default_config(), [p for p in all_properties() if p.id == pid])
    assert result.verdict == PROVED and result.players == "N=2..8"


@pytest.mark.slow
def test_a_broken_invariant_gives_a_confirmed_counterexample() -> None:
    """A failing step names the property and the spec re-checks the state it returns (at
    one player count: the verdict of each count on its own is the next tests' concern)."""
    (result,) = prove(
        default_config(2, 2),
        [p for p in all_properties() if p.id == "I3"],
        patch_of("cap_off_by_one"),
    )
    assert result.verdict == VIOLATED
    assert result.counterexample is not None and result.counterexample.confirmed


@pytest.mark.slow
def test_bmc_small_depth_finds_nothing_on_the_rules() -> None:
    found = bounded_per_n(default_config(2, 3), INVARIANTS, 4)
    violations, times, status = found.violations, found.times, found.status
    assert status == "ok" and violations == [] and len(times) == 5


@pytest.mark.slow
def test_bmc_finds_a_seeded_bug_with_a_replayed_trace() -> None:
    """The shooter asked first (S6.2.1) breaks I4 as soon as the first window opens."""
    cfg, patch = default_config(2, 3), patch_of("poll_owner_first")
    found = bounded_per_n(cfg, INVARIANTS, 6, patch)
    violations, status = found.violations, found.status
    assert status == "violated"
    assert "I4" in {v.property_id for v in violations}
    witness = violations[0].witness
    assert witness.replayed, witness.note
    text = trace(list(witness.steps), witness.start)
    assert "shoot" in text and "shot_window:polling" in text


@pytest.mark.slow
def test_bmc_witnesses_replay_on_the_executable_spec() -> None:
    """A path Z3 returns for a reachability goal is taken step by step by the spec."""
    unroll = Unrolling(default_config())
    for _ in range(5):
        unroll.extend()
    shoot = next(e for e in unroll.spec.layout.edges if e.edge.event == "shoot")
    assert unroll.check(unroll.results[3].fired[shoot.code]) == "sat"
    witness = unroll.witness()
    assert witness.replayed, witness.note
    assert witness.steps[3].edge.edge.event == "shoot"


def test_vacuity_targets_cover_every_transition_frame_and_depth() -> None:
    names = {t.name for t in targets(default_config())}
    assert "turn:awaiting_action:shoot:0" in names and "counter_response" in names
    assert {"depth 1", "depth 4"} <= names


@pytest.mark.slow
def test_vacuity_shows_every_target_but_the_counter_response_reachable() -> None:
    """No role has a counter skill (R18), so the counter-response frame is never pushed and
    the stack never grows past the turn and one frame above it with a pending fall (depths
    3-4); everything else the charts hold is reached by a checked path."""
    found, _ = check_vacuity(default_config(2, 3), depth=6)
    assert all(t.status != NOT_SHOWN for t in found), [t for t in found if t.status == NOT_SHOWN]
    unreached = {t.name for t in found if not t.status.startswith("reachable")}
    lay = layout()
    counter = {t.name for t in found if "counter" in t.name} | {
        e.edge.id
        for e in lay.edges
        if any(g.name == "counter_possible" and g.expected for g in e.edge.guards)
    }
    assert unreached == counter | {"depth 3", "depth 4"}


@pytest.mark.slow
def test_the_bounded_search_reaches_what_the_games_left_open() -> None:
    cfg = default_config(2, 3)
    items = {t.name: t for t in targets(cfg)}
    wanted = {"depth 2", "turn:awaiting_action:shoot:0"}
    for target in items.values():
        if target.name not in wanted:
            target.status = "shown elsewhere"
    reached: dict[str, int] = {}

    def record(found: dict[str, int], status: str, note: str = "") -> None:
        for name, at in found.items():
            target = items.get(name)
            if target is not None and target.status == NOT_SHOWN:
                target.status, target.steps = status, at
                reached[name] = at

    _search_bounded(cfg, ExecutableSpec(cfg.ruleset, config=cfg), items, 6, record)
    assert set(reached) == wanted
    assert all(items[name].status == REACHED_BMC for name in wanted)


@pytest.mark.parametrize("fault", select("model", "chart", batch=None), ids=lambda r: r.name)
@pytest.mark.slow  # about 0.2 s of CPU a row, 130 rows: the checks' check runs in CI
def test_every_model_fault_fails_the_proof_its_row_names(fault: Row) -> None:
    """Every model and chart row of the fault manifest, the stranger batches' too: with its
    patch, the property of its ``caught_by`` that its check names (tests/faults/ci.json) fails
    at one player count, in the piece of its proof the check names (the base case or one
    branch of the step), with a counterexample the executable spec confirms. The full
    judgement (each property at every count, and a seeded walk for evidence) is
    ``python benchmarks/faults.py``'s."""
    check = ci_checks()[fault.name]
    lo, hi = fault.counts or (2, 8)
    assert check.property in fault.caught_by and lo <= check.players <= hi
    proof = run_ci_check(fault.name)
    cex = proof.counterexample
    assert proof.verdict == VIOLATED and cex is not None and cex.confirmed, proof
    assert [v.n for v in proof.per_n if v.verdict == VIOLATED] == [check.players]


def _only_for(bad: set[int], part: str) -> Property:
    """A made-up property that fails exactly for the player counts ``bad``: in the initial
    states (``part == "base"``) or on every step (``part == "step"``)."""

    def outside(m: Any, s: Any) -> Any:
        return m.b.and_(*(m.b.ne(s.n, m.b.num(n)) for n in sorted(bad)))

    if part == "base":
        return Property("X", (), "n is not one of the bad counts", state=outside)
    return Property(
        "X", (), "no step ends in a bad count", step=lambda m, s, inp, r: outside(m, r.next)
    )


@pytest.mark.parametrize("part", ["base", "step"])
@pytest.mark.slow
def test_each_player_count_gets_its_own_verdict(part: str) -> None:
    """One query for all N; each counterexample's N is excluded and the query asked again."""
    prop = _only_for({3, 5}, part)
    (result,) = prove(default_config(2, 6), [prop], assume=(*all_properties(), prop))
    assert result.verdict == VIOLATED and result.part == part
    verdicts = {v.n: v.verdict for v in result.per_n}
    assert verdicts == {2: PROVED, 3: VIOLATED, 4: PROVED, 5: VIOLATED, 6: PROVED}
    assert result.queries == (2 if part == "base" else 1) + 2
    for verdict in result.per_n:
        if verdict.verdict == VIOLATED:
            cex = verdict.counterexample
            assert cex is not None and cex.confirmed and verdict.part == part
            state = cex.after if part == "base" else cex.before
            assert state is not None and state.n == verdict.n
    # the proved counts share the final (unsatisfiable) queries, so they share its time
    assert len({v.seconds for v in result.per_n if v.verdict == PROVED}) == 1


@pytest.mark.slow
def test_chunks_of_branches_merge_to_the_whole_proof() -> None:
    """A property proved in chunks of its branches (one per process) gets the same verdicts."""
    prop = _only_for({2, 4}, "step")
    assume = (*all_properties(), prop)
    model = proof_model(default_config(2, 5), assume=assume)
    whole = prove_property(model, prop)
    parts = [prove_property(model, prop, chunk=(i, 3)) for i in range(3)]
    merged = merge_chunks(parts)
    assert merged.verdict == whole.verdict == VIOLATED
    assert [(v.n, v.verdict) for v in merged.per_n] == [(v.n, v.verdict) for v in whole.per_n]
    assert [v.verdict for v in whole.per_n] == [VIOLATED, PROVED, VIOLATED, PROVED]


@pytest.mark.slow
def test_bmc_gives_each_player_count_its_verdict() -> None:
    """After a violation the unrolling excludes its N and goes on for the others."""
    result = bounded_per_n(default_config(2, 3), INVARIANTS, 6, patch_of("poll_owner_first"))
    assert result.status == "violated"
    assert {v.n for v in result.per_n} == {2, 3}
    for verdict in result.per_n:
        assert verdict.status == "violated"
        found = [v for v in result.violations if v.n == verdict.n]
        assert found and all(v.depth == verdict.depth and v.witness.replayed for v in found)
    clean = bounded_per_n(default_config(2, 3), INVARIANTS, 2)
    assert [(v.n, v.status, v.depth) for v in clean.per_n] == [(2, "ok", 2), (3, "ok", 2)]


@pytest.mark.slow
def test_branch_tree_covers_each_branch_once() -> None:
    """The tree's leaves are the branches of the split, each once; its top is smaller."""
    model = proof_model(default_config())
    leaves = [leaf for node in model.tree for leaf in node.leaves()]
    assert sorted(id(leaf) for leaf in leaves) == sorted(id(case) for case in model.cases)
    assert len(model.tree) < len(model.cases) // 2


@pytest.mark.slow
def test_a_branch_built_alone_is_that_branch_of_the_split() -> None:
    """The CI checks of ci.json prove one branch of the step, built alone (:func:`branch`):
    each branch so built has the very terms of its branch in the whole split."""
    from buckshot.verification.model.state import flatten

    model = proof_model(default_config())

    def terms(case: Any) -> list[Any]:
        res = case.result
        fields = [res.ok, res.popped, res.skill_by, res.asked, *res.fired, *res.shown]
        return [case.cond, *fields, *flatten(model.cfg, res.next)]

    for case in model.cases:
        alone = branch(model.sem, model.s, model.inp, case.name)
        assert alone.name == case.name, case.name
        pairs = zip(terms(alone), terms(case), strict=True)
        assert all(a.eq(c) for a, c in pairs), case.name


@pytest.mark.slow
def test_sums_after_a_step_equal_the_plain_sums() -> None:
    """A sum written as a change to the sum before the step (Z3Backend.sum_) has the plain
    sum's value, on random states and inputs, for branches of every shape of change."""
    import z3

    from buckshot.verification.model.state import flatten
    from buckshot.verification.proofs.properties import items_in_play

    model = proof_model(default_config())
    cfg, sem = model.cfg, model.sem
    vars_ = flatten(cfg, model.s) + flatten(cfg, model.inp)
    names = ("use_item:0[item=6,owner=2,steal=5]", "use_item:0[item=1]", "flip_shell", "draw")
    chosen = [case for case in model.cases if any(name in case.name for name in names)]
    rng = random.Random(5)
    for case in chosen:
        rows = case.result.next.items
        written = [items_in_play(sem, case.result.next), *(sem.b.sum_(row) for row in rows)]
        plain = [sum(cell for row in rows for cell in row), *(sum(row) for row in rows)]
        # every sum equal to its plain sum, one substitution a sample (each reads every pair)
        same = z3.And(*(a == c for a, c in zip(written, plain, strict=True)))
        for _ in range(20):
            values = [
                z3.BoolVal(rng.random() < 0.5)
                if z3.is_bool(v)
                else z3.BitVecVal(rng.randrange(1 << cfg.width), cfg.width)
                for v in vars_
            ]
            pairs = list(zip(vars_, values, strict=True))
            assert z3.is_true(z3.simplify(z3.substitute(same, *pairs))), case.name


@pytest.mark.slow
def test_the_branches_of_the_proofs_are_the_step_of_bmc() -> None:
    """The induction splits the step into branches (some fixed by lemmas, such as the dying
    frame in slot 1 by L4) while bounded model checking unrolls the step itself. In every
    state satisfying the proofs' assumptions they are the same relation: a legal step takes
    some branch, a branch is a legal step, and a branch's result is the step's, field by
    field. That is what lets a run skip BMC of invariants the proofs proved
    (``run.bmc_scope``): a path BMC could find is made of steps the proofs covered."""
    import dataclasses

    import z3

    from buckshot.verification.model.state import flatten

    model = proof_model(default_config())
    cfg = model.cfg
    step = model.sem.step(model.s, model.inp)

    def scalars(result: object) -> list[object]:
        out: list[object] = []
        for field in dataclasses.fields(result):  # type: ignore[arg-type]
            value = getattr(result, field.name)
            if field.name == "next":
                out += flatten(cfg, value)
            elif isinstance(value, tuple):
                out += list(value)
            else:
                out.append(value)
        return out

    some_branch = z3.Or(*(case.cond for case in model.cases))
    taken = scalars(step)
    differs = z3.Or(
        *(
            z3.And(case.cond, z3.Or(*(a != b for a, b in zip(taken, mine, strict=True))))
            for case in model.cases
            for mine in [scalars(case.result)]
        )
    )
    for name, claim in (
        ("a legal step outside every branch", z3.And(step.ok, z3.Not(some_branch))),
        ("a branch that is no legal step", z3.And(some_branch, z3.Not(step.ok))),
        ("a branch whose result is not the step's", differs),
    ):
        solver = z3.SolverFor("QF_BV")
        solver.set("rlimit", 2_000_000_000)
        solver.add(*model.facts, claim)
        assert solver.check() == z3.unsat, name


def test_a_vacuity_target_says_its_kind_once() -> None:
    """verify printed "depth depth 3: unreachable" (a stranger's report): a target whose name
    already starts with its kind is shown by its name."""
    assert VacuityTarget("depth 3", "depth").label == "depth 3"
    assert VacuityTarget("win:traitor", "win").label == "win:traitor"
    assert VacuityTarget("turn:awaiting_action:shoot:0", "transition").label == (
        "transition turn:awaiting_action:shoot:0"
    )
