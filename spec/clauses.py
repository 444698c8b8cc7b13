"""The index of the rule text's clauses (``clauses.toml``), so that code, rulings and tests
can cite them by ID.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from importlib.resources import files
from typing import Any, Final, Literal, cast

ClauseKind = Literal["section", "heading", "clause"]
"""A top-level section, a sub-heading without rule text, or a clause with rule text."""

_KINDS: Final[frozenset[str]] = frozenset({"section", "heading", "clause"})

CLAUSE_ID_PATTERN: Final[re.Pattern[str]] = re.compile(
    r"\bS(?:[1-9][0-9]*+)(?:\.[0-9]++)*+[a-z]?+\b"
)
"""Matches a clause ID such as ``S2``, ``S1.1``, ``S6.3.0`` or ``S4.2.1b`` as a whole word."""


@dataclass(frozen=True)
class Clause:
    """One entry of the clause index: a section, a sub-heading or a clause of the rule text."""

    id: str
    """E.g. ``"S4.2.1b"``; ``section`` is its top-level section's, ``parent`` None for a section."""
    section: str
    parent: str | None
    kind: ClauseKind
    title: str
    statement: str
    """What it requires, in one or two sentences of the project's own words."""
    normative: bool
    """Whether it states a rule (``False`` for sections and informative text)."""


def _text_field(table: dict[str, Any], key: str, where: str) -> str:
    value = table.get(key)
    if not isinstance(value, str) or not value.strip():
        raise ValueError(f"clauses.toml: {where}: {key!r} must be a non-empty string")
    return value


def _parse_entry(table: dict[str, Any], index: int) -> Clause:
    where = f"clause #{index + 1}"
    clause_id = _text_field(table, "id", where)
    where = f"clause {clause_id}"
    if CLAUSE_ID_PATTERN.fullmatch(clause_id) is None:
        raise ValueError(f"clauses.toml: {where}: malformed ID")
    kind = _text_field(table, "kind", where)
    if kind not in _KINDS:
        raise ValueError(f"clauses.toml: {where}: unknown kind {kind!r}")
    parent = table.get("parent")
    if parent is not None and not isinstance(parent, str):
        raise ValueError(f"clauses.toml: {where}: 'parent' must be a string")
    normative = table.get("normative")
    if not isinstance(normative, bool):
        raise ValueError(f"clauses.toml: {where}: 'normative' must be a boolean")
    unknown = set(table) - {"id", "section", "parent", "kind", "title", "statement", "normative"}
    if unknown:
        raise ValueError(f"clauses.toml: {where}: unknown keys {sorted(unknown)}")
    return Clause(
        id=clause_id,
        section=_text_field(table, "section", where),
        parent=parent,
        kind=cast(ClauseKind, kind),
        title=_text_field(table, "title", where),
        statement=_text_field(table, "statement", where),
        normative=normative,
    )


def _load() -> tuple[Clause, ...]:
    text = files("buckshot.spec").joinpath("clauses.toml").read_text(encoding="utf-8")
    entries = tomllib.loads(text).get("clause")
    if not isinstance(entries, list):
        raise ValueError("clauses.toml: expected an array of [[clause]] tables")
    loaded: list[Clause] = []
    for index, entry in enumerate(entries):
        if not isinstance(entry, dict):
            raise ValueError(f"clauses.toml: clause #{index + 1} is not a table")
        loaded.append(_parse_entry(cast(dict[str, Any], entry), index))
    return tuple(loaded)


CLAUSES: Final[tuple[Clause, ...]] = _load()

_BY_ID: Final[dict[str, Clause]] = {c.id: c for c in CLAUSES}
if len(_BY_ID) != len(CLAUSES):
    raise ValueError("clauses.toml: duplicate clause IDs")


def clause(clause_id: str) -> Clause:
    """The index entry with the given ID; raises ``KeyError`` if there is none."""
    try:
        return _BY_ID[clause_id]
    except KeyError:
        raise KeyError(f"unknown clause ID {clause_id!r}") from None


def clause_ids() -> tuple[str, ...]:
    """The IDs of all index entries, in the order of the rule text."""
    return tuple(c.id for c in CLAUSES)


def normative_ids() -> tuple[str, ...]:
    """The IDs of the entries that state rules, in the order of the rule text."""
    return tuple(c.id for c in CLAUSES if c.normative)


def find_clause_ids(text: str) -> list[str]:
    """The known clause IDs cited in a text, once each, in order of first appearance."""
    found: list[str] = []
    seen: set[str] = set()
    for match in CLAUSE_ID_PATTERN.finditer(text):
        clause_id = match.group()
        if clause_id in _BY_ID and clause_id not in seen:
            seen.add(clause_id)
            found.append(clause_id)
    return found


def clause_sort_key(clause_id: str) -> tuple[int, ...]:
    """A key ordering known clause IDs as the rule text does (``S4.2.1b``: ``(4, 2, 1, 2)``);
    KeyError otherwise.
    """
    clause(clause_id)
    numbers, letter = clause_id[1:], ""
    if numbers[-1].isalpha():
        numbers, letter = numbers[:-1], numbers[-1]
    key = [int(part) for part in numbers.split(".")]
    if letter:
        key.append(ord(letter) - ord("a") + 1)
    return tuple(key)
