"""How each kind of state and each kind of transition looks, in every format."""

from __future__ import annotations

from dataclasses import dataclass

from buckshot.spec.chart_data import StateKind
from buckshot.spec.charts import Trigger


@dataclass(frozen=True)
class StateStyle:
    """The look of one kind of state and the words the legend uses for it."""

    name: str
    fill: str
    stroke: str
    legend: str
    dashed: bool = False
    double: bool = False


@dataclass(frozen=True)
class EdgeStyle:
    """The look of one kind of transition and the words the legend uses for it."""

    name: str
    color: str
    width: str
    dashed: bool
    legend: str


STATE_STYLES: dict[StateKind, StateStyle] = {
    StateKind.DECISION: StateStyle(
        "decision", "#fff2cc", "#b58900", "a player is asked: who, and the prompt"
    ),
    StateKind.SUSPENDED: StateStyle(
        "suspended",
        "#dae8fc",
        "#3465a4",
        "waits for the frame it pushed, until its resume event",
        dashed=True,
    ),
    StateKind.AUTO: StateStyle(
        "automatic", "#ffffff", "#444444", "left at once; its guards pick the branch"
    ),
    StateKind.FINAL: StateStyle(
        "final", "#e6e6e6", "#222222", "the chart is done and its frame popped", double=True
    ),
    StateKind.COMPOUND: StateStyle(
        "phase", "#f5f5f5", "#999999", "entering it enters its initial child"
    ),
}

EDGE_STYLES: dict[Trigger, EdgeStyle] = {
    Trigger.DECISION: EdgeStyle("decision event", "#1f4e9c", "1.8", False, "chosen by a player"),
    Trigger.AUTO: EdgeStyle("automatic event", "#444444", "1.0", False, "fired by the game"),
    Trigger.RESUME: EdgeStyle(
        "resume event", "#7a3d99", "1.4", True, "the frame pushed from here was popped"
    ),
}

CHOICE_LEGEND = "branches tried in order 1, 2, ...; the first whose guards hold is taken"

PUSH_COLOR = "#3465a4"
"""Colour of a push (a transition that enters a suspension state) in the stack diagram."""

SEAT_COLORS = (
    "#f4cccc",
    "#d9ead3",
    "#cfe2f3",
    "#fce5cd",
    "#d9d2e9",
    "#d0e0e3",
    "#fff2cc",
    "#ead1dc",
)
"""Background colours of the seats in a trace, by seat number (cycled past eight)."""

BAND_COLORS = ("#fafafa", "#eef3fb", "#fbf1e6", "#eef7ee", "#f6eef8", "#f8f8e8")
"""Background colours of the nested frame bands of a trace, by depth (cycled)."""


def seat_color(seat: int) -> str:
    """The background colour of ``seat`` in a trace."""
    return SEAT_COLORS[seat % len(SEAT_COLORS)]


def band_color(depth: int) -> str:
    """The background colour of a frame band at stack depth ``depth``."""
    return BAND_COLORS[depth % len(BAND_COLORS)]
