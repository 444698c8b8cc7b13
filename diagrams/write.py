"""Write the diagrams: DOT, SVG (through ``graphviz``), Mermaid, the index page and explorers."""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from dataclasses import replace
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
from buckshot.spec.eventlog import read_log, stream_log
from buckshot.spec.ruleset import load_ruleset

SUFFIXES = (".dot", ".svg", ".mmd")

MAX_TIMELINE_EVENTS: Final = 5000
"""The most events a timeline draws (a 6-bot game is about 4,500; Graphviz lays 5,000 out
in about 15 s and 150 MB, 10,000 in 90 s and 400 MB).
"""


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
    """Write one diagram's DOT, Mermaid and (``with_svg``) SVG, the SVG drawn before any write."""
    base = out_dir / diagram.stem
    svg = render_svg(diagram.dot) if with_svg else None
    written = [
        _write_text(_file(base, ".dot"), diagram.dot),
        _write_text(_file(base, ".mmd"), diagram.mermaid),
    ]
    if svg is not None:
        written.append(_write_text(_file(base, ".svg"), svg))
    return written


def _remove_stale(folder: Path, keep: set[Path]) -> None:
    if not folder.is_dir():
        return
    for path in sorted(folder.iterdir()):
        if path.suffix in SUFFIXES and path not in keep:
            path.unlink()


def write_all(
    out_dir: Path,
    logs: Sequence[Path] | None = None,
    err: TextIO | None = None,
) -> list[Path]:
    """Write every diagram and ``index.html`` into ``out_dir``; return the files written.

    ``logs`` default to the engine's example games (written to ``traces/`` first). Without
    ``dot`` the SVGs and explorer pages are skipped and ``err`` told; stale files of
    ``charts/`` are removed.
    """
    err = err if err is not None else sys.stderr
    written: list[Path] = []
    if logs is None:
        logs = write_example_logs(out_dir)
        written.extend(logs)
    depth = load_ruleset().limits.max_stack_depth
    diagrams = [*chart_diagrams(), stack_diagram(depth)]
    diagrams.extend(trace_diagram(log.stem, read_log(log)) for log in logs)
    with_svg = _with_svg(err)
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
    """Write an explorer page (``traces/<log>.html``) per log, with the charts' SVGs just drawn."""
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


def write_trace(
    log: Path, out_dir: Path, first: int | None, stage: Callable[[int], None]
) -> list[Path]:
    """Draw the log at ``log`` into ``out_dir`` as ``<name>.dot/.svg/.mmd`` (its first ``first``
    events only; without ``first``, more than :data:`MAX_TIMELINE_EVENTS` is
    :class:`TimelineTooLong`); ``stage`` is told 1, 2, 3 as it is read, built and written.
    """
    keep = first if first is not None else MAX_TIMELINE_EVENTS
    events = list(islice(stream_log(log), keep + 1))  # streamed: one more tells a longer log
    cut = len(events) > keep
    if cut and first is None:
        raise TimelineTooLong(
            f"{log} holds more than {MAX_TIMELINE_EVENTS:,} events, the most a timeline "
            f"draws: draw the first ones with --first {MAX_TIMELINE_EVENTS}, or read the "
            "whole game with `buckshot replay`"
        )
    events = events[:keep]
    stage(1)
    diagram = trace_diagram(log.stem, events, cut)
    stage(2)
    flat = replace(diagram, stem=diagram.stem.relative_to(Section.TRACES.value))
    written = write_diagram(flat, out_dir, _with_svg(sys.stderr))
    stage(3)
    return written


def _with_svg(err: TextIO) -> bool:
    """Whether ``dot`` is there to draw the SVGs; ``err`` is warned when it is not."""
    if not dot_installed():
        err.write(f"warning: {INSTALL_HINT}\n")
        return False
    return True
