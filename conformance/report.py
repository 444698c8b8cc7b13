"""Reports of a run: the plain-text summary it prints, JSON lines (header, one line per case,
summary) and JUnit XML, and two reports compared case by case, by case ID (never by position
or sequence number).

The commands write both whole or not at all (:func:`buckshot.command.save`).
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from rich.table import Table
from rich.text import Text

from buckshot.command import InputError, json_problem, read_input
from buckshot.conformance.bundled import suite_path
from buckshot.conformance.protocol import REPORT_FORMAT, implementation_name
from buckshot.conformance.runner import STATUSES, CaseResult, RunResult
from buckshot.conformance.schemas import SchemaSet
from buckshot.spec import SPEC_VERSION
from buckshot.spec.clauses import clause_sort_key

LINE_TYPES = ("header", "case", "summary")
"""The kinds of line a report holds, each a ``$defs`` entry of ``report.schema.json``."""


class ReportError(Exception):
    """A file is not a report this runner can read; ``code`` is ``report.unreadable`` (missing,
    a folder, no permission) or ``report.invalid``."""

    def __init__(self, message: str, code: str = "report.invalid") -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True)
class Report:
    """A report read back: its header, its case lines by ID (in file order), its summary."""

    header: dict[str, Any]
    cases: dict[str, dict[str, Any]]
    summary: dict[str, Any] | None


def report_lines(run: RunResult) -> list[dict[str, Any]]:
    """Every line of the JSON-lines report, in order."""
    return [run.header_json(), *(result.to_json() for result in run.results), run.summary_json()]


def jsonl_text(run: RunResult) -> str:
    """The JSON-lines report of ``run``."""
    return "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in report_lines(run))


@cache
def _schemas() -> SchemaSet:
    return SchemaSet(suite_path("schemas"))


def line_problem(line: Any) -> str | None:
    """How one line of a report (read as JSON) breaks ``report.schema.json``, as
    ``field: reason``; None when it fits."""
    if not isinstance(line, dict):
        return "(top): not a JSON object"
    kind = line.get("type")
    if kind not in LINE_TYPES:
        return f"type: {kind!r} is not one of {', '.join(LINE_TYPES)}"
    return _schemas().problem("report", line, kind)


def read_jsonl(path: Path) -> Report:
    """The report in ``path``; :class:`ReportError` naming the line and the field if a line
    does not fit ``report.schema.json`` (or the file is no report at all)."""
    try:
        text = read_input(path, f"{REPORT_FORMAT} report", "report")
    except InputError as error:
        raise ReportError(str(error), error.code) from None
    numbered: list[tuple[int, Any]] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip():
            continue
        try:
            numbered.append((number, json.loads(raw)))
        except ValueError as error:
            reason = json_problem(error, where=False)
            raise ReportError(f"{path}, line {number}: {reason}, not a report line") from None
    first = numbered[0][1] if numbered else None
    if not (
        isinstance(first, dict)
        and first.get("type") == "header"
        and first.get("format") == REPORT_FORMAT
    ):
        raise ReportError(f"{path}: not a {REPORT_FORMAT} report (no header line)")
    for number, line in numbered:
        if (problem := line_problem(line)) is not None:
            raise ReportError(f"{path}, line {number}: {problem}")
    lines = [line for _, line in numbered]
    cases = {line["id"]: line for line in lines if line["type"] == "case"}
    summaries = [line for line in lines if line["type"] == "summary"]
    return Report(lines[0], cases, summaries[-1] if summaries else None)


def _junit_case(result: CaseResult) -> ET.Element:
    element = ET.Element(
        "testcase",
        classname=f"conformance.{result.case.area}",
        name=result.case.id,
        time=f"{result.duration_ms / 1000:.4f}",
        file=str(result.case.path),
    )
    text = result.message or ""
    if result.divergence is not None:
        text += "\n" + json.dumps(result.divergence.to_json(), indent=2, ensure_ascii=False)
    if result.status == "failed":
        ET.SubElement(
            element, "failure", message=result.message or "", type="divergence"
        ).text = text
    elif result.status == "errored":
        ET.SubElement(element, "error", message=result.message or "", type="adapter").text = text
    elif result.status == "skipped":
        ET.SubElement(element, "skipped", message=result.message or "")
    elif result.status == "xfail":
        ET.SubElement(element, "skipped", message=f"known failure: {result.known_failure}")
    elif result.status == "xpass" and result.known_failure is not None:
        ET.SubElement(
            element, "system-out"
        ).text = f"passes, but is marked as a known failure: {result.known_failure}"
    return element


def junit_xml(run: RunResult) -> str:
    """The run as a JUnit XML document (xfail shows as skipped, xpass as passed)."""
    counts = run.counts()
    strict = run.options.strict_known_failures
    suite = ET.Element(
        "testsuite",
        name="buckshot-conformance",
        tests=str(len(run.results)),
        failures=str(counts["failed"] + (counts["xpass"] if strict else 0)),
        errors=str(counts["errored"]),
        skipped=str(counts["skipped"] + counts["xfail"]),
        time=f"{run.seconds:.3f}",
        timestamp=run.started,
    )
    properties = ET.SubElement(suite, "properties")
    implementation = (run.hello or {}).get("implementation", {})
    for name, value in (
        ("adapter", run.options.adapter),
        ("implementation", implementation.get("name", "")),
        ("implementation.version", implementation.get("version", "")),
        ("spec_version", SPEC_VERSION),
    ):
        ET.SubElement(properties, "property", name=name, value=str(value))
    for result in run.results:
        element = _junit_case(result)
        if strict and result.status == "xpass":
            ET.SubElement(element, "failure", message="passes, but is marked as a known failure")
        suite.append(element)
    ET.indent(suite)
    return (
        '<?xml version="1.0" encoding="utf-8"?>\n' + ET.tostring(suite, encoding="unicode") + "\n"
    )


# --- the summary a run prints: failures first, then counts by clause and by feature ----


def _clause_key(clause: str) -> Any:
    try:
        return (0, clause_sort_key(clause))
    except KeyError:
        return (1, clause)


GROUPINGS: dict[str, tuple[Callable[[CaseResult], Iterable[str]], Callable[[str], Any]]] = {
    "clause": (lambda r: r.case.clauses, _clause_key),
    "ruling": (lambda r: r.case.rulings, lambda k: int(k[1:])),
    "feature": (lambda r: r.case.features, str),
}
"""The summary's tables: what a case is counted under, and the order of the rows."""

Counts = list[tuple[str, int, list[int]]]
"""A table's rows: its key, its number of cases, its count for each of :data:`STATUSES`."""


def _counts(run: RunResult, title: str) -> Counts:
    """The rows of the table by ``title`` (a key of :data:`GROUPINGS`), in its order."""
    keys, order = GROUPINGS[title]
    rows: dict[str, list[CaseResult]] = defaultdict(list)
    for result in run.results:
        for key in keys(result):
            rows[key].append(result)
    return [
        (key, len(rows[key]), [sum(1 for r in rows[key] if r.status == c) for c in STATUSES])
        for key in sorted(rows, key=order)
    ]


def _table(title: str, counts: Counts) -> str:
    width = max([len(title), *(len(key) for key, _, _ in counts)])
    header = f"{title:<{width}} {'cases':>5} " + " ".join(f"{c:>7}" for c in STATUSES)
    lines = [header, "-" * len(header)]
    for key, cases, by_status in counts:
        cells = " ".join(f"{n if n else '.':>7}" for n in by_status)
        lines.append(f"{key:<{width}} {cases:>5} {cells}")
    return "\n".join(lines)


def _data_table(title: str, counts: Counts) -> Table:
    """The same counts as :func:`_table`, as a table for CSV or Markdown."""
    table = Table(title=f"cases by {title}")
    for heading in (title, "cases", *STATUSES):
        table.add_column(heading)
    for key, cases, by_status in counts:
        table.add_row(Text(key), str(cases), *(str(n) for n in by_status))
    return table


def problems(run: RunResult) -> str:
    """One paragraph per case that failed, errored or passed while marked; empty if none."""
    lines: list[str] = []
    for result in run.results:
        if result.status not in ("failed", "errored", "xpass"):
            continue
        lines.append(f"{result.status.upper()} {result.case.id}  ({result.case.path.name})")
        if result.status == "xpass":
            lines.append(f"  passes, but is marked as a known failure: {result.known_failure}")
        elif result.message:
            lines.extend("  " + line for line in result.message.splitlines())
        if result.divergence is not None:
            lines.append(f"  expected: {result.divergence.expected!r}"[:600])
            lines.append(f"  actual:   {result.divergence.actual!r}"[:600])
    return "\n".join(lines)


def totals(run: RunResult) -> str:
    """The one-line outcome of the run."""
    counts = run.counts()
    parts = [f"{counts[status]} {status}" for status in STATUSES if counts[status]]
    name = implementation_name(run.hello) or f"the adapter {run.options.adapter!r}"
    verdict = "FAILED" if run.unexpected() else "INTERRUPTED" if run.interrupted else "OK"
    restarts = f", {run.restarts} adapter restarts" if run.restarts else ""
    return (
        f"{verdict}: {len(run.results)} cases through {name} in {run.seconds:.2f} s"
        f"{restarts}: {', '.join(parts) or 'nothing run'}"
    )


def count_tables(run: RunResult) -> list[Table]:
    """The counts of the text's tables (by clause, ruling and feature) as tables, for
    ``--format csv`` or ``markdown``; none when no case was run."""
    if not run.results:
        return []
    return [_data_table(title, _counts(run, title)) for title in GROUPINGS]


def render_summary(run: RunResult, tables: bool = True) -> str:
    """The whole summary as text: problems, the tables (unless ``tables`` is False), stale
    marks, totals."""
    sections = [problems(run)]
    if tables and run.results:
        sections += [_table(title, _counts(run, title)) for title in GROUPINGS]
    stale = run.stale_known_failures()
    if stale:
        sections.append("known failures naming no case: " + ", ".join(stale))
    sections.append(totals(run))
    return "\n\n".join(section for section in sections if section) + "\n"


# --- two reports compared ---------------------------------------------------------------

GOOD = frozenset({"passed", "xpass"})
"""Statuses that count as passing when deciding whether a change is a regression."""


@dataclass(frozen=True)
class Change:
    """One case whose status differs between the two reports (None: absent from that one)."""

    id: str
    before: str | None
    after: str | None

    @property
    def regression(self) -> bool:
        """True when the case passed before and does not now, or is missing from the new
        report (a case that stops being run has not shown that it still passes)."""
        return self.before in GOOD and self.after not in GOOD

    @property
    def fixed(self) -> bool:
        """True when the case did not pass before and passes now."""
        return self.before is not None and self.before not in GOOD and self.after in GOOD


def diff_reports(before: Report, after: Report) -> list[Change]:
    """Every case whose status changed, appeared or disappeared, in ``before``'s order."""
    ids = list(before.cases) + [case_id for case_id in after.cases if case_id not in before.cases]
    changes = []
    for case_id in ids:
        old = before.cases.get(case_id, {}).get("status")
        new = after.cases.get(case_id, {}).get("status")
        if old != new:
            changes.append(Change(case_id, old, new))
    return changes


def render_diff(changes: list[Change], before: str, after: str) -> str:
    """The changes as text, grouped: regressions, fixes, other changes, added, removed."""
    groups: list[tuple[str, list[Change]]] = [
        ("regressions", [c for c in changes if c.regression]),
        ("fixed", [c for c in changes if c.fixed]),
        (
            "other changes",
            [c for c in changes if not c.regression and not c.fixed and c.before and c.after],
        ),
        (f"only in {after}", [c for c in changes if c.before is None]),
        (f"only in {before}", [c for c in changes if c.after is None and not c.regression]),
    ]
    lines = []
    for title, group in groups:
        if group:
            lines.append(f"{title} ({len(group)}):")
            lines.extend(f"  {c.id}: {c.before or '-'} -> {c.after or '-'}" for c in group)
    regressions = len(groups[0][1])
    lines.append(
        f"{len(changes)} changed cases, {regressions} regressions"
        if changes
        else "no case changed status"
    )
    return "\n".join(lines) + "\n"
