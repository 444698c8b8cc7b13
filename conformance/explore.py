"""Explorer pages of a run's failing cases (``conformance run --explore DIR``): the reference
engine's trace of the case beside the adapter's, a picture to read the failure by, headed by
the runner's verdict."""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from buckshot.command import write_atomic
from buckshot.conformance.protocol import run_message
from buckshot.conformance.runner import CaseResult
from buckshot.spec.eventlog import EventLogError, LogEvent, check_records

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
