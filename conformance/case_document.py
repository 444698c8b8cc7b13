"""A generated conformance case as a document: its keys in the suite's order, its citations
split into clauses and rulings. Every family of the generator
(:mod:`buckshot.conformance.generate`) writes its cases through it."""

from __future__ import annotations

from typing import Any

from buckshot.spec.rulings import ruling_ids

RULING_IDS = frozenset(ruling_ids())
"""Every ruling's ID: a citation that is one is a ruling, any other a clause."""


def case_document(
    case_id: str,
    description: str,
    citations: list[str],
    features: list[str],
    setup: dict[str, Any],
    script: list[dict[str, Any]],
    expect: dict[str, Any],
    rulings_by_number: bool = True,
) -> dict[str, Any]:
    """A case document with its keys in the suite's order: ``citations`` gives its clauses
    (in their first order) and its rulings (by number, or in their first order), each
    once."""
    rulings = list(dict.fromkeys(cite for cite in citations if cite in RULING_IDS))
    return {
        "id": case_id,
        "description": description,
        "clauses": list(dict.fromkeys(cite for cite in citations if cite not in RULING_IDS)),
        "rulings": sorted(rulings, key=lambda r: int(r[1:])) if rulings_by_number else rulings,
        "features": list(dict.fromkeys(features)),
        "spec_version": {"min": "0.1.0"},  # the oldest spec version they hold for
        "generated_by": "conformance/generate.py",
        "setup": setup,
        "script": script,
        "expect": expect,
    }
