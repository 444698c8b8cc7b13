"""Inductive proofs: Init => P, and Inv and lemmas and one step => P', property by property.

All player counts of the configured range are covered by one query (the count is a state
variable). Each property is checked on its own, against the same solver holding the
assumptions, so a failure names the property and yields a counterexample to induction: a
state satisfying every invariant and lemma, an input, and the next state that breaks it,
re-checked by the executable spec.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import z3  # type: ignore[import-untyped]

from buckshot.verification.branches import Branch, branches
from buckshot.verification.config import Config
from buckshot.verification.executable import Concrete, ConcreteInput, ExecutableSpec
from buckshot.verification.invariants import INVARIANTS
from buckshot.verification.lemmas import LEMMAS
from buckshot.verification.properties import Property
from buckshot.verification.symbolic import Symbols, read_input, read_state

PROVED = "proved"
VIOLATED = "violated"
UNKNOWN = "unknown"


@dataclass(frozen=True)
class Counterexample:
    """A state, the input of one step and its result, where a property fails."""

    before: Concrete | None
    """The state before the step (None for a failure in an initial state)."""
    input: ConcreteInput | None
    after: Concrete
    confirmed: bool
    """The executable spec, run on the same state and input, shows the same failure."""
    note: str


@dataclass(frozen=True)
class ProofResult:
    """The verdict on one property for one range of player counts."""

    id: str
    players: str
    verdict: str
    seconds: float
    part: str
    """``base`` (initial states) or ``step`` (induction step), where a failure was found."""
    counterexample: Counterexample | None = None


def players_label(cfg: Config) -> str:
    """``N=2..8`` or ``N=3`` for the configured range."""
    if cfg.players_lo == cfg.players_hi:
        return f"N={cfg.players_lo}"
    return f"N={cfg.players_lo}..{cfg.players_hi}"


def all_properties() -> tuple[Property, ...]:
    """The invariants then the lemmas."""
    return INVARIANTS + LEMMAS


def prove(
    cfg: Config,
    properties: Sequence[Property] | None = None,
    mutants: frozenset[str] = frozenset(),
    timeout_ms: int = 60_000,
    assume: Sequence[Property] | None = None,
    on_result: Callable[[ProofResult], None] | None = None,
) -> list[ProofResult]:
    """Prove each property inductively (base and step), assuming ``assume`` (default: all).

    ``on_result`` is called with each property's result as soon as it is known.

    Each property is one query for its base case and one for its step: the assumptions on
    a symbolic state, and some branch of the step (:mod:`.branches`) after which the
    property fails. Every player count of the configured range is in the same query.
    """
    props = list(properties) if properties is not None else list(all_properties())
    assumed = list(assume) if assume is not None else list(all_properties())
    symbols = Symbols(cfg, mutants)
    sem = symbols.sem
    spec = ExecutableSpec(cfg.ruleset, config=cfg, mutants=mutants)
    label = players_label(cfg)
    init, init_cond = symbols.initial("init")
    s = symbols.state("s")
    inp = symbols.input("in")
    facts = [prop.state(sem, s) for prop in assumed if prop.state is not None]
    cases = branches(sem, s, inp)
    results: list[ProofResult] = []
    for prop in props:
        started = time.perf_counter()
        verdict, part, cex = PROVED, "step", None
        if prop.state is not None:
            solver = _solver(timeout_ms, [init_cond, z3.Not(prop.state(sem, init))])
            verdict = _verdict(solver.check())
            if verdict != PROVED:
                part = "base"
                if verdict == VIOLATED:
                    after = read_state(cfg, solver.model(), init)
                    cex = _confirm(spec, prop, None, None, after)
        if verdict == PROVED:
            verdict, solver = _step(sem, prop, s, inp, cases, facts, timeout_ms)
            if verdict == VIOLATED:
                model = solver.model()
                before = read_state(cfg, model, s)
                given = read_input(cfg, model, inp)
                cex = _confirm(spec, prop, before, given, None)
        seconds = time.perf_counter() - started
        results.append(ProofResult(prop.id, label, verdict, seconds, part, cex))
        if on_result is not None:
            on_result(results[-1])
    return results


QUICK_MS = 5_000
"""Time allowed to the single query over all branches before falling back to one per branch."""


def _step(
    sem: Any,
    prop: Property,
    s: Any,
    inp: Any,
    cases: list[Branch],
    facts: list[Any],
    timeout_ms: int,
) -> tuple[str, Any]:
    """The induction step of ``prop``: one query over every branch, else one per branch
    (at once for a property marked ``per_branch``).

    Returns the verdict and the solver holding a model when the verdict is VIOLATED.
    """
    bad = [z3.And(case.cond, z3.Not(_goal(sem, prop, s, inp, case))) for case in cases]
    if not prop.per_branch:
        solver = _solver(min(QUICK_MS, timeout_ms), [*facts, z3.Or(*bad)])
        verdict = _verdict(solver.check())
        if verdict != UNKNOWN or timeout_ms <= QUICK_MS:
            return verdict, solver
    verdict = PROVED
    for goal in bad:
        solver = _solver(timeout_ms, [*facts, goal])
        outcome = _verdict(solver.check())
        if outcome == VIOLATED:
            return VIOLATED, solver
        if outcome == UNKNOWN:
            verdict = UNKNOWN
    return verdict, solver


def _goal(sem: Any, prop: Property, s: Any, inp: Any, case: Branch) -> Any:
    """The property's state part after the branch, and its step part over it."""
    goals = []
    if prop.state is not None:
        goals.append(prop.state(sem, case.result.next))
    if prop.step is not None:
        goals.append(prop.step(sem, s, inp, case.result))
    return z3.And(*goals)


def _solver(timeout_ms: int, facts: list[Any]) -> Any:
    """A fresh one-shot QF_BV solver holding ``facts`` (one-shot keeps Z3's preprocessing)."""
    solver = z3.SolverFor("QF_BV")
    solver.set("timeout", timeout_ms)
    solver.add(*facts)
    return solver


def _verdict(outcome: Any) -> str:
    if outcome == z3.unsat:
        return PROVED
    if outcome == z3.sat:
        return VIOLATED
    return UNKNOWN


def _confirm(
    spec: ExecutableSpec,
    prop: Property,
    before: Concrete | None,
    given: ConcreteInput | None,
    after: Concrete | None,
) -> Counterexample:
    """Re-run the counterexample on the executable spec and say whether it shows the failure."""
    sem = spec.sem
    if before is None or given is None:
        assert after is not None
        holds = prop.state(sem, after) if prop.state is not None else True
        return Counterexample(None, None, after, not holds, "initial state")
    res = spec.result(before, given)
    if not res.ok:
        return Counterexample(before, given, res.next, False, "the spec finds the input illegal")
    holds = True
    if prop.state is not None:
        holds = bool(prop.state(sem, res.next))
    if prop.step is not None:
        holds = holds and bool(prop.step(sem, before, given, res))
    note = "re-checked on the executable spec"
    return Counterexample(before, given, res.next, not holds, note)
