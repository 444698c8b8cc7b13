"""The words every chart diagram prints, shared by DOT and Mermaid."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from buckshot.spec.chart_data import ChartModel, Guard, StateKind, StateNode, TransitionEdge
from buckshot.spec.rulebook import PHASES


@dataclass(frozen=True)
class EventGroup:
    """The transitions of one event from one source state, in priority order (2+: a choice)."""

    source: str
    event: str
    edges: tuple[TransitionEdge, ...]

    @property
    def is_choice(self) -> bool:
        """True when the event has several guarded branches from this source."""
        return len(self.edges) > 1

    @property
    def choice_id(self) -> str:
        """The node ID of this group's choice point."""
        return f"{self.source}__{self.event}"


def event_groups(model: ChartModel) -> tuple[EventGroup, ...]:
    """The chart's transitions grouped by (source, event), in declaration order."""
    grouped: dict[tuple[str, str], list[TransitionEdge]] = {}
    for edge in model.transitions:
        grouped.setdefault((edge.source, edge.event), []).append(edge)
    return tuple(
        EventGroup(source, event, tuple(sorted(edges, key=lambda e: e.priority)))
        for (source, event), edges in grouped.items()
    )


def children(model: ChartModel, parent: str | None) -> list[StateNode]:
    """The states directly inside ``parent`` (None: the chart's top level), in order."""
    return [state for state in model.states if state.parent == parent]


def guard_text(guards: Sequence[Guard]) -> str:
    """Guards as ``[a, !b]`` (``!`` marks an ``unless`` guard); empty when there are none."""
    if not guards:
        return ""
    return "[" + ", ".join(g.name if g.expected else f"!{g.name}" for g in guards) + "]"


def action_text(actions: Sequence[str]) -> str:
    """Actions as ``/ a, b``; empty when there are none."""
    return "/ " + ", ".join(actions) if actions else ""


def citation(clauses: Sequence[str], rulings: Sequence[str] = ()) -> str:
    """Clause IDs, then ruling IDs after a dot: ``S4.2.1 S4.2.1a · R4``."""
    text = " ".join(clauses)
    if rulings:
        text = f"{text} · {' '.join(rulings)}" if text else " ".join(rulings)
    return text


def transition_text(edge: TransitionEdge) -> str:
    """A one-line caption of a transition: event, guards and actions."""
    return " ".join(
        p for p in (edge.event, guard_text(edge.guards), action_text(edge.actions)) if p
    )


def branch_text(edge: TransitionEdge) -> str:
    """A branch of a choice: its 1-based rank, then its guards (``else`` for none), actions."""
    guards = guard_text(edge.guards) or "else"
    return " ".join(p for p in (f"{edge.priority + 1}.", guards, action_text(edge.actions)) if p)


_PHASE_NUMBERS = {spec.phase.value: spec.number for spec in PHASES}


def state_title(state: StateNode) -> str:
    """The state's display name; a phase of the turn is prefixed with its number."""
    number = _PHASE_NUMBERS.get(state.id)
    if state.kind is StateKind.COMPOUND and number is not None:
        return f"Phase {number}: {state.name}"
    return state.name


def state_role(model: ChartModel, state: StateNode) -> str:
    """What the state does, by kind: who is asked, what frame it waits for, or how it ends."""
    if state.kind is StateKind.DECISION:
        prompt = model.prompts[state.id]
        return f"asks {prompt.asked} · prompt {prompt.kind}"
    if state.kind is StateKind.SUSPENDED:
        push = next(p for p in model.pushes if p.state == state.id)
        return f"pushes {push.frame.value} · resumes on {push.resume_event}"
    if state.kind is StateKind.FINAL:
        if model.resume_event is None:
            return "final: the game ends"
        return f"final: frame popped, sends {model.resume_event}"
    if state.kind is StateKind.AUTO:
        return "automatic"
    return "compound"
