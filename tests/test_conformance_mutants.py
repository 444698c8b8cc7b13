"""The suite has teeth: every deliberately broken engine fails the cases named for it."""

from __future__ import annotations

import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from buckshot.conformance import RunOptions, RunResult, run_suite
from buckshot.conformance.bundled import CASES as BUNDLED_CASES
from buckshot.conformance.mutants import MUTANTS
from buckshot.conformance.suite import load_suite

ROOT = Path(__file__).resolve().parents[1]
CASES = BUNDLED_CASES


@pytest.fixture(scope="module")
def runs() -> dict[str, RunResult]:
    """Each mutant run, through its adapter, on the cases it must fail and one it must not."""
    suite = load_suite(CASES)

    def run(name: str) -> RunResult:
        options = RunOptions(
            adapter=f"{sys.executable} -m buckshot.reference.adapter --mutant {name}",
            cases_dir=CASES,
            filters=list(MUTANTS[name].caught_by),
            timeout=30.0,
        )
        return run_suite(options, suite=suite)

    with ThreadPoolExecutor(max_workers=2) as pool:
        return dict(zip(MUTANTS, pool.map(run, MUTANTS), strict=True))


def test_there_are_at_least_fifteen_mutants_each_with_cases_to_catch_it() -> None:
    assert len(MUTANTS) >= 15
    ids = {case.id for case in load_suite(CASES).cases}
    for mutant in MUTANTS.values():
        assert mutant.caught_by and set(mutant.caught_by) <= ids, mutant.name


@pytest.mark.parametrize("name", list(MUTANTS))
def test_each_mutant_fails_its_cases(runs: dict[str, RunResult], name: str) -> None:
    run = runs[name]
    assert run.hello is not None
    assert run.hello["implementation"]["name"] == f"buckshot-reference+mutant:{name}"
    statuses = {result.case.id: result.status for result in run.results}
    assert set(statuses) == set(MUTANTS[name].caught_by)
    assert set(statuses.values()) == {"failed"}, statuses


def test_the_adapter_lists_the_mutants() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "buckshot.reference.adapter", "--list-mutants"],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    assert [line.split(":")[0] for line in out.stdout.splitlines()] == list(MUTANTS)
