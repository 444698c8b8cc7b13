"""The pages of conformance runs: the page comparing implementations' reports side by side
(``buckshot conformance report``; docs/conformance.md, 'Vendoring the suite and comparing
implementations'), made by :mod:`buckshot.report`, and the explorer pages of a run's failing
cases (``conformance run --explore DIR``): the reference engine's trace of the case beside the
adapter's, a picture to read the failure by, headed by the runner's verdict."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from buckshot.command import write_atomic
from buckshot.conformance.protocol import implementation_name, run_message
from buckshot.conformance.report import Report
from buckshot.conformance.runner import STATUSES, CaseResult
from buckshot.report import cell, element, escape, page, table
from buckshot.spec.eventlog import EventLogError, LogEvent, check_records

MISSING = "absent"
"""The status shown where a report has no line for a case (not selected, or not run)."""


@dataclass(frozen=True)
class Column:
    """One report in the comparison: its heading and its case lines."""

    name: str
    report: Report

    def status(self, case_id: str) -> str:
        """The case's status in this report (:data:`MISSING` when it has none)."""
        line = self.report.cases.get(case_id)
        return str(line.get("status", MISSING)) if line else MISSING

    def message(self, case_id: str) -> str:
        """The runner's message on the case in this report (it begins with the divergence's
        path)."""
        line = self.report.cases.get(case_id) or {}
        return str(line.get("message") or "")


def column_names(reports: list[Report]) -> list[str]:
    """A heading for each report: its implementation's name and version (or its adapter),
    numbered where two would read the same."""
    names = [_implementation(report.header, "report") for report in reports]
    seen: Counter[str] = Counter(names)
    numbered: Counter[str] = Counter()
    result = []
    for name in names:
        numbered[name] += 1
        result.append(f"{name} ({numbered[name]})" if seen[name] > 1 else name)
    return result


def comparison_html(
    reports: list[Report],
    title: str = "Conformance reports compared",
    chance: list[dict[str, Any]] | None = None,
) -> str:
    """The page comparing ``reports``, in the order given, and the chance-mode reports
    ``chance`` (each test's verdict and p-value side by side)."""
    columns = [
        Column(name, report) for name, report in zip(column_names(reports), reports, strict=True)
    ]
    ids = sorted({case_id for column in columns for case_id in column.report.cases})
    areas: dict[str, list[str]] = {}
    for case_id in ids:
        areas.setdefault(case_id.split(".", 1)[0], []).append(case_id)
    differing = [i for i in ids if len({column.status(i) for column in columns}) > 1]
    body = [
        cell(title, "h1"),
        f'<p class="lead">{len(columns)} reports, {len(ids)} cases in {len(areas)} areas; '
        f'<span id="differing-count">{len(differing)}</span> cases differ between them.</p>',
        _heads(columns),
        _by_area(columns, areas),
        _chance(chance or []),
        _controls(),
        _cases(columns, areas),
    ]
    return page(title, "\n".join(body), _STYLE, _SCRIPT)


def _heads(columns: list[Column]) -> str:
    rows = []
    fields = {
        "adapter": "adapter",
        "spec version": "spec_version",
        "protocol": "protocol",
        "started": "started",
    }
    for label, key in fields.items():
        cells = "".join(cell(c.report.header.get(key) or "") for c in columns)
        rows.append(element("tr", cell(label, "th") + cells))
    for status in STATUSES:
        cells = "".join(
            cell(
                sum(1 for line in c.report.cases.values() if line.get("status") == status),
                class_="count",
                data_status=status,
            )
            for c in columns
        )
        rows.append(element("tr", cell(status, "th") + cells))
    head = ["", *(c.name for c in columns)]
    return "<h2>Reports</h2>\n" + table(head, rows, id="reports")


def _by_area(columns: list[Column], areas: dict[str, list[str]]) -> str:
    rows = []
    for area, ids in areas.items():
        cells = []
        for column in columns:
            ran = [i for i in ids if column.status(i) != MISSING]
            passed = sum(1 for i in ran if column.status(i) in ("passed", "xfail"))
            whole = "whole" if ran and passed == len(ran) else "short"
            cells.append(
                cell(f"{passed} / {len(ran)}", class_=whole, data_passed=passed, data_ran=len(ran))
            )
        link = element("a", escape(area), href=f"#area-{area}")
        rows.append(
            element("tr", element("th", link) + cell(len(ids)) + "".join(cells), data_area=area)
        )
    head = ["area", "cases", *(c.name for c in columns)]
    return "<h2>By area</h2>\n" + table(head, rows, id="areas")


def _implementation(header: dict[str, Any], otherwise: str) -> str:
    """A report's implementation from the adapter's hello it holds, else its adapter, else
    ``otherwise``."""
    hello = header.get("implementation")
    return implementation_name(hello) or str(header.get("adapter") or otherwise)


def chance_report_problem(report: dict[str, Any]) -> str | None:
    """What keeps ``report`` (read as JSON) from being a chance-mode report the page can
    show, or None: its experiments, each with an ID and a status, and their tests, each
    with an ID, a verdict and a p-value."""
    experiments = report.get("experiments")
    if not isinstance(experiments, list):
        return "experiments: not a list"
    for number, experiment in enumerate(experiments):
        where = f"experiments[{number}]"
        if not isinstance(experiment, dict):
            return f"{where}: not an object"
        if not all(isinstance(experiment.get(key), str) for key in ("id", "status")):
            return f"{where}: no id and status as text"
        tests = experiment.get("tests", [])
        if not isinstance(tests, list):
            return f"{where}.tests: not a list"
        for index, test in enumerate(tests):
            if not (
                isinstance(test, dict)
                and isinstance(test.get("id"), str)
                and isinstance(test.get("passed"), bool)
                and isinstance(test.get("p_value"), int | float)
                and not isinstance(test.get("p_value"), bool)
            ):
                return f"{where}.tests[{index}]: not a test with an id, passed and a p_value"
    return None


def _chance(reports: list[dict[str, Any]]) -> str:
    """The chance-mode section: one row per test of each experiment, one column a report."""
    if not reports:
        return ""
    tests: dict[tuple[str, str], dict[int, dict[str, Any]]] = {}
    runs: dict[str, dict[int, dict[str, Any]]] = {}
    for number, report in enumerate(reports):
        for experiment in report.get("experiments", []):
            runs.setdefault(experiment["id"], {})[number] = experiment
            for test in experiment.get("tests", []):
                tests.setdefault((experiment["id"], test["id"]), {})[number] = test
            if not experiment.get("tests"):
                tests.setdefault((experiment["id"], ""), {})
    rows = []
    for (experiment_id, test_id), by_report in sorted(tests.items(), key=_run_order(tests)):
        cells = []
        for number in range(len(reports)):
            test = by_report.get(number)
            run = runs.get(experiment_id, {}).get(number)
            if test is not None:
                verdict = "passed" if test.get("passed") else "failed"
                text = f"{'ok' if test.get('passed') else 'FAIL'} p = {test['p_value']:.3g}"
                tip = " ".join(str(x) for x in (test.get("rule"), test.get("note")) if x)
            elif run is not None:
                verdict = str(run.get("status", MISSING))
                text, tip = verdict, str(run.get("message") or "")
            else:
                verdict, text, tip = MISSING, MISSING, ""
            cells.append(cell(text, class_=f"status {verdict}", title=tip))
        rows.append(
            element(
                "tr",
                cell(experiment_id, class_="id") + cell(test_id) + "".join(cells),
                data_experiment=experiment_id,
                data_law=test_id,
            )
        )
    rates = sorted({_rate(report.get("alpha")) for report in reports})
    head = ["experiment", "law", *(_implementation(r, "chance report") for r in reports)]
    return (
        "<h2>Chance mode</h2>\n<p>Each law tested on the plays of its experiment, at a "
        f"false-alarm rate of {escape(' or '.join(rates))} a test (INTERPRETING.md 2.5).</p>\n"
        + table(head, rows, id="chance")
    )


def _rate(alpha: Any) -> str:
    """A report's false-alarm rate as written, or that it gives none."""
    if isinstance(alpha, int | float) and not isinstance(alpha, bool):
        return f"{alpha:g}"
    return "(not given)"


def _run_order(
    tests: dict[tuple[str, str], Any],
) -> Callable[[tuple[tuple[str, str], Any]], tuple[int, int, int]]:
    """The sort key of a chance row: chance mode's order of experiments and of their laws;
    what it does not know (another version's) after, as first met."""
    from buckshot.conformance.chance_mode import EXPERIMENTS

    experiments = {experiment.id: n for n, experiment in enumerate(EXPERIMENTS)}
    laws = {(e.id, law.id): n for e in EXPERIMENTS for n, law in enumerate(e.laws)}
    met = {key: n for n, key in enumerate(tests)}

    def key(item: tuple[tuple[str, str], Any]) -> tuple[int, int, int]:
        row = item[0]
        unknown = len(EXPERIMENTS)
        return experiments.get(row[0], unknown), laws.get(row, unknown), met[row]

    return key


def _controls() -> str:
    return (
        '<h2>Cases</h2>\n<p class="controls"><label>Filter <input id="filter" type="search" '
        'placeholder="case ID"></label> <label><input id="only-differing" type="checkbox"> '
        "only the cases that differ</label></p>"
    )


def _cases(columns: list[Column], areas: dict[str, list[str]]) -> str:
    head = ["case", *(c.name for c in columns)]
    parts = []
    for area, ids in areas.items():
        rows = []
        for case_id in ids:
            statuses = [column.status(case_id) for column in columns]
            cells = "".join(
                cell(status, class_=f"status {status}", title=column.message(case_id))
                for column, status in zip(columns, statuses, strict=True)
            )
            rows.append(
                element(
                    "tr",
                    cell(case_id, class_="id") + cells,
                    data_case=case_id,
                    class_="differs" if len(set(statuses)) > 1 else None,
                )
            )
        inner = cell(area, "h3") + table(head, rows, class_="cases")
        parts.append(element("section", inner, class_="area", id=f"area-{area}"))
    return "\n".join(parts)


_STYLE = """
td.count, #areas td { text-align: right; }
td.id { font-family: ui-monospace, monospace; }
td.status.passed, td.whole { background: #dff0d8; }
td.status.failed, td.short { background: #f2dede; }
td.status.errored { background: #f0c36d; }
td.status.skipped, td.status.absent { background: #eee; color: #777; }
td.status.xfail { background: #e8e0f0; }
td.status.xpass { background: #d9edf7; }
tr.differs td.id { font-weight: bold; }
tr.differs td.id::before { content: "\\2260  "; color: #a94442; }
.controls input[type=search] { width: 20em; }
"""

_SCRIPT = """
(function () {
  const filter = document.getElementById("filter");
  const only = document.getElementById("only-differing");
  function apply() {
    const text = filter.value.trim().toLowerCase();
    for (const row of document.querySelectorAll("tr[data-case]")) {
      const shown = (!text || row.dataset.case.toLowerCase().includes(text)) &&
        (!only.checked || row.classList.contains("differs"));
      row.hidden = !shown;
    }
    for (const section of document.querySelectorAll("section.area")) {
      section.hidden = !section.querySelector("tr[data-case]:not([hidden])");
    }
  }
  filter.addEventListener("input", apply);
  only.addEventListener("change", apply);
  apply();
})();
"""


# --- the explorer pages of failing cases ---------------------------------------------------

REFERENCE_NAME = "reference engine"
"""How the page names the left trace."""


def _read(events: Sequence[dict[str, Any]], source: str) -> list[LogEvent]:
    """Protocol events (which carry no ``seq``: numbered in order) read by the one log
    reader; :class:`~buckshot.spec.eventlog.EventLogError` when they are no event log."""
    return list(check_records(enumerate(events, start=1), source))


def reference_events(result: CaseResult) -> tuple[dict[str, Any], ...]:
    """The event trace of the reference engine on ``result``'s case (empty when it plays
    no game: a refused setup)."""
    from buckshot.reference.adapter import IMPLEMENTATION, handle

    case = result.case
    reply = handle(run_message(1, case.id, case.setup, case.sent_script()), IMPLEMENTATION)
    if reply is None or "events" not in reply:
        return ()
    return tuple(reply["events"])


def page_name(case_id: str) -> str:
    """The file name of a case's page: its ID with anything but letters, digits, ``.-_``
    replaced, so an ID never names another folder."""
    return re.sub(r"[^A-Za-z0-9._-]", "_", case_id) + ".html"


def failure_page(result: CaseResult, svgs: dict[str, str]) -> str:
    """The explorer page of one failed case: the reference engine's trace beside the
    adapter's, titled with the case and the runner's verdict."""
    from buckshot.diagrams.explore_page import explore_html

    assert result.events is not None
    case_id = result.case.id
    traces = [
        (REFERENCE_NAME, _read(reference_events(result), REFERENCE_NAME)),
        ("adapter", _read(result.events, f"{case_id} (adapter)")),
    ]
    title = f"{case_id} failed: {result.message}"
    return explore_html(traces, title, svgs)


def explorable(results: Sequence[CaseResult]) -> list[CaseResult]:
    """The failed cases whose adapter reported a trace (an errored case has none)."""
    return [r for r in results if r.status in ("failed", "xfail") and r.events is not None]


def write_failure_pages(
    results: Sequence[CaseResult], folder: Path
) -> tuple[list[Path], list[str]]:
    """Write a page for every explorable failure of ``results`` into ``folder``: the paths
    written, and why each failure whose trace is not an event log got none."""
    from buckshot.diagrams.explore_page import chart_svgs

    chosen = explorable(results)
    if not chosen:
        return [], []
    svgs = chart_svgs()
    folder.mkdir(parents=True, exist_ok=True)
    written, unreadable = [], []
    for result in chosen:
        path = folder / page_name(result.case.id)
        try:
            page = failure_page(result, svgs)
        except EventLogError as error:
            unreadable.append(error.message)
            continue
        write_atomic(path, page)
        written.append(path)
    return written, unreadable
