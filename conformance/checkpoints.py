"""The checkpoints of a reply (INTERPRETING.md 2.4): which the play reached, where each stands
in the trace, and the trace folded there by the spec's views from the case's setup.

A checkpoint stands just before a decision entry is sent, or after the whole script. Where
it stands follows from the trace alone: an accepted decision writes its ``decided`` event
first (section 6.3) and a refused one writes nothing (M3.3b), so the checkpoint before the
i-th decision sent is at the i-th ``decided`` event, and that before a refused decision, like
the one after the script, at the end of the trace.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from buckshot.conformance.fields import played
from buckshot.conformance.suite import Case
from buckshot.spec.eventlog import LogEvent
from buckshot.spec.views import SeatView, TableView, visible_to


def log_events(events: list[dict[str, Any]]) -> list[LogEvent]:
    """The reply's events as a log the spec's views fold."""
    return [
        LogEvent(
            index,
            index + 1,
            index + 1,
            event["turn"],
            event["type"],
            None if event["visibility"] == "public" else tuple(event["visibility"]),
            event["data"],
        )
        for index, event in enumerate(events)
    ]


def reached(case: Case, reply: dict[str, Any]) -> list[int]:
    """The checkpoints the play reached, in order: the index of each decision entry sent,
    then the script's length when the whole script was played (section 3.3)."""
    script = case.script
    upto = played(script, reply)
    points = [index for index in range(upto) if "chance" not in script[index]]
    if reply["type"] == "result" and reply["halt"] is None and upto == len(script):
        points.append(len(script))
    return points


def trace_lengths(events: Sequence[dict[str, Any]], points: Sequence[int], ends: int) -> list[int]:
    """The trace's length at each checkpoint of ``points`` (``ends``: the script's length)."""
    decided = [index for index, event in enumerate(events) if event["type"] == "decided"]
    lengths = []
    for number, before in enumerate(points):
        accepted = before < ends and number < len(decided)
        lengths.append(decided[number] if accepted else len(events))
    return lengths


def seeded(setup: dict[str, Any]) -> TableView:
    """The table as the setup lays it out, before any event (section 3.1)."""
    table = TableView(owner=setup["owner"])
    for number, seat in enumerate(setup["seats"]):
        table.seats[number] = SeatView(
            number,
            f"seat {number}",
            role=seat["role"],
            hp=seat["hp"],
            alive=seat["alive"],
            traitor=seat["traitor"],
            shield=seat["shield"],
            rage=seat["rage"],
            kills=seat["kills"],
            items=dict(seat["items"]),
        )
    table.shells, table.live = len(setup["chamber"]), setup["chamber"].count("live")
    return table


def folded(
    setup: dict[str, Any], log: Sequence[LogEvent], lengths: Sequence[int], seat: int | None
) -> Iterator[TableView]:
    """The table after ``log[:n]`` for each ``n`` of ``lengths`` (not decreasing), folded
    from the setup, of the events ``seat`` may see (every event when None). One table is
    folded on and yielded each time: read it before asking for the next."""
    table, position = seeded(setup), 0
    for length in lengths:
        for event in log[position:length]:
            if seat is None or visible_to(event, seat):
                table.observe(event)
        position = max(position, length)
        yield table
