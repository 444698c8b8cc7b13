"""The coverage goals: every chart transition taken, every guard of a transition evaluated true
and false; and the goals no game can reach, each with its reason.

A goal is a string: ``transition <edge id>`` or ``guard <edge id> <guard>=<true|false>``
(edge ids are the charts', :func:`buckshot.spec.chart_data.chart_models`).
"""

from __future__ import annotations

from collections.abc import Iterable

from buckshot.conformance.modelcases.steps import GuardOutcome
from buckshot.spec.rulebook import FrameKind
from buckshot.verification.model.layout import layout

SEAT_COUNTS = (2, 3, 5, 8)
"""The table sizes the model-generated cases cover goal by goal."""

_NO_COUNTER = (
    "no role of S2 holds a counter skill (R18): counter_possible and can_counter are "
    "unsatisfiable over every model state (proved with Z3 by the tests), so no "
    "counter_response frame is ever pushed"
)


def transition_goal(edge_id: str) -> str:
    """The goal of taking transition ``edge_id``."""
    return f"transition {edge_id}"


def guard_goal(outcome: GuardOutcome) -> str:
    """The goal of one guard outcome."""
    return f"guard {outcome.edge} {outcome.guard}={'true' if outcome.value else 'false'}"


def all_goals() -> tuple[str, ...]:
    """Every goal, in chart order: each transition, then its guards true and false."""
    out: list[str] = []
    for edge in layout().edges:
        out.append(transition_goal(edge.edge.id))
        for guard in edge.edge.guards:
            for value in (True, False):
                out.append(guard_goal(GuardOutcome(edge.edge.id, guard.name, value)))
    return tuple(out)


def _impossible() -> dict[str, str]:
    found: dict[str, str] = {}
    for edge in layout().edges:
        counter_frame = edge.frame is FrameKind.COUNTER_RESPONSE
        opens_counter = "open_counter_response" in edge.edge.actions
        resumes_counter = edge.edge.event == "counter_resolved"
        if counter_frame or opens_counter or resumes_counter:
            found[transition_goal(edge.edge.id)] = _NO_COUNTER
        for guard in edge.edge.guards:
            for value in (True, False):
                goal = guard_goal(GuardOutcome(edge.edge.id, guard.name, value))
                if counter_frame or (guard.name == "counter_possible" and value):
                    found[goal] = _NO_COUNTER
    return found


IMPOSSIBLE: dict[str, str] = _impossible()
"""Goals no game reaches, with the reason (checked by the tests against the model)."""


_TWO_SEATS = (
    "at two seats an elimination leaves one player standing, and settle tries game_is_over "
    "before owner_eliminated and kill_locked (S5.2, S4.2.1e): the game is over first, so "
    "shooting is never locked and a dead seat is never a target in a running game"
)

IMPOSSIBLE_AT: dict[int, dict[str, str]] = {
    2: {
        transition_goal("turn:settling:settle:3"): _TWO_SEATS,
        "guard turn:settling:settle:3 owner_eliminated=true": _TWO_SEATS,
        transition_goal("turn:settling:settle:4"): _TWO_SEATS,
        "guard turn:settling:settle:4 kill_locked=true": _TWO_SEATS,
        transition_goal("turn:shooting_locked:use_item:0"): _TWO_SEATS,
        "guard turn:shooting_locked:use_item:0 item_usable=true": _TWO_SEATS,
        "guard turn:shooting_locked:use_item:0 item_usable=false": _TWO_SEATS,
        transition_goal("turn:shooting_locked:end_main:0"): _TWO_SEATS,
        "guard turn:awaiting_action:shoot:0 shot_target_valid=false": _TWO_SEATS,
    }
}
"""Goals no game at one table size reaches (beyond :data:`IMPOSSIBLE`), with the reason."""


def impossible_at(n: int | None) -> dict[str, str]:
    """The goals no game reaches at ``n`` seats (at any table size when ``n`` is None)."""
    return {**IMPOSSIBLE, **(IMPOSSIBLE_AT.get(n, {}) if n is not None else {})}


def gaps(covered: Iterable[str], n: int | None = None) -> list[str]:
    """The goals not in ``covered`` and not impossible (at ``n`` seats), in chart order."""
    seen = set(covered)
    skip = impossible_at(n)
    return [goal for goal in all_goals() if goal not in seen and goal not in skip]


__all__ = [
    "IMPOSSIBLE",
    "IMPOSSIBLE_AT",
    "SEAT_COUNTS",
    "all_goals",
    "gaps",
    "guard_goal",
    "impossible_at",
    "transition_goal",
]
