"""The plain-text summary a run prints: failures first, then counts by clause and by feature."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable
from typing import Any

from rich.table import Table
from rich.text import Text

from buckshot.conformance.protocol import implementation_name
from buckshot.conformance.runner import STATUSES, CaseResult, RunResult
from buckshot.spec.clauses import clause_sort_key


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


def render(run: RunResult, tables: bool = True) -> str:
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
