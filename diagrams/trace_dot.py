"""A timeline as a Graphviz DOT digraph: one row per step, frames as nested bands."""

from __future__ import annotations

import itertools

import graphviz

from buckshot.diagrams import labels
from buckshot.diagrams.style import band_color, seat_color
from buckshot.diagrams.timeline import Band, Step, StepKind, Timeline

_SEQ_WIDTH = 52
_WHO_WIDTH = 70
_TEXT_WIDTH = 360
_BORDER = "#bbbbbb"
_WRAP = 58
"""Characters per line of a step's text before it wraps."""


def option_name(option: str) -> str:
    """The option's event name: the part before its first ``:`` parameter list."""
    return option.split(":", 1)[0]


def _ask_rows(step: Step) -> list[str]:
    chosen = option_name(step.chosen) if step.chosen is not None else None
    shown = [
        labels.bold(option) if option_name(option) == chosen else labels.escape(option)
        for option in step.options
    ]
    rows = [labels.font("options:", 9) + "&#160;" + "&#160;| ".join(shown)] if shown else []
    if step.chosen is not None:
        rows.append(labels.bold(f"→ {step.chosen}"))
    return rows


def _row_label(timeline: Timeline, step: Step) -> str:
    text = labels.wrap(step.text, _WRAP)
    rows = [
        labels.bold(line) if step.kind is StepKind.ASK else labels.escape(line) for line in text
    ]
    if step.kind is StepKind.ASK:
        rows.extend(_ask_rows(step))
    rows.extend(labels.font(line, 9, labels.MUTED) for line in labels.wrap(step.detail, _WRAP + 10))
    private = timeline.private(step)
    if private:
        rows.append(labels.font(private, 9, "#a00000"))
    who = timeline.name(step.actor) if step.actor is not None else ""
    fill = f' BGCOLOR="{seat_color(step.actor)}"' if step.actor is not None else ""
    text_fill = ' BGCOLOR="#ffffff"'
    if step.kind is StepKind.POINT:
        rows[0] = "• " + f"<I>{rows[0]}</I>"
        text_fill = ' BGCOLOR="#f3f3f3"'
    return labels.html(
        f'<TABLE BORDER="0" CELLBORDER="1" CELLSPACING="0" CELLPADDING="4" COLOR="{_BORDER}">'
        f'<TR><TD WIDTH="{_SEQ_WIDTH}" ALIGN="RIGHT" BGCOLOR="#ffffff">'
        f"{labels.font(step.span, 9, labels.MUTED)}</TD>"
        f'<TD WIDTH="{_WHO_WIDTH}"{fill}>{labels.bold(who) if who else " "}</TD>'
        f'<TD WIDTH="{_TEXT_WIDTH}" ALIGN="LEFT" BALIGN="LEFT"{text_fill}>'
        f"{labels.lines(rows)}</TD></TR></TABLE>"
    )


def _marker_label(step: Step) -> str:
    if step.kind is StepKind.TURN:
        return labels.html(labels.font(step.text, 14))
    arrow = "▼" if step.kind is StepKind.PUSH else "▲"
    text = f"{arrow} {step.text}" + (f" ({step.detail})" if step.detail else "")
    return labels.html(f"{labels.font(step.span, 9, labels.MUTED)}  <B>{labels.escape(text)}</B>")


def _node(graph: graphviz.Digraph, timeline: Timeline, node_id: str, step: Step) -> None:
    marker = step.kind in (StepKind.PUSH, StepKind.POP, StepKind.TURN)
    graph.node(
        node_id,
        id=f"step-{step.span}",
        label=_marker_label(step) if marker else _row_label(timeline, step),
        tooltip=f"seq {step.span}: {step.type}",
    )


def _band(
    graph: graphviz.Digraph, timeline: Timeline, band: Band, order: list[str], bands: list[Band]
) -> None:
    """Draw ``band``'s steps and bands, noting each step's node in ``order`` and each band."""
    for item in band.items:
        if isinstance(item, Band):
            bands.append(item)
            with graph.subgraph(name=f"cluster_band_{len(bands)}") as cluster:
                cluster.attr(
                    id=f"band-{len(bands)}",
                    label=labels.html(labels.bold(item.label)),
                    style="rounded,filled",
                    fillcolor=band_color(item.depth),
                    color="#8899aa",
                    labeljust="l",
                    margin="10",
                )
                _band(cluster, timeline, item, order, bands)
        else:
            order.append(f"s{len(order)}")
            _node(graph, timeline, order[-1], item)


def _seats_table(timeline: Timeline) -> str:
    cells = []
    for seat in timeline.actors():
        known = next((s for s in timeline.seats if s.seat == seat), None)
        role = f" · {known.role}" if known is not None and known.role else ""
        cells.append(
            f'<TD BGCOLOR="{seat_color(seat)}" BORDER="1" COLOR="{_BORDER}">'
            f"{labels.bold(timeline.name(seat))}<BR/>{labels.font(f'seat {seat}{role}', 9)}</TD>"
        )
    if not cells:
        return ""
    return (
        '<TABLE BORDER="0" CELLBORDER="0" CELLSPACING="4" CELLPADDING="4"><TR>'
        + "".join(cells)
        + "</TR></TABLE>"
    )


def trace_dot(timeline: Timeline, title: str) -> str:
    """The DOT source of ``timeline``'s diagram, titled ``title``."""
    span = (
        f"seq {timeline.first_seq}-{timeline.last_seq}"
        if timeline.first_seq is not None
        else "an empty log"
    )
    note = (
        "Rows are the log's events in order; each band is a frame on the stack, from its "
        "push (▼) to its pop (▲). An asked row shows who was asked, the options (the one "
        "taken in bold) and the choice."
    )
    rows = [
        labels.font(f"Trace: {title}", 18),
        labels.font(span, 10, labels.MUTED),
        labels.lines(labels.escape(line) for line in labels.wrap(note, 90)),
    ]
    seats = _seats_table(timeline)
    if seats:
        rows.append(seats)
    out = labels.digraph(
        "trace", "trace", rows, {"shape": "plain"}, rankdir="TB", nodesep="0.2", ranksep="0.12"
    )
    order: list[str] = []
    _band(out, timeline, timeline.root, order, [])
    for tail, head in itertools.pairwise(order):
        out.edge(tail, head, style="invis", weight="20")
    source: str = out.source  # the package types its properties loosely
    return source
