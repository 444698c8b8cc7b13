"""The fault manifest (tests/faults/manifest.json) is the one list of deliberate bugs: its rows
and the breakers and patches name exactly the same faults, every ID a row cites exists, and
each row expects a verdict its room's checks can give. What ``faults.declare`` checked when a
fault was declared in the package is checked here, on the data."""

from __future__ import annotations

import json
import re
from collections import Counter

import pytest

from buckshot.conformance.chance_mode import EXPERIMENTS
from buckshot.conformance.suite import Suite
from buckshot.spec.ruleset import PLAYERS_HIGHEST, PLAYERS_LOWEST
from buckshot.verification.proofs.induction import all_properties
from faults import coverage
from faults.manifest import (
    BATCHES,
    EXPECTED_BY_ROOM,
    MANIFEST,
    ROOMS,
    VERDICTS,
    breakers,
    patches,
    rows,
    select,
)
from faults.mutants import CI, ci_checks

CITATION = re.compile(r"\b(?:S\d+\.\d|R\d+\b|M\d+(?:\.\d+)?[a-z]\b)")
"""An ID of a clause, ruling or MUST tag in a summary (they belong in ``breaks``)."""


def test_every_name_is_one_row_and_every_row_has_what_a_row_needs() -> None:
    names = Counter(row.name for row in rows())
    assert [name for name, count in names.items() if count > 1] == []
    for row in rows():
        assert row.extra == {}, (row.name, sorted(row.extra))
        assert row.room in ROOMS, row.name
        assert row.summary.strip() and row.breaks and row.caught_by, row.name
        assert row.expected in VERDICTS, row.name
        assert row.expected in EXPECTED_BY_ROOM[row.room], row.name
        assert row.batch in ("", *BATCHES), row.name
        if row.batch in ("stranger-1", "stranger-2"):
            assert row.room == "model", row.name
        if row.table is not None or row.variant is not None or row.counts is not None:
            assert row.room in ("model", "chart"), row.name


def test_the_rows_by_room() -> None:
    rooms = Counter((row.room, row.batch) for row in rows())
    assert rooms == {
        ("engine", ""): 48,
        ("contract", ""): 71,
        ("chance", ""): 11,
        ("model", ""): 69,
        ("chart", ""): 8,
        ("model", "stranger-1"): 25,
        ("model", "stranger-2"): 20,
        ("engine", "stranger-3"): 22,
        ("chance", "stranger-3"): 3,
        ("model", "stranger-3"): 7,
    }


def test_the_manifest_and_the_python_name_the_same_faults_in_the_same_order() -> None:
    served = [row.name for row in rows() if row.served]
    assert list(breakers()) == served
    model = [row.name for row in rows() if not row.served]
    assert list(patches()) == model
    for name, patch in patches().items():
        assert patch.name == name and patch, name


def test_every_row_cites_clauses_rulings_and_must_tags_that_exist() -> None:
    for row in rows():
        coverage.check_citations(f"fault {row.name}", row.breaks)


def test_the_project_s_summaries_keep_their_ids_in_breaks() -> None:
    """The stranger batches' summaries quote the sentence they misread, IDs and all."""
    for row in select(batch=""):
        assert not CITATION.search(row.summary), row.name


def test_an_unknown_citation_is_refused() -> None:
    with pytest.raises(ValueError, match="cites unknown IDs: R99"):
        coverage.check_citations("fault probe", ("R1", "R99"))


def test_every_check_a_row_names_exists(suite: Suite) -> None:
    cases = {case.id for case in suite.cases}
    experiments = {experiment.id for experiment in EXPERIMENTS}
    properties = {prop.id for prop in all_properties()}
    known = {"engine": cases, "contract": cases, "chance": experiments}
    for row in rows():
        assert set(row.caught_by) <= known.get(row.room, properties), row.name


def test_the_evidence_tables_are_tables_the_ruleset_allows() -> None:
    for row in select("model", "chart", batch=None):
        if row.table is not None:
            assert PLAYERS_LOWEST <= row.table.players <= PLAYERS_HIGHEST, row.name
        if row.counts is not None:
            lo, hi = row.counts
            assert PLAYERS_LOWEST <= lo <= hi <= PLAYERS_HIGHEST, row.name


def test_the_file_is_one_row_a_line() -> None:
    """One fault per line, so that a change of a fault is a change of one line."""
    text = MANIFEST.read_text(encoding="utf-8")
    lines = [line for line in text.splitlines() if line.startswith('  {"name": ')]
    assert len(lines) == len(rows())
    assert [json.loads(line.rstrip(","))["name"] for line in lines] == [r.name for r in rows()]


def test_every_model_row_has_a_check_of_the_suite_within_its_row() -> None:
    """ci.json (tests/faults/ci_plan.py) names, for each model and chart row in manifest order,
    a property of its caught_by and a player count the row allows."""
    model = select("model", "chart", batch=None)
    assert list(ci_checks()) == [fault.name for fault in model], CI.name
    for fault in model:
        check = ci_checks()[fault.name]
        lo, hi = fault.counts or (PLAYERS_LOWEST, PLAYERS_HIGHEST)
        assert check.property in fault.caught_by, fault.name
        assert lo <= check.players <= hi, fault.name
