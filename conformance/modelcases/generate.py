"""Write the conformance cases generated from the executable spec (``data/cases/model/``).

``buckshot regen`` rewrites them from :func:`render_all` (``--check`` names the files that
differ; a test runs the same check). For each
table size of :data:`.goals.SEAT_COUNTS`, seeded random games of the model are cut into
paths that together take every transition and evaluate every guard both ways
(:mod:`.select`); every expectation is the model's. Nothing here imports the reference
engine.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path as FilePath
from typing import Any

from buckshot.conformance.case_document import SPEC_MIN
from buckshot.conformance.generate import HERE, to_text
from buckshot.conformance.generate import differences as rule_differences
from buckshot.conformance.modelcases.expect import expectations
from buckshot.conformance.modelcases.goals import SEAT_COUNTS, gaps
from buckshot.conformance.modelcases.paths import PATCHES, Path, path_goals
from buckshot.conformance.modelcases.script import script
from buckshot.conformance.modelcases.select import played_paths, probe_paths
from buckshot.spec.rulebook import FrameKind
from buckshot.verification.model.layout import ROLES

OUT = HERE / "cases" / "model"
GENERATOR = "conformance/modelcases/generate.py"
SEED = 20261201
"""The seed of every random game (the output depends on nothing else)."""


def features(path: Path, document: dict[str, Any]) -> list[str]:
    """The feature tags the case needs, from its seats, script and expectations."""
    tags: list[str] = [f"role.{ROLES[code].value}" for code in sorted(set(path.roles))]
    items = {e["value"] for e in document["script"] if e.get("chance") == "item"}
    tags += [f"item.{name}" for name in sorted(items)]
    kinds = {
        e["data"]["kind"]
        for check in document["expect"]["events"]
        for e in check["events"]
        if e["type"] == "frame_pushed"
    }
    tags += [
        f"frame.{kind.value}" for kind in FrameKind if kind.value in kinds and kind.value != "turn"
    ]
    types = {e["type"] for check in document["expect"]["events"] for e in check["events"]}
    if "converted" in types:
        tags.append("traitor")
    if "eliminated" in types:
        tags.append("elimination")
    finished = document["expect"]["state"]["result"]
    if finished is not None:
        tags.append(f"win.{finished['reason']}")
    tags += ["chamber.load", "trace.exact"]
    if PATCHES[path.patch]:
        tags.append("ruleset.patch")
    if path.n >= 5:
        tags.append("table.large")
    if path.probe is not None:
        tags.append("negative.decision")
    return tags


def citations(path: Path) -> tuple[list[str], list[str]]:
    """The clauses and rulings of the transitions the path takes, in first-taken order."""
    clauses: dict[str, None] = {}
    rulings: dict[str, None] = {}
    for step in path.steps:
        clauses.update(dict.fromkeys(step.edge.edge.clauses))
        rulings.update(dict.fromkeys(step.edge.edge.rulings))
    return list(clauses), list(rulings)


def document(path: Path, case_id: str) -> dict[str, Any]:
    """The case file of ``path``."""
    roles = [ROLES[code].value for code in path.roles]
    setup: dict[str, Any] = {"seats": [{"role": role} for role in roles], "owner": 0, "chamber": []}
    if PATCHES[path.patch]:
        setup["ruleset"] = PATCHES[path.patch]
    what = (
        "ends with a decision the model refuses"
        if path.probe is not None
        else f"ends in {path.spec.top(path.end()).frame.value}:{path.spec.top(path.end()).id}"
    )
    clauses, rulings = citations(path)
    out: dict[str, Any] = {
        "id": case_id,
        "description": (
            f"A game of the executable spec at {path.n} seats ({', '.join(roles)}), "
            f"{len(path.steps)} model steps; it {what}. Prompts, options, traces and the end "
            "state are the model's"
        ),
        "clauses": clauses or ["S4.1"],
        "rulings": rulings,
        "features": [],
        "spec_version": {"min": SPEC_MIN},
        "generated_by": GENERATOR,
        "setup": setup,
        "script": script(path),
        "expect": expectations(path),
    }
    out["features"] = features(path, out)
    return out


@cache
def all_paths() -> dict[str, Path]:
    """Every path the cases are written from, by case ID."""
    out: dict[str, Path] = {}
    for n in SEAT_COUNTS:
        played = played_paths(n, SEED)
        covered: set[str] = set()
        for path in played:
            covered |= path_goals(path)
        refused = probe_paths(played, covered)
        for index, path in enumerate(played, 1):
            out[f"model.n{n}.game{index:02d}"] = path
        for index, path in enumerate(refused, 1):
            out[f"model.n{n}.refused{index:02d}"] = path
    return out


def render_all() -> dict[FilePath, str]:
    """Every model case file: its path and its text."""
    return {
        OUT / f"{case_id}.json": to_text(document(path, case_id)) + "\n"
        for case_id, path in all_paths().items()
    }


def table_gaps() -> dict[int, list[str]]:
    """For each table size, the goals the generated paths leave uncovered."""
    found: dict[int, set[str]] = {n: set() for n in SEAT_COUNTS}
    for path in all_paths().values():
        found[path.n] |= path_goals(path)
    return {n: gaps(goals, n) for n, goals in found.items()}


def differences(files: dict[FilePath, str]) -> list[str]:
    """How the files on disk differ from ``files`` (missing, changed, extra)."""
    return rule_differences(files, OUT)
