"""Each ruling and MUST sentence lists its plausible wrong readings (docs/conformance.md,
"Plausible wrong readings"): at least two faults of the manifest (tests/faults/manifest.json)
break each, or one for a sentence listed with its reason; the page's table is the one the
manifest gives; each reading names two cases at least, one hand-written. That each reading
is caught (its cases fail) is checked by the slow tests of test_conformance_mutants.py."""

from __future__ import annotations

from pathlib import Path

import pytest
from faults import coverage
from faults.manifest import select
from faults.readings import BLOCK, main, render_block

from buckshot.conformance.suite import Suite

ROOT = Path(__file__).resolve().parents[2]
BREAKS = {row.name: row.breaks for row in select("engine", "contract")}
EVERY_FAULT_CAUGHT = dict.fromkeys(BREAKS, True)


def test_every_ruling_and_must_has_the_readings_the_rule_asks() -> None:
    short = coverage.short_of_readings(BREAKS, EVERY_FAULT_CAUGHT)
    found = coverage.readings(BREAKS, EVERY_FAULT_CAUGHT)
    assert short == [], {sentence: found[sentence] for sentence in short}


def test_a_ruling_asks_two_readings_a_narrow_one_one_a_transport_must_none() -> None:
    assert coverage.readings_wanted("R3") == coverage.MIN_READINGS == 2
    assert coverage.readings_wanted("R18") == 1
    assert coverage.readings_wanted("M2.1a") == 0


@pytest.mark.parametrize("sentence", ["R19", "R23", "M4b", "M3.3b"])
def test_a_sentence_left_with_one_reading_is_short(sentence: str) -> None:
    """Drop all but the first fault that reads the sentence otherwise, or let the others
    survive: the sentence is short of readings."""
    readers = [name for name, ids in BREAKS.items() if sentence in ids]
    assert len(readers) >= 2
    fewer = {name: ids for name, ids in BREAKS.items() if name not in readers[1:]}
    assert sentence in coverage.short_of_readings(fewer, EVERY_FAULT_CAUGHT)
    survived = {**EVERY_FAULT_CAUGHT, **dict.fromkeys(readers[1:], False)}
    assert sentence in coverage.short_of_readings(BREAKS, survived)


def test_every_reading_names_two_cases_one_of_them_hand_written(suite: Suite) -> None:
    """The project's readings and the stranger batches' alike. A hand-written case is one
    that is not generated (INTERPRETING.md section 1: not under generated/ nor model/)."""
    hand = [case.id for case in suite.cases if not case.generated]
    caught_by = {row.name: row.caught_by for row in select("engine", "contract", batch=None)}
    assert coverage.thin_readings(caught_by, hand) == []


def test_a_reading_with_one_case_or_none_hand_written_is_thin() -> None:
    caught_by = {
        "one-hand": ("turn.a",),
        "generated-only": ("poll.n2.a", "model.n2.game01"),
        "two-hand": ("turn.a", "shot.b"),
        "hand-and-generated": ("model.n2.game01", "shot.b"),
    }
    thin = coverage.thin_readings(caught_by, {"turn.a", "shot.b"})
    assert thin == ["one-hand", "generated-only"]


def test_a_narrow_sentence_has_a_reason_and_is_not_also_untestable() -> None:
    for sentence, reason in coverage.ONE_READING.items():
        assert sentence in coverage.rule_sentences() and reason.strip(), sentence
        assert sentence not in coverage.NOT_TESTABLE, sentence


def test_the_page_holds_the_table_the_manifest_gives() -> None:
    page = (ROOT / "docs" / "conformance.md").read_text(encoding="utf-8")
    found = BLOCK.search(page)
    assert found is not None, "docs/conformance.md has no <!-- readings --> block"
    assert found.group(0) == render_block(), "run: python tests/faults/readings.py"


def test_the_table_names_each_sentence_once_with_its_faults_and_cases() -> None:
    rows = [line for line in render_block().splitlines() if line.startswith("| R") or "| M" in line]
    named = [row.split("|")[1].strip() for row in rows]
    assert named == list(coverage.rule_sentences())
    r23 = next(row for row in rows if row.startswith("| R23 |"))
    assert "`pickpocket-from-empty-hands`" in r23
    assert "`items.pickpocket-on-an-empty-hand-refused`" in r23


def test_the_writer_refuses_an_argument(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--output", "x"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error [usage]: ") and err.count("\n") == 1
