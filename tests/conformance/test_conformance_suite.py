"""The conformance suite itself: its cases fit the schemas and registries, cover every clause
and ruling, and the generated cases are exactly what the generator writes."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from buckshot.conformance.bundled import SUITE_ROOT
from buckshot.conformance.suite import (
    Suite,
    SuiteError,
    load_suite,
    matches_filter,
    merge_patch,
    select,
)
from buckshot.regen import targets as regen
from buckshot.regen.cases import poll_order, response_options
from buckshot.spec.clauses import normative_ids
from buckshot.spec.rulings import RULINGS
from buckshot.traceability import TraceMatrix

ROOT = Path(__file__).resolve().parents[2]
SUITE = SUITE_ROOT
CASES = SUITE / "cases"


def test_every_schema_is_a_valid_draft_2020_12_schema() -> None:
    names = sorted(path.name for path in (SUITE / "schemas").glob("*.schema.json"))
    assert names == [
        f"{n}.schema.json"
        for n in ("case", "event", "features", "protocol", "report", "setup", "state")
    ]
    for name in names:
        document = json.loads((SUITE / "schemas" / name).read_text(encoding="utf-8"))
        Draft202012Validator.check_schema(document)
        assert document["$id"] == "urn:buckshot:conformance:" + name.removesuffix(".schema.json")


@pytest.mark.slow
def test_the_suite_loads_with_every_case_valid(suite: Suite) -> None:
    """load_suite validates each case against case.schema.json, the registries, fixtures."""
    assert len(suite.cases) >= 150
    hand = [case for case in suite.cases if not case.generated]
    generated = [case for case in suite.cases if case.generated]
    assert len(hand) >= 80 and len(generated) >= 150


def test_case_files_are_named_by_their_stable_ids(suite: Suite) -> None:
    ids = [case.id for case in suite.cases]
    assert len(ids) == len(set(ids))
    for case in suite.cases:
        assert case.path.name == f"{case.id}.json"
        if case.area == "model":
            assert case.generated and case.path.parent.name == "model"
        elif case.generated:
            assert case.path.parent.parent.name == "generated"
        else:
            assert case.path.parent.name == case.area


def test_every_normative_clause_and_every_ruling_is_checked(suite: Suite) -> None:
    clauses = {clause for case in suite.cases for clause in case.clauses}
    rulings = {ruling for case in suite.cases for ruling in case.rulings}
    assert set(normative_ids()) - clauses == set()
    assert {ruling.id for ruling in RULINGS} - rulings == set()


def test_hand_written_cases_alone_check_every_clause_and_ruling(suite: Suite) -> None:
    hand = [case for case in suite.cases if not case.generated]
    assert set(normative_ids()) - {c for case in hand for c in case.clauses} == set()
    assert {r.id for r in RULINGS} - {r for case in hand for r in case.rulings} == set()


@pytest.mark.slow
def test_the_trace_matrix_counts_the_cases(matrix: TraceMatrix) -> None:
    normative = [row for row in matrix.rows if row.normative]
    assert all(row.citers["conformance"] for row in normative)


def test_every_registered_feature_is_used(suite: Suite) -> None:
    used = {feature for case in suite.cases for feature in case.features}
    assert set(suite.features) == used


def test_every_resolved_setup_fits_the_protocol(suite: Suite) -> None:
    validator = suite.schemas.validator("setup", "resolved")
    for case in suite.cases:
        errors = list(validator.iter_errors(case.setup))
        assert not errors, (case.id, errors[0].message)


def test_every_case_has_something_to_check(suite: Suite) -> None:
    for case in suite.cases:
        if "rejection" in case.expect:
            decisions = [step for step in case.script if "option" in step]
            assert case.script == () or case.script[-1] in decisions or "chance" in case.script[-1]
        assert case.expect, case.id


def test_generated_cases_equal_the_generator_output() -> None:
    (target,) = [t for t in regen.TARGETS if t.name == "conformance cases"]
    assert regen.stale(ROOT, [target]) == []


def test_generated_poll_order_follows_the_rules() -> None:
    assert poll_order([True, False, True, True], 2) == [3, 0, 2]
    assert poll_order([True, True], 1) == [0, 1]
    assert response_options("magician", False, {"amulet": 1, "milk_tea": 1}) == [
        "pass_response",
        "flip_shell:items=amulet+milk_tea",
    ]
    assert response_options("magician", True, {"amulet": 2}) == ["pass_response"]


def test_merge_patch_merges_objects_deletes_nulls_and_patches_list_elements() -> None:
    base: dict[str, Any] = {
        "seats": [{"role": "medic"}, {"role": "dealer", "hp": 2}],
        "chamber": ["live"],
    }
    patched = merge_patch(base, {"seats": {"1": {"hp": None, "items": {"amulet": 1}}}, "owner": 1})
    assert patched == {
        "seats": [{"role": "medic"}, {"role": "dealer", "items": {"amulet": 1}}],
        "chamber": ["live"],
        "owner": 1,
    }
    assert merge_patch(base, {"chamber": ["blank", "blank"]})["chamber"] == ["blank", "blank"]
    assert merge_patch(base, {"seats": {"-1": {"hp": 3}}})["seats"][1]["hp"] == 3
    assert base["seats"][1] == {"role": "dealer", "hp": 2}, "the base is not changed"
    with pytest.raises(ValueError):
        merge_patch(base, {"seats": {"5": {"hp": 1}}})


def test_filters_select_by_id_clause_ruling_feature_and_area(suite: Suite) -> None:
    case = next(c for c in suite.cases if c.id == "shot.a-kill-locks-shooting")
    assert matches_filter(case, "shot.*")
    assert matches_filter(case, "clause:S4.2") and matches_filter(case, "clause:S4.2.1")
    assert not matches_filter(case, "clause:S4.2.1d")
    assert matches_filter(case, "ruling:R25") and not matches_filter(case, "ruling:R2")
    assert matches_filter(case, "feature:elimination")
    assert matches_filter(case, "area:shot") and not matches_filter(case, "area:turn")
    assert len(select(suite.cases, [])) == len(suite.cases)
    assert {c.area for c in select(suite.cases, ["area:roles", "area:items"])} == {"roles", "items"}


def _write(path: Path, data: object) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data), encoding="utf-8")


def test_a_null_in_a_fixture_cases_ruleset_patch_deletes_the_default_key(
    tmp_path: Path,
) -> None:
    """INTERPRETING.md: patches are JSON merge patches, ``null`` deletes, and the ruleset is
    the default with the case's patch applied, for a fixture's case as for an inline one."""
    for name in ("schemas", "fixtures"):
        for source in (SUITE / name).glob("*.json"):
            _write(tmp_path / name / source.name, json.loads(source.read_text(encoding="utf-8")))
    _write(tmp_path / "features.json", {"description": "x", "features": {"x": "x"}})
    _write(tmp_path / "retired.json", [])
    good = json.loads((CASES / "shot" / "shot.live-at-oneself-ends-the-turn.json").read_text())
    good["features"] = []
    deleting = {"limits": {"max_turns": None}, "hp": {"max": 5}}
    fixture = {"fixture": "duel", "patch": {"ruleset": deleting}}
    inline = {"seats": [{"role": "medic"}, {"role": "gambler"}], "ruleset": deleting}
    _write(
        tmp_path / "cases" / "a" / "a.fixture.json", {**good, "id": "a.fixture", "setup": fixture}
    )
    _write(tmp_path / "cases" / "a" / "a.inline.json", {**good, "id": "a.inline", "setup": inline})
    for case in load_suite(tmp_path / "cases").cases:
        limits, hp = case.setup["ruleset"]["limits"], case.setup["ruleset"]["hp"]
        assert "max_turns" not in limits and hp["max"] == 5, case.id


def test_a_broken_suite_lists_every_problem(tmp_path: Path) -> None:
    for name in ("schemas", "fixtures"):
        for source in (SUITE / name).glob("*.json"):
            _write(tmp_path / name / source.name, json.loads(source.read_text(encoding="utf-8")))
    _write(tmp_path / "features.json", {"description": "x", "features": {"elimination": "x"}})
    _write(tmp_path / "retired.json", ["area.old"])
    good = json.loads((CASES / "shot" / "shot.live-at-oneself-ends-the-turn.json").read_text())
    good["features"] = []
    _write(tmp_path / "cases" / "a" / "area.first.json", {**good, "id": "area.first"})
    _write(tmp_path / "cases" / "a" / "area.copy.json", {**good, "id": "area.first"})
    _write(tmp_path / "cases" / "b" / "area.old.json", {**good, "id": "area.old"})
    _write(
        tmp_path / "cases" / "b" / "area.bad.json",
        {**good, "id": "area.bad", "clauses": ["S9.9"], "rulings": ["R99"], "features": ["nope"]},
    )
    _write(
        tmp_path / "cases" / "b" / "area.nofix.json",
        {**good, "id": "area.nofix", "setup": {"fixture": "missing"}},
    )
    floating = [
        {**entry, "player": 0.0} if "player" in entry else entry for entry in good["script"]
    ]
    _write(
        tmp_path / "cases" / "b" / "area.float.json",
        {**good, "id": "area.float", "script": floating},
    )
    whole_hp = {"seats": [{"role": "medic", "hp": 4.0}, {"role": "gambler"}]}
    _write(  # Q27: a reader that cannot tell 4.0 from 4 never has to
        tmp_path / "cases" / "b" / "area.hp.json",
        {**good, "id": "area.hp", "setup": whole_hp},
    )
    _write(tmp_path / "cases" / "b" / "area.shape.json", {"id": "area.shape"})
    (tmp_path / "cases" / "b" / "area.text.json").write_text("{not json", encoding="utf-8")
    with pytest.raises(SuiteError) as raised:
        load_suite(tmp_path / "cases")
    text = str(raised.value)
    for expected in (
        "area.copy.json (area.first): the file must be named",
        "also used by",
        "is retired",
        "unknown clause S9.9",
        "unknown ruling R99",
        "feature 'nope' is not in features.json",
        "no fixture 'missing'",
        "area.shape.json: (top): 'description' is a required property",
        "area.text.json: cannot be read as JSON",
        "player is 0.0, not an integer literal",
        "setup.seats[0].hp is 4.0, not an integer literal",
    ):
        assert expected in text, expected


def test_every_settled_question_names_cases_that_exist(suite: Suite) -> None:
    """INTERPRETING.md section 12 pins each settled question by cases; each must be real."""
    text = (SUITE / "INTERPRETING.md").read_text(encoding="utf-8")
    table = text.split("## 12. Settled questions", 1)[1]
    rows = [line for line in table.splitlines() if line.startswith("| Q")]
    assert len(rows) >= 11
    ids = {case.id for case in suite.cases}
    for row in rows:
        named = re.findall(r"`([a-z0-9-]+\.[a-z0-9.-]+)`", row.rsplit("|", 2)[-2])
        assert named, row
        assert set(named) <= ids, (row.split("|")[1], set(named) - ids)


def test_every_error_code_of_section_7_is_expected_by_a_case(suite: Suite) -> None:
    """Each code INTERPRETING.md section 7 lists is the expected rejection of some case."""
    text = (SUITE / "INTERPRETING.md").read_text(encoding="utf-8")
    section = text.split("## 7. Error codes", 1)[1].split("\n## ", 1)[0]
    codes = re.findall(r"^\| `([a-z_.]+)` \|", section, flags=re.M)
    assert len(codes) == 7, codes
    expected = {
        case.expect["rejection"]["code"] for case in suite.cases if "rejection" in case.expect
    }
    assert set(codes) - expected == set()


def test_every_setup_rule_and_chance_kind_has_a_negative_case(suite: Suite) -> None:
    """Sections 3.1 and 3.2 list what is refused; each item has a case expecting the refusal."""
    refusing = {
        case.id
        for case in suite.cases
        if case.expect.get("rejection", {}).get("code") in ("setup.invalid", "chance.invalid")
    }
    wanted = {  # the order of the lists in sections 3.1 and 3.2
        "setup.invalid": [
            "setup.nine-seats-refused",
            "setup.one-living-seat-refused",
            "setup.living-seat-at-zero-hp-refused",
            "setup.hp-above-the-maximum-refused",
            "setup.negative-shield-refused",
            "setup.unknown-role-refused",
            "setup.unknown-item-refused",
            "setup.eliminated-owner-refused",
            "setup.owner-outside-the-table-refused",
            "setup.invalid-ruleset-refused",
            "setup.chamber-beyond-a-load-refused",
            "setup.traitor-with-an-unused-conversion-refused",
            "setup.eliminated-seat-with-hp-refused",
            "setup.eliminated-seat-with-effects-refused",
            "setup.traitor-who-has-won-refused",
        ],
        "chance.invalid": [
            "turn.load-from-another-table-refused",
            "chance.order-with-other-counts-invalid",
            "chance.unknown-item-invalid",
            "chance.item-of-weight-zero-invalid",
            "items.pickpocket-pick-must-be-held",
            "chance.pill-outcome-other-than-heal-or-lose-invalid",
            "chance.gambler-outcome-not-a-boolean-invalid",
        ],
    }
    for code, ids in wanted.items():
        assert set(ids) <= refusing, (code, set(ids) - refusing)
        for case in suite.cases:
            if case.id in ids:
                assert case.expect["rejection"]["code"] == code, case.id
