"""The annotations every chart carries beside its states and transitions.

python-statemachine holds the structure (states, hierarchy, events, named guards and
actions); :class:`ChartMeta` holds what the library has no place for: the clause IDs each
element implements, how each event is triggered, who is asked in each decision state, and
which suspension states push which frame.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import ClassVar

from statemachine import StateMachine

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
    """Clause IDs implemented by each state (by id) and each event (by name)."""
    rulings: dict[str, tuple[str, ...]]
    """Ruling IDs behind each state or event, where a ruling decides it."""
    triggers: dict[str, Trigger]
    prompts: dict[str, Prompt]
    pushes: tuple[Push, ...] = field(default=())


class Chart(StateMachine):
    """Base of every chart: a strict state machine that carries its :class:`ChartMeta`."""

    META: ClassVar[ChartMeta]
