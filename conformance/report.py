"""Reports of a run: JSON lines (header, one line per case, summary) and JUnit XML, and
two reports compared case by case, by case ID (never by position or sequence number).

The commands write both whole or not at all (:func:`buckshot.command.save`).
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from buckshot.command import InputError, json_problem, read_input
from buckshot.conformance.bundled import suite_path
from buckshot.conformance.protocol import REPORT_FORMAT
from buckshot.conformance.runner import CaseResult, RunResult
from buckshot.conformance.schemas import SchemaSet
from buckshot.spec import SPEC_VERSION

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
