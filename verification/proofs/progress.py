"""Progress (deadlock freedom): no game can get stuck before it is over.

TLC checks deadlock by default; this is the same check for every player count at once. A
state that satisfies every invariant and lemma, whose game is not over, and in which no input
is legal (no automatic transition fires, no decision of the player asked passes its guards,
no chance outcome makes the step possible) is a stuck state. The query asks for one with the
step's input universally quantified: ``Inv(s) and not over(s) and forall in. not legal(s,
in)``. The legality of a step is the disjunction of its branches' conditions, the same
relation the induction proofs use, so the check sees exactly the transitions they see.
"""

from __future__ import annotations

from typing import Any

import z3

from buckshot.verification.model.state import flatten
from buckshot.verification.proofs.properties import Property, turn_in

PROGRESS_PROPERTIES: tuple[Property, ...] = (
    Property(
        "P1",
        ("S1.1", "S4.0", "S4.2.0", "S5.1", "S6.1.3"),
        "Progress: every state that satisfies the invariants and whose game is not over has a "
        "legal input (an automatic step, or a decision of the player asked); no game gets stuck.",
        progress=True,
    ),
)
"""The progress property (R21: every turn ends, so a stuck state would be a game that
never ends and never draws)."""


def stuck(model: Any) -> Any:
    """The symbolic state of ``model`` is not over and no input makes a legal step from it
    (a Z3 formula over the state alone: the input is bound by the quantifier)."""
    cfg, sem, s, inp = model.cfg, model.sem, model.s, model.inp
    legal = z3.Or(*(case.cond for case in model.cases))
    inputs = [v for v in flatten(cfg, inp)]
    return z3.And(z3.Not(turn_in(sem, s, "game_over")), z3.ForAll(inputs, z3.Not(legal)))
