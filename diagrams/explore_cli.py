"""The ``buckshot explore`` command: write the explorer page for an event log."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Annotated, NoReturn

import typer

EXAMPLE = "s6_3_example"
"""The example game played when no log is given (S6.3's worked example)."""


def _fail(code: str, message: str) -> NoReturn:
    typer.echo(f"error [{code}]: {message}", err=True)
    raise typer.Exit(2)


def _write_atomically(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file beside it, then rename."""
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    mask = os.umask(0)
    os.umask(mask)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(text)
        os.chmod(temporary, 0o666 & ~mask)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def _check_out(out: Path, logs: list[Path]) -> None:
    if not out.parent.is_dir():
        _fail("usage.out", f"{out.parent} does not exist: create it first")
    if not os.access(out.parent, os.W_OK):
        _fail("usage.out", f"{out.parent} is not writable")
    if any(out.resolve() == log.resolve() for log in logs):
        _fail("usage.out", f"{out} is a log given: name another file")


def explore_command(
    log: Annotated[
        Path | None,
        typer.Argument(
            help="An event log (JSON lines): saved by play --log, a conformance adapter's "
            "trace, or another implementation's; none plays the S6.3 worked example.",
            dir_okay=False,
        ),
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option(
            "--out",
            help=f"The page to write (default: the log's name with .html, or {EXAMPLE}.html here).",
            dir_okay=False,
        ),
    ] = None,
    expected: Annotated[
        Path | None,
        typer.Option(
            "--expected",
            help="Another log of the same game, expected (e.g. the reference engine's): "
            "both are shown side by side, opened at their first difference.",
            dir_okay=False,
        ),
    ] = None,
) -> None:
    """Write one self-contained HTML page that steps through an event log on the charts.

    With --expected: both logs side by side, opened at their first difference.
    """
    from buckshot.diagrams.svg import GraphvizError, dot_installed
    from buckshot.diagrams.tracelog import TraceLogError, parse_log, read_log

    for given in (log, expected):
        if given is not None and not given.is_file():
            _fail("usage.log", f"{given}: no such file")
    if expected is not None and log is None:
        _fail("usage.log", "--expected needs a LOG to compare it with")
    target = (
        out if out is not None else (log.with_suffix(".html") if log else Path(f"{EXAMPLE}.html"))
    )
    _check_out(target, [p for p in (log, expected) if p is not None])
    if not dot_installed():
        _fail(
            "graphviz",
            "the explorer draws the charts with Graphviz's `dot`, which was not found: "
            "install it with `apt-get install graphviz` (Debian, Ubuntu) or your system's "
            "graphviz package",
        )
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
    except TraceLogError as error:
        _fail("trace-log", str(error))
    for name, trace in traces:
        if not trace:
            _fail("trace-log", f"{name}: the log holds no event")
    from buckshot.diagrams.explore_page import chart_svgs, explore_html

    try:
        page = explore_html(traces, title, chart_svgs())
    except GraphvizError as error:
        _fail("graphviz", str(error))
    try:
        _write_atomically(target, page)
    except OSError as error:
        _fail("write", f"{target}: cannot write: {error.strerror}")
    typer.echo(f"wrote {target} ({len(events)} events)", err=True)
