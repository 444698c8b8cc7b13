"""Tests of the clause index (spec/clauses.toml) and its accessors (buckshot.spec.clauses)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from buckshot.spec.clauses import (
    CLAUSE_ID_PATTERN,
    CLAUSES,
    Clause,
    clause,
    clause_ids,
    clause_sort_key,
    find_clause_ids,
    normative_ids,
)

RULES_PATH = Path(__file__).resolve().parents[3] / "shared" / "seed" / "rules.en.md"

# IDs are declared in the rule text either as a heading ("## S1 ...", "### S4.1 ...") or in
# bold at the start of a clause ("**S1.1**", "**S2.1 Gambler ...**", "**S4.2.1a ...**").
# Mentions in running prose (intro, "What the text leaves open") are citations, not
# declarations, and are deliberately not matched.
_DECLARED_ID = re.compile(
    r"^#{2,3}[ \t]+(S\d+(?:\.\d+)*)\b|\*\*(S\d+(?:\.\d+)*[a-z]?)\b",
    re.MULTILINE,
)

SECTIONS = ("S1", "S2", "S3", "S4", "S5", "S6")
HEADINGS = ("S4.1", "S4.2", "S4.3", "S4.4", "S4.5", "S6.1", "S6.2", "S6.3", "S6.4")
INFORMATIVE = ("S6.4", "S6.4.1", "S6.4.2", "S6.4.3")


def _rules_text() -> str:
    if not RULES_PATH.is_file():
        pytest.skip(f"rule text not found at {RULES_PATH} (shared/ is not beside the repo)")
    return RULES_PATH.read_text(encoding="utf-8")


def _declared_ids(text: str) -> list[str]:
    return [heading or bold for heading, bold in _DECLARED_ID.findall(text)]


def _expected_parent(clause_id: str) -> str | None:
    if clause_id[-1].isalpha():
        return clause_id[:-1]
    if "." in clause_id:
        return clause_id.rsplit(".", 1)[0]
    return None


def test_index_is_not_empty_and_entries_are_clauses() -> None:
    assert CLAUSES
    assert all(isinstance(c, Clause) for c in CLAUSES)


def test_ids_are_unique_and_well_formed() -> None:
    ids = clause_ids()
    assert len(ids) == len(set(ids))
    assert [i for i in ids if CLAUSE_ID_PATTERN.fullmatch(i) is None] == []


def test_ids_are_in_document_order() -> None:
    ids = clause_ids()
    assert list(ids) == sorted(ids, key=clause_sort_key)
    assert [clause_sort_key(i) for i in ids] == sorted(clause_sort_key(i) for i in ids)


def test_sort_key_examples() -> None:
    assert clause_sort_key("S4.2.1") < clause_sort_key("S4.2.1a") < clause_sort_key("S4.2.1e")
    assert clause_sort_key("S4.2.1e") < clause_sort_key("S4.2.2")
    assert clause_sort_key("S4.2.0") < clause_sort_key("S4.2.1")
    with pytest.raises(KeyError):
        clause_sort_key("S9.9")


def test_every_parent_exists_and_matches_the_id() -> None:
    known = set(clause_ids())
    for c in CLAUSES:
        assert c.parent == _expected_parent(c.id), c.id
        if c.parent is not None:
            assert c.parent in known, c.id
            assert clause_ids().index(c.parent) < clause_ids().index(c.id), c.id


def test_section_field_is_the_top_level_id() -> None:
    for c in CLAUSES:
        assert c.section == c.id.split(".", 1)[0], c.id
        assert c.section in SECTIONS, c.id


def test_kinds() -> None:
    assert tuple(c.id for c in CLAUSES if c.kind == "section") == SECTIONS
    assert tuple(c.id for c in CLAUSES if c.kind == "heading") == HEADINGS
    for c in CLAUSES:
        assert c.kind in {"section", "heading", "clause"}, c.id
        assert (c.parent is None) == (c.kind == "section"), c.id


def test_normative_flags() -> None:
    for c in CLAUSES:
        expected = c.kind != "section" and c.id not in INFORMATIVE
        assert c.normative is expected, c.id
    assert normative_ids() == tuple(c.id for c in CLAUSES if c.normative)
    assert "S4.2.1b" in normative_ids()
    assert not set(INFORMATIVE) & set(normative_ids())
    assert not set(SECTIONS) & set(normative_ids())


def test_titles_and_statements_are_filled_in() -> None:
    for c in CLAUSES:
        assert c.title.strip() and len(c.title) <= 60, c.id
        assert c.statement.strip(), c.id


def test_ids_match_the_rule_text() -> None:
    declared = _declared_ids(_rules_text())
    assert len(declared) == len(set(declared)), "the rule text declares an ID twice"
    assert set(clause_ids()) == set(declared)
    assert list(clause_ids()) == declared


def test_statements_are_not_copied_from_the_rule_text() -> None:
    text = _rules_text()
    flat = " ".join(text.split())
    for c in CLAUSES:
        statement = " ".join(c.statement.split())
        assert statement not in text, c.id
        assert statement not in flat, c.id


def test_clause_lookup() -> None:
    entry = clause("S4.2.1b")
    assert entry.id == "S4.2.1b"
    assert entry.parent == "S4.2.1"
    assert entry.section == "S4"
    assert entry.kind == "clause"


def test_unknown_clause_raises_key_error_naming_it() -> None:
    with pytest.raises(KeyError, match=r"S9\.9"):
        clause("S9.9")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("S4.2.1b", ["S4.2.1b"]),
        ("S2", ["S2"]),
        ("see S6.3.0.", ["S6.3.0"]),
        ("XS4 S4.2.1bc S4_1 S4a1 s4.1", []),
        ("S6.4.1-S6.4.3, S4.2.1a..e", ["S6.4.1", "S6.4.3", "S4.2.1a"]),
    ],
)
def test_id_pattern_is_word_bounded(text: str, expected: list[str]) -> None:
    assert [m.group() for m in CLAUSE_ID_PATTERN.finditer(text)] == expected


def test_find_clause_ids_keeps_order_drops_unknown_and_duplicates() -> None:
    sample = (
        "Per S4.2.1b (and S1.4), the window polls clockwise; S9.9 is no clause, nor is S4.2.1z. "
        "XS4 is not an ID. See also S4.2.1b again, then S6.3.0 and S2."
    )
    assert find_clause_ids(sample) == ["S4.2.1b", "S1.4", "S6.3.0", "S2"]


def test_find_clause_ids_on_empty_text() -> None:
    assert find_clause_ids("no citations here") == []
