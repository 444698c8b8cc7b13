"""The traceability matrix: each clause of the rule text and each ruling against what cites it
(:data:`COLUMNS`). A normative one is a gap when nothing of the spec cites it, or no property
checks it and :data:`NOT_STATE_CONSTRAINTS` does not say why none need.
"""

from __future__ import annotations

import ast
import io
import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from importlib.resources import files
from pathlib import Path

from buckshot.paths import checkout_root
from buckshot.spec.chart_data import chart_models
from buckshot.spec.clauses import CLAUSES, find_clause_ids
from buckshot.spec.registry import ENTRIES
from buckshot.spec.rulebook import FRAMES, ITEMS, PHASES, ROLES, STACK
from buckshot.spec.rulings import RULINGS

COLUMNS = ("spec", "rulings", "engine", "verification", "properties", "conformance", "tests")
"""The kinds of citer, in the order the matrix shows them."""

NOT_STATE_CONSTRAINTS: dict[str, str] = {
    "R14": "who is shown what (each player's view of the game), not what the state may be "
    "or how a step may change it; the views and the conformance suite check it",
}
"""The normative rules that constrain no state or step, with the reason: the only ones
that may have no property.
"""

RULING_ID = re.compile(r"\bR[1-9][0-9]?\b")
"""A ruling ID in a text (kept only when it names a known ruling)."""


@dataclass
class ClauseTrace:
    """Who cites one clause or ruling, by kind of citer."""

    clause: str
    title: str
    normative: bool
    citers: dict[str, list[str]] = field(default_factory=lambda: {c: [] for c in COLUMNS})
    ruling: bool = False

    @property
    def covered(self) -> bool:
        """True when a spec element or a ruling cites it."""
        return bool(self.citers["spec"] or self.citers["rulings"])

    @property
    def checked(self) -> bool:
        """True when a property checks it, or it is in :data:`NOT_STATE_CONSTRAINTS`."""
        return bool(self.citers["properties"]) or self.clause in NOT_STATE_CONSTRAINTS


@dataclass
class TraceMatrix:
    """The matrix for every clause, in document order, and for every ruling, in ID order."""

    rows: list[ClauseTrace]
    rulings: list[ClauseTrace] = field(default_factory=list)

    def every_row(self) -> list[ClauseTrace]:
        """The clauses' rows, then the rulings'."""
        return [*self.rows, *self.rulings]

    def uncited(self) -> list[ClauseTrace]:
        """Normative clauses and rulings that nothing of the spec cites."""
        return [row for row in self.every_row() if row.normative and not row.covered]

    def unchecked(self) -> list[ClauseTrace]:
        """Normative clauses and rulings that no property checks, unexcused."""
        return [row for row in self.every_row() if row.normative and not row.checked]

    def uncovered(self) -> list[ClauseTrace]:
        """Every gap: a normative clause or ruling that is uncited or unchecked."""
        gaps = {row.clause for row in (*self.uncited(), *self.unchecked())}
        return [row for row in self.every_row() if row.clause in gaps]

    def to_dict(self) -> dict[str, object]:
        """The matrix as JSON-ready data."""

        def row_dict(row: ClauseTrace) -> dict[str, object]:
            return {
                "clause": row.clause,
                "title": row.title,
                "normative": row.normative,
                "covered": row.covered,
                "checked": row.checked,
                "citers": row.citers,
            }

        return {
            "columns": list(COLUMNS),
            "clauses": [row_dict(row) for row in self.rows],
            "rulings": [row_dict(row) for row in self.rulings],
            "not_state_constraints": dict(NOT_STATE_CONSTRAINTS),
            "uncited": [row.clause for row in self.uncited()],
            "unchecked": [row.clause for row in self.unchecked()],
            "uncovered": [row.clause for row in self.uncovered()],
        }


def _spec_citations() -> Iterable[tuple[str, Iterable[str]]]:
    for model in chart_models():
        for state in model.states:
            yield f"chart:{model.kind.value}/state:{state.id}", (*state.clauses, *state.rulings)
        for event in model.events():
            edges = [edge for edge in model.transitions if edge.event == event]
            cited = [c for edge in edges for c in (*edge.clauses, *edge.rulings)]
            yield f"chart:{model.kind.value}/event:{event}", cited
    for entry in ENTRIES:
        yield f"registry:{entry.name}", (*entry.clauses, *entry.rulings)
    for role in ROLES:
        yield f"role:{role.role.value}", (*role.clauses, *role.rulings)
    for item in ITEMS:
        yield f"item:{item.item.value}", (*item.clauses, *item.rulings)
    for phase in PHASES:
        yield f"phase:{phase.phase.value}", phase.clauses
    for frame in FRAMES:
        yield f"frame:{frame.kind.value}", (*frame.clauses, *frame.rulings)
    yield "stack", (*STACK.clauses, *STACK.rulings)


def _property_citations() -> Iterable[tuple[str, Iterable[str]]]:
    """Each checked property with the clauses and rulings it checks."""
    from buckshot.verification.proofs.induction import all_properties

    for prop in all_properties():
        yield prop.id, prop.clauses


def _python_sources(package: str) -> Iterable[tuple[str, str]]:
    """Each module of ``package`` (``buckshot/reference/game.py``...) with its text."""
    root = Path(str(files(package)))
    for path in sorted(root.rglob("*.py")):
        name = (package.replace(".", "/") / path.relative_to(root)).as_posix()
        yield name, path.read_text(encoding="utf-8")


def _ruling_ids(text: str) -> list[str]:
    """The known ruling IDs cited in a text, once each."""
    known = {ruling.id for ruling in RULINGS}
    return list(dict.fromkeys(m for m in RULING_ID.findall(text) if m in known))


def _case_citations(case_dirs: Iterable[Path]) -> Iterable[tuple[str, Iterable[str]]]:
    for directory in case_dirs:
        for path in sorted(directory.rglob("*.json")):
            try:
                case = json.loads(path.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                continue
            if not isinstance(case, dict):
                continue
            cited = [
                str(c)
                for key in ("clauses", "rulings")
                if isinstance(case.get(key), list)
                for c in case[key]
            ]
            if cited:
                yield f"case:{case.get('id', path.stem)}", cited


def _test_citations(tests: Path) -> Iterable[tuple[str, Iterable[str]]]:
    """Each test function (``path::name``) or module (``path``) of ``tests`` citing rules."""
    for path in sorted(tests.rglob("test_*.py")):
        name = path.relative_to(tests.parent).as_posix()
        try:
            text = path.read_text(encoding="utf-8")
            tree = ast.parse(text)
        except (OSError, SyntaxError, ValueError):
            continue
        module_doc = ast.get_docstring(tree) or ""
        cited = [*find_clause_ids(module_doc), *_ruling_ids(module_doc)]
        if cited:
            yield name, cited
        # the lines as ast.get_source_segment splits them, once per file (it splits the
        # whole text again for every function, most of the matrix's time)
        lines = io.StringIO(text, newline="").readlines()
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name.startswith(
                "test"
            ):
                # the function's source: its offsets count UTF-8 bytes, the last line's from
                # that line's start
                first, last = node.lineno - 1, (node.end_lineno or node.lineno) - 1
                data = "".join(lines[first : last + 1]).encode()
                end = len(data) - len(lines[last].encode()) + (node.end_col_offset or 0)
                body = data[node.col_offset : end].decode()
                cited = [*find_clause_ids(body), *_ruling_ids(body)]
                if cited:
                    yield f"{name}::{node.name}", cited


def build_matrix(
    case_dirs: Iterable[Path] | None = None, test_dir: Path | None = None
) -> TraceMatrix:
    """The traceability matrix, with cases from ``case_dirs`` (default: the cases shipped with
    the package) and tests from ``test_dir`` (default: the checkout's, none installed)."""
    from buckshot.conformance.bundled import CASES

    rows = {clause.id: ClauseTrace(clause.id, clause.title, clause.normative) for clause in CLAUSES}
    rulings = {r.id: ClauseTrace(r.id, r.title, True, ruling=True) for r in RULINGS}
    clause_rows = list(rows.values())
    rows.update(rulings)

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
            cite(column, name, [*find_clause_ids(text), *_ruling_ids(text)])
    for citer, clause_ids in _property_citations():
        cite("properties", citer, clause_ids)
    dirs = [CASES] if case_dirs is None else case_dirs
    for citer, clause_ids in _case_citations(d for d in dirs if d.is_dir()):
        cite("conformance", citer, clause_ids)
    root = checkout_root()
    tests = test_dir if test_dir is not None or root is None else root / "tests"
    if tests is not None and tests.is_dir():
        for citer, clause_ids in _test_citations(tests):
            cite("tests", citer, clause_ids)
    return TraceMatrix(clause_rows, list(rulings.values()))


def render_table(matrix: TraceMatrix) -> str:
    """The matrix as a plain-text table of citer counts, one rule a line, with a summary."""
    header = (
        f"{'clause':<9} {'norm':<4} "
        + " ".join(f"{c:>12}" for c in COLUMNS)
        + "  title  [properties]"
    )
    lines = [header, "-" * len(header)]
    for row in matrix.every_row():
        counts = " ".join(f"{len(row.citers[c]):>12}" for c in COLUMNS)
        mark = "yes" if row.normative else "-"
        checks = row.citers["properties"]
        named = f"  [{' '.join(checks)}]" if checks else ""
        if row.normative and row.clause in NOT_STATE_CONSTRAINTS and not checks:
            named = "  [no state or step constraint]"
        flag = ""
        if row.normative and not row.covered:
            flag += "  <-- UNCOVERED"
        if row.normative and not row.checked:
            flag += "  <-- NO PROPERTY"
        lines.append(f"{row.clause:<9} {mark:<4} {counts}  {row.title}{named}{flag}")
    normative = [row for row in matrix.every_row() if row.normative]
    clauses = [row for row in normative if not row.ruling]
    rulings = [row for row in normative if row.ruling]
    lines.append("")
    for column in COLUMNS:
        cited = sum(1 for row in clauses if row.citers[column])
        line = f"normative clauses cited by {column:<13}: {cited}/{len(clauses)}"
        if column != "rulings":
            ruled = sum(1 for row in rulings if row.citers[column])
            line += f"; rulings: {ruled}/{len(rulings)}"
        lines.append(line)
    for clause_id, reason in NOT_STATE_CONSTRAINTS.items():
        lines.append(f"{clause_id} constrains no state or step: {reason}")
    uncited = matrix.uncited()
    if uncited:
        ids = ", ".join(row.clause for row in uncited)
        lines.append(f"UNCOVERED normative clauses (no spec element, no ruling): {ids}")
    else:
        lines.append("every normative clause is cited by a spec element or a ruling")
    unchecked = matrix.unchecked()
    if unchecked:
        ids = ", ".join(row.clause for row in unchecked)
        lines.append(f"NO PROPERTY checks these normative clauses and rulings: {ids}")
    else:
        lines.append(
            "every normative clause and ruling is checked by a property, or constrains no "
            "state or step"
        )
    return "\n".join(lines) + "\n"


MARKDOWN = "docs/traceability.md"
"""Where the checkout keeps :func:`render_markdown`'s page (a test keeps it up to date)."""


def render_markdown(matrix: TraceMatrix) -> str:
    """The page committed as :data:`MARKDOWN`: the properties and cases of every rule."""
    rows = [row for row in matrix.every_row() if row.normative]
    checked = sum(1 for row in rows if row.citers["properties"])
    cased = sum(1 for row in rows if row.citers["conformance"])
    lines = [
        "<!-- Generated by `buckshot regen` (buckshot spec traceability --markdown);"
        " do not edit. -->",
        "",
        "# Which rule is checked by what",
        "",
        f"Of the {len(rows)} normative clauses and rulings, {checked} are checked by a property"
        f" of `buckshot verify` and {cased} by conformance cases. A rule with no property"
        " constrains no state or step; the reason is given.",
        "",
        "By chapter:",
        "",
        *chapter_summary(matrix),
        "",
        "Rule by rule:",
        "",
        "| rule | title | properties | conformance cases |",
        "|---|---|---|---|",
    ]
    for row in rows:
        props = " ".join(row.citers["properties"])
        if not props and row.clause in NOT_STATE_CONSTRAINTS:
            props = f"none: {NOT_STATE_CONSTRAINTS[row.clause]}"
        title = row.title.replace("|", "\\|")
        lines.append(f"| {row.clause} | {title} | {props} | {len(row.citers['conformance'])} |")
    return "\n".join(lines) + "\n"


def chapter_summary(matrix: TraceMatrix) -> list[str]:
    """The Markdown table of the properties checking each chapter's rules, and the rulings'."""
    rows = [row for row in matrix.every_row() if row.normative]
    groups: dict[str, list[ClauseTrace]] = {}
    titles = {row.clause: row.title for row in matrix.rows if not row.normative}
    for row in rows:
        key = "rulings" if row.ruling else row.clause.split(".", 1)[0]
        groups.setdefault(key, []).append(row)
    lines = ["| rules | checked by a property | properties |", "|---|---|---|"]
    for key, members in groups.items():
        if key == "rulings":
            name = f"rulings {members[0].clause}-{members[-1].clause}"
        else:
            name = f"{key} {titles.get(key, '')}".rstrip()
        checked = [row for row in members if row.citers["properties"]]
        count = f"{len(checked)} of {len(members)}"
        reasons = [
            f"{row.clause}: none, {NOT_STATE_CONSTRAINTS[row.clause]}"
            for row in members
            if not row.citers["properties"] and row.clause in NOT_STATE_CONSTRAINTS
        ]
        if reasons:
            count += " (" + "; ".join(reasons) + ")"
        props = sorted(
            {p for row in members for p in row.citers["properties"]}, key=_property_order
        )
        lines.append(f"| {name} | {count} | {' '.join(props)} |")
    return lines


def _property_order(pid: str) -> tuple[str, int]:
    """Properties by family letter, then number (T2 before T10)."""
    digits = "".join(ch for ch in pid if ch.isdigit())
    return (pid.rstrip("0123456789"), int(digits) if digits else 0)
