"""The traceability matrix's property and case columns: every rule that constrains states or
steps is checked by a property, or is listed, with its reason, as constraining none."""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path

import pytest

from buckshot import traceability as trace
from buckshot.spec.clauses import normative_ids
from buckshot.spec.rulings import ruling_ids


@pytest.mark.slow
def test_every_normative_clause_and_ruling_has_a_property_or_a_reason(
    matrix: trace.TraceMatrix,
) -> None:
    assert [row.clause for row in matrix.unchecked()] == []
    assert [row.clause for row in matrix.rulings] == list(ruling_ids())
    assert {row.clause for row in matrix.rows if row.normative} == set(normative_ids())
    assert all(row.normative and row.ruling for row in matrix.rulings)


@pytest.mark.slow
def test_the_list_of_rules_that_constrain_nothing_is_exact(matrix: trace.TraceMatrix) -> None:
    """Each listed rule is a normative clause or a ruling, with a one-line reason, and no
    property checks it (a listed rule that gained a property would be a stale excuse)."""
    rows = {row.clause: row for row in matrix.every_row()}
    for rule, reason in trace.NOT_STATE_CONSTRAINTS.items():
        assert rule in rows and rows[rule].normative, rule
        assert reason.strip() and "\n" not in reason, rule
        assert rows[rule].citers["properties"] == [], rule


@pytest.mark.slow
def test_the_properties_column_names_the_properties_that_cite_each_rule(
    matrix: trace.TraceMatrix,
) -> None:
    rows = {row.clause: row for row in matrix.every_row()}
    assert {"I7", "T4"} <= set(rows["S4.2.1e"].citers["properties"])
    assert {"I4", "D4"} <= set(rows["R17"].citers["properties"])
    assert "T1" in rows["R16"].citers["properties"]
    assert rows["S6.4.1"].citers["properties"] == []


def test_cases_are_counted_by_their_clauses_and_rulings(tmp_path: Path) -> None:
    case = {"id": "poll-order-002", "clauses": ["S6.2.1"], "rulings": ["R17"]}
    (tmp_path / "poll.json").write_text(json.dumps(case), encoding="utf-8")
    # the conformance column alone is read: no tests scanned (a missing folder)
    matrix = trace.build_matrix(case_dirs=[tmp_path], test_dir=tmp_path / "no-tests")
    rows = {row.clause: row for row in matrix.every_row()}
    assert rows["S6.2.1"].citers["conformance"] == ["case:poll-order-002"]
    assert rows["R17"].citers["conformance"] == ["case:poll-order-002"]
    assert rows["R16"].citers["conformance"] == []


@pytest.mark.slow
def test_a_rule_no_property_checks_is_a_gap(monkeypatch: pytest.MonkeyPatch) -> None:
    real = trace._property_citations

    def without_r16() -> Iterable[tuple[str, Iterable[str]]]:
        for citer, cited in real():
            yield citer, [c for c in cited if c != "R16"]

    monkeypatch.setattr(trace, "_property_citations", without_r16)
    matrix = trace.build_matrix(case_dirs=[])
    assert [row.clause for row in matrix.unchecked()] == ["R16"]
    assert [row.clause for row in matrix.uncovered()] == ["R16"]
    assert matrix.to_dict()["uncovered"] == ["R16"]
    text = trace.render_table(matrix)
    assert "NO PROPERTY checks these normative clauses and rulings: R16" in text


def test_an_excused_rule_is_not_a_gap(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setitem(trace.NOT_STATE_CONSTRAINTS, "S6.3.0", "an example, not a rule")
    real = trace._property_citations

    def without(rule: str) -> Iterable[tuple[str, Iterable[str]]]:
        for citer, cited in real():
            yield citer, [c for c in cited if c != rule]

    monkeypatch.setattr(trace, "_property_citations", lambda: without("S6.3.0"))
    # the properties column alone is read: no cases, no tests scanned (a missing folder)
    matrix = trace.build_matrix(case_dirs=[], test_dir=tmp_path / "no-tests")
    assert matrix.unchecked() == []
    assert "[no state or step constraint]" in trace.render_table(matrix)
