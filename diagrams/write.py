"""Every diagram there is to draw (each as its DOT and Mermaid text with a title and a note), and
the writing of them: DOT, SVG (through ``graphviz``), Mermaid, the index page and explorers."""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from itertools import islice
from pathlib import Path, PurePosixPath
from typing import Final, TextIO

from buckshot.command import write_atomic
from buckshot.diagrams.chart_dot import chart_dot
from buckshot.diagrams.chart_mermaid import chart_mermaid
from buckshot.diagrams.stack import stack_dot, stack_mermaid, stack_model
from buckshot.diagrams.style import (
    CHOICE_LEGEND,
    EDGE_STYLES,
    STATE_STYLES,
    band_color,
    seat_color,
)
from buckshot.diagrams.svg import INSTALL_HINT, dot_installed, render_svg
from buckshot.diagrams.timeline import build_timeline
from buckshot.diagrams.trace_dot import trace_dot
from buckshot.diagrams.trace_mermaid import trace_mermaid
from buckshot.paths import checkout_root
from buckshot.report import escape, page
from buckshot.spec.chart_data import StateKind, chart_models
from buckshot.spec.eventlog import LogEvent, read_log, stream_log
from buckshot.spec.rulebook import STACK
from buckshot.spec.ruleset import load_ruleset

SUFFIXES = (".dot", ".svg", ".mmd")

MAX_TIMELINE_EVENTS: Final = 5000
"""The most events a timeline draws (a 6-bot game is about 4,500; Graphviz lays 5,000 out
in about 15 s and 150 MB, 10,000 in 90 s and 400 MB).
"""


class TimelineTooLong(ValueError):
    """The log holds more events than a timeline draws; the message says what to do."""


class Section(StrEnum):
    """The part of the diagrams folder (and of the index page) a diagram belongs to."""

    CHARTS = "charts"
    STACK = "stack"
    TRACES = "traces"


@dataclass(frozen=True)
class Diagram:
    """One diagram: where its files go, what it is called, and its sources in both formats."""

    section: Section
    stem: PurePosixPath
    """Its files' path below the output folder, without suffix (``charts/turn``)."""
    title: str
    note: str
    dot: str
    mermaid: str


def chart_diagrams() -> list[Diagram]:
    """One diagram per chart, the turn first, in the order of the frame kinds."""
    return [
        Diagram(
            Section.CHARTS,
            PurePosixPath("charts") / model.kind.value,
            model.title,
            model.doc.replace("``", ""),
            chart_dot(model),
            chart_mermaid(model),
        )
        for model in chart_models()
    ]


def stack_diagram(max_depth: int) -> Diagram:
    """The overview of the stack: pushes, resume points and the depth bound ``max_depth``."""
    stack = stack_model(max_depth)
    chain = " → ".join(kind.value for kind in stack.deepest_chain())
    return Diagram(
        Section.STACK,
        PurePosixPath("stack"),
        "The stack: pushes and resume points",
        f"Which transitions push which frame, and which resume event returns to which "
        f"suspended state. At most {STACK.depth_bound} = {max_depth} frames: {chain}.",
        stack_dot(stack),
        stack_mermaid(stack),
    )


def trace_diagram(name: str, events: Sequence[LogEvent], cut: bool = False) -> Diagram:
    """The timeline of a played fragment named ``name`` (titled as cut short when ``cut``)."""
    timeline = build_timeline(events)
    shown = f"{name}, only its first {len(events):,} events" if cut else name
    return Diagram(
        Section.TRACES,
        PurePosixPath("traces") / name,
        f"Trace: {shown}",
        f"The event log {name}.jsonl as a timeline: {len(events)} events, frames as "
        "nested bands, who was asked and what they chose.",
        trace_dot(timeline, shown),
        trace_mermaid(timeline, shown),
    )


_CSS = """
body { margin: 0 auto; max-width: 1400px; padding: 0 24px 48px; }
h2 { border-bottom: 1px solid #ccc; }
nav a { margin-right: 12px; }
figure { margin: 8px 0 28px; }
figure img { display: block; max-width: 100%; height: auto; border: 1px solid #ddd;
             background: #fff; }
figcaption { font-size: 0.9em; color: #555; }
.legend { display: grid; grid-template-columns: max-content 1fr; gap: 6px 12px;
          align-items: center; font-size: 14px; }
.swatch { display: inline-block; min-width: 84px; padding: 2px 8px; border-radius: 8px;
          text-align: center; font-size: 12px; }
.edge { display: inline-block; width: 84px; height: 0; vertical-align: middle; }
.band { display: inline-block; min-width: 84px; height: 16px; border: 1px solid #8899aa;
        border-radius: 6px; }
"""


def _legend() -> list[str]:
    rows = []
    for kind, style in STATE_STYLES.items():
        border = "3px double" if style.double else ("1px dashed" if style.dashed else "1px solid")
        weight = " font-weight: bold;" if kind is StateKind.DECISION else ""
        rows.append(
            f'<span class="swatch" style="background: {style.fill}; border: {border} '
            f'{style.stroke};{weight}">{escape(style.name)}</span>'
            f"<span>{escape(style.legend)}</span>"
        )
    rows.append(
        '<span class="swatch">● / ◇</span>'
        f"<span>initial state / choice point: {escape(CHOICE_LEGEND)}</span>"
    )
    for edge in EDGE_STYLES.values():
        line = "dashed" if edge.dashed else "solid"
        width = max(1, round(float(edge.width)))
        rows.append(
            f'<span class="edge" style="border-top: {width + 1}px {line} {edge.color};"></span>'
            f"<span>{escape(edge.name)}: {escape(edge.legend)}</span>"
        )
    rows.append(
        f'<span class="band" style="background: {band_color(1)};"></span>'
        "<span>in a trace: a frame on the stack, from its push (▼) to its pop (▲); "
        "rows are coloured by the seat that acts, "
        f'<span class="swatch" style="background: {seat_color(0)};">seat 0</span> '
        f'<span class="swatch" style="background: {seat_color(1)};">seat 1</span> ...</span>'
    )
    return ['<div class="legend">', *rows, "</div>"]


def _figure(diagram: Diagram) -> list[str]:
    stem = str(diagram.stem)
    anchor = stem.replace("/", "-")
    explore = (
        [
            f'<p><a href="{escape(stem)}.html">Step through this log in the explorer</a>: '
            "the state of every frame on the stack in its chart, the seats, event by event."
            "</p>"
        ]
        if diagram.section is Section.TRACES
        else []
    )
    return [
        f'<figure id="{escape(anchor)}">',
        f"<h3>{escape(diagram.title)}</h3>",
        f'<p class="note">{escape(diagram.note)}</p>',
        f'<a href="{escape(stem)}.svg"><img src="{escape(stem)}.svg" '
        f'alt="{escape(diagram.title)}"></a>',
        f'<figcaption>Open <a href="{escape(stem)}.svg">the SVG</a> alone for tooltips; '
        f'sources: <a href="{escape(stem)}.dot">DOT</a> · '
        f'<a href="{escape(stem)}.mmd">Mermaid</a></figcaption>',
        *explore,
        "</figure>",
    ]


_SECTIONS = {
    Section.CHARTS: (
        "Charts",
        "One per chart: the turn, the stack's bottom frame, and each frame that can be pushed "
        "on it. Phases are the grey boxes; every state and transition carries the clause IDs "
        "(and rulings) it implements.",
    ),
    Section.STACK: (
        "The stack",
        "Every push and every resume point at a glance.",
    ),
    Section.TRACES: (
        "Traces",
        "Played fragments drawn from event logs (JSON lines). `buckshot explore LOG` writes "
        "an explorer page for any log.",
    ),
}


_TITLE = "Flow diagrams of the game's statecharts"


def index_html(diagrams: Sequence[Diagram]) -> str:
    """The index page of ``diagrams``, grouped by section in the order given, made by
    :mod:`buckshot.report`: its text depends on the diagrams' titles only, the same bytes
    whether or not ``dot`` drew SVGs."""
    nav = " ".join(
        f'<a href="#{section.value}">{escape(title)}</a>'
        for section, (title, _) in _SECTIONS.items()
    )
    out = [
        f"<h1>{escape(_TITLE)}</h1>",
        '<p class="note">Generated from the charts of <code>buckshot.spec</code> by '
        "<code>buckshot diagrams</code>; never edit these files by hand, regenerate them.</p>",
        f'<nav>{nav} <a href="#legend">Legend</a></nav>',
        '<h2 id="legend">Legend</h2>',
        *_legend(),
    ]
    for section, (title, intro) in _SECTIONS.items():
        members = [d for d in diagrams if d.section is section]
        out.append(f'<h2 id="{section.value}">{escape(title)}</h2>')
        out.append(f'<p class="note">{escape(intro)}</p>')
        if not members:
            out.append('<p class="note">None drawn.</p>')
        for diagram in members:
            out.extend(_figure(diagram))
    return page(_TITLE, "\n".join(out), _CSS)


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
