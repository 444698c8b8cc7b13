"""Symbolic states and inputs (fresh Z3 variables), and reading concrete ones back from models."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import z3

from buckshot.verification.model.config import Config
from buckshot.verification.model.layout import ROLES, SEATS
from buckshot.verification.model.patch import NO_PATCH, Patch
from buckshot.verification.model.semantics import Semantics
from buckshot.verification.model.state import (
    Input,
    Leaf,
    State,
    flatten,
    leaves,
    unflatten_input,
    unflatten_state,
)
from buckshot.verification.model.z3backend import Term, Z3Backend


class Symbols:
    """Makes fresh symbolic states and inputs for one configuration."""

    def __init__(
        self,
        cfg: Config,
        patch: Patch = NO_PATCH,
        params: Sequence[str] = (),
    ) -> None:
        self.cfg = cfg
        self.backend = Z3Backend(cfg.width)
        self.params: dict[str, Term] = {key: z3.BitVec(key, cfg.width) for key in params}
        """The ruleset keys the step reads as free named values (none: every value is the
        ruleset's constant); see :meth:`.helpers.Helpers.rule_value`."""
        self.sem: Semantics[Term, Term] = Semantics(self.backend, cfg, patch, self.params)

    def _var(self, prefix: str, leaf: Leaf) -> Term:
        name = f"{prefix}.{leaf.label}"
        return z3.Bool(name) if leaf.boolean else z3.BitVec(name, self.cfg.width)

    def state(self, prefix: str) -> State[Term, Term]:
        """A state whose every field is a fresh variable named ``prefix.field[...]``."""
        values = [self._var(prefix, leaf) for leaf in leaves(self.cfg, State)]
        return unflatten_state(self.cfg, values)

    def input(self, prefix: str) -> Input[Term, Term]:
        """An input whose every field is a fresh variable."""
        values = [self._var(prefix, leaf) for leaf in leaves(self.cfg, Input)]
        return unflatten_input(self.cfg, values)

    def initial(self, prefix: str) -> tuple[State[Term, Term], Term]:
        """The symbolic initial state (player count and roles free) and its constraint."""
        b = self.backend
        n = z3.BitVec(f"{prefix}.n", self.cfg.width)
        roles = tuple(z3.BitVec(f"{prefix}.role[{p}]", self.cfg.width) for p in range(SEATS))
        cond = z3.And(
            z3.ULE(b.num(self.cfg.players_lo), n),
            z3.ULE(n, b.num(self.cfg.players_hi)),
            *(z3.ULT(r, b.num(len(ROLES))) for r in roles),
        )
        return self.sem.initial(n, roles), cond

    def equal(self, left: State[Term, Term], right: State[Term, Term]) -> Term:
        """The two symbolic states are equal field by field."""
        return z3.And(
            *(
                a == c
                for a, c in zip(flatten(self.cfg, left), flatten(self.cfg, right), strict=True)
            )
        )


def read_state(cfg: Config, model: Any, state: State[Term, Term]) -> State[int, bool]:
    """The concrete state ``model`` gives the symbolic ``state`` (every field completed)."""
    return unflatten_state(cfg, [read_value(model, term) for term in flatten(cfg, state)])


def read_input(cfg: Config, model: Any, inp: Input[Term, Term]) -> Input[int, bool]:
    """The concrete input ``model`` gives the symbolic ``inp``."""
    return unflatten_input(cfg, [read_value(model, term) for term in flatten(cfg, inp)])


def read_value(model: Any, term: Term) -> int | bool:
    """The value ``model`` gives ``term`` (completed when the model leaves it free)."""
    value = model.eval(term, model_completion=True)
    if z3.is_bool(value):
        return bool(z3.is_true(value))
    return int(value.as_long())
