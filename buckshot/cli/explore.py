"""The ``buckshot explore`` command: write the explorer page for an event log."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from buckshot.command import INTERRUPTED, check_output, fail, output_problem, save

EXAMPLE = "s6_3_example"
"""The example game played when no log is given (S6.3's worked example)."""


def _check_out(target: Path, given: Path | None, logs: list[Path]) -> None:
    """Refuse a page ``target`` that cannot be written or is a log read; ``given`` is --out
    (None: ``target`` is the default, and the message says how to choose another)."""
    if given is not None:
        check_output(given, "--out")
    elif (problem := output_problem(target)) is not None:
        fail(
            "output.unwritable",
            f"the page's default path {target}: {problem}; choose another with --out FILE",
        )
    if any(target.resolve() == log.resolve() for log in logs):
        fail("usage.out", f"the page {target} is a log given: choose another with --out FILE")


def explore_command(
    log: Annotated[
        Path | None,
        typer.Argument(
            help="An event log (JSON lines): saved by play --log, a conformance adapter's "
            "trace, or another implementation's; none plays the S6.3 worked example.",
        ),
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option(
            "--out",
            help=f"The page to write (default: the log's name with .html, or {EXAMPLE}.html here).",
        ),
    ] = None,
    expected: Annotated[
        Path | None,
        typer.Option(
            "--expected",
            help="Another log of the same game, expected (e.g. the reference engine's): "
            "both are shown side by side, opened at their first difference.",
        ),
    ] = None,
) -> None:
    """Write one self-contained HTML page that steps through an event log on the charts.

    With --expected: both logs side by side, opened at their first difference.
    """
    try:
        from buckshot.diagrams.svg import GraphvizError, dot_installed, dot_missing
        from buckshot.spec.eventlog import EventLogError, parse_log, read_log, refuse_a_folder

        if expected is not None and log is None:
            fail("usage.log", "--expected needs a LOG to compare it with")
        for given in (log, expected):
            if given is not None:
                try:
                    refuse_a_folder(given)
                except EventLogError as error:
                    fail(error.code, error.message)
        target = out or (log.with_suffix(".html") if log else Path(f"{EXAMPLE}.html"))
        _check_out(target, out, [p for p in (log, expected) if p is not None])
        if not dot_installed():
            fail("graphviz", dot_missing("the explorer"))
        try:
            if log is None:
                from buckshot.reference.events import to_jsonl
                from buckshot.reference.examples import EXAMPLES

                events = parse_log(to_jsonl(EXAMPLES[EXAMPLE]()), EXAMPLE)
                title = f"{EXAMPLE} (S6.3 worked example)"
            else:
                events = read_log(log)
                title = log.name
            traces = [(log.name if log else EXAMPLE, events)]
            if expected is not None:
                traces.insert(0, (f"expected: {expected.name}", read_log(expected)))
                title = f"{log.name if log else EXAMPLE} against {expected.name}"
        except EventLogError as error:
            fail(error.code, error.message)
        from buckshot.diagrams.explore_page import chart_svgs, explore_html

        try:
            page = explore_html(traces, title, chart_svgs())
        except GraphvizError as error:
            fail("graphviz", str(error))
        save(target, page, "--out" if out is not None else "the page")
        typer.echo(f"wrote {target} ({len(events)} events)", err=True)
    except KeyboardInterrupt:  # Graphviz, in this process group, is stopped by it too
        fail("interrupted", "stopped by Ctrl-C; nothing was written", INTERRUPTED)
