"""The model's numeric codes, all derived from the spec's plain-data charts and rulebook.

Chart states, transitions, frame kinds, pushes and resume events come from
:func:`buckshot.spec.chart_data.chart_models`; nothing of the control structure is retyped here.
Item and role codes follow the order of :class:`~buckshot.spec.rulebook.Item` and
:class:`~buckshot.spec.rulebook.Role`.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, cached_property
from typing import Final

from buckshot.spec.chart_data import ChartModel, StateKind, TransitionEdge, chart_models
from buckshot.spec.charts import Trigger
from buckshot.spec.rulebook import ITEMS, FrameKind, Item, Role, Target

SEATS: Final = 8
"""Seat slots of the model; seats at or beyond the player count are dead from the start."""
NONE: Final = SEATS
"""The seat code meaning "no player"."""
ITEM_KINDS: Final = tuple(Item)
ROLES: Final = tuple(Role)
KINDS: Final = len(ITEM_KINDS)

EMPTY: Final = 0
"""The code of an empty frame slot (kind and state)."""

LAST_NONE: Final = 0
LAST_ITEM: Final = 1
LAST_SHOT: Final = 2
"""The turn's last main-phase step, read by ``main_continues``."""

RUNNING: Final = 0
WON: Final = 1
DRAWN: Final = 2
"""The game's result."""


def item_code(item: Item) -> int:
    """The code of an item kind."""
    return ITEM_KINDS.index(item)


def role_code(role: Role) -> int:
    """The code of a role."""
    return ROLES.index(role)


def kind_code(kind: FrameKind) -> int:
    """The code of a frame kind (0 is an empty slot)."""
    return tuple(FrameKind).index(kind) + 1


@dataclass(frozen=True)
class StateCode:
    """One leaf state of one chart, with its code."""

    code: int
    frame: FrameKind
    id: str
    kind: StateKind


@dataclass(frozen=True)
class EdgeCode:
    """One transition of one chart, with its code and the codes of its ends."""

    code: int
    frame: FrameKind
    edge: TransitionEdge
    source: int
    entry: int


class MissingTransition(KeyError):
    """A transition named by its id (``chart:source:event:index``) that the charts lack."""

    def __str__(self) -> str:
        return f"the charts have no transition {self.args[0]}"


@dataclass(frozen=True)
class Layout:
    """Every code the model uses, read from the charts."""

    charts: tuple[ChartModel, ...]
    states: tuple[StateCode, ...]
    """Leaf states of every chart; ``code`` is the index + 1 (0 is an empty slot)."""
    edges: tuple[EdgeCode, ...]
    """Every transition of every chart, in chart and declaration order; ``code`` = index."""

    def state(self, frame: FrameKind, state_id: str) -> StateCode:
        """The code of the leaf state ``state_id`` of ``frame``'s chart."""
        for state in self.states:
            if state.frame is frame and state.id == state_id:
                return state
        raise KeyError(f"{frame.value} has no leaf state {state_id!r}")

    def by_code(self, code: int) -> StateCode | None:
        """The state with ``code``, or None for an empty or unknown code."""
        return self.states[code - 1] if 1 <= code <= len(self.states) else None

    def chart(self, frame: FrameKind) -> ChartModel:
        """The chart of frame kind ``frame``."""
        return next(chart for chart in self.charts if chart.kind is frame)

    def initial(self, frame: FrameKind) -> int:
        """The code of the state a fresh frame of ``frame`` starts in."""
        return self.state(frame, self.chart(frame).initial).code

    def resume_event(self, frame: FrameKind) -> str | None:
        """The event a finished frame of ``frame`` sends to the frame below."""
        return self.chart(frame).resume_event

    def edge_by_id(self, edge_id: str) -> EdgeCode:
        """The edge whose spec id is ``edge_id`` (:class:`MissingTransition` when the charts
        have none)."""
        for edge in self.edges:
            if edge.edge.id == edge_id:
                return edge
        raise MissingTransition(edge_id)

    def decisions(self, source: int, event: str | None = None) -> list[EdgeCode]:
        """The decision edges leaving the state coded ``source`` (of ``event`` when given)."""
        return [
            e
            for e in self.edges
            if e.source == source
            and e.edge.trigger is Trigger.DECISION
            and event in (None, e.edge.event)
        ]

    def is_resume(self, edge: EdgeCode) -> bool:
        """True for an edge taken on a resume event."""
        return edge.edge.trigger is Trigger.RESUME

    @cached_property
    def leaving(self) -> dict[tuple[int, bool], tuple[EdgeCode, ...]]:
        """The edges leaving each state code, in declaration order: ``(code, True)`` those
        taken on a resume event, ``(code, False)`` the others (empty when there are none)."""
        table: dict[tuple[int, bool], list[EdgeCode]] = {
            (state.code, resume): [] for state in self.states for resume in (False, True)
        }
        for edge in self.edges:
            table[(edge.source, self.is_resume(edge))].append(edge)
        return {key: tuple(edges) for key, edges in table.items()}

    @cached_property
    def resumes(self) -> tuple[bool, ...]:
        """For each edge, by code: it is taken on a resume event (:meth:`is_resume`)."""
        return tuple(self.is_resume(edge) for edge in self.edges)

    @cached_property
    def final_codes(self) -> frozenset[int]:
        """The codes of the final states."""
        return frozenset(state.code for state in self.final_states())

    def decision_states(self) -> tuple[StateCode, ...]:
        """Every state that waits for a player's decision."""
        return tuple(s for s in self.states if s.kind is StateKind.DECISION)

    def final_states(self) -> tuple[StateCode, ...]:
        """Every final state."""
        return tuple(s for s in self.states if s.kind is StateKind.FINAL)


@cache
def layout() -> Layout:
    """The layout of the spec's charts."""
    charts = chart_models()
    states: list[StateCode] = []
    for chart in charts:
        for node in chart.states:
            if node.kind is not StateKind.COMPOUND:
                states.append(StateCode(len(states) + 1, chart.kind, node.id, node.kind))
    by_key = {(s.frame, s.id): s.code for s in states}
    edges: list[EdgeCode] = []
    for chart in charts:
        for edge in chart.transitions:
            edges.append(
                EdgeCode(
                    code=len(edges),
                    frame=chart.kind,
                    edge=edge,
                    source=by_key[(chart.kind, edge.source)],
                    entry=by_key[(chart.kind, edge.entry)],
                )
            )
    return Layout(charts=charts, states=tuple(states), edges=tuple(edges))


RESCUE_CODES: Final = tuple(item_code(spec.item) for spec in ITEMS if spec.rescue)
"""Codes of the items a dying player may use (S3.5, S3.6)."""
SHELL_CODES: Final = tuple(item_code(spec.item) for spec in ITEMS if spec.needs_shell)
"""Codes of the items that act on the chamber (R22)."""
TARGET_OF: Final = {item_code(spec.item): spec.target for spec in ITEMS}
"""Whom each item may be used on."""


def targeted(item: int) -> bool:
    """The item with code ``item`` takes a ``target`` parameter (R10, R23)."""
    return TARGET_OF[item] in (Target.ANY_LIVING, Target.OTHER_LIVING)
