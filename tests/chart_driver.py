"""A test-only driver that runs the python-statemachine charts themselves, with a stack.

Guards answer from a script (a fixed value, or a callable of the driver's state), actions
are recorded, automatic events fire by themselves, decisions come from a queue, and a
suspension state pushes an instance of the frame's chart. It checks the charts'
behaviour as python-statemachine executes it, independently of any engine.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from buckshot.spec.chart_data import StateKind, chart_model
from buckshot.spec.charts import CHARTS, Chart
from buckshot.spec.registry import ENTRIES, Kind
from buckshot.spec.rulebook import FrameKind

GuardAnswer = bool | Callable[["Driver"], bool]


def _settles(*guards: str) -> Callable[[Driver, dict[str, Any]], None]:
    """A hook that turns ``guards`` off: what the action settles no longer holds."""

    def hook(driver: Driver, _: dict[str, Any]) -> None:
        for guard in guards:
            driver.guards[guard] = False

    return hook


def _opens_poll(driver: Driver, _: dict[str, Any]) -> None:
    driver.guards["poll_complete"] = False


def _completes_poll(driver: Driver, _: dict[str, Any]) -> None:
    driver.guards["poll_complete"] = True


DEFAULT_HOOKS: dict[str, Callable[[Driver, dict[str, Any]], None]] = {
    "load_chamber": _settles("chamber_empty"),
    "open_dying": _settles("someone_dying"),
    "open_conversion": _settles("conversion_due"),
    "open_shot_window": _opens_poll,
    "advance_poll": _completes_poll,
}
"""Loading fills the chamber; pushing a dying or conversion frame settles what pushed it;
a poll opens on its window and, by default, completes after one player was asked."""


class ScriptedModel:
    """A model whose guards answer from ``guards`` and whose actions append to ``calls``."""

    def __init__(self, driver: Driver) -> None:
        for entry in ENTRIES:
            if entry.kind is Kind.GUARD:
                setattr(self, entry.name, self._guard(driver, entry.name))
            elif entry.kind is Kind.ACTION:
                setattr(self, entry.name, self._action(driver, entry.name))

    @staticmethod
    def _guard(driver: Driver, name: str) -> Callable[..., bool]:
        def answer(**_: Any) -> bool:
            value = driver.guards.get(name, False)
            return value(driver) if callable(value) else value

        return answer

    @staticmethod
    def _action(driver: Driver, name: str) -> Callable[..., None]:
        def record(**kwargs: Any) -> None:
            driver.calls.append(name)
            hook = driver.hooks.get(name)
            if hook is not None:
                hook(driver, kwargs)

        return record


@dataclass
class Frame:
    """One frame of the driver's stack: its kind and its running chart instance."""

    kind: FrameKind
    machine: Chart

    @property
    def state(self) -> str:
        """The id of the frame's current non-compound state."""
        return next(s.id for s in self.machine.configuration if not s.states)


@dataclass
class Driver:
    """Runs the charts as a stack until a decision is needed or the bottom frame finishes."""

    guards: dict[str, GuardAnswer] = field(default_factory=dict)
    hooks: dict[str, Callable[[Driver, dict[str, Any]], None]] = field(
        default_factory=lambda: dict(DEFAULT_HOOKS)
    )
    calls: list[str] = field(default_factory=list)
    stack: list[Frame] = field(default_factory=list)
    trail: list[tuple[str, str]] = field(default_factory=list)
    """(frame kind, state id) of every state entered, in order."""
    resumes: list[tuple[FrameKind, str, str, str]] = field(default_factory=list)
    """(frame kind below, state it was suspended in, resume event, state resumed to)."""

    def start(self, kind: FrameKind = FrameKind.TURN, state: str | None = None) -> None:
        """Push a fresh frame of ``kind`` (optionally starting in ``state``) and run."""
        self._push(kind, state)
        self.run()

    def _push(self, kind: FrameKind, state: str | None = None) -> None:
        machine = CHARTS[kind](ScriptedModel(self), start_value=state)
        self.stack.append(Frame(kind, machine))
        self.trail.append((kind.value, self.stack[-1].state))

    def send(self, event: str, **params: Any) -> None:
        """Send ``event`` to the top frame, then run until the next decision."""
        top = self.stack[-1]
        top.machine.send(event, **params)
        self.trail.append((top.kind.value, top.state))
        self.run()

    def run(self, max_steps: int = 1000) -> None:
        """Fire automatic events, push and pop frames, until a decision state or the end."""
        for _ in range(max_steps):
            if not self.stack:
                return
            top = self.stack[-1]
            model = chart_model(top.kind)
            node = model.state(top.state)
            if node.kind is StateKind.AUTO:
                (event,) = {edge.event for edge in model.outgoing(node.id)}
                top.machine.send(event)
                self.trail.append((top.kind.value, top.state))
            elif node.kind is StateKind.SUSPENDED:
                push = next(p for p in model.pushes if p.state == node.id)
                self._push(push.frame)
            elif node.kind is StateKind.FINAL:
                if len(self.stack) == 1:
                    return
                self.stack.pop()
                below = self.stack[-1]
                suspended = below.state
                resume = model.resume_event
                assert resume is not None
                below.machine.send(resume)
                self.resumes.append((below.kind, suspended, resume, below.state))
                self.trail.append((below.kind.value, below.state))
            else:
                return
        raise AssertionError(f"no decision after {max_steps} automatic steps: {self.trail[-5:]}")

    @property
    def top(self) -> Frame:
        """The frame on top of the stack."""
        return self.stack[-1]

    def phases(self) -> list[str]:
        """The turn's top-level phases in the order they were entered (repeats collapsed)."""
        turn = chart_model(FrameKind.TURN)
        parents = {state.id: state.parent for state in turn.states}
        seen: list[str] = []
        for kind, state in self.trail:
            if kind != FrameKind.TURN.value:
                continue
            phase = parents.get(state) or state
            if not seen or seen[-1] != phase:
                seen.append(phase)
        return seen
