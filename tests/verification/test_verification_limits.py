"""Proof verdicts rest on Z3's resource limit; the wall clock is only a labelled safety net."""

from __future__ import annotations

import pytest
from model_helpers import default_config

from buckshot.verification.proofs import limits
from buckshot.verification.proofs.induction import (
    PROVED,
    UNKNOWN,
    proof_model,
    property_by_id,
    prove_property,
)


def _verdicts(pid: str) -> list[tuple[int, str, str]]:
    result = prove_property(
        proof_model(default_config(2, 4)), property_by_id(pid), timeout_ms=600_000
    )
    return [(v.n, v.verdict, v.part) for v in result.per_n]


@pytest.mark.slow
def test_a_proof_is_decided_by_its_resource_budget() -> None:
    assert {verdict for _, verdict, _ in _verdicts("I6")} == {PROVED}


@pytest.mark.slow
def test_a_slow_machine_is_labelled_as_such_never_a_different_verdict(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The safety net mocked down to 1 ms (as on a machine far too slow): each count is
    either proved, as on an idle machine, or unknown with the timeout named as the reason."""
    real = limits.limited

    def slow(solver: object, budget: limits.Budget) -> object:
        return real(solver, limits.Budget(budget.rlimit, 1))

    monkeypatch.setattr(limits, "limited", slow)
    for _, verdict, part in _verdicts("I6"):
        assert verdict == PROVED or (verdict == UNKNOWN and limits.TIMEOUT in part), part


@pytest.mark.slow
def test_running_out_of_resources_is_the_same_verdict_every_time(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A budget too small to decide the query gives ``unknown (resource limit)``, and the
    same answer on a second run."""
    monkeypatch.setattr(limits, "STEPS_PER_MS", 1)
    first, second = _verdicts("I6"), _verdicts("I6")
    assert first == second
    assert all(v == UNKNOWN and limits.RESOURCE_LIMIT in part for _, v, part in first), first
