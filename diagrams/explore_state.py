"""What an event log says the game looked like after each of its events, for the explorer: the
one fold of :mod:`buckshot.spec.views`, kept event by event."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

from buckshot.spec.chart_data import chart_models
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
            edges[key] = (*edges.get(key, ()), edge.id.replace(":", "-"))
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
