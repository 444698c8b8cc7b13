"""The second solver: a query re-checked by cvc5, and whether it agrees with Z3."""

from __future__ import annotations

from typing import Any

import z3  # type: ignore[import-untyped]

from buckshot.verification.proofs.crosscheck import cross_check


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
