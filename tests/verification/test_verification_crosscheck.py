"""``--cross-check``: each proof query re-checked by cvc5, and a disagreement fails the run."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import z3
from typer.testing import CliRunner

from buckshot.cli.verify import app
from buckshot.verification import run
from buckshot.verification.proofs import crosscheck
from buckshot.verification.proofs.crosscheck import DISAGREED, cross_check

RUNNER = CliRunner()


def _z3(assertions: list[Any]) -> str:
    solver = z3.SolverFor("QF_BV")
    solver.add(*assertions)
    return str(solver.check())


def _sat_query() -> list[Any]:
    """x + y = 3 with x < 2 over 8 bits: x = 0, y = 3 is a model."""
    x, y = z3.BitVecs("x y", 8)
    return [x + y == 3, z3.ULT(x, 2)]


def _unsat_query() -> list[Any]:
    """2x = 1 over 8 bits: twice a number is even, modulo 256 too, so no model."""
    x = z3.BitVec("x", 8)
    return [x * 2 == 1]


def _hard_query() -> list[Any]:
    """Factor the prime 2^32 - 5 into two 16-bit factors above 1: needs real search."""
    x, y = z3.BitVecs("x y", 32)
    return [x * y == 4294967291, z3.UGT(x, 1), z3.UGT(y, 1), z3.ULT(x, 1 << 16), z3.ULT(y, 1 << 16)]


def test_cvc5_agrees_with_z3_on_a_satisfiable_query() -> None:
    query = _sat_query()
    assert _z3(query) == "sat"
    check = cross_check(query, "sat")
    assert (check.z3, check.cvc5, check.agree) == ("sat", "sat", True)
    assert not check.disagrees and check.resources > 0


def test_cvc5_agrees_with_z3_on_an_unsatisfiable_query() -> None:
    query = _unsat_query()
    assert _z3(query) == "unsat"
    check = cross_check(query, "unsat")
    assert (check.z3, check.cvc5, check.agree) == ("unsat", "unsat", True)


def test_quantified_queries_are_re_checked_too() -> None:
    """Like the progress property's query (the input under a forall): some x differs from
    every y is impossible (take y = x); some x has x & y = 0 for every y (x = 0)."""
    x, y = z3.BitVecs("x y", 8)
    impossible, possible = [z3.ForAll([y], x != y)], [z3.ForAll([y], x & y == 0)]
    assert (_z3(impossible), _z3(possible)) == ("unsat", "sat")
    assert cross_check(impossible, "unsat").cvc5 == "unsat"
    assert cross_check(possible, "sat").cvc5 == "sat"


def test_a_wrong_answer_is_reported_as_a_disagreement_with_both_answers() -> None:
    for query, wrong, right in ((_sat_query(), "unsat", "sat"), (_unsat_query(), "sat", "unsat")):
        check = cross_check(query, wrong)
        assert check.cvc5 == right and check.agree is False and check.disagrees
        assert f"z3 answers {wrong}" in check.explanation
        assert f"cvc5 answers {right}" in check.explanation


def test_a_resource_limit_gives_unknown_not_a_disagreement() -> None:
    check = cross_check(_hard_query(), "unsat", resource_limit=1)
    assert check.cvc5 == "unknown" and check.agree is None and not check.disagrees
    assert "resource limit of 1 units reached" in check.explanation


def test_the_wall_clock_safety_net_is_labelled_as_such() -> None:
    check = cross_check(_hard_query(), "unsat", wall_ms=1)
    assert check.cvc5 == "unknown" and check.agree is None
    assert "machine was too slow" in check.explanation and "raise --timeout" in check.explanation


def test_a_query_cvc5_cannot_read_is_an_error_not_an_answer() -> None:
    check = cross_check([z3.Int("i") > 2], "sat")
    assert check.cvc5 == "error" and check.agree is None and not check.disagrees
    assert "could not read" in check.explanation


def _verify(tmp_path: Path, *extra: str) -> tuple[Any, dict[str, Any]]:
    out = tmp_path / "report.json"
    args = ["--players", "2", "--only", "I6", "--no-vacuity", "--depth", "0"]
    args += ["--walk-steps", "0", "--jobs", "1", "--cross-check", "--json", str(out)]
    result = RUNNER.invoke(app, [*args, "--counterexamples", str(tmp_path / "cx"), *extra])
    return result, json.loads(out.read_text())


@pytest.mark.slow
def test_verify_cross_check_reports_its_figures(tmp_path: Path) -> None:
    result, data = _verify(tmp_path)
    assert result.exit_code == 0, result.output
    figures = data["cross_check"]
    proof = data["proofs"][0]
    assert proof["verdict"] == "proved"
    # every query of the proof was re-checked, and cvc5 agreed on each
    assert figures["per_property"]["I6"]["queries"] == proof["queries"] >= 2
    assert figures["queries"] == figures["agreements"] == proof["queries"]
    assert figures["disagreements"] == figures["unknowns"] == figures["errors"] == 0
    assert figures["seconds"] > 0 and figures["cpu_seconds"] > 0
    assert figures["solver"].startswith("cvc5 ")
    assert figures["not_agreed"] == []
    assert "Cross-check:" in result.output


@pytest.mark.slow
def test_a_disagreement_fails_the_property_and_the_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A second solver that contradicts Z3 (here, made to by flipping cvc5's answer)."""
    real = crosscheck._ask_cvc5
    flip = {"sat": "unsat", "unsat": "sat"}

    def contrary(text: str, resource_limit: int, wall_ms: int) -> tuple[str, str, int]:
        answer, reason, used = real(text, resource_limit, wall_ms)
        return flip.get(answer, answer), reason, used

    monkeypatch.setattr(crosscheck, "_ask_cvc5", contrary)
    # the flipped solver exists in this process only: run the one job here, not in a worker
    isolated = run.verify
    monkeypatch.setattr(run, "verify", lambda *a, **k: isolated(*a, **{**k, "isolate": False}))
    result, data = _verify(tmp_path)
    assert result.exit_code == 1, result.output
    proof = data["proofs"][0]
    assert proof["verdict"] == DISAGREED
    assert [v["verdict"] for v in proof["per_n"]] == [DISAGREED]
    assert data["verdict"] == "failed" and data["cross_check"]["disagreements"] >= 1
    shown = data["cross_check"]["not_agreed"][0]
    assert shown["disagree"] and {shown["z3"], shown["cvc5"]} == {"sat", "unsat"}
    assert "z3 answers unsat, cvc5 answers sat" in result.output
