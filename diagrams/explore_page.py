"""The explorer: a page of :mod:`buckshot.report` that steps through an event log on the charts
(docs/diagrams.md, 'The explorer'), with ``explorer.css`` and ``explorer.js`` from beside it,
and the view after each event: the one fold of :mod:`buckshot.spec.views`, kept event by
event."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from importlib.resources import files
from typing import Any

from buckshot.diagrams.chart_dot import chart_dot, edge_id
from buckshot.diagrams.style import SEAT_COLORS, STATE_STYLES
from buckshot.diagrams.svg import render_svg
from buckshot.diagrams.timeline import StepKind, build_timeline
from buckshot.report import escape, page
from buckshot.spec.chart_data import StateKind, chart_models
from buckshot.spec.eventlog import LogEvent
from buckshot.spec.views import SEAT_EVENTS, FrameView, SeatView, TableView, held_before


@dataclass(frozen=True)
class Moment:
    """The view right after one event: the stack bottom first, the seats, the edges taken."""

    stack: tuple[FrameView, ...]
    seats: tuple[dict[str, Any], ...]
    taken: tuple[str, ...] = ()
    """SVG ids of the transition edges a ``decided`` event took (all branches of its event)."""


def seat_json(seat: SeatView) -> dict[str, Any]:
    """A seat as the page shows it: JSON-ready data, items by name in sorted order."""
    shown = asdict(seat)
    del shown["kills"]
    shown["items"] = {k: v for k, v in sorted(seat.items.items()) if v}
    shown["before_log"] = dict(sorted(seat.before_log.items()))
    return shown


def _edge_ids() -> dict[tuple[str, str, str], tuple[str, ...]]:
    """The SVG ids of each chart's transition edges, by frame kind, source state and event."""
    edges: dict[tuple[str, str, str], tuple[str, ...]] = {}
    for model in chart_models():
        for edge in model.transitions:
            key = (model.kind.value, edge.source, edge.event)
            edges[key] = (*edges.get(key, ()), edge_id(edge.id))
    return edges


EDGES = _edge_ids()
"""Each chart transition's SVG id, by (frame kind, source state, event)."""


def taken_edges(table: TableView, decided: LogEvent) -> tuple[str, ...]:
    """The edges a ``decided`` event takes from the state its frame is in on ``table``."""
    addressed = table.addressed(decided, "option")
    if addressed is None:
        return ()
    _, frame, option = addressed
    return EDGES.get((frame.kind, frame.state or "", option.split(":", 1)[0]), ())


def fold(events: Sequence[LogEvent]) -> list[Moment]:
    """The view after each event of ``events``, one moment per event, in log order."""
    table = TableView(before=held_before(events))
    shown: tuple[dict[str, Any], ...] = ()
    moments: list[Moment] = []
    for event in events:
        seats = len(table.seats)
        taken = taken_edges(table, event) if event.type == "decided" else ()
        table.observe(event)
        if event.type in SEAT_EVENTS or len(table.seats) != seats:
            # a new tuple only when a seat may have changed: moments share it otherwise
            shown = tuple(seat_json(table.seats[n]) for n in sorted(table.seats))
        moments.append(Moment(tuple(table.stack), shown, taken))
    return moments


_SVG_START = re.compile(r"^.*?(?=<svg)", re.DOTALL)


def inline_svg(svg: str) -> str:
    """An SVG document as an element to inline in HTML: without its XML prolog or doctype."""
    return _SVG_START.sub("", svg, count=1)


def chart_svgs() -> dict[str, str]:
    """Each chart's SVG, by frame kind, ready to be inlined."""
    return {model.kind.value: inline_svg(render_svg(chart_dot(model))) for model in chart_models()}


def event_texts(events: Sequence[LogEvent]) -> dict[int, str]:
    """One line per event, by ``seq``, told as the trace diagrams tell it."""
    timeline = build_timeline(events)
    texts: dict[int, str] = {}
    for step in timeline.root.steps():
        who = timeline.name(step.actor) if step.actor is not None else ""
        if step.kind is StepKind.ASK:
            texts[step.seqs[0]] = f"{step.text} ({len(step.options)} options)"
            if len(step.seqs) > 1:
                texts[step.seqs[1]] = f"{who} chose {step.chosen}"
            continue
        text = f"{step.text}: {step.detail}" if step.detail else step.text
        for seq in step.seqs:
            texts.setdefault(seq, text)
    return texts


def trace_data(events: Sequence[LogEvent], name: str) -> dict[str, Any]:
    """One trace as the page's script reads it: its events, and the view after each by index."""
    texts = event_texts(events)
    stacks: dict[tuple[FrameView, ...], int] = {}
    taken: dict[tuple[str, ...], int] = {}
    seats: list[tuple[dict[str, Any], ...]] = []
    steps = []
    for moment in fold(events):
        if not seats or moment.seats is not seats[-1]:  # moments share unchanged seats
            seats.append(moment.seats)
        steps.append(
            [
                stacks.setdefault(moment.stack, len(stacks)),
                len(seats) - 1,
                taken.setdefault(moment.taken, len(taken)),
            ]
        )
    return {
        "name": name,
        "events": [
            {
                "seq": event.seq,
                "turn": event.turn,
                "type": event.type,
                "private": None if event.visibility is None else list(event.visibility),
                "text": texts.get(event.seq, event.type),
            }
            for event in events
        ],
        "stacks": [[asdict(frame) for frame in stack] for stack in stacks],
        "seats": [list(shown) for shown in seats],
        "taken": [list(edges) for edges in taken],
        "steps": steps,
    }


def first_difference(expected: Sequence[LogEvent], actual: Sequence[LogEvent]) -> int | None:
    """The position of the first event that differs (or where one log ends); None if none."""
    for index, (want, got) in enumerate(zip(expected, actual, strict=False)):
        said = [(e.type, e.turn, dict(e.data), e.visibility) for e in (want, got)]
        if said[0] != said[1]:
            return index
    return None if len(expected) == len(actual) else min(len(expected), len(actual))


def page_data(traces: Sequence[tuple[str, Sequence[LogEvent]]], title: str) -> dict[str, Any]:
    """What the page's script reads: each trace, and (for two) where they first differ."""
    difference = first_difference(traces[0][1], traces[1][1]) if len(traces) == 2 else None
    return {
        "title": title,
        "traces": [trace_data(events, name) for name, events in traces],
        "difference": difference,
        "seatColors": list(SEAT_COLORS),
    }


def _asset(name: str) -> str:
    """The text of ``name``, a file of the page's that lies beside this module."""
    return (files("buckshot.diagrams") / name).read_text(encoding="utf-8")


def explore_html(
    traces: Sequence[tuple[str, Sequence[LogEvent]]], title: str, svgs: dict[str, str]
) -> str:
    """The explorer page of one trace, or two side by side (the expected first), with ``svgs``."""
    if not 1 <= len(traces) <= 2:
        raise ValueError(f"the explorer shows one or two traces, got {len(traces)}")
    data = json.dumps(page_data(traces, title), separators=(",", ":"), ensure_ascii=False)
    lists = "\n".join(
        f'<div><h2>Events: {escape(name)}</h2><ol class="events" id="events-{k}"></ol></div>'
        for k, (name, _) in enumerate(traces)
    )
    compare = ' class="compare"' if len(traces) == 2 else ""
    data = data.replace("</", "<\\/")
    decision = STATE_STYLES[StateKind.DECISION]
    charts = "\n".join(
        f'<section class="chart" data-kind="{escape(kind)}" hidden>'
        f"<h2>chart: {escape(kind)}</h2>\n{svg}</section>"
        for kind, svg in svgs.items()
    )
    body = f"""<header>
<h1>Explorer: {escape(title)}</h1>
<button id="first" title="first event (Home)">|◀ first</button>
<button id="prev" title="previous event (←)">◀ previous</button>
<button id="next" title="next event (→)">next ▶</button>
<button id="last" title="last event (End)">last ▶|</button>
<label>seq <input id="jump" type="number" min="0" style="width: 6em"></label>
<button id="view" hidden></button>
<span id="position"></span>
<span id="difference"></span>
<div id="current"></div>
</header>
<main{compare}>
<div>
<h2>The stack (top first)</h2>
<div id="stack"></div>
<p class="note">Each frame shows its chart state; a poll shows its order, the seat asked
now outlined. The charts of the frames on the stack are drawn to the right, each frame's
state outlined in red (the top frame's filled), the edges a decision took in red.
Decision states are <span style="background: {decision.fill}">yellow</span>.</p>
<h2>The seats</h2>
<table class="seats">
<thead><tr><th>seat</th><th>role</th><th>HP</th><th>shield</th><th>rage</th>
<th>items</th></tr></thead>
<tbody id="seats"></tbody>
</table>
</div>
<div id="charts">
{charts}
</div>
<div>
<div id="lists">
{lists}
</div>
<p class="note">Keys: → or ↓ next, ← or ↑ previous, PageDown/PageUp ten, Home/End first and
last. The address <code>#event=SEQ</code> opens at an event. Click an event to go to it.
With two traces, the expected one is on the left, the page opens at their first
difference (outlined), and the button above switches the trace whose stack, seats and
chart states are shown.</p>
</div>
</main>
<script type="application/json" id="explorer-data">{data}</script>"""
    return page(f"Explorer: {title}", body, _asset("explorer.css"), _asset("explorer.js"))
