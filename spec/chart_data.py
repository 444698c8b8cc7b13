"""The charts read back as plain data (:func:`chart_models`): states, transitions, prompts,
pushes and resume points. Only this and :mod:`.charts.meta` introspect python-statemachine.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from functools import cache
from typing import Any

from statemachine import State

from buckshot.spec import SpecError
from buckshot.spec.charts import CHARTS, Chart, ChartMeta, Prompt, Trigger
from buckshot.spec.charts.meta import actions_of, guards_of
from buckshot.spec.rulebook import FrameKind


class StateKind(StrEnum):
    """The role a state plays when a game runs through it."""

    COMPOUND = "compound"
    """Holds child states; entering it enters its initial child."""
    AUTO = "auto"
    """Left at once by an automatic transition; its guards, in order, pick the branch."""
    DECISION = "decision"
    """Waits for a player's decision; the prompt says who is asked."""
    SUSPENDED = "suspended"
    """Waits while the frame it pushed is on the stack; left by that frame's resume event."""
    FINAL = "final"
    """The chart has finished; a frame that reaches it is popped."""


@dataclass(frozen=True)
class StateNode:
    """One state of a chart."""

    id: str
    name: str
    parent: str | None
    kind: StateKind
    initial: bool
    clauses: tuple[str, ...]
    rulings: tuple[str, ...]


@dataclass(frozen=True)
class Guard:
    """A named guard of a transition and the value it must have (``unless`` means False)."""

    name: str
    expected: bool


@dataclass(frozen=True)
class TransitionEdge:
    """One transition: from ``source`` on ``event`` to ``target``, tried in ``priority`` order."""

    id: str
    source: str
    event: str
    target: str
    entry: str
    """The non-compound state actually entered: ``target`` or its initial descendant."""
    priority: int
    """Rank among the transitions of the same source and event; lower is tried first."""
    guards: tuple[Guard, ...]
    actions: tuple[str, ...]
    trigger: Trigger
    clauses: tuple[str, ...]
    rulings: tuple[str, ...]


@dataclass(frozen=True)
class PushPoint:
    """A suspension state, the frame it pushes, and the event on which that frame resumes it."""

    state: str
    frame: FrameKind
    resume_event: str
    pushed_by: tuple[str, ...]
    """IDs of the transitions that enter the suspension state (and so push the frame)."""
    resumes_to: tuple[str, ...]
    """States the resume event leads to from the suspension state."""


@dataclass(frozen=True)
class ChartModel:
    """One chart as plain data, in declaration order."""

    kind: FrameKind
    class_name: str
    title: str
    doc: str
    initial: str
    """The non-compound state a fresh frame of this chart starts in."""
    resume_event: str | None
    states: tuple[StateNode, ...]
    transitions: tuple[TransitionEdge, ...]
    prompts: dict[str, Prompt]
    pushes: tuple[PushPoint, ...]
    leaves: dict[str, str]
    """The non-compound state that entering each state enters: itself or its initial leaf."""

    def state(self, state_id: str) -> StateNode:
        """The state with id ``state_id``."""
        for node in self.states:
            if node.id == state_id:
                return node
        raise KeyError(f"{self.class_name} has no state {state_id!r}")

    def outgoing(self, state_id: str) -> tuple[TransitionEdge, ...]:
        """The transitions leaving ``state_id``, in priority order per event."""
        return tuple(edge for edge in self.transitions if edge.source == state_id)

    def events(self) -> tuple[str, ...]:
        """The chart's event names, in declaration order."""
        return tuple(dict.fromkeys(edge.event for edge in self.transitions))


def _initial_leaf(state: State) -> State:
    while state.states:
        state = next(child for child in state.states if child.initial)
    return state


def _walk(states: Any) -> list[State]:
    ordered: list[State] = []
    for state in states:
        ordered.append(state)
        ordered.extend(_walk(state.states))
    return ordered


def _state_kind(state: State, meta: ChartMeta) -> StateKind:
    if state.states:
        return StateKind.COMPOUND
    if state.final:
        return StateKind.FINAL
    if state.id in {push.state for push in meta.pushes}:
        return StateKind.SUSPENDED
    triggers = {meta.triggers[t.event] for t in state.transitions if not t.is_eventless}
    if triggers == {Trigger.DECISION}:
        return StateKind.DECISION
    if triggers == {Trigger.AUTO}:
        return StateKind.AUTO
    raise SpecError(f"state {state.id!r} mixes or lacks triggers: {sorted(triggers)}")


def _build(kind: FrameKind, chart: type[Chart]) -> ChartModel:
    meta: ChartMeta = chart.META
    states = _walk(chart.states)
    nodes = tuple(
        StateNode(
            id=state.id,
            name=state.name,
            parent=state.parent.id if state.parent is not None else None,
            kind=_state_kind(state, meta),
            initial=bool(state.initial),
            clauses=meta.clauses.get(state.id, ()),
            rulings=meta.rulings.get(state.id, ()),
        )
        for state in states
    )
    edges: list[TransitionEdge] = []
    for state in states:
        rank: dict[str, int] = {}
        for transition in state.transitions:
            if transition.is_eventless:
                continue  # a compound state's pointer to its initial child
            event = transition.event
            priority = rank.get(event, 0)
            rank[event] = priority + 1
            edges.append(
                TransitionEdge(
                    id=f"{kind.value}:{state.id}:{event}:{priority}",
                    source=state.id,
                    event=event,
                    target=transition.target.id,
                    entry=_initial_leaf(transition.target).id,
                    priority=priority,
                    guards=tuple(Guard(*guard) for guard in guards_of(transition)),
                    actions=actions_of(transition),
                    trigger=meta.triggers[event],
                    clauses=meta.clauses.get(event, ()),
                    rulings=meta.rulings.get(event, ()),
                )
            )
    pushes = []
    for push in meta.pushes:
        resume = CHARTS[push.frame].META.resume_event
        if resume is None:
            raise SpecError(f"{chart.__name__} pushes {push.frame.value}, which never resumes")
        pushes.append(
            PushPoint(
                state=push.state,
                frame=push.frame,
                resume_event=resume,
                pushed_by=tuple(e.id for e in edges if e.entry == push.state),
                resumes_to=tuple(e.entry for e in edges if e.source == push.state),
            )
        )
    return ChartModel(
        kind=kind,
        class_name=chart.__name__,
        title=meta.title,
        doc=" ".join((chart.__doc__ or "").split()),
        initial=_initial_leaf(next(s for s in chart.states if s.initial)).id,
        resume_event=meta.resume_event,
        states=nodes,
        transitions=tuple(edges),
        prompts=dict(meta.prompts),
        pushes=tuple(pushes),
        leaves={state.id: _initial_leaf(state).id for state in states},
    )


@cache
def chart_models() -> tuple[ChartModel, ...]:
    """Every chart as plain data, in the order of :class:`FrameKind`."""
    return tuple(_build(kind, chart) for kind, chart in CHARTS.items())


@cache
def prompt_kinds() -> tuple[str, ...]:
    """Every kind of prompt the charts ask, each once, in the order of the charts."""
    return tuple(dict.fromkeys(p.kind for model in chart_models() for p in model.prompts.values()))


def chart_model(kind: FrameKind) -> ChartModel:
    """The chart of frame kind ``kind`` as plain data."""
    return next(model for model in chart_models() if model.kind is kind)
