"""The traceability matrix: each clause of the rule text against everything that cites it.

Five kinds of citer are counted: spec elements (chart states and events, registry entries,
rulebook entries), rulings, engine code (``buckshot.reference``), verification checks
(``buckshot.verification``) and conformance cases (JSON files with a ``clauses`` list).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from importlib.resources import files
from importlib.resources.abc import Traversable
from pathlib import Path

from buckshot.spec.clauses import CLAUSES, find_clause_ids
from buckshot.spec.model import chart_models
from buckshot.spec.registry import ENTRIES
from buckshot.spec.rulebook import FRAMES, ITEMS, PHASES, ROLES, STACK
from buckshot.spec.rulings import RULINGS

COLUMNS = ("spec", "rulings", "engine", "verification", "conformance")
"""The kinds of citer, in the order the matrix shows them."""


@dataclass
class ClauseTrace:
    """Who cites one clause, by kind of citer."""

    clause: str
    title: str
    normative: bool
    citers: dict[str, list[str]] = field(default_factory=lambda: {c: [] for c in COLUMNS})

    @property
    def covered(self) -> bool:
        """True when a spec element or a ruling cites the clause."""
        return bool(self.citers["spec"] or self.citers["rulings"])


@dataclass
class TraceMatrix:
    """The matrix for every clause, in document order."""

    rows: list[ClauseTrace]

    def uncovered(self) -> list[ClauseTrace]:
        """Normative clauses that no spec element and no ruling cites."""
        return [row for row in self.rows if row.normative and not row.covered]

    def to_dict(self) -> dict[str, object]:
        """The matrix as JSON-ready data."""
        return {
            "columns": list(COLUMNS),
            "clauses": [
                {
                    "clause": row.clause,
                    "title": row.title,
                    "normative": row.normative,
                    "covered": row.covered,
                    "citers": row.citers,
                }
                for row in self.rows
            ],
            "uncovered": [row.clause for row in self.uncovered()],
        }


def _spec_citations() -> Iterable[tuple[str, Iterable[str]]]:
    for model in chart_models():
        for state in model.states:
            yield f"chart:{model.kind.value}/state:{state.id}", state.clauses
        for event in model.events():
            edges = [edge for edge in model.transitions if edge.event == event]
            yield f"chart:{model.kind.value}/event:{event}", edges[0].clauses
    for entry in ENTRIES:
        yield f"registry:{entry.name}", entry.clauses
    for role in ROLES:
        yield f"role:{role.role.value}", role.clauses
    for item in ITEMS:
        yield f"item:{item.item.value}", item.clauses
    for phase in PHASES:
        yield f"phase:{phase.phase.value}", phase.clauses
    for frame in FRAMES:
        yield f"frame:{frame.kind.value}", frame.clauses
    yield "stack", STACK.clauses


def _python_sources(package: str) -> Iterable[tuple[str, str]]:
    try:
        root = files(package)
    except ModuleNotFoundError:
        return
    yield from _walk_sources(root, package.replace(".", "/"), ".py")


def _walk_sources(root: Traversable, prefix: str, suffix: str) -> Iterable[tuple[str, str]]:
    for child in sorted(root.iterdir(), key=lambda item: item.name):
        name = f"{prefix}/{child.name}"
        if child.is_dir():
            yield from _walk_sources(child, name, suffix)
        elif child.name.endswith(suffix):
            yield name, child.read_text(encoding="utf-8")


def _case_citations(case_dirs: Iterable[Path]) -> Iterable[tuple[str, Iterable[str]]]:
    for directory in case_dirs:
        for path in sorted(directory.rglob("*.json")):
            try:
                case = json.loads(path.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                continue
            if isinstance(case, dict) and isinstance(case.get("clauses"), list):
                yield f"case:{case.get('id', path.stem)}", [str(c) for c in case["clauses"]]


def default_case_dirs() -> list[Path]:
    """The conformance cases shipped with the package (empty if they are missing)."""
    from buckshot.conformance.bundled import CASES

    return [CASES] if CASES.is_dir() else []


def build_matrix(case_dirs: Iterable[Path] | None = None) -> TraceMatrix:
    """The traceability matrix of the spec as installed, with cases from ``case_dirs``."""
    rows = {clause.id: ClauseTrace(clause.id, clause.title, clause.normative) for clause in CLAUSES}

    def cite(column: str, citer: str, clause_ids: Iterable[str]) -> None:
        for clause_id in dict.fromkeys(clause_ids):
            if clause_id in rows and citer not in rows[clause_id].citers[column]:
                rows[clause_id].citers[column].append(citer)

    for citer, clause_ids in _spec_citations():
        cite("spec", citer, clause_ids)
    for ruling in RULINGS:
        cite("rulings", ruling.id, ruling.clauses)
    for column, package in (
        ("engine", "buckshot.reference"),
        ("verification", "buckshot.verification"),
    ):
        for name, text in _python_sources(package):
            cite(column, name, find_clause_ids(text))
    dirs = default_case_dirs() if case_dirs is None else list(case_dirs)
    for citer, clause_ids in _case_citations(dirs):
        cite("conformance", citer, clause_ids)
    return TraceMatrix(list(rows.values()))


def render_table(matrix: TraceMatrix) -> str:
    """The matrix as a plain-text table of citer counts, one clause a line, with a summary."""
    header = f"{'clause':<9} {'norm':<4} " + " ".join(f"{c:>12}" for c in COLUMNS) + "  title"
    lines = [header, "-" * len(header)]
    for row in matrix.rows:
        counts = " ".join(f"{len(row.citers[c]):>12}" for c in COLUMNS)
        mark = "yes" if row.normative else "-"
        flag = "" if row.covered or not row.normative else "  <-- UNCOVERED"
        lines.append(f"{row.clause:<9} {mark:<4} {counts}  {row.title}{flag}")
    normative = [row for row in matrix.rows if row.normative]
    lines.append("")
    for column in COLUMNS:
        cited = sum(1 for row in normative if row.citers[column])
        lines.append(f"normative clauses cited by {column:<13}: {cited}/{len(normative)}")
    uncovered = matrix.uncovered()
    if uncovered:
        ids = ", ".join(row.clause for row in uncovered)
        lines.append(f"UNCOVERED normative clauses (no spec element, no ruling): {ids}")
    else:
        lines.append("every normative clause is cited by a spec element or a ruling")
    return "\n".join(lines) + "\n"
