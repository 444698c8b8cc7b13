"""The transition relation split into branches, one per transition and decision case.

Splitting by the transition taken, and for item uses by the item (and a pickpocket's pick),
lets each branch's terms fold to a small formula: the proofs ask about each branch's next
state, and the disjunction of the branches' conditions is the whole step.

The same branches also form a tree (:func:`branch_tree`): an item use is one branch whose
parts are its item kinds, and a pickpocket's use one whose parts are its owners and picks. A
proof may settle a whole branch at once and go down to its parts only when that fails.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Any

from buckshot.spec.rulebook import Item
from buckshot.verification.model.layout import KINDS, SEATS, EdgeCode, item_code
from buckshot.verification.model.semantics import Semantics, StepResult
from buckshot.verification.model.state import Input, State

PICKPOCKET = item_code(Item.PICKPOCKET)


@dataclass(frozen=True)
class Branch:
    """One case of the step: the edge taken, the case's name, its result and its condition."""

    name: str
    edge: EdgeCode
    result: StepResult[Any, Any]
    cond: Any
    """The step takes this branch: the edge fires legally and the case's parameters hold."""
    parts: tuple[Branch, ...] = ()
    """Finer branches of the same step that together cover this one (each of them is the
    step with some of this branch's free inputs fixed); none for a leaf of the tree."""

    def leaves(self) -> Iterator[Branch]:
        """The branches of the split (:func:`branches`) that this one covers."""
        if not self.parts:
            yield self
        for part in self.parts:
            yield from part.leaves()


def branches(sem: Semantics[Any, Any], s: State[Any, Any], inp: Input[Any, Any]) -> list[Branch]:
    """Every branch of the step from ``s`` with ``inp``."""
    return _split(sem, s, inp, tree=False)[0]


def branch_tree(
    sem: Semantics[Any, Any], s: State[Any, Any], inp: Input[Any, Any]
) -> tuple[list[Branch], list[Branch]]:
    """The branches of the step (:func:`branches`, in the same order) and the same branches
    as a tree: every branch but the item uses as it is, then each item use as one branch
    (the item free) whose parts are its item kinds, the pickpocket's being one branch (owner
    and pick free) whose parts are its owners and picks."""
    return _split(sem, s, inp, tree=True)


def branch(sem: Semantics[Any, Any], s: State[Any, Any], inp: Input[Any, Any], name: str) -> Branch:
    """The branch of the step named ``name`` (as :func:`branches` names it), built alone: the
    same terms as that branch of the whole split, without building the others."""
    (found,) = _split(sem, s, inp, tree=False, name=name)[0]
    return found


def _split(
    sem: Semantics[Any, Any],
    s: State[Any, Any],
    inp: Input[Any, Any],
    tree: bool,
    name: str | None = None,
) -> tuple[list[Branch], list[Branch]]:
    """The branches (and with ``tree`` their tree); with ``name``, only the branch so named."""
    b = sem.b
    out: list[Branch] = []
    split = frozenset(e.code for e in sem.layout.edges if e.edge.event == "use_item")
    eliminations = frozenset(
        e.code for e in sem.layout.edges if "eliminate_dying" in e.edge.actions
    )
    plain = frozenset(e.code for e in sem.layout.edges) - split - eliminations
    edge_id, _, wanted = (name or "").partition("[")

    def only(codes: frozenset[int], case: str) -> frozenset[int]:
        """``codes``, or with ``name`` those of them that are its edge when it names ``case``."""
        if name is None:
            return codes
        if wanted.removesuffix("]") != case:
            return frozenset()
        return codes & {sem.layout.edge_by_id(edge_id).code}

    for edge, res in sem.transitions(s, inp, only(plain, "")):
        out.append(Branch(edge.edge.id, edge, res, res.ok))
    for p in range(SEATS):
        # the dying frame is slot 1 (L4: two frames at most); fix the player it is for
        fixed_state = s.set(depth=b.num(2), fwho=b.update(s.fwho, b.num(1), b.num(p)))
        cond = b.and_(b.eqn(s.depth, 2), b.eqn(s.fwho[1], p))
        for edge, res in sem.transitions(fixed_state, inp, only(eliminations, f"who={p}")):
            out.append(Branch(f"{edge.edge.id}[who={p}]", edge, res, b.and_(res.ok, cond)))
    nodes = list(out)
    cases: list[tuple[str, int, State[Any, Any], Input[Any, Any], Any]] = []
    for k in range(KINDS):
        fixed = replace(inp, item=b.num(k))
        if k != PICKPOCKET:
            cases.append((f"item={k}", k, s, fixed, b.eqn(inp.item, k)))
            continue
        # a pickpocket moves an item between two hands: fix the owner and the kind picked,
        # so that the owner's total is a plain sum whose +1 and -1 cancel
        for owner in range(SEATS):
            mine = s.set(owner=b.num(owner))
            for steal in range(KINDS):
                pick = replace(fixed, steal=b.num(steal))
                cond = b.and_(b.eqn(inp.item, k), b.eqn(inp.steal, steal), b.eqn(s.owner, owner))
                label = f"item={k},owner={owner},steal={steal}"
                cases.append((label, k, mine, pick, cond))
    kinds: dict[tuple[int, int], list[Branch]] = {}
    for case, k, state, fixed, cond in cases:
        for edge, res in sem.transitions(state, fixed, only(split, case)):
            leaf = Branch(f"{edge.edge.id}[{case}]", edge, res, b.and_(res.ok, cond))
            out.append(leaf)
            kinds.setdefault((edge.code, k), []).append(leaf)
    if not tree:
        return out, []
    picked = replace(inp, item=b.num(PICKPOCKET))
    pickpockets = {
        edge.code: Branch(
            f"{edge.edge.id}[item={PICKPOCKET}]",
            edge,
            res,
            b.and_(res.ok, b.eqn(inp.item, PICKPOCKET)),
            tuple(kinds[edge.code, PICKPOCKET]),
        )
        for edge, res in sem.transitions(s, picked, only=split)
    }
    for edge, res in sem.transitions(s, inp, only=split):
        parts = [
            pickpockets[edge.code] if k == PICKPOCKET else kinds[edge.code, k][0]
            for k in range(KINDS)
        ]
        nodes.append(Branch(edge.edge.id, edge, res, res.ok, tuple(parts)))
    return out, nodes
