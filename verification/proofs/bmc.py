"""Bounded model checking from the initial states, with an incremental solver.

The unrolling holds one symbolic state per depth (the player count and roles free), each
linked to the previous one by the step relation. At each depth the solver is asked, under
an assumption literal, for a path that breaks some property there (violations), or that
takes some transition or reaches some stack shape not yet seen (reachability, used by the
vacuity check). Every path Z3 returns is replayed on the executable spec, which must take
the same steps and reach the same states.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import z3

from buckshot.verification.model.config import Config
from buckshot.verification.model.executable import Concrete, ExecutableSpec, IllegalStep, Step
from buckshot.verification.model.layout import MissingTransition
from buckshot.verification.model.patch import NO_PATCH, Patch
from buckshot.verification.model.semantics import StepResult
from buckshot.verification.model.state import State, differences
from buckshot.verification.model.symbolic import Symbols, read_input, read_state
from buckshot.verification.model.z3backend import Term
from buckshot.verification.proofs.limits import Budget, limited
from buckshot.verification.proofs.properties import Property


@dataclass(frozen=True)
class Witness:
    """A path from an initial state, as the executable spec replays it."""

    start: Concrete
    steps: tuple[Step, ...]
    replayed: bool  # every step was legal on the executable spec and reached the state Z3 gave
    note: str

    @property
    def end(self) -> Concrete:
        """The last state of the path."""
        return self.steps[-1].after if self.steps else self.start


@dataclass(frozen=True)
class Violation:
    """A property broken at some depth, with the path that breaks it."""

    property_id: str
    depth: int
    witness: Witness

    @property
    def n(self) -> int:
        """The player count of the path."""
        return int(self.witness.start.n)


@dataclass(frozen=True)
class DepthTime:
    """How long checking one depth took."""

    depth: int
    seconds: float


@dataclass(frozen=True)
class BmcPerN:
    """The bounded check's verdict for one player count."""

    n: int
    status: str  # ``ok`` (no violation up to ``depth``), ``violated`` (at ``depth``) or ``unknown``
    depth: int
    seconds: float  # time from the start of the check until this count's verdict was known


@dataclass(frozen=True)
class BmcResult:
    """Everything one bounded check found: violations, time per depth, verdicts per count."""

    violations: list[Violation]
    times: list[DepthTime]
    status: str  # ``ok``, ``violated`` (for some count) or ``unknown``
    per_n: tuple[BmcPerN, ...]


NOT_NEEDED = "not needed"
"""The status of a run's bounded check when the proofs left no invariant open: every property
of the run, lemmas included, was proved by induction for every count and none was assumed
from outside the run, which covers paths of every length (see
:func:`buckshot.verification.run.bmc_scope`)."""

BMC_QUERY_MS = 300_000
"""The resource budget of each BMC query, in nominal milliseconds (:class:`.limits.Budget`):
the limit counts afresh at every check of the incremental solver."""


class Unrolling:
    """The incremental unrolling of the step relation from the initial states."""

    def __init__(self, cfg: Config, patch: Patch = NO_PATCH, timeout_ms: int = 60_000):
        self.cfg = cfg
        self.symbols = Symbols(cfg, patch)
        self.spec = ExecutableSpec(cfg.ruleset, config=cfg, patch=patch)
        self.solver = limited(z3.SolverFor("QF_BV"), Budget.nominal(BMC_QUERY_MS, timeout_ms))
        start, cond = self.symbols.initial("s0")
        self.solver.add(cond)
        self.states: list[State[Term, Term]] = [start]
        self.inputs: list[Any] = []
        self.results: list[StepResult[Term, Term]] = []

    @property
    def depth(self) -> int:
        """How many steps are unrolled."""
        return len(self.inputs)

    def extend(self) -> None:
        """Unroll one more step."""
        j = self.depth
        inp = self.symbols.input(f"i{j}")
        res = self.symbols.sem.step(self.states[-1], inp)
        nxt = self.symbols.state(f"s{j + 1}")
        self.solver.add(res.ok, self.symbols.equal(nxt, res.next))
        self.inputs.append(inp)
        self.results.append(res)
        self.states.append(nxt)

    def check(self, goal: Term) -> str:
        """``sat``, ``unsat`` or ``unknown`` for a path of the current depth meeting ``goal``."""
        flag = z3.FreshBool()
        self.solver.add(z3.Implies(flag, goal))
        return str(self.solver.check(flag))

    def witness(self) -> Witness:
        """The path of the last model, replayed on the executable spec."""
        model = self.solver.model()
        cfg = self.cfg
        start = read_state(cfg, model, self.states[0])
        steps: list[Step] = []
        state = start
        for j in range(self.depth):
            given = read_input(cfg, model, self.inputs[j])
            expected = read_state(cfg, model, self.states[j + 1])
            try:
                step = self.spec.take(state, given)
            except IllegalStep as exc:
                return Witness(start, tuple(steps), False, f"step {j + 1}: {exc}")
            steps.append(step)
            if step.after != expected:
                diff = "; ".join(differences(cfg, step.after, expected)[:5])
                return Witness(start, tuple(steps), False, f"step {j + 1} differs: {diff}")
            state = step.after
        return Witness(start, tuple(steps), True, "replayed on the executable spec")


def bad_at(sym: Symbols, props: Sequence[Property], unroll: Unrolling, j: int) -> Term:
    """Some property fails in state ``j`` (or on the step into it); a property that names a
    transition the charts lack is left out (its proof fails, naming it)."""
    sem = sym.sem
    terms = []
    for prop in props:
        try:
            if prop.state is not None:
                terms.append(z3.Not(prop.state(sem, unroll.states[j])))
            if prop.step is not None and j > 0:
                before, inp, res = unroll.states[j - 1], unroll.inputs[j - 1], unroll.results[j - 1]
                terms.append(z3.Not(prop.step(sem, before, inp, res)))
        except MissingTransition:
            continue
    return z3.Or(*terms) if terms else z3.BoolVal(False)


def failing(spec: ExecutableSpec, props: Sequence[Property], witness: Witness) -> list[str]:
    """The properties the witness's last state (or last step) breaks, by concrete evaluation."""
    sem = spec.sem
    out = []
    last = witness.steps[-1] if witness.steps else None
    for prop in props:
        ok = True
        if prop.state is not None:
            ok = bool(prop.state(sem, witness.end))
        if ok and prop.step is not None and last is not None:
            result = spec.result(last.before, last.input)
            try:
                ok = bool(prop.step(sem, last.before, last.input, result))
            except MissingTransition:  # left out of the search (:func:`bad_at`)
                continue
        if not ok:
            out.append(prop.id)
    return out


def bounded_per_n(
    cfg: Config,
    props: Sequence[Property],
    depth: int,
    patch: Patch = NO_PATCH,
    timeout_ms: int = 60_000,
) -> BmcResult:
    """Search for a property violation on every path of up to ``depth`` steps, each player
    count with its own verdict.

    All counts are in one unrolling. When a path breaks a property, its player count is
    violated at that depth and excluded from the unrolling (``n != N``, for good), and the
    same depth is asked again for the other counts; the search goes on to ``depth`` for the
    counts left. An unknown answer leaves every count still open unknown.
    """
    started = time.perf_counter()
    unroll = Unrolling(cfg, patch, timeout_ms)
    b = unroll.symbols.backend
    n_term = unroll.states[0].n
    counts = list(range(cfg.players_lo, cfg.players_hi + 1))
    verdicts: dict[int, BmcPerN] = {}
    violations: list[Violation] = []
    times: list[DepthTime] = []
    status = "ok"
    for j in range(depth + 1):
        begun = time.perf_counter()
        if j > 0:
            unroll.extend()
        outcome = "unsat"
        for _ in range(1 << cfg.width):
            outcome = unroll.check(bad_at(unroll.symbols, props, unroll, j))
            if outcome != "sat":
                break
            witness = unroll.witness()
            ids = failing(unroll.spec, props, witness) or ["?"]
            violations += [Violation(pid, j, witness) for pid in ids]
            n = int(witness.start.n)
            verdicts[n] = BmcPerN(n, "violated", j, time.perf_counter() - started)
            status = "violated"
            unroll.solver.add(z3.Not(n_term == b.num(n)))
            if all(count in verdicts for count in counts):
                break
        times.append(DepthTime(j, time.perf_counter() - begun))
        if outcome not in ("sat", "unsat"):
            for count in counts:
                if count not in verdicts:
                    verdicts[count] = BmcPerN(count, "unknown", j, time.perf_counter() - started)
            status = "unknown" if status == "ok" else status
            break
        if all(count in verdicts for count in counts):
            break
    spent = time.perf_counter() - started
    per_n = tuple(verdicts.get(n, BmcPerN(n, "ok", depth, spent)) for n in counts)
    return BmcResult(violations, times, status, per_n)
