"""The annotations every chart carries beside its states and transitions (:class:`ChartMeta`).

Each :class:`Chart` checks its ``META`` when defined: a name bound to no state, event or
registry entry, or an event without a trigger, raises :class:`SpecError` at import.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from difflib import get_close_matches
from enum import StrEnum
from typing import Any, ClassVar

from statemachine import StateMachine
from statemachine.factory import StateMachineMetaclass

from buckshot.spec import SpecError
from buckshot.spec.registry import Kind, names
from buckshot.spec.rulebook import FrameKind


class Trigger(StrEnum):
    """How an event of a chart comes about."""

    DECISION = "decision"
    """A player's choice, answering a prompt."""
    AUTO = "auto"
    """Fired by the game itself as soon as its state is entered; its guards pick the branch."""
    RESUME = "resume"
    """Sent to a suspended state when the frame pushed from it has finished and is popped."""


@dataclass(frozen=True)
class Prompt:
    """What a decision state asks: the selector naming the player asked, and the prompt kind."""

    asked: str
    """Name of a selector in the registry (``turn_owner``, ``poll_cursor``, ...)."""
    kind: str
    """The prompt kind, shared by decision states that offer the same choices."""


@dataclass(frozen=True)
class Push:
    """Entering ``state`` pushes a frame of ``frame`` kind; the chart waits there for its resume."""

    state: str
    frame: FrameKind


@dataclass(frozen=True)
class ChartMeta:
    """The annotations of one chart: frame kind, clause citations, triggers, prompts, pushes."""

    frame: FrameKind
    title: str
    resume_event: str | None
    """Event this frame sends to the frame below when it finishes; None for the turn (bottom)."""
    clauses: dict[str, tuple[str, ...]]
    """Clause IDs implemented by each state (by id) and each event (by name); ``rulings`` alike."""
    rulings: dict[str, tuple[str, ...]]
    triggers: dict[str, Trigger]
    prompts: dict[str, Prompt]
    pushes: tuple[Push, ...] = field(default=())


class _CheckedChart(StateMachineMetaclass):
    """The metaclass of :class:`Chart`: builds the state machine, then checks its ``META``."""

    def __init__(cls, name: str, bases: tuple[type], attrs: dict[str, Any]) -> None:
        super().__init__(name, bases, attrs)
        if not cls.states:
            return  # an abstract base, such as Chart itself
        meta = attrs.get("META")
        if not isinstance(meta, ChartMeta):
            raise SpecError(f"{name} declares no META = ChartMeta(...)")
        states = [state.id for state in cls.states_map.values()]
        events = [event.id for event in cls.events]
        problem = next(_meta_problems(meta, states, events), None)
        if problem is not None:
            raise SpecError(f"{name}.META.{problem}")
        for state in cls.states_map.values():
            for transition in state.transitions:
                for unbound in _registry_problems(transition):
                    raise SpecError(f"{name}: {transition.event!r} from {state.id!r}: {unbound}")


def guards_of(transition: Any) -> tuple[tuple[str, bool], ...]:
    """The named guards of a chart transition, each with the value it must have."""
    return tuple((spec.attr_name, bool(spec.expected_value)) for spec in transition.cond)


def actions_of(transition: Any) -> tuple[str, ...]:
    """The named actions a chart transition runs, in order."""
    return tuple(spec.func for spec in transition.on if not spec.is_convention)


def _registry_problems(transition: Any) -> Iterator[str]:
    """The guard and action names of ``transition`` that the registry does not define."""
    guards, actions = names(Kind.GUARD), names(Kind.ACTION)
    for guard, _ in guards_of(transition):
        if guard not in guards:
            yield f"{guard!r} is not a guard of the registry{_did_you_mean(guard, guards)}"
    for action in actions_of(transition):
        if action not in actions:
            yield f"{action!r} is not an action of the registry{_did_you_mean(action, actions)}"


def _meta_problems(meta: ChartMeta, states: list[str], events: list[str]) -> Iterator[str]:
    """What binds a name of ``meta`` to nothing in a chart of ``states`` and ``events``."""
    elements = states + events
    tables: tuple[tuple[str, Iterable[str], list[str], str], ...] = (
        ("clauses", meta.clauses, elements, "a state or event"),
        ("rulings", meta.rulings, elements, "a state or event"),
        ("triggers", meta.triggers, events, "an event"),
        ("prompts", meta.prompts, states, "a state"),
        ("pushes", (push.state for push in meta.pushes), states, "a state"),
    )
    for table, keys, known, what in tables:
        for key in keys:
            if key not in known:
                yield f"{table}: {key!r} is not {what} of the chart{_did_you_mean(key, known)}"
    for event in events:
        if event not in meta.triggers:
            yield f"triggers: event {event!r} has no trigger"
    selectors = names(Kind.SELECTOR)
    for state, prompt in meta.prompts.items():
        if prompt.asked not in selectors:
            yield (
                f"prompts[{state!r}]: {prompt.asked!r} is not a selector of the registry"
                f"{_did_you_mean(prompt.asked, selectors)}"
            )


def _did_you_mean(key: str, known: Iterable[str]) -> str:
    close = get_close_matches(key, list(known), n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""


class Chart(StateMachine, metaclass=_CheckedChart):
    """Base of every chart: a strict state machine whose :class:`ChartMeta` is checked at import."""

    META: ClassVar[ChartMeta]
