"""The traceability matrix and the command line: exit codes, gaps, refusals naming the key."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from buckshot import traceability as trace
from buckshot.cli.main import app
from buckshot.spec.clauses import normative_ids
from buckshot.spec.rulings import RULINGS

runner = CliRunner()


@pytest.fixture
def matrix_built(monkeypatch: pytest.MonkeyPatch, matrix: trace.TraceMatrix) -> None:
    """``spec traceability`` prints the session's ``matrix`` (the same ``build_matrix()``)
    instead of building it again; it builds its own in
    test_an_uncited_clause_is_reported_and_fails_the_command."""
    monkeypatch.setattr(trace, "build_matrix", lambda: matrix)


@pytest.mark.slow
def test_every_normative_clause_is_covered(matrix: trace.TraceMatrix) -> None:
    assert [row.clause for row in matrix.uncovered()] == []
    assert {row.clause for row in matrix.rows if row.normative} == set(normative_ids())


@pytest.mark.slow
def test_an_uncited_clause_is_reported_and_fails_the_command(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    real = trace._spec_citations

    def without_s4_1_4() -> object:
        for citer, clauses in real():
            yield citer, [c for c in clauses if c != "S4.1.4"]

    monkeypatch.setattr(trace, "_spec_citations", without_s4_1_4)
    monkeypatch.setattr(trace, "RULINGS", [r for r in RULINGS if "S4.1.4" not in r.clauses])
    result = runner.invoke(app, ["spec", "traceability"])
    assert result.exit_code == 1
    assert "S4.1.4" in result.output and "UNCOVERED" in result.output


def test_conformance_cases_are_counted(tmp_path: Path) -> None:
    case = {"id": "poll-order-001", "clauses": ["S6.2.1", "S6.2.2"]}
    (tmp_path / "poll.json").write_text(json.dumps(case), encoding="utf-8")
    (tmp_path / "broken.json").write_text("{not json", encoding="utf-8")
    # the conformance column alone is read: no tests scanned (a missing folder)
    matrix = trace.build_matrix(case_dirs=[tmp_path], test_dir=tmp_path / "no-tests")
    rows = {row.clause: row for row in matrix.rows}
    assert rows["S6.2.1"].citers["conformance"] == ["case:poll-order-001"]
    assert rows["S1.1"].citers["conformance"] == []


def test_tests_citing_a_clause_are_listed_by_function(tmp_path: Path) -> None:
    room = tmp_path / "tests" / "spec"
    room.mkdir(parents=True)
    (room / "test_sample.py").write_text(
        '"""Module docstring citing R7."""\n\n\n'
        "def test_poll(): \n"
        '    """S6.2.1: the next living seat is asked."""\n\n\n'
        "def test_quiet():\n    assert 1 + 1 == 2\n\n\n"
        "def helper_citing_S1_1():\n    return 'S1.1'\n",
        encoding="utf-8",
    )
    (room / "broken_test.py").write_text("def test_x(:\n", encoding="utf-8")
    (room / "test_broken.py").write_text("def test_x(:  # S1.1\n", encoding="utf-8")
    matrix = trace.build_matrix(case_dirs=[], test_dir=tmp_path / "tests")
    rows = {row.clause: row for row in matrix.every_row()}
    assert rows["S6.2.1"].citers["tests"] == ["tests/spec/test_sample.py::test_poll"]
    assert rows["R7"].citers["tests"] == ["tests/spec/test_sample.py"]
    assert rows["S1.1"].citers["tests"] == []  # a helper is no test; a broken file is skipped


@pytest.mark.slow
def test_the_checkout_tests_are_a_column(matrix: trace.TraceMatrix) -> None:
    rows = {row.clause: row for row in matrix.every_row()}
    assert "tests" in trace.COLUMNS
    assert any(citer.startswith("tests/") for row in rows.values() for citer in row.citers["tests"])


@pytest.mark.slow
@pytest.mark.usefixtures("matrix_built")
def test_traceability_command_prints_the_matrix_and_json() -> None:
    result = runner.invoke(app, ["spec", "traceability"])
    assert result.exit_code == 0, result.output
    assert "every normative clause is cited" in result.output
    as_json = runner.invoke(app, ["spec", "traceability", "--json"])
    data = json.loads(as_json.output)
    assert data["uncovered"] == []
    assert {row["clause"] for row in data["clauses"]} >= set(normative_ids())


def test_export_refuses_a_bad_variant_naming_the_key(tmp_path: Path) -> None:
    default = Path(__file__).resolve().parents[2] / "spec" / "rulesets" / "default.toml"
    text = default.read_text(encoding="utf-8").replace('heal_chance = "1/3"', "heal_chance = 1.5")
    assert "heal_chance = 1.5" in text
    variant = tmp_path / "variant.toml"
    variant.write_text(text, encoding="utf-8")
    result = runner.invoke(app, ["spec", "export", "--rules", str(variant)])
    assert result.exit_code == 2
    assert "ruleset.invalid" in result.output and "pills.heal_chance" in result.output


def test_export_writes_a_file(tmp_path: Path) -> None:
    out = tmp_path / "spec.json"
    result = runner.invoke(app, ["spec", "export", "--json", str(out)])
    assert result.exit_code == 0, result.output
    assert json.loads(out.read_text(encoding="utf-8"))["format"] == "buckshot-spec-export/1"


@pytest.mark.parametrize(
    "command", [[], ["spec"], ["spec", "export"], ["spec", "traceability"], ["spec", "rulings"]]
)
def test_every_command_has_help(command: list[str]) -> None:
    result = runner.invoke(app, [*command, "--help"])
    assert result.exit_code == 0
    assert "Usage" in result.output


@pytest.mark.slow
def test_the_committed_rule_table_is_the_matrix_rendered(matrix: trace.TraceMatrix) -> None:
    """docs/traceability.md says which property checks each rule; it is generated, never
    edited: rerun `buckshot spec traceability --markdown docs/traceability.md` when stale."""
    committed = (Path(__file__).resolve().parents[2] / trace.MARKDOWN).read_text(encoding="utf-8")
    assert committed == trace.render_markdown(matrix)


@pytest.mark.slow
def test_the_rule_table_names_each_rules_properties_and_the_reason_of_those_without(
    matrix: trace.TraceMatrix,
) -> None:
    page = trace.render_markdown(matrix)
    rows = {line.split(" | ")[0].removeprefix("| "): line for line in page.splitlines()}
    for row in matrix.every_row():
        if row.normative:
            line = rows[row.clause]
            assert all(prop in line.split(" | ")[2].split() for prop in row.citers["properties"])
    for rule, reason in trace.NOT_STATE_CONSTRAINTS.items():
        assert f"none: {reason}" in rows[rule]


@pytest.mark.slow
@pytest.mark.usefixtures("matrix_built")
def test_the_markdown_option_writes_the_page_and_refuses_a_folder(tmp_path: Path) -> None:
    out = tmp_path / "deep" / "rules.md"
    result = runner.invoke(app, ["spec", "traceability", "--markdown", str(out)])
    assert result.exit_code == 0, result.output
    assert out.read_text(encoding="utf-8").startswith("<!-- Generated by")
    refused = runner.invoke(app, ["spec", "traceability", "--markdown", str(tmp_path)])
    assert refused.exit_code == 2 and "--markdown" in refused.output
