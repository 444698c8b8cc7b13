"""The index page: one self-contained HTML file that shows every diagram, with a legend, made by
:mod:`buckshot.report`.

Its text depends on the diagrams' titles only: the same bytes whether or not ``dot`` drew SVGs.
"""

from __future__ import annotations

from collections.abc import Sequence

from buckshot.diagrams.catalogue import Diagram, Section
from buckshot.diagrams.style import (
    CHOICE_LEGEND,
    EDGE_STYLES,
    STATE_STYLES,
    band_color,
    seat_color,
)
from buckshot.report import escape, page
from buckshot.spec.chart_data import StateKind

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
    """The index page of ``diagrams``, grouped by section in the order given."""
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
