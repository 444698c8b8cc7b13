"""The solver behind trace validation: requirements on the symbolic state, kept small.

The model's state is stepped along a log as Z3 terms. Constants fold as terms are built
(:meth:`TraceSolver.const` reads a folded constant back), so most requirements a log makes
are checked at once; the rest go to one incremental Z3 solver under assumption literals,
and an unsat core names the requirements no model step can meet (:class:`Mismatch`).

After each step :meth:`TraceSolver.settle` replaces every field the solver proves to have a
single value by that value, and from time to time rebuilds the solver from the value
combinations the open fields may still take, so that later queries stay small.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import z3  # type: ignore[import-untyped]

from buckshot.verification.model.config import Config
from buckshot.verification.model.state import State, flatten, unflatten_state
from buckshot.verification.model.symbolic import read_value
from buckshot.verification.model.z3backend import Term, Z3Backend
from buckshot.verification.tracecheck.view import Value

REBASE_AFTER = 8
"""Solver checks that add constraints before the solver is rebuilt from the open fields."""
REBASE_COMBOS = 32  # most value combinations of the open fields a rebuilt solver lists

Req = tuple[str, Term, Value]  # a requirement: its label, a model term, the value the log gives it
Cond = tuple[str, Term]  # a requirement: its label and a model condition that must hold


class Mismatch(Exception):
    """No model step matches the event at ``index``."""

    def __init__(self, index: int, reason: str) -> None:
        super().__init__(reason)
        self.index = index
        self.reason = reason


class TraceSolver:
    """Checks requirements on the symbolic model state and keeps that state small."""

    def __init__(self, cfg: Config, backend: Z3Backend) -> None:
        self.cfg = cfg
        self.b = backend
        self.solver = z3.SolverFor("QF_BV")
        self.dirty = False  # constraints were added since the last :meth:`settle`
        self.grown = 0  # checks that added constraints since the solver was last rebuilt
        self.checks = 0  # solver checks made so far
        self.literals = 0
        self.rebases = 0
        self.known: dict[int, Value] = {id(backend.num(v)): v for v in range(1 << cfg.width)}
        self.known[id(backend.true())] = True
        self.known[id(backend.false())] = False

    # --- values --------------------------------------------------------------------------

    def const(self, term: Term) -> Value | None:
        """The value of a folded constant term, else None."""
        return self.known.get(id(term))

    def lit(self, value: Value) -> Term:
        """The backend constant for ``value``."""
        if isinstance(value, bool):
            return self.b.boolean(value)
        return self.b.num(value)

    def fresh(self, prefix: str) -> Term:
        """A new boolean literal."""
        self.literals += 1
        return z3.Bool(f"{prefix}{self.literals}")

    # --- requirements --------------------------------------------------------------------

    def require(self, index: int, reqs: Iterable[Req], conds: Iterable[Cond] = ()) -> None:
        """Constrain the model by ``reqs`` and ``conds``; :class:`Mismatch` at ``index`` if unmet.

        Constant terms are compared at once; the rest go to the solver.
        """
        pending: list[tuple[str, Term]] = []
        for label, term, want in reqs:
            have = self.const(term)
            if have is not None:
                if have != want:
                    raise Mismatch(
                        index, f"{label}: the log has {_show(want)}, the model {_show(have)}"
                    )
                continue
            if isinstance(want, int) and not isinstance(want, bool) and want >= 1 << self.cfg.width:
                raise Mismatch(index, f"{label}: {want} is beyond every value the model reaches")
            pending.append((f"{label} = {_show(want)} (log)", term == self.lit(want)))
        for label, cond in conds:
            have = self.const(cond)
            if have is False:
                raise Mismatch(index, f"{label} does not hold")
            if have is None:
                pending.append((label, cond))
        if pending:
            self.solve(index, pending)

    def solve(self, index: int, pending: list[tuple[str, Term]]) -> None:
        """Add ``pending`` to the solver under assumption literals; explain an unsat core."""
        literals = []
        for label, cond in pending:
            literal = self.fresh("req")
            self.solver.add(z3.Implies(literal, cond))
            literals.append((literal, label))
        self.checks += 1
        result = self.solver.check(*(literal for literal, _ in literals))
        if result == z3.unsat:
            core = {str(c) for c in self.solver.unsat_core()}
            labels = [label for literal, label in literals if str(literal) in core] or [
                label for _, label in literals
            ]
            raise Mismatch(index, "no model step meets " + "; ".join(labels))
        if result != z3.sat:
            raise Mismatch(index, f"the solver gave up ({self.solver.reason_unknown()})")
        self.solver.add(*(literal for literal, _ in literals))
        self.dirty = True
        self.grown += 1

    def assume(self, cond: Term) -> None:
        """Add ``cond`` to the solver as it is, unchecked."""
        self.solver.add(cond)

    # --- trying alternatives -------------------------------------------------------------

    def checkpoint(self) -> tuple[bool, int, Any]:
        """Open a scope to try one alternative in; :meth:`restore` undoes it."""
        saved = (self.dirty, self.grown, self.solver)
        self.solver.push()
        return saved

    def restore(self, saved: tuple[bool, int, Any]) -> None:
        """Back to the :meth:`checkpoint` that gave ``saved``."""
        self.dirty, self.grown, self.solver = saved
        self.solver.pop()

    # --- keeping the state small ---------------------------------------------------------

    def settle(self, s: State[Term, Term], index: int) -> State[Term, Term]:
        """``s`` with every field the solver proves single-valued replaced by its value.

        When the solver has grown, it is then replaced by a fresh one that holds only the
        combinations of values the open fields may still take (new variables stand for
        them): the future depends on the past only through the state, so this projection
        loses nothing and keeps every later query small. ``index`` is the log position a
        solver that gives up is reported at.
        """
        if not self.dirty:
            return s
        self.dirty = False
        values = flatten(self.cfg, s)
        open_ = [i for i, term in enumerate(values) if self.const(term) is None]
        if open_:
            self.checks += 1
            if self.solver.check() != z3.sat:
                raise Mismatch(index, "the solver gave up")
            model = self.solver.model()
            guess = {i: read_value(model, values[i]) for i in open_}
            forced = set(self._forced(values, open_, guess))
            for i in forced:
                values[i] = self.lit(guess[i])
            open_ = [i for i in open_ if i not in forced]
        if self.grown >= REBASE_AFTER or not open_:
            values = self.rebase(values, open_)
        return unflatten_state(self.cfg, values)

    def _forced(self, values: list[Term], open_: list[int], guess: dict[int, Value]) -> list[int]:
        """The fields of ``open_`` that can take no value but their ``guess``."""

        def differs(i: int) -> Term:
            return values[i] != self.lit(guess[i])

        literal = self.fresh("probe")
        self.solver.add(z3.Implies(literal, z3.Or(*(differs(i) for i in open_))))
        self.checks += 1
        if self.solver.check(literal) == z3.unsat:
            return open_
        free = {i for i in open_ if read_value(self.solver.model(), values[i]) != guess[i]}
        forced = []
        for i in open_:
            if i in free:
                continue
            literal = self.fresh("probe")
            self.solver.add(z3.Implies(literal, differs(i)))
            self.checks += 1
            if self.solver.check(literal) == z3.unsat:
                forced.append(i)
            else:
                model = self.solver.model()
                free |= {j for j in open_ if read_value(model, values[j]) != guess[j]}
        return forced

    def rebase(self, values: list[Any], open_: list[int]) -> list[Any]:
        """A fresh solver holding only the value combinations ``open_`` fields may take."""
        combos: list[list[Value]] = []
        if open_:
            block = self.fresh("block")
            while len(combos) <= REBASE_COMBOS:
                self.checks += 1
                if self.solver.check(block) != z3.sat:
                    break
                model = self.solver.model()
                combo = [read_value(model, values[i]) for i in open_]
                combos.append(combo)
                same = z3.And(
                    *(values[i] == self.lit(v) for i, v in zip(open_, combo, strict=True))
                )
                self.solver.add(z3.Implies(block, z3.Not(same)))
            if len(combos) > REBASE_COMBOS:
                return values  # too many to list: keep the solver as it is
        self.rebases += 1
        solver = z3.SolverFor("QF_BV")
        renamed = list(values)
        for i in open_:
            name = f"r{self.rebases}.{i}"
            renamed[i] = z3.Bool(name) if z3.is_bool(values[i]) else z3.BitVec(name, self.cfg.width)
        if open_:
            solver.add(
                z3.Or(
                    *(
                        z3.And(
                            *(renamed[i] == self.lit(v) for i, v in zip(open_, combo, strict=True))
                        )
                        for combo in combos
                    )
                )
            )
        self.solver = solver
        self.grown = 0
        return renamed


def _show(value: Value) -> str:
    """A log or model value as the reasons print it (``true``, ``3``)."""
    return str(value).lower() if isinstance(value, bool) else str(value)
