"""What a designer asks to be reachable besides transitions and frames: each way a game ends
(S5.1, R21), each role's skill (S2) and each item's use (S3), stated from the rule text as
predicates on one step; and the lemma that an item no draw can give is never held.

A predicate reads the state before the step, the input, the state after it and the seat
that used a skill, with the backend's operations only, so the same text is checked on the
executable spec's steps (a random game's evidence) and on Z3's step relation (bounded
model checking, and the proofs that an outcome is unreachable).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from buckshot.spec.rulebook import Item, Role
from buckshot.verification.model.layout import (
    DRAWN,
    ITEM_KINDS,
    KINDS,
    NONE,
    RUNNING,
    SEATS,
    WON,
    item_code,
    role_code,
)
from buckshot.verification.proofs.properties import In, Property, S, Sem

StepPred = Callable[[Sem, S, In, S, Any], Any]
"""(model, state before, input, state after, seat that used a skill) -> holds."""

ITEM_EVENTS = frozenset({"use_item", "use_rescue"})
"""The decisions by which a player uses an item (S4.2.2; a rescue in a dying frame, S4.3.1)."""


@dataclass(frozen=True)
class Outcome:
    """Something that must be shown reachable or proved not: a win reason, a skill, an item."""

    name: str
    kind: str
    """``win``, ``skill`` or ``item``."""
    clauses: tuple[str, ...]
    holds: StepPred
    events: frozenset[str] | None = None
    """The decisions whose steps may show it (None: a step of any transition)."""


def _ends(result: int) -> StepPred:
    def ends(m: Sem, s: S, inp: In, nxt: S, skill_by: Any) -> Any:
        b = m.b
        return b.and_(b.eqn(s.result, RUNNING), b.eqn(nxt.result, result))

    return ends


def _traitor_has_kills(m: Sem, s: S) -> Any:
    """Some traitor holds at least traitor.kills_to_win kills (S5.1)."""
    b = m.b
    need = m.rule_value("traitor.kills_to_win", m.rules.traitor.kills_to_win)
    return b.or_(*(b.and_(s.traitor[p], b.ge(s.kills[p], need)) for p in range(SEATS)))


def _win_by_kills(m: Sem, s: S, inp: In, nxt: S, skill_by: Any) -> Any:
    """The game is won in this step, and a traitor has the kills that win (S5.1; R7)."""
    b = m.b
    return b.and_(_ends(WON)(m, s, inp, nxt, skill_by), _traitor_has_kills(m, nxt))


def _last_standing(m: Sem, s: S, inp: In, nxt: S, skill_by: Any) -> Any:
    """The game is won in this step by the one player left, no traitor having won by kills
    (S5.1)."""
    b = m.b
    return b.and_(
        _ends(WON)(m, s, inp, nxt, skill_by),
        b.eqn(b.count(list(nxt.alive)), 1),
        b.not_(_traitor_has_kills(m, nxt)),
    )


def _skill(role: Role) -> StepPred:
    def used(m: Sem, s: S, inp: In, nxt: S, skill_by: Any) -> Any:
        b = m.b
        return b.and_(b.ne(skill_by, b.num(NONE)), b.eqn(m.seat(s.role, skill_by), role_code(role)))

    return used


def _item(item: Item) -> StepPred:
    def used(m: Sem, s: S, inp: In, nxt: S, skill_by: Any) -> Any:
        return m.b.eqn(inp.item, item_code(item))

    return used


WIN_REASONS = (
    Outcome("last standing", "win", ("S5.1",), _last_standing),
    Outcome("traitor kills", "win", ("S5.1", "R7"), _win_by_kills),
    Outcome("draw", "win", ("R21", "S4.5.3"), _ends(DRAWN)),
)
SKILL_CLAUSES = {
    Role.GAMBLER: "S2.1",
    Role.MEDIC: "S2.2",
    Role.DEALER: "S2.3",
    Role.MERCENARY: "S2.4",
    Role.DOCTOR: "S2.5",
    Role.MAGICIAN: "S2.6",
}
SKILLS = tuple(Outcome(role.value, "skill", (SKILL_CLAUSES[role],), _skill(role)) for role in Role)
ITEM_USES = tuple(
    Outcome(item.value, "item", (f"S3.{i + 1}",), _item(item), ITEM_EVENTS)
    for i, item in enumerate(ITEM_KINDS)
)
OUTCOMES = (*WIN_REASONS, *SKILLS, *ITEM_USES)
"""Every outcome, in report order."""


def _undrawable_unheld(m: Sem, s: S) -> Any:
    """No seat holds an item of a kind that no draw can give (weight 0, R15)."""
    b = m.b
    out = []
    for k in range(KINDS):
        named = m.drawable(k)
        if named is None and m.cfg.weights[k] > 0:
            continue
        none_held = b.and_(*(b.eqn(s.items[p][k], 0) for p in range(SEATS)))
        out.append(none_held if named is None else b.implies(b.not_(named), none_held))
    return b.and_(*out)


UNDRAWABLE = Property(
    "L-draw",
    ("R15", "S4.1.1"),
    "an item kind whose draw weight is 0 is held by no one (items come only from draws)",
    state=_undrawable_unheld,
)
"""A lemma of the ruleset, not of the rules: true by construction under the default (every
weight positive), proved by induction for a ruleset in which some weight is 0."""
