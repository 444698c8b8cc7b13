"""The suite has teeth: every deliberately broken engine fails the cases named for it."""

from __future__ import annotations

import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from buckshot.conformance import RunOptions, RunResult, coverage, run_suite
from buckshot.conformance.bundled import CASES as BUNDLED_CASES
from buckshot.conformance.bundled import suite_path
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


def _caught(run: RunResult, name: str) -> bool:
    """Every case named for the mutant ran and failed (a real divergence, not an error)."""
    statuses = {result.case.id: result.status for result in run.results}
    return set(statuses) == set(MUTANTS[name].caught_by) and set(statuses.values()) == {"failed"}


def _breaks() -> dict[str, tuple[str, ...]]:
    return {name: mutant.breaks for name, mutant in MUTANTS.items()}


def test_every_ruling_and_must_sentence_is_broken_by_a_caught_mutant(
    runs: dict[str, RunResult],
) -> None:
    caught = {name: _caught(run, name) for name, run in runs.items()}
    gaps = coverage.gaps(_breaks(), caught)
    assert gaps == [], "no mutant whose cases fail breaks: " + ", ".join(gaps)


@pytest.mark.parametrize("sentence", ["R18", "R3", "M3.3a", "M7a"])
def test_a_sentence_without_a_caught_mutant_is_a_gap(sentence: str) -> None:
    """The coverage check fails on a gap: drop the sentence's mutants, or let them survive."""
    everything = dict.fromkeys(MUTANTS, True)
    assert coverage.gaps(_breaks(), everything) == []
    breakers = [name for name, ids in _breaks().items() if sentence in ids]
    without = {name: ids for name, ids in _breaks().items() if name not in breakers}
    assert sentence in coverage.gaps(without, everything)
    survived = {**everything, **dict.fromkeys(breakers, False)}
    assert sentence in coverage.gaps(_breaks(), survived)


def test_untestable_sentences_have_a_reason_and_no_mutant() -> None:
    claimed = {ident for ids in _breaks().values() for ident in ids}
    for tag, reason in coverage.NOT_TESTABLE.items():
        assert tag in coverage.must_tags() and reason.strip(), tag
        assert tag not in claimed, f"{tag} is listed as untestable but a mutant breaks it"


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
