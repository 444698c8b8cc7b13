"""Which folder ``--cases`` names (issue 25, review): the cases' folder, one under it, or a
suite folder holding ``cases/`` (the root of ``conformance export DIR``, or the shipped
``data/``), whose schemas, fixtures, features and manifest are no cases."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from buckshot.cli.conformance import app
from buckshot.conformance.bundled import CASES, SUITE_ROOT
from buckshot.conformance.suite import Suite, load_suite

runner = CliRunner()
CASE = "shot.live-at-oneself-ends-the-turn"


@pytest.mark.slow
def test_an_export_s_root_loads_as_its_cases_folder(exported: Path) -> None:
    from_root = load_suite(exported)
    from_cases = load_suite(exported / "cases")
    assert [case.id for case in from_root.cases] == [case.id for case in from_cases.cases]
    assert from_root.cases_dir == (exported / "cases").resolve()
    assert from_root.root == exported.resolve()


@pytest.mark.slow
def test_the_shipped_suite_folder_loads_as_its_cases_folder(suite: Suite) -> None:
    assert [c.id for c in load_suite(SUITE_ROOT).cases] == [c.id for c in suite.cases]


def test_a_folder_under_the_cases_still_selects_only_its_own_cases() -> None:
    shot = load_suite(CASES / "shot")
    assert shot.cases and all(case.path.is_relative_to(CASES / "shot") for case in shot.cases)


@pytest.mark.slow
def test_run_with_cases_at_an_export_s_root_runs_its_cases(exported: Path) -> None:
    args = ["run", "--adapter", "reference", "--cases", str(exported), "--filter", CASE]
    result = runner.invoke(app, [*args, "--no-tables", "--quiet"])
    assert result.exit_code == 0, result.output
    assert "suite.invalid" not in result.output
