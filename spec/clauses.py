"""The index of the rule text's clauses (``clauses.toml``), so that code, rulings and tests
can cite them by ID.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from importlib.resources import files
from typing import Final, Literal

ClauseKind = Literal["section", "heading", "clause"]
"""A top-level section, a sub-heading without rule text, or a clause with rule text."""

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


def _load() -> tuple[Clause, ...]:
    """The index as ``clauses.toml`` holds it (its contents checked by tests/spec/test_clauses.py);
    a key missing or unknown fails here."""
    text = files("buckshot.spec").joinpath("clauses.toml").read_text(encoding="utf-8")
    return tuple(Clause(**{"parent": None, **entry}) for entry in tomllib.loads(text)["clause"])


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
    cited = (match.group() for match in CLAUSE_ID_PATTERN.finditer(text))
    return list(dict.fromkeys(clause_id for clause_id in cited if clause_id in _BY_ID))


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
