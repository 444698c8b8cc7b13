"""Deterministic solver budgets: Z3's resource limit decides, the wall clock is a safety net.

A query's verdict must not depend on how busy the machine is. Every solver query of the
proofs is bounded by Z3's ``rlimit`` (a count of the solver's own basic steps, the same on
an idle and on a loaded machine for the same query and Z3 version); running out of it makes
the verdict ``unknown (resource limit)``, identically on every run. The wall-clock timeout
is kept only as a safety net against a runaway query: when it is what stops a query, the
verdict says so plainly (``unknown (timeout: ...)``), so that a slow machine is never
mistaken for a property that could not be proved.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import z3

RESOURCE_LIMIT = "resource limit"
"""Why a query is unknown when its resource budget ran out (deterministic)."""
TIMEOUT = "timeout: the machine was too slow for the safety-net wall clock (raise --timeout)"
"""Why a query is unknown when the wall-clock safety net stopped it (depends on load)."""
GAVE_UP = "the solver gave up"
"""Why a query is unknown when the solver answered unknown for another reason."""

STEPS_PER_MS = 10_000
"""Resource units granted per millisecond of a budget's nominal time. Measured on this
project's queries (P1 under the default ruleset: 3.6 million units in 4.8 s on a loaded
2-core machine, about 750 units per ms), a budget in units is several times the time the
query takes: generous enough that no proof of the default ruleset comes near it."""


@dataclass(frozen=True)
class Budget:
    """What one query may spend: ``rlimit`` resource units (the verdict's bound) and
    ``timeout_ms`` milliseconds of wall clock (the safety net, 0 for none)."""

    rlimit: int
    timeout_ms: int

    @staticmethod
    def nominal(ms: int, timeout_ms: int) -> Budget:
        """A budget of ``ms`` nominal milliseconds of solver work (in resource units), with
        ``timeout_ms`` of wall clock as the safety net (at least the nominal time)."""
        return Budget(ms * STEPS_PER_MS, max(timeout_ms, ms) if timeout_ms > 0 else 0)


def limited(solver: Any, budget: Budget) -> Any:
    """``solver`` with ``budget`` set (the resource limit counts from its next check)."""
    solver.set("rlimit", budget.rlimit)
    if budget.timeout_ms > 0:
        solver.set("timeout", budget.timeout_ms)
    return solver


def why_unknown(solver: Any) -> str:
    """The reason an ``unknown`` answer of ``solver`` was given, as one of the constants."""
    reason = str(solver.reason_unknown()).lower()
    if "resource" in reason or "rlimit" in reason:
        return RESOURCE_LIMIT
    if "timeout" in reason or "canceled" in reason or "cancelled" in reason:
        return TIMEOUT
    return f"{GAVE_UP} ({reason})"


def one_shot(budget: Budget, facts: list[Any], logic: str | None = "QF_BV") -> Any:
    """A fresh one-shot solver for ``logic`` (None: Z3's default strategy, which serves
    quantified bit-vector queries best) holding ``facts``, with ``budget`` set."""
    solver = z3.SolverFor(logic) if logic is not None else z3.Solver()
    limited(solver, budget)
    solver.add(*facts)
    return solver
