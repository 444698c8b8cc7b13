"""Why something cannot happen under a ruleset: the ruleset keys an unreachability proof needs.

The model is built with the keys that differ between two rulesets read as free named values
(:meth:`.helpers.Helpers.rule_value`), and each key's value is a named assumption
(``key = value``) of the solver. The proof that a target is unreachable (no state satisfying
the invariants and lemmas shows it, or none one step back: :mod:`.vacuity`) is asked again
under these assumptions; its unsat core, made minimal by dropping one key at a time, is the
set of keys whose values the proof needs. Keys the model reads as constants only (loads,
odds, bounds that size the model) are never in a core; they are listed as not modelled.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import z3

from buckshot.verification.model.config import Config
from buckshot.verification.model.helpers import weight_key
from buckshot.verification.model.layout import KINDS
from buckshot.verification.proofs.limits import Budget, one_shot
from buckshot.verification.proofs.outcomes import Outcome
from buckshot.verification.proofs.properties import Property
from buckshot.verification.proofs.vacuity import (
    UNREACHABLE_MS,
    Relation,
    VacuityTarget,
    unreachable_goal,
    way_in_queries,
)

PARAMETRIC_KEYS = (
    *(weight_key(k) for k in range(KINDS)),
    "magician.cost",
    "traitor.kills_to_win",
    "traitor.cap_bonus",
)
"""The ruleset keys the model can read as named values (every other key is a constant)."""


@dataclass(frozen=True)
class Core:
    """The keys (with the values of the ruleset explained) an unreachability proof needs."""

    keys: tuple[str, ...]
    values: tuple[int, ...]
    proof: str  # ``one state`` (no state satisfying the facts shows it) or ``one step back``
    unmodelled: tuple[str, ...] = ()
    """Keys that differ but that the model reads as constants (never in a core)."""

    def text(self) -> str:
        """The keys as ``key = value`` joined by "and"."""
        return " and ".join(f"{k} = {v}" for k, v in zip(self.keys, self.values, strict=True))


class Explainer:
    """Finds the unsat cores of the unreachability proofs of one ruleset, over the keys
    ``values`` (key -> this ruleset's value); the model is built once and shared."""

    def __init__(
        self,
        cfg: Config,
        values: Mapping[str, int],
        lemmas: Sequence[Property] = (),
        outcomes: Sequence[Outcome] = (),
    ) -> None:
        self.values = dict(values)
        self.keys = tuple(k for k in values if k in PARAMETRIC_KEYS)
        self.unmodelled = tuple(k for k in values if k not in PARAMETRIC_KEYS)
        self.outcomes = tuple(outcomes)
        self.relation = Relation(cfg, lemmas, params=self.keys)
        sym = self.relation.symbols
        self.lits = {key: z3.Bool(f"{key} = {values[key]}") for key in self.keys}
        self.link = [
            z3.Implies(self.lits[k], sym.params[k] == sym.backend.num(values[k])) for k in self.keys
        ]

    def core(self, target: VacuityTarget) -> Core | None:
        """The keys the proof that ``target`` is unreachable needs; None when, with every
        key assumed, it is not proved (then the target is not proved unreachable at all)."""
        relation = self.relation
        goal = unreachable_goal(target, relation, self.outcomes)
        budget = Budget.nominal(UNREACHABLE_MS, 600_000)
        core = _core([one_shot(budget, [*relation.facts, *self.link, goal])], self.lits)
        proof = "one state"
        if core is None:
            core = _core(way_in_queries(relation, [*self.link, goal]), self.lits)
            proof = "one step back"
        if core is None:
            return None
        return Core(core, tuple(self.values[k] for k in core), proof, self.unmodelled)


def _core(solvers: Sequence[Any], lits: Mapping[str, Any]) -> tuple[str, ...] | None:
    """The smallest set of keys found (the union of the solvers' unsat cores, then each key
    dropped while every solver stays unsatisfiable) under which every solver is
    unsatisfiable; None when one is not, with every key assumed."""
    names = {str(lit): key for key, lit in lits.items()}
    found: set[str] = set()
    for solver in solvers:
        if solver.check(*lits.values()) != z3.unsat:
            return None
        found |= {names[str(lit)] for lit in solver.unsat_core()}
    for key in sorted(found):
        trial = [lits[k] for k in sorted(found - {key})]
        if all(solver.check(*trial) == z3.unsat for solver in solvers):
            found.discard(key)
    return tuple(k for k in lits if k in found)
