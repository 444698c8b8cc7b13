"""The transition relation split into branches, one per transition and decision case.

Splitting by the transition taken, and for item uses by the item (and a pickpocket's pick),
lets each branch's terms fold to a small formula: the proofs ask about each branch's next
state, and the disjunction of the branches' conditions is the whole step.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from buckshot.spec.rulebook import Item
from buckshot.verification.layout import KINDS, SEATS, EdgeCode, item_code
from buckshot.verification.semantics import Semantics, StepResult
from buckshot.verification.state import Input, State

PICKPOCKET = item_code(Item.PICKPOCKET)


@dataclass(frozen=True)
class Branch:
    """One case of the step: the edge taken, the case's name, its result and its condition."""

    name: str
    edge: EdgeCode
    result: StepResult[Any, Any]
    cond: Any
    """The step takes this branch: the edge fires legally and the case's parameters hold."""


def branches(sem: Semantics[Any, Any], s: State[Any, Any], inp: Input[Any, Any]) -> list[Branch]:
    """Every branch of the step from ``s`` with ``inp``."""
    b = sem.b
    out: list[Branch] = []
    split = frozenset(e.code for e in sem.layout.edges if e.edge.event == "use_item")
    eliminations = frozenset(
        e.code for e in sem.layout.edges if "eliminate_dying" in e.edge.actions
    )
    for edge, res in sem.transitions(s, inp):
        if edge.code not in split | eliminations:
            out.append(Branch(edge.edge.id, edge, res, res.ok))
    for p in range(SEATS):
        # the dying frame is slot 1 (L4: two frames at most); fix the player it is for
        fixed_state = s.set(depth=b.num(2), fwho=b.update(s.fwho, b.num(1), b.num(p)))
        cond = b.and_(b.eqn(s.depth, 2), b.eqn(s.fwho[1], p))
        for edge, res in sem.transitions(fixed_state, inp, only=eliminations):
            out.append(Branch(f"{edge.edge.id}[who={p}]", edge, res, b.and_(res.ok, cond)))
    cases: list[tuple[str, State[Any, Any], Input[Any, Any], Any]] = []
    for k in range(KINDS):
        fixed = replace(inp, item=b.num(k))
        if k != PICKPOCKET:
            cases.append((f"item={k}", s, fixed, b.eqn(inp.item, k)))
            continue
        # a pickpocket moves an item between two hands: fix the owner and the kind picked,
        # so that the owner's total is a plain sum whose +1 and -1 cancel
        for owner in range(SEATS):
            mine = s.set(owner=b.num(owner))
            for steal in range(KINDS):
                pick = replace(fixed, steal=b.num(steal))
                cond = b.and_(b.eqn(inp.item, k), b.eqn(inp.steal, steal), b.eqn(s.owner, owner))
                label = f"item={k},owner={owner},steal={steal}"
                cases.append((label, mine, pick, cond))
    for label, state, fixed, cond in cases:
        for edge, res in sem.transitions(state, fixed, only=split):
            out.append(Branch(f"{edge.edge.id}[{label}]", edge, res, b.and_(res.ok, cond)))
    return out
