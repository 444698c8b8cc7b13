"""Faults served by the reference adapter: bugs of the engine, of its contract and of free chance.

Such a fault is a *breaker*, called once in the adapter's process before it serves: it may
change the engine through its seams (``tests/faults/seams.py``), and it returns the
class that plays each case (a subclass of :class:`buckshot.reference.adapter.Run` that
builds the game or reports otherwise), or None for the adapter's own. Each is registered by
one decorator right above its breaker (:func:`faults.engine.engine_fault`,
:func:`faults.contract.contract_fault`, :func:`faults.chance.chance_fault`), under the
name of its row of ``manifest.json``, which says what it breaks and what must catch it;
``python tests/faults/adapter.py --fault NAME`` serves one.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from buckshot.reference.adapter import Run

Breaker = Callable[[], type[Run] | None]
"""Breaks the engine in this process; the run class to serve with (None: :class:`Run`)."""

B = TypeVar("B", bound=Breaker)


def served_fault(into: dict[str, Breaker], name: str) -> Callable[[B], B]:
    """The decorator adding its breaker to the catalogue ``into`` as the fault ``name``,
    refusing a name registered twice."""

    def register(breaker: B) -> B:
        if name in into:
            raise ValueError(f"fault {name} is registered twice")
        into[name] = breaker
        return breaker

    return register


def apply(breaker: Breaker) -> type[Run]:
    """Break the engine in this process as ``breaker`` says; the run class to serve with."""
    return breaker() or Run
