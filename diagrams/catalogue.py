"""Every diagram there is to draw, each as its DOT and Mermaid text with a title and a note."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from pathlib import PurePosixPath

from buckshot.diagrams.chart_dot import chart_dot
from buckshot.diagrams.chart_mermaid import chart_mermaid
from buckshot.diagrams.stack import stack_dot, stack_mermaid, stack_model
from buckshot.diagrams.timeline import build_timeline
from buckshot.diagrams.trace_dot import trace_dot
from buckshot.diagrams.trace_mermaid import trace_mermaid
from buckshot.spec.chart_data import chart_models
from buckshot.spec.eventlog import LogEvent
from buckshot.spec.rulebook import STACK


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
