"""How a fault is declared: one record per deliberate bug, checked when it is declared."""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum

from buckshot.conformance.coverage import check_citations


class Room(StrEnum):
    """Which part of the project a fault breaks, and so which checks must catch it."""

    MODEL = "model"
    """The formal model: caught by the proofs (with a reachable path as evidence)."""
    CHART = "chart"
    """A chart's transitions, as the model reads them: caught by the proofs."""
    ENGINE = "engine"
    """The reference engine's rules: caught by conformance cases."""
    CONTRACT = "contract"
    """The adapter's contract (INTERPRETING.md, the rulings): caught by conformance cases."""


@dataclass(frozen=True)
class Fault:
    """One deliberate bug: its name, what it breaks and which checks must catch it."""

    name: str
    room: Room
    summary: str
    """What the bug does, in words (no IDs: those are in ``breaks``)."""
    breaks: tuple[str, ...]
    """The clauses, rulings and MUST tags of INTERPRETING.md it breaks."""
    caught_by: tuple[str, ...]
    """The checks that must catch it: property IDs (model, chart) or case IDs (engine,
    contract)."""


CITATION = re.compile(r"\b(?:S\d+\.\d|R\d+\b|M\d+(?:\.\d+)?[a-z]\b)")
"""An ID of a clause, ruling or MUST tag in a summary (they belong in ``breaks``)."""

FAULTS: dict[str, Fault] = {}
"""Every declared fault, by name, in declaration order."""


def declare(fault: Fault) -> Fault:
    """Add ``fault`` to :data:`FAULTS`, refusing a repeated name, an empty ``breaks`` or
    ``caught_by``, an unknown ID, or an ID in the summary (``ValueError``)."""
    owner = f"fault {fault.name}"
    if fault.name in FAULTS:
        raise ValueError(f"{owner} is declared twice")
    if not fault.breaks:
        raise ValueError(f"{owner} names nothing it breaks")
    if not fault.caught_by:
        raise ValueError(f"{owner} names no check that must catch it")
    check_citations(owner, fault.breaks)
    if CITATION.search(fault.summary):
        raise ValueError(f"{owner}: its summary repeats IDs; keep them in breaks")
    FAULTS[fault.name] = fault
    return fault
