"""The rulings: each open question answered, citations and parameters real, RULINGS.md fresh."""

from __future__ import annotations

import re
from pathlib import Path

from buckshot.spec.clauses import clause_ids
from buckshot.spec.ruleset import load_ruleset
from buckshot.spec.rulings import RULINGS, render_markdown, ruling, ruling_ids

REPO = Path(__file__).resolve().parents[2]
OPEN_QUESTIONS = 15
"""rules.en.md, "What the text leaves open", lists questions 1..15."""


def _ruleset_keys(data: object, prefix: str = "") -> set[str]:
    keys: set[str] = set()
    if isinstance(data, dict):
        for key, value in data.items():
            dotted = f"{prefix}.{key}" if prefix else key
            keys.add(dotted)
            keys |= _ruleset_keys(value, dotted)
    return keys


def test_every_open_question_has_a_ruling() -> None:
    answered = {r.question for r in RULINGS if r.question is not None}
    assert answered == set(range(1, OPEN_QUESTIONS + 1))


def test_ids_are_r1_to_rn_in_order() -> None:
    assert ruling_ids() == tuple(f"R{n}" for n in range(1, len(RULINGS) + 1))


def test_every_ruling_decides_and_gives_a_reason() -> None:
    for entry in RULINGS:
        assert entry.clauses, entry.id
        assert len(entry.decision) > 40 and len(entry.reason) > 20, entry.id
        assert "unspecified" not in entry.decision.lower(), entry.id


def test_cited_clauses_exist() -> None:
    known = set(clause_ids())
    for entry in RULINGS:
        assert set(entry.clauses) <= known, (entry.id, set(entry.clauses) - known)
        mentioned = set(re.findall(r"\bS[1-6](?:\.[0-9]+)*[a-z]?\b", entry.decision))
        assert mentioned <= known, (entry.id, mentioned - known)


def test_parameters_are_ruleset_keys() -> None:
    keys = _ruleset_keys(load_ruleset().to_dict())
    for entry in RULINGS:
        assert set(entry.parameters) <= keys, (entry.id, set(entry.parameters) - keys)
        for name in re.findall(r"`([a-z_]+\.[a-z_]+)`", entry.decision):
            assert name in keys, (entry.id, name)


def test_rulings_cross_references_exist() -> None:
    ids = set(ruling_ids())
    for entry in RULINGS:
        assert set(re.findall(r"\bR[0-9]+\b", entry.decision + entry.reason)) <= ids, entry.id


def test_the_phase_three_conflict_is_decided_for_immediate_effect() -> None:
    """The brief's named conflict (S4.3.0 against S4.3.1 and S4.2.1e) has a ruling."""
    r5 = ruling("R5")
    assert {"S4.3.0", "S4.3.1", "S4.2.1e"} <= set(r5.clauses)
    assert "at once" in r5.decision


def test_committed_rulings_md_matches_the_data() -> None:
    committed = (REPO / "spec" / "RULINGS.md").read_text(encoding="utf-8")
    assert committed == render_markdown(), (
        "spec/RULINGS.md is stale: run `buckshot spec rulings --out spec/RULINGS.md`"
    )
