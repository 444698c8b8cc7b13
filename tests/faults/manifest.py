"""The manifest of faults (``manifest.json``): one row per deliberate bug, read as data.

A row names the fault, its room, what it does (``summary``), the clauses, rulings and MUST
tags it breaks (``breaks``), the checks that must catch it (``caught_by``: case IDs,
chance-mode experiment IDs or property IDs) and the verdict those checks must give
(``expected``, one of :data:`VERDICTS`). Rows of the model may say where the evidence walk
looks (``table``, ``variant``, ``counts``); rows of the stranger batches name their
``batch`` (and the second batch's the ``kind`` of bug). The breakers and patches are Python,
keyed by the same names (:func:`breakers`, :func:`patches`).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from buckshot.reference.adapter import Run
from buckshot.spec.rulebook import Role
from buckshot.verification.model.patch import Patch
from buckshot.verification.proofs.reach import Table
from faults.served import Breaker

MANIFEST = Path(__file__).with_name("manifest.json")
"""The manifest, beside this module."""

ROOMS = ("engine", "contract", "chance", "model", "chart")
"""Which part of the project a fault breaks: the reference engine's rules, the adapter's
contract, free chance, the formal model, a chart's transitions as the model reads them."""

CASES_FAIL = "cases fail"
EXPERIMENTS_REJECT = "experiments reject"
CAUGHT = "caught with evidence"
CTI_ONLY = "cti only"
VERDICTS = {
    CASES_FAIL: "every conformance case of caught_by fails with the fault",
    EXPERIMENTS_REJECT: "every chance-mode experiment of caught_by rejects the fault",
    CAUGHT: "a proof of a property of caught_by fails with a counterexample the executable "
    "spec confirms, and a seeded walk from an initial state reaches the bug",
    CTI_ONLY: "a proof of a property of caught_by fails, but no path from an initial state "
    "shows the bug (not counted as caught)",
}
"""The verdicts a row may expect, and what each means."""

EXPECTED_BY_ROOM = {
    "engine": {CASES_FAIL},
    "contract": {CASES_FAIL},
    "chance": {EXPERIMENTS_REJECT},
    "model": {CAUGHT, CTI_ONLY},
    "chart": {CAUGHT, CTI_ONLY},
}
"""The verdicts each room's checks can give."""

BATCHES = ("stranger-1", "stranger-2", "stranger-3")
"""The batches of bugs written by strangers to the checks (the first two of the model only)."""


@dataclass(frozen=True)
class Row:
    """One fault of the manifest."""

    name: str
    room: str
    summary: str
    """What the bug does, in words (no IDs: those are in ``breaks``)."""
    breaks: tuple[str, ...]
    """The clauses, rulings and MUST tags it breaks."""
    caught_by: tuple[str, ...]
    """The checks that must catch it: case IDs (engine, contract), chance-mode experiment
    IDs (chance) or property IDs (model, chart; the first expected to)."""
    expected: str
    """The verdict the checks must give (:data:`VERDICTS`)."""
    batch: str = ""
    """The stranger batch the bug comes from ("" for the project's own)."""
    kind: str = ""
    """The kind of bug, for the second stranger batch (choice, chance, end of game)."""
    table: Table | None = None
    """Where the evidence walk looks (model rows), when not every table."""
    variant: tuple[str, tuple[tuple[str, object], ...]] | None = None
    """A ruleset change the evidence walk tries: its label and its dotted keys."""
    counts: tuple[int, int] | None = None
    """The player counts at which the bug can show at all, when not every count."""
    extra: Mapping[str, Any] = field(default_factory=dict, compare=False)
    """Fields of the row this reader does not know (a test refuses them)."""

    @property
    def served(self) -> bool:
        """Served by the reference adapter (engine, contract, chance), not a model patch."""
        return self.room in ("engine", "contract", "chance")


_KNOWN = {"name", "room", "summary", "breaks", "caught_by", "expected", "batch", "kind"}
_KNOWN |= {"table", "variant", "counts"}


def _row(data: dict[str, Any]) -> Row:
    table = data.get("table")
    variant = data.get("variant")
    counts = data.get("counts")
    return Row(
        name=data["name"],
        room=data["room"],
        summary=data["summary"],
        breaks=tuple(data["breaks"]),
        caught_by=tuple(data["caught_by"]),
        expected=data["expected"],
        batch=data.get("batch", ""),
        kind=data.get("kind", ""),
        table=None
        if table is None
        else Table(
            table["players"],
            Role(table["role"]) if "role" in table else None,
            frozenset(table.get("prefer", ())),
        ),
        variant=None if variant is None else (variant["label"], tuple(variant["changes"].items())),
        counts=None if counts is None else (counts[0], counts[1]),
        extra={key: value for key, value in data.items() if key not in _KNOWN},
    )


@cache
def rows() -> tuple[Row, ...]:
    """Every row of the manifest, in its order."""
    data = json.loads(MANIFEST.read_text(encoding="utf-8"))
    return tuple(_row(entry) for entry in data["faults"])


def row(name: str) -> Row:
    """The row of the fault ``name`` (``KeyError`` naming the known faults)."""
    for found in rows():
        if found.name == name:
            return found
    raise KeyError(f"no fault {name!r} in {MANIFEST.name}")


def select(*rooms: str, batch: str | None = "", names: tuple[str, ...] = ()) -> list[Row]:
    """The rows of ``rooms`` (every room when none is named) of ``batch`` ("": the project's
    own; None: any batch), or of ``names`` alone when given."""
    return [
        found
        for found in rows()
        if (not rooms or found.room in rooms)
        and (batch is None or found.batch == batch)
        and (not names or found.name in names)
    ]


def breakers() -> dict[str, Breaker]:
    """Every breaker served by the reference adapter, by name: the engine's, the
    contract's, free chance's, then the third stranger batch's."""
    from faults import chance, contract, engine, stranger_3

    return {**engine.BREAKERS, **contract.BREAKERS, **chance.BREAKERS, **stranger_3.BREAKERS}


def patches() -> dict[str, Patch]:
    """Every patch of the model, by name: the project's faults, then the stranger batches."""
    from faults import model, stranger_1, stranger_2, stranger_3

    return {**model.PATCHES, **stranger_1.PATCHES, **stranger_2.PATCHES, **stranger_3.PATCHES}


def serve(name: str) -> type[Run]:
    """Break the engine in this process as the served fault ``name`` says; the run class to
    serve with (``KeyError`` naming the known faults when there is no such fault)."""
    from faults.served import apply

    found = breakers()
    if name not in found:
        raise KeyError(f"unknown fault {name!r}; known: {', '.join(found)}")
    return apply(found[name])


def patch_of(*names: str) -> Patch:
    """The model with the faults ``names`` at once (``KeyError`` naming an unknown one)."""
    found = patches()
    patch = Patch()
    for name in names:
        if name not in found:
            raise KeyError(f"unknown model fault {name!r}; known: {', '.join(found)}")
        patch = patch | found[name]
    return patch
