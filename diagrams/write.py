"""Write the diagrams: DOT, SVG (through the ``graphviz`` package), Mermaid, the index page.

``write_all`` writes the committed set into a folder laid out as ``charts/<kind>.*``,
``stack.*``, ``traces/<log>.*`` and ``index.html``; ``write_trace`` draws one saved log.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from itertools import islice
from pathlib import Path
from typing import Final, TextIO

from buckshot.command import write_atomic
from buckshot.diagrams.catalogue import (
    Diagram,
    Section,
    chart_diagrams,
    stack_diagram,
    trace_diagram,
)
from buckshot.diagrams.html import index_html
from buckshot.diagrams.svg import INSTALL_HINT, dot_installed, render_svg
from buckshot.paths import checkout_root
from buckshot.spec.eventlog import LogEvent, read_log, stream_log
from buckshot.spec.ruleset import Ruleset, load_ruleset

SUFFIXES = (".dot", ".svg", ".mmd")
"""The files each diagram is written as."""

MAX_TIMELINE_EVENTS: Final = 5000
"""The most events a timeline draws: a whole typical game (6 bots play about 4,500 events).
Graphviz lays 5,000 out in about 15 s and 150 MB, 10,000 in 90 s and 400 MB (measured)."""


class TimelineTooLong(ValueError):
    """The log holds more events than a timeline draws; the message says what to do."""


def default_out_dir() -> Path | None:
    """The checkout's ``diagrams/`` folder, where the committed diagrams live."""
    root = checkout_root()
    return root / "diagrams" if root is not None else None


def write_example_logs(out_dir: Path) -> list[Path]:
    """Play the reference engine's example games and save their logs in ``out_dir/traces``."""
    from buckshot.reference.events import to_jsonl
    from buckshot.reference.examples import EXAMPLES

    return [
        _write_text(out_dir / Section.TRACES.value / f"{name}.jsonl", to_jsonl(play()))
        for name, play in EXAMPLES.items()
    ]


def _file(base: Path, suffix: str) -> Path:
    return base.parent / (base.name + suffix)


def _write_text(path: Path, text: str) -> Path:
    write_atomic(path, text)
    return path


def write_diagram(diagram: Diagram, out_dir: Path, with_svg: bool) -> list[Path]:
    """Write one diagram's DOT, Mermaid and (when ``with_svg``) SVG files: the SVG is drawn
    before any file is written, so a run stopped while Graphviz draws leaves none of them."""
    base = out_dir / diagram.stem
    svg = render_svg(diagram.dot) if with_svg else None
    written = [
        _write_text(_file(base, ".dot"), diagram.dot),
        _write_text(_file(base, ".mmd"), diagram.mermaid),
    ]
    if svg is not None:
        written.append(_write_text(_file(base, ".svg"), svg))
    return written


def all_diagrams(logs: Sequence[Path], ruleset: Ruleset) -> list[Diagram]:
    """Every diagram: the charts, the stack bounded by ``ruleset``, one trace per log."""
    diagrams = chart_diagrams()
    diagrams.append(stack_diagram(ruleset.limits.max_stack_depth))
    diagrams.extend(trace_diagram(log.stem, read_log(log)) for log in logs)
    return diagrams


def _remove_stale(folder: Path, keep: set[Path]) -> None:
    if not folder.is_dir():
        return
    for path in sorted(folder.iterdir()):
        if path.suffix in SUFFIXES and path not in keep:
            path.unlink()


def _warn_missing_dot(err: TextIO) -> None:
    err.write(f"warning: {INSTALL_HINT}\n")


def write_all(
    out_dir: Path,
    logs: Sequence[Path] | None = None,
    ruleset: Ruleset | None = None,
    err: TextIO | None = None,
) -> list[Path]:
    """Write every diagram and ``index.html`` into ``out_dir``; return the files written.

    ``logs`` are the event logs drawn as traces (by default the engine's example games,
    whose logs are written to ``traces/`` first),
    and ``ruleset`` bounds the stack (by default the packaged one). Without ``dot`` the
    SVGs and the logs' explorer pages (which inline the charts' SVGs) are skipped and
    ``err`` (standard error) is told how to install it. Files of
    ``charts/`` that no chart produces any more are removed.
    """
    err = err if err is not None else sys.stderr
    written: list[Path] = []
    if logs is None:
        logs = write_example_logs(out_dir)
        written.extend(logs)
    diagrams = all_diagrams(
        logs,
        ruleset if ruleset is not None else load_ruleset(),
    )
    with_svg = dot_installed()
    if not with_svg:
        _warn_missing_dot(err)
    for diagram in diagrams:
        written.extend(write_diagram(diagram, out_dir, with_svg))
    if with_svg:
        written.extend(write_explorer_pages(logs, diagrams, out_dir))
    charts = {p for p in written if p.parent == out_dir / Section.CHARTS.value}
    keep = charts | {_file(out_dir / d.stem, ".svg") for d in diagrams}
    _remove_stale(out_dir / Section.CHARTS.value, keep)
    written.append(_write_text(out_dir / "index.html", index_html(diagrams)))
    return written


def write_explorer_pages(
    logs: Sequence[Path], diagrams: Sequence[Diagram], out_dir: Path
) -> list[Path]:
    """Write an explorer page (``traces/<log>.html``) for each log, with the charts' SVGs
    as ``diagrams`` just drew them into ``out_dir``."""
    from buckshot.diagrams.explore_page import explore_html, inline_svg

    svgs = {
        diagram.stem.name: inline_svg(_file(out_dir / diagram.stem, ".svg").read_text("utf-8"))
        for diagram in diagrams
        if diagram.section is Section.CHARTS
    }
    return [
        _write_text(
            out_dir / Section.TRACES.value / f"{log.stem}.html",
            explore_html([(log.stem, read_log(log))], log.stem, svgs),
        )
        for log in logs
    ]


def timeline_events(log: Path, first: int | None = None) -> tuple[list[LogEvent], bool]:
    """The events of ``log`` a timeline draws, and whether the log goes on beyond them.

    The log is streamed and read no further than one event past what is drawn: without
    ``first``, a log of more than :data:`MAX_TIMELINE_EVENTS` events is
    :class:`TimelineTooLong`; with it, the first ``first`` events are drawn and the rest of
    the log is neither read nor checked.
    """
    keep = first if first is not None else MAX_TIMELINE_EVENTS
    events = list(islice(stream_log(log), keep + 1))
    if len(events) <= keep:
        return events, False
    if first is None:
        raise TimelineTooLong(
            f"{log} holds more than {MAX_TIMELINE_EVENTS:,} events, the most a timeline "
            f"draws: draw the first ones with --first {MAX_TIMELINE_EVENTS}, or read the "
            "whole game with `buckshot replay`"
        )
    return events[:keep], True


def write_trace(
    log: Path,
    out_dir: Path,
    err: TextIO | None = None,
    first: int | None = None,
    stage: Callable[[int], None] | None = None,
) -> list[Path]:
    """Draw the event log at ``log`` into ``out_dir`` as ``<log name>.dot/.svg/.mmd``
    (its first ``first`` events only, titled so when the log goes on: :func:`timeline_events`).
    ``stage`` is told 1 when the log is read, 2 when the timeline is built, 3 when written."""
    err = err if err is not None else sys.stderr
    tell = stage if stage is not None else (lambda done: None)
    events, cut = timeline_events(log, first)
    tell(1)
    diagram = trace_diagram(log.stem, events, cut)
    tell(2)
    flat = Diagram(
        diagram.section,
        diagram.stem.relative_to(Section.TRACES.value),
        diagram.title,
        diagram.note,
        diagram.dot,
        diagram.mermaid,
    )
    with_svg = dot_installed()
    if not with_svg:
        _warn_missing_dot(err)
    written = write_diagram(flat, out_dir, with_svg)
    tell(3)
    return written
