"""Explorer pages for a run's failing cases: the reference engine's trace of the case beside
the adapter's, opened at their first difference (``conformance run --explore DIR``).

The left trace is what the reference engine does with the case's setup and script, played in
this process through its own adapter; it is a picture to read the failure by, not the verdict
(the runner's comparison with the case's expectations is, and it heads the page).
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from buckshot.command import write_atomic
from buckshot.conformance.protocol import run_message
from buckshot.conformance.runner import CaseResult

REFERENCE_NAME = "reference engine"
"""How the page names the left trace."""


def _log_text(events: Sequence[dict[str, Any]]) -> str:
    """Protocol events (which carry no ``seq``) as an event log, numbered in order."""
    return "".join(
        json.dumps({"seq": seq, **event}, sort_keys=True) + "\n" for seq, event in enumerate(events)
    )


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
    from buckshot.diagrams.tracelog import parse_log

    assert result.events is not None
    case_id = result.case.id
    traces = [
        (REFERENCE_NAME, parse_log(_log_text(reference_events(result)), REFERENCE_NAME)),
        ("adapter", parse_log(_log_text(result.events), f"{case_id} (adapter)")),
    ]
    title = f"{case_id} failed: {result.message}"
    return explore_html(traces, title, svgs)


def explorable(results: Sequence[CaseResult]) -> list[CaseResult]:
    """The failed cases whose adapter reported a trace (an errored case has none)."""
    return [r for r in results if r.status in ("failed", "xfail") and r.events is not None]


def write_failure_pages(results: Sequence[CaseResult], folder: Path) -> list[Path]:
    """Write a page for every explorable failure of ``results`` into ``folder``; the paths."""
    from buckshot.diagrams.explore_page import chart_svgs

    chosen = explorable(results)
    if not chosen:
        return []
    svgs = chart_svgs()
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for result in chosen:
        path = folder / page_name(result.case.id)
        write_atomic(path, failure_page(result, svgs))
        written.append(path)
    return written
