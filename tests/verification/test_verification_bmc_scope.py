"""Which invariants a run searches by bounded model checking: those the proofs left open.

An invariant proved by induction (base and step, every count, nothing assumed) holds in every
reachable state, so no bounded path can break it; the run then skips the search and says so.
These tests run the real scheduler in this process with a stand-in worker that answers
every task at once, so they check the scheduling, not the solver.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

import pytest

from buckshot.spec.ruleset import load_ruleset
from buckshot.verdict import Verdict
from buckshot.verification import parallel, run
from buckshot.verification.model.config import make_config
from buckshot.verification.parallel import BMC, PROOF, Done, Task, execute
from buckshot.verification.proofs.bmc import NOT_NEEDED, BmcPerN, BmcResult
from buckshot.verification.proofs.crosscheck import CrossCheck
from buckshot.verification.proofs.induction import (
    PROVED,
    VIOLATED,
    PerN,
    ProofResult,
    all_properties,
)
from buckshot.verification.proofs.invariants import INVARIANTS
from buckshot.verification.report import Report

CFG = make_config(load_ruleset(), (2, 3))
BOUNDED = [p.id for p in INVARIANTS if not p.per_branch]
"""The invariants bounded model checking can search (I10, a ranking, is not one)."""


def _proof(pid: str, broken: frozenset[int] = frozenset()) -> ProofResult:
    """A proof of ``pid`` violated for the counts ``broken`` and proved for the others."""
    per_n = tuple(PerN(n, VIOLATED if n in broken else PROVED, 0.0, "step") for n in (2, 3))
    return ProofResult(pid, "N=2..3", VIOLATED if broken else PROVED, 0.0, "step", None, per_n)


DISAGREEMENT = CrossCheck("unsat", "sat", 0.0, 0.0, 0, False, "Z3 unsat, cvc5 sat")


def _stand_in(
    broken: dict[str, frozenset[int]], disagreed: frozenset[str], asked: list[Task]
) -> Callable[[Task], Done]:
    """A worker that proves every property but those of ``broken`` (violated for those
    counts), whose cvc5 re-check disagrees on those of ``disagreed``, and finds nothing by
    BMC, recording every task in the order it was started."""

    def run_task(task: Task) -> Done:
        asked.append(task)
        if task.kind == BMC:
            per_n = tuple(BmcPerN(n, "ok", task.depth, 0.0) for n in (2, 3))
            return Done(task, BmcResult([], [], "ok", per_n), 0.0, 0.0)
        assert task.kind == PROOF
        checks = (DISAGREEMENT,) if task.prop in disagreed else ()
        result = _proof(task.prop, broken.get(task.prop, frozenset()))
        return Done(task, result, 0.0, 0.0, checks)

    return run_task


def _run(
    monkeypatch: pytest.MonkeyPatch,
    broken: dict[str, frozenset[int]] | None = None,
    only: Sequence[str] | None = None,
    bmc_all: bool = False,
    disagreed: frozenset[str] = frozenset(),
    depth: int = 5,
) -> tuple[Report, list[Task]]:
    """One run with one job, in this process (``parallel.execute``), its worker stood in."""
    asked: list[Task] = []
    monkeypatch.setattr(parallel, "run_task", _stand_in(broken or {}, disagreed, asked))
    report = run.verify(
        CFG, depth=depth, vacuity=False, only=only, jobs=1, bmc_all=bmc_all, cross_check=True
    )
    return report, asked


def _searched(asked: list[Task]) -> list[tuple[str, ...]]:
    return [t.props for t in asked if t.kind == BMC]


def test_every_property_proved_needs_no_search(monkeypatch: pytest.MonkeyPatch) -> None:
    report, asked = _run(monkeypatch)
    assert _searched(asked) == []
    assert report.bmc_status == NOT_NEEDED and report.verdict is Verdict.PASSED
    assert report.bmc_depth == 0 and report.bmc_checked == []


def test_an_invariant_left_open_is_searched_after_the_proofs(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """I4 has a state part, which every proof assumes; violated only for N=3 (the first count is
    proved), it leaves every invariant open."""
    report, asked = _run(monkeypatch, broken={"I4": frozenset({3})})
    assert _searched(asked) == [tuple(BOUNDED)] and asked[-1].kind == BMC
    assert asked[-1].depth == 5, "the search starts only when every proof is known"
    assert (
        report.bmc_checked == BOUNDED and report.bmc_depth == 5 and report.verdict is Verdict.FAILED
    )


def test_a_broken_lemma_opens_every_invariant(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every proof assumes L3's state part: an unproved L3 leaves each invariant's proof
    resting on it, so BMC searches them all."""
    report, asked = _run(monkeypatch, broken={"L3": frozenset({2, 3})})
    assert _searched(asked) == [tuple(BOUNDED)] and asked[-1].kind == BMC
    assert report.bmc_status == "ok" and report.verdict is Verdict.FAILED


def test_a_property_nothing_assumes_opens_nothing_else(monkeypatch: pytest.MonkeyPatch) -> None:
    """P1 (progress) and I10 (a ranking) are steps only, assumed by no proof; the invariants
    BMC searches were proved, so their search is not needed. The run fails on P1."""
    report, asked = _run(monkeypatch, broken={"P1": frozenset({2})})
    assert _searched(asked) == []
    assert report.bmc_status == NOT_NEEDED and report.verdict is Verdict.FAILED


def test_a_solver_disagreement_leaves_the_invariants_open(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    report, asked = _run(monkeypatch, disagreed=frozenset({"I5"}))
    assert _searched(asked) == [tuple(BOUNDED)]
    assert report.verdict is Verdict.FAILED


def test_proofs_that_rest_on_unproved_assumptions_search_from_the_start(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    report, asked = _run(monkeypatch, only=["I1", "I3", "I10"])
    assert report.assumed, "with --only the proofs assume properties this run did not prove"
    assert asked[0].kind == BMC and _searched(asked) == [("I1", "I3")]
    assert report.bmc_status == "ok"


def test_bmc_all_searches_every_invariant_from_the_start(monkeypatch: pytest.MonkeyPatch) -> None:
    report, asked = _run(monkeypatch, bmc_all=True)
    assert asked[0].kind == BMC and _searched(asked) == [tuple(BOUNDED)]
    assert report.bmc_checked == BOUNDED and report.bmc_status == "ok"


def test_depth_zero_searches_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    for bmc_all in (False, True):
        report, asked = _run(monkeypatch, broken={"I4": frozenset({2})}, depth=0, bmc_all=bmc_all)
        assert _searched(asked) == [] and report.bmc_status == "skipped"


def test_bmc_scope_reads_the_verdicts() -> None:
    props = [p for p in all_properties() if p.id in ("I1", "I2", "I10")]
    checked = [p for p in props if p.id != "I10"]
    proofs = {pid: _proof(pid) for pid in ("I1", "I2", "I10")}
    assert run.bmc_scope(props, checked, proofs, []) == []
    assert run.bmc_scope(props, checked, proofs, ["L1"]) == ["I1", "I2"]
    proofs["I10"] = _proof("I10", frozenset({2}))
    assert run.bmc_scope(props, checked, proofs, []) == []
    proofs["I2"] = replace(_proof("I2"), verdict="unknown")
    assert run.bmc_scope(props, checked, proofs, []) == ["I1", "I2"]


@pytest.mark.parametrize("jobs", [1, 2])
@pytest.mark.slow
def test_execute_runs_the_tasks_a_finished_task_asks_for(jobs: int) -> None:
    """In this process (one job) and in the worker pool: a follow-up task runs, once."""
    cfg = make_config(load_ruleset(), (2, 2))
    first = Task(PROOF, cfg, prop="I6")
    finished: list[Task] = []

    def on_done(item: Done) -> list[Task]:
        finished.append(item.task)
        if item.task.kind == PROOF:
            return [Task(BMC, cfg, depth=1, props=("I6",))]
        return []

    execute([first], jobs, on_done, isolate=jobs > 1)
    assert [t.kind for t in finished] == [PROOF, BMC]
