"""Which invariants a run searches by bounded model checking: those the proofs left open.

An invariant proved by induction (base and step, every count, nothing assumed) holds in every
reachable state, so no bounded path can break it; the run then skips the search and says so.
These tests replace the worker pool with a stand-in that answers every task at once, so they
check the scheduling, not the solver.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pytest

from buckshot.spec.ruleset import load_ruleset
from buckshot.verification import run
from buckshot.verification.model.config import make_config
from buckshot.verification.parallel import BMC, PROOF, Done, Task
from buckshot.verification.proofs.bmc import NOT_NEEDED, BmcPerN, BmcResult
from buckshot.verification.proofs.induction import PROVED, VIOLATED, PerN, ProofResult
from buckshot.verification.proofs.invariants import INVARIANTS
from buckshot.verification.report import Report

CFG = make_config(load_ruleset(), (2, 3))
BOUNDED = [p.id for p in INVARIANTS if not p.per_branch]
"""The invariants bounded model checking can search (I10, a ranking, is not one)."""


def _proof(pid: str, verdict: str) -> ProofResult:
    per_n = tuple(PerN(n, verdict, 0.0, "step") for n in (2, 3))
    return ProofResult(pid, "N=2..3", verdict, 0.0, "step", None, per_n)


def _fake_pool(
    broken: frozenset[str], asked: list[Task]
) -> Callable[[Sequence[Task], int, Callable[[Done], Sequence[Task] | None], bool], None]:
    """A pool that proves every property but ``broken`` and finds nothing by BMC, recording
    every task in the order it was started."""

    def execute(
        tasks: Sequence[Task],
        jobs: int,
        on_done: Callable[[Done], Sequence[Task] | None],
        isolate: bool = False,
    ) -> None:
        queue = list(tasks)
        while queue:
            task = queue.pop(0)
            asked.append(task)
            result: object
            if task.kind == PROOF:
                result = _proof(task.prop, VIOLATED if task.prop in broken else PROVED)
            else:
                assert task.kind == BMC
                per_n = tuple(BmcPerN(n, "ok", task.depth, 0.0) for n in (2, 3))
                result = BmcResult([], [], "ok", per_n)
            queue.extend(on_done(Done(task, result, 0.0, 0.0)) or ())

    return execute


def _run(
    monkeypatch: pytest.MonkeyPatch,
    broken: frozenset[str] = frozenset(),
    only: Sequence[str] | None = None,
    bmc_all: bool = False,
) -> tuple[Report, list[Task]]:
    asked: list[Task] = []
    monkeypatch.setattr(run, "execute", _fake_pool(broken, asked))
    report = run.verify(CFG, depth=5, vacuity=False, only=only, jobs=1, bmc_all=bmc_all)
    return report, asked


def test_every_invariant_proved_with_nothing_assumed_needs_no_search(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    report, asked = _run(monkeypatch)
    assert [t for t in asked if t.kind == BMC] == []
    assert report.bmc_status == NOT_NEEDED and not report.failed
    assert report.bmc_depth == 0 and report.bmc_checked == []


def test_an_invariant_left_open_is_searched_after_the_proofs(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    report, asked = _run(monkeypatch, broken=frozenset({"I4"}))
    bmc = [t for t in asked if t.kind == BMC]
    assert [t.props for t in bmc] == [("I4",)] and bmc[0].depth == 5
    assert asked[-1] is bmc[0], "the search starts only when every proof is known"
    assert report.bmc_checked == ["I4"] and report.bmc_depth == 5 and report.failed


def test_a_broken_lemma_does_not_open_a_proved_invariant(monkeypatch: pytest.MonkeyPatch) -> None:
    """L3 is no invariant BMC searches; the invariants themselves were proved. The run fails
    on the lemma's own verdict."""
    report, asked = _run(monkeypatch, broken=frozenset({"L3"}))
    assert [t for t in asked if t.kind == BMC] == []
    assert report.bmc_status == NOT_NEEDED and report.failed


def test_proofs_that_rest_on_unproved_assumptions_leave_every_invariant_open(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    report, asked = _run(monkeypatch, only=["I1", "I3", "I10"])
    assert report.assumed, "with --only the proofs assume properties this run did not prove"
    assert [t.props for t in asked if t.kind == BMC] == [("I1", "I3")]
    assert report.bmc_status == "ok"


def test_bmc_all_searches_every_invariant_from_the_start(monkeypatch: pytest.MonkeyPatch) -> None:
    report, asked = _run(monkeypatch, bmc_all=True)
    assert asked[0].kind == BMC and asked[0].props == tuple(BOUNDED)
    assert sum(t.kind == BMC for t in asked) == 1
    assert report.bmc_checked == BOUNDED and report.bmc_status == "ok"


def test_bmc_scope_reads_the_verdicts() -> None:
    checked = [p for p in INVARIANTS if p.id in ("I1", "I2")]
    proofs = {"I1": _proof("I1", PROVED), "I2": _proof("I2", "unknown")}
    assert run.bmc_scope(checked, proofs, []) == ["I2"]
    assert run.bmc_scope(checked, proofs, ["L1"]) == ["I1", "I2"]
    proofs["I2"] = _proof("I2", PROVED)
    assert run.bmc_scope(checked, proofs, []) == []
