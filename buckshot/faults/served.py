"""Faults served by the reference adapter: bugs of the engine and of its contract.

Such a fault is a *breaker*, called once in the adapter's process before it serves: it may
change the engine through its seams (:mod:`buckshot.reference.seams`), and it returns the
class that plays each case (a subclass of :class:`buckshot.reference.adapter.Run` that
builds the game or reports otherwise), or None for the adapter's own. Each is declared by
one decorator right above its breaker (:func:`buckshot.faults.engine.engine_fault`,
:func:`buckshot.faults.contract.contract_fault`), which checks it (:func:`declare`) and adds
it to its module's catalogue; ``python -m buckshot.faults.adapter --fault NAME`` serves one.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from buckshot.faults.declare import Fault, Room, declare
from buckshot.reference.adapter import Run

Breaker = Callable[[], type[Run] | None]
"""Breaks the engine in this process; the run class to serve with (None: :class:`Run`)."""

B = TypeVar("B", bound=Breaker)


@dataclass(frozen=True)
class ServedFault:
    """One fault served by the reference adapter: its declaration and its breaker."""

    fault: Fault
    breaker: Breaker

    def apply(self) -> type[Run]:
        """Break the engine in this process as the fault says; the run class to serve with."""
        return self.breaker() or Run


def served_fault(
    room: Room,
    into: dict[str, ServedFault],
    name: str,
    summary: str,
    breaks: tuple[str, ...],
    caught_by: tuple[str, ...],
) -> Callable[[B], B]:
    """The decorator declaring its breaker as the fault ``name`` of ``room`` (what it
    breaks, the case IDs that must catch it) and adding it to the catalogue ``into``."""

    def register(breaker: B) -> B:
        fault = declare(Fault(name, room, summary, breaks, caught_by))
        into[name] = ServedFault(fault, breaker)
        return breaker

    return register
