"""Every invalid input refused (issue 25, part 3): the ``invalid`` family covers every
constraint of the ruleset schema, every consistency rule of the ruleset, every condition of
M3.1a and every clause of the option syntax and of decision.malformed, and stays complete
as those documents and checks change."""

from __future__ import annotations

import ast
import inspect
import json
import re
import textwrap
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from buckshot.conformance import RunOptions, run_suite
from buckshot.conformance.bundled import CASES, suite_path
from buckshot.conformance.suite import merge_patch
from buckshot.regen.invalid_cases import (
    CONSISTENCY,
    DEFAULT,
    KEYWORDS,
    MALFORMED_DECISIONS,
    NOT_SENDABLE,
    SETUP_CONDITIONS,
    broken_ruleset,
    consistency_case,
    constraint_case,
    patch_between,
    schema_constraints,
)
from buckshot.spec import ruleset as ruleset_module
from buckshot.spec.ruleset import RulesetError, parse_ruleset, ruleset_schema

INTERPRETING = suite_path("INTERPRETING.md").read_text(encoding="utf-8")

DESCRIPTIVE_KEYWORDS = frozenset(
    {"$schema", "$id", "$defs", "$ref", "title", "description", "default"}
    | {"properties", "items", "prefixItems"}
)
"""Keywords that constrain nothing themselves (the last three lead to nodes that do)."""


@pytest.fixture(scope="module")
def cases() -> dict[str, dict[str, Any]]:
    """Every case file of the suite by ID (a file is named after its case; the suite's own
    tests check the files against the schemas)."""
    return {
        path.stem: json.loads(path.read_text(encoding="utf-8")) for path in CASES.rglob("*.json")
    }


def _nodes(node: Any) -> Iterator[dict[str, Any]]:
    if isinstance(node, dict):
        yield node
        for key, value in node.items():
            if key not in ("default", "description"):
                yield from _nodes(value)
    elif isinstance(node, list):
        for value in node:
            yield from _nodes(value)


def test_every_keyword_of_the_ruleset_schema_is_a_constraint_or_descriptive() -> None:
    """A keyword the walk does not know (an enum, a pattern of keys) would go unbroken."""
    schema = ruleset_schema()
    properties = [node["properties"] for node in _nodes(schema) if "properties" in node]
    defs = [schema["$defs"]]
    keywords = set()
    for node in _nodes(schema):
        if any(node is names for names in (*properties, *defs)):
            continue  # a map of names to schemas, not a schema
        keywords |= set(node)
    assert keywords <= set(KEYWORDS) | DESCRIPTIVE_KEYWORDS, keywords


def test_every_schema_constraint_has_its_case(cases: dict[str, dict[str, Any]]) -> None:
    constraints = list(schema_constraints())
    assert len(constraints) > 150
    sendable = [c for c in constraints if (c.path, c.keyword) not in NOT_SENDABLE]
    ids = [f"invalid.ruleset.{c.slug}" for c in sendable]
    assert len(set(ids)) == len(ids)
    assert [ident for ident in ids if ident not in cases] == []
    for ident in ids:
        assert cases[ident]["expect"] == {"rejection": {"code": "setup.invalid"}}
    assert constraint_case(sendable[0])["id"] == ids[0]


@pytest.mark.parametrize(
    "constraint",
    [c for c in schema_constraints() if (c.path, c.keyword) not in NOT_SENDABLE],
    ids=lambda c: c.slug,
)
def test_each_case_breaks_its_constraint_and_only_where_it_stands(constraint: Any) -> None:
    broken = broken_ruleset(constraint)
    validator = Draft202012Validator(ruleset_schema())
    errors = list(validator.iter_errors(broken))
    assert {tuple(error.absolute_path) for error in errors} == {constraint.path}
    assert constraint.keyword in {error.validator for error in errors}
    # the patch a case writes rebuilds exactly that ruleset from the default
    assert merge_patch(DEFAULT, patch_between(DEFAULT, broken)) == broken
    with pytest.raises(RulesetError):
        parse_ruleset(broken)


@pytest.mark.parametrize(
    "constraint",
    [c for c in schema_constraints() if c.path[:3] == ("shells", "loads", 0)],
    ids=lambda c: c.slug,
)
def test_a_broken_load_table_leaves_every_count_its_table(constraint: Any) -> None:
    """R1: an implementation that skips a load table it cannot read must still find one
    table for each count of living players, else it refuses the case for another reason."""
    tables = broken_ruleset(constraint)["shells"]["loads"]
    counts = [
        table["players"]
        for table in tables
        if isinstance(table, dict)
        and type(table.get("players")) is int
        and 2 <= table["players"] <= DEFAULT["players"]["max"]
    ]
    assert sorted(counts) == list(range(2, DEFAULT["players"]["max"] + 1))


def _check_sites() -> set[tuple[str, str]]:
    """Every reason a consistency check of buckshot.spec.ruleset yields: its function and
    the reason's first literal words."""
    functions: list[Callable[..., Iterator[tuple[str, str]]]] = [
        *ruleset_module._TABLE_RULES.values(),
        ruleset_module._within,
    ]
    functions.append(ruleset_module._chance)
    sites = set()
    for function in functions:
        tree = ast.parse(textwrap.dedent(inspect.getsource(function)))
        for node in ast.walk(tree):
            if isinstance(node, ast.Yield) and isinstance(node.value, ast.Tuple):
                reason = node.value.elts[1]
                parts = reason.values if isinstance(reason, ast.JoinedStr) else [reason]
                first = next(p.value for p in parts if isinstance(p, ast.Constant))
                sites.add((function.__name__, str(first)))
    return sites


SCHEMA_FIRST = {
    ("_load_problems", "must be at least "): "shells-loads-0-players-below-minimum",
    ("_load_problems", "must have at least 1 entry, got 0"): "shells-loads-0-options-too-few",
    ("_load_problems", "must not hold a negative count, got "): (
        "shells-loads-0-options-0-1-below-minimum"
    ),
    ("_load_problems", "holds no shells, got "): "shells-loads-0-options-0-0-below-minimum",
    ("_load_problems", "holds no live shell, got "): "shells-loads-0-options-0-0-below-minimum",
    ("_within", "must be between "): "players-min-below-minimum",
    ("_within", "must be at least "): "hp-start-below-minimum",
    ("_within", "must be at most "): "players-max-above-maximum",
}
"""Checks the schema states too: the schema refuses such a ruleset first, and the case of
that schema constraint is the one that checks them."""

BY_RULE = {
    ("_players_problems", "must not exceed players.max ("): "players-min-above-max",
    ("_hp_problems", "must be at least hp.start ("): "hp-max-below-start",
    ("_items_problems", "must give at least one item kind a positive weight"): (
        "no-positive-item-weight"
    ),
    ("_load_problems", "is a second table for "): "second-load-table-for-a-count",
    ("_load_problems", "has no table for "): "no-load-table-for-a-count",
    ("_load_problems", "must be at most players.max ("): "load-table-beyond-players-max",
    ("_load_problems", "holds "): "load-beyond-max-per-load",
    ("_chance", "must be between 0 and 1, got "): "odds-text-above-one",
}
"""The consistency rules the schema cannot state, each with its rule of CONSISTENCY."""


def test_every_consistency_check_has_its_case(cases: dict[str, dict[str, Any]]) -> None:
    assert _check_sites() == set(SCHEMA_FIRST) | set(BY_RULE)
    for slug in SCHEMA_FIRST.values():
        assert f"invalid.ruleset.{slug}" in cases
    rules = {rule.slug: rule for rule in CONSISTENCY}
    assert set(BY_RULE.values()) <= set(rules)
    for (_function, words), slug in BY_RULE.items():
        assert f"invalid.ruleset.{slug}" in cases
        ruleset = merge_patch(DEFAULT, rules[slug].patch)
        with pytest.raises(RulesetError, match=re.escape(words)):
            parse_ruleset(ruleset)


@pytest.mark.parametrize("rule", CONSISTENCY, ids=lambda rule: rule.slug)
def test_each_consistency_case_passes_the_schema_and_breaks_its_rule(rule: Any) -> None:
    ruleset = merge_patch(DEFAULT, rule.patch)
    assert list(Draft202012Validator(ruleset_schema()).iter_errors(ruleset)) == []
    with pytest.raises(RulesetError, match=re.escape(rule.reason)):
        parse_ruleset(ruleset)


@pytest.mark.parametrize("rule", CONSISTENCY, ids=lambda rule: rule.slug)
def test_each_consistency_case_breaks_its_rule_alone(rule: Any) -> None:
    """An implementation that checks every rule but this one must accept the case's setup:
    its ruleset breaks no other consistency rule, and its seats no condition of M3.1a that
    the ruleset bounds (HP within hp.max, the seat count within players.min..max)."""
    ruleset = merge_patch(DEFAULT, rule.patch)
    try:
        built = ruleset_module._build(ruleset, "<case>")
    except RulesetError as error:  # odds text that names no number is refused as it is read
        assert rule.reason in str(error)
        return
    problems = [reason for _, reason in ruleset_module._problems(built)]
    assert len(problems) == 1, problems
    assert problems[0].startswith(rule.reason)
    seats = consistency_case(rule)["setup"]["seats"]
    assert all(seat["hp"] <= built.hp.max for seat in seats)
    if built.players.min <= built.players.max:  # else no seat count is within them (R16)
        assert built.players.min <= len(seats) <= built.players.max


_ASIDE = re.compile(r"\([^()]*(\([^()]*\)[^()]*)*\)")
"""A parenthesised aside (one level of nesting), left out where conditions are compared."""


def _plain(text: str) -> str:
    return " ".join(_ASIDE.sub("", text).split())


def _m31a_conditions() -> list[str]:
    """The conditions M3.1a lists, as its sentence enumerates them: pieces between commas,
    a list of bare nouns split at 'or', the win condition whole."""
    sentence = INTERPRETING.split("[M3.1a]", 1)[1].split("A setup describes", 1)[0]
    listed = _plain(sentence).split(" when ", 1)[1]
    listed, win = listed.split("or a win condition", 1)
    pieces = []
    for piece in listed.split(","):
        piece = piece.strip(" .").removeprefix("or ")
        bare = not piece.startswith(("the ", "a ", "an ", "any ", "fewer "))
        pieces += piece.split(" or ") if bare else [piece]
    return [piece for piece in pieces if piece] + ["a win condition " + win.strip(" .")]


def test_every_condition_of_m31a_has_a_case_refused_as_invalid(
    cases: dict[str, dict[str, Any]],
) -> None:
    text = " ".join(INTERPRETING.split())
    for condition in SETUP_CONDITIONS:
        assert condition.quote in text, condition.quote
        assert cases[condition.case]["expect"] == {"rejection": {"code": "setup.invalid"}}
    conditions = _m31a_conditions()
    assert len(conditions) >= 12
    quotes = [_plain(condition.quote) for condition in SETUP_CONDITIONS if _plain(condition.quote)]
    uncovered = [c for c in conditions if not any(q in c or c in q for q in quotes)]
    assert uncovered == []


def test_each_generated_setup_case_says_in_words_what_its_setup_breaks(
    cases: dict[str, dict[str, Any]],
) -> None:
    """A generated setup case's description states its condition as a clause with a subject
    ('an eliminated seat holds an item'), not the case ID's words ('eliminated seat with
    items'), and names an eliminated seat exactly when its setup has one (M3.1a)."""
    lead = "A setup is refused with setup.invalid when "
    generated = [condition for condition in SETUP_CONDITIONS if condition.setup is not None]
    assert generated
    for condition in generated:
        assert condition.setup is not None
        description = cases[condition.case]["description"]
        assert description.startswith(lead), description
        situation = description.removeprefix(lead).split(" (M3.1a: ")[0]
        assert situation.split()[0] in ("a", "an", "it", "the"), description
        assert condition.slug.replace("-", " ") not in description
        eliminated = any(not seat.get("alive", True) for seat in condition.setup["seats"])
        assert ("an eliminated seat" in situation) == eliminated, description


def test_every_clause_of_the_option_syntax_and_of_malformed_has_a_case(
    cases: dict[str, dict[str, Any]],
) -> None:
    section7 = re.search(r"^\| `decision.malformed` \|(.*)$", INTERPRETING, re.M)
    assert section7 is not None
    clauses = [
        "an unknown decision name",
        "an unknown, repeated or empty parameter",
        "a value that is not a decimal seat numeral",
        "an item name",
        "lacks a parameter its decision requires",
    ]
    assert all(clause in section7.group(1) for clause in clauses)
    quoted = {clause.quote for clause in MALFORMED_DECISIONS}
    assert set(clauses) <= quoted
    slugs = " ".join(clause.slug for clause in MALFORMED_DECISIONS)
    for kind in ("unknown-parameter", "repeated-parameter", "empty-parameter"):
        assert kind in slugs
    for clause in MALFORMED_DECISIONS:
        assert clause.quote in INTERPRETING, clause.quote
        case = cases[f"invalid.decision.{clause.slug}"]
        expected = None if clause.code is None else {"code": clause.code}
        assert case["expect"].get("rejection") == expected
        assert case["script"][2]["option"] == clause.option


@pytest.mark.slow
def test_the_reference_refuses_every_invalid_input() -> None:
    options = RunOptions(adapter="reference", cases_dir=CASES, filters=["invalid.*"])
    run = run_suite(options)
    assert len(run.results) >= 200
    assert {result.status for result in run.results} == {"passed"}


def test_every_error_code_of_section_7_is_expected_by_some_case(
    cases: dict[str, dict[str, Any]],
) -> None:
    section = INTERPRETING.split("## 7. Error codes", 1)[1].split("\n## ", 1)[0]
    codes = re.findall(r"^\| `([a-z_.]+)` \|", section, re.M)
    assert len(codes) == 7
    expected = {c["expect"].get("rejection", {}).get("code") for c in cases.values()}
    assert set(codes) <= expected
