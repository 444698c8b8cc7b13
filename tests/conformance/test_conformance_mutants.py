"""The suite has teeth: every deliberate bug of the engine or of its contract (the engine and
contract rows of tests/faults/manifest.json, served by ``python tests/faults/adapter.py``)
gets its expected verdict, every case named for it failing, and together they break every
ruling and MUST sentence."""

from __future__ import annotations

import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from faults import coverage
from faults.forked import forked_faults
from faults.manifest import CASES_FAIL, Row, breakers, select

from buckshot.conformance import RunOptions, RunResult, run_suite
from buckshot.conformance.bundled import CASES as BUNDLED_CASES
from buckshot.conformance.bundled import suite_path
from buckshot.conformance.suite import Suite

FAULTS: dict[str, Row] = {row.name: row for row in select("engine", "contract")}

ROOT = Path(__file__).resolve().parents[2]
CASES = BUNDLED_CASES


@pytest.fixture(scope="module")
def runs(suite: Suite) -> dict[str, RunResult]:
    """Each fault served by the reference adapter (forked from one process that imports it
    once: :mod:`faults.forked`), run on the cases named for it."""

    with forked_faults() as command:

        def run(name: str) -> RunResult:
            options = RunOptions(
                adapter=command(name),
                cases_dir=CASES,
                filters=list(FAULTS[name].caught_by),
                timeout=30.0,
            )
            return run_suite(options, suite=suite)

        with ThreadPoolExecutor(max_workers=2) as pool:
            return dict(zip(FAULTS, pool.map(run, FAULTS), strict=True))


@pytest.mark.slow
def test_there_are_one_hundred_and_nineteen_faults_each_with_cases_to_catch_it(
    suite: Suite,
) -> None:
    assert len(FAULTS) == 119
    assert {fault.room for fault in FAULTS.values()} == {"engine", "contract"}
    assert {fault.expected for fault in FAULTS.values()} == {CASES_FAIL}
    ids = {case.id for case in suite.cases}
    for fault in FAULTS.values():
        assert fault.caught_by and set(fault.caught_by) <= ids, fault.name


@pytest.mark.slow
@pytest.mark.parametrize("name", list(FAULTS))
def test_each_fault_fails_its_cases(runs: dict[str, RunResult], name: str) -> None:
    run = runs[name]
    assert run.hello is not None
    assert run.hello["implementation"]["name"] == f"buckshot-reference+fault:{name}"
    statuses = {result.case.id: result.status for result in run.results}
    assert FAULTS[name].expected == CASES_FAIL
    assert set(statuses) == set(FAULTS[name].caught_by)
    assert set(statuses.values()) == {"failed"}, statuses


def test_the_fault_adapter_lists_the_faults() -> None:
    out = subprocess.run(
        [sys.executable, str(ROOT / "tests" / "faults" / "adapter.py"), "--list"],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    assert [line.split(":")[0] for line in out.stdout.splitlines()] == list(breakers())
    assert list(breakers()) == [
        row.name for row in select("engine", "contract", "chance", batch=None)
    ]


def test_the_fault_adapter_refuses_an_unknown_fault_and_the_reference_one_takes_none() -> None:
    unknown = subprocess.run(
        [sys.executable, str(ROOT / "tests" / "faults" / "adapter.py"), "--fault", "no-such"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert unknown.returncode == 2 and "unknown fault 'no-such'" in unknown.stderr
    old = subprocess.run(
        [sys.executable, "-m", "buckshot.reference.adapter", "--mutant", "poll-owner-first"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert old.returncode == 2 and "unrecognized arguments" in old.stderr


def _caught(run: RunResult, name: str) -> bool:
    """Every case named for the fault ran and failed (a real divergence, not an error)."""
    statuses = {result.case.id: result.status for result in run.results}
    return set(statuses) == set(FAULTS[name].caught_by) and set(statuses.values()) == {"failed"}


def _breaks() -> dict[str, tuple[str, ...]]:
    return {name: fault.breaks for name, fault in FAULTS.items()}


@pytest.mark.slow
def test_every_ruling_and_must_sentence_is_broken_by_a_caught_fault(
    runs: dict[str, RunResult],
) -> None:
    caught = {name: _caught(run, name) for name, run in runs.items()}
    gaps = coverage.gaps(_breaks(), caught)
    assert gaps == [], "no fault whose cases fail breaks: " + ", ".join(gaps)


@pytest.mark.slow
def test_every_sentence_has_the_caught_wrong_readings_the_rule_asks(
    runs: dict[str, RunResult],
) -> None:
    """docs/conformance.md, "Plausible wrong readings": two caught faults per sentence, one
    for those of coverage.ONE_READING."""
    caught = {name: _caught(run, name) for name, run in runs.items()}
    short = coverage.short_of_readings(_breaks(), caught)
    assert short == [], "fewer caught wrong readings than the rule asks: " + ", ".join(short)


@pytest.mark.parametrize("sentence", ["R18", "R3", "M3.3a", "M7a"])
def test_a_sentence_without_a_caught_fault_is_a_gap(sentence: str) -> None:
    """The coverage check fails on a gap: drop the sentence's faults, or let them survive."""
    everything = dict.fromkeys(FAULTS, True)
    assert coverage.gaps(_breaks(), everything) == []
    breakers = [name for name, ids in _breaks().items() if sentence in ids]
    without = {name: ids for name, ids in _breaks().items() if name not in breakers}
    assert sentence in coverage.gaps(without, everything)
    survived = {**everything, **dict.fromkeys(breakers, False)}
    assert sentence in coverage.gaps(_breaks(), survived)


def test_untestable_sentences_have_a_reason_and_no_fault() -> None:
    claimed = {ident for ids in _breaks().values() for ident in ids}
    for tag, reason in coverage.NOT_TESTABLE.items():
        assert tag in coverage.must_tags() and reason.strip(), tag
        assert tag not in claimed, f"{tag} is listed as untestable but a fault breaks it"


def test_every_must_of_interpreting_carries_a_tag() -> None:
    """Each MUST in the body of INTERPRETING.md lies in a sentence that starts at a tag."""
    text = suite_path("INTERPRETING.md").read_text(encoding="utf-8")
    body = text[text.index("\n## ") :]
    for found in re.finditer(r"\bMUST\b", body):
        before = body[: found.start()]
        tag = before.rfind("[M")
        assert tag >= 0, body[found.start() - 80 : found.end()]
        between = before[tag:]
        sentence = between.split("]", 1)[1]
        assert not re.search(r"[.;]\s+[A-Z`\[]", sentence), f"untagged MUST after {between[:80]}"
