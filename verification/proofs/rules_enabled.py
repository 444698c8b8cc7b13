"""Enabledness: at this decision, this input is allowed (what the rules let a player choose).

Each property states one kind of decision the charts offer and the rule's condition for it,
from the rule text (the ``rule_*`` readers, the items' facts of :mod:`.properties`), never
the model's guards, helpers or option enumerators, nor the rulebook's item table
(docs/verification.md, "What is proved"). A decision's fields that it does not use are zero,
as a player's decision leaves them. The counter response's decisions have no property: that
frame is never pushed (R18).
"""

from __future__ import annotations

from typing import Any

from buckshot.spec.rulebook import FrameKind, Role
from buckshot.verification.model.layout import KINDS, SEATS
from buckshot.verification.proofs.properties import (
    CHAMBER_ITEMS,
    RESCUE_ITEMS,
    TARGETED_ANY,
    TARGETED_OTHER,
    In,
    Offer,
    Property,
    S,
    Sem,
    StepCondition,
    rule_has_skill,
    rule_held,
    rule_killed_this_turn,
    rule_seat_flag,
    rule_seat_value,
    rule_top_cursor,
    rule_top_in,
    rule_top_who,
)

USE_ITEM = ("turn:awaiting_action:use_item:0", "turn:shooting_locked:use_item:0")
END_MAIN = ("turn:awaiting_action:end_main:0", "turn:shooting_locked:end_main:0")


def _living(m: Sem, s: S, p: Any) -> Any:
    """``p`` is a seat of the table whose player is alive (S1.2)."""
    b = m.b
    return b.and_(b.lt(p, b.num(SEATS)), rule_seat_flag(m, s.alive, p))


def _held(m: Sem, s: S, p: Any, k: int) -> Any:
    """How many items of the kind ``k`` seat ``p`` holds (0 for NONE)."""
    return rule_seat_value(m, tuple(row[k] for row in s.items), p)


def _untouched(m: Sem, inp: In, *fields: str) -> Any:
    """The decision's parameters other than ``fields`` are zero (a decision leaves what it
    does not use at zero)."""
    b = m.b
    terms = []
    if "target" not in fields:
        terms.append(b.eqn(inp.target, 0))
    if "item" not in fields:
        terms.append(b.eqn(inp.item, 0))
    if "pay" not in fields:
        terms += [b.eqn(count, 0) for count in inp.pay]
    return b.and_(*terms)


# --- A1: a shot at any living player ---------------------------------------------------------


def shot_offered(m: Sem, s: S, inp: In) -> Any:
    """While the turn owner waits for an action (phase 2), the chamber holds a shell (R1) and
    the owner has killed no one this turn (S4.2.1e), a shot at any living player, the owner
    included, is offered (S4.2.0, S4.2.1a; R19)."""
    b = m.b
    return b.and_(
        rule_top_in(m, s, FrameKind.TURN, "awaiting_action"),
        b.gt(s.shells, b.num(0)),
        b.not_(rule_killed_this_turn(m, s)),
        _living(m, s, inp.target),
        _untouched(m, inp, "target"),
    )


# --- A2: each held item, with each target its rule allows ------------------------------------


def _item_target_allowed(m: Sem, s: S, inp: In, kind: int) -> Any:
    """The decision's target is one the item's target rule allows: the user for an item that
    chooses none (S3.1-S3.5, S3.8), any living player for expired pills (S3.6; R10), another
    living player who holds an item for the pickpocket (S3.7; R23)."""
    b = m.b
    if kind in TARGETED_ANY:
        return _living(m, s, inp.target)
    if kind in TARGETED_OTHER:
        return b.and_(
            _living(m, s, inp.target),
            b.ne(inp.target, s.owner),
            b.or_(*(b.ge(_held(m, s, inp.target, k), b.num(1)) for k in range(KINDS))),
        )
    return b.eq(inp.target, s.owner)


def item_offered(m: Sem, s: S, inp: In) -> Any:
    """In the main phase (waiting for an action, shooting locked or not; R24), the turn owner
    may use any item they hold (S4.2.2, S4.2.3) on each target its rule allows, an item that
    acts on the chamber only while it holds a shell (R22)."""
    b = m.b
    per_kind = []
    for k in range(KINDS):
        allowed = [
            b.eqn(inp.item, k),
            b.ge(_held(m, s, s.owner, k), b.num(1)),
            _item_target_allowed(m, s, inp, k),
        ]
        if k in CHAMBER_ITEMS:
            allowed.append(b.gt(s.shells, b.num(0)))
        per_kind.append(b.and_(*allowed))
    return b.and_(
        rule_top_in(m, s, FrameKind.TURN, "awaiting_action", "shooting_locked"),
        b.or_(*per_kind),
        _untouched(m, inp, "target", "item"),
    )


# --- A3: ending the main phase where the rules allow it ---------------------------------------


def end_offered(m: Sem, s: S, inp: In) -> Any:
    """In the main phase, ending it is offered when shooting is impossible: the chamber is
    empty (R1, R4) or the owner killed this turn (S4.2.1e, S4.2.3; R25)."""
    b = m.b
    cannot_shoot = b.or_(b.eqn(s.shells, 0), rule_killed_this_turn(m, s))
    return b.and_(
        b.or_(
            rule_top_in(m, s, FrameKind.TURN, "shooting_locked"),
            b.and_(rule_top_in(m, s, FrameKind.TURN, "awaiting_action"), cannot_shoot),
        ),
        _untouched(m, inp),
    )


# --- A4, A7, A8, A9: the decisions without parameters of the player asked ----------------------


def asked(frame: FrameKind, state: str) -> StepCondition:
    """The condition of a decision without parameters that the player asked in ``state`` of
    ``frame``'s chart may always take: passing in a shot window (S4.2.1b, S6.2.3; R17), giving
    up while dying (S4.3.1; R10), converting or keeping the role (S4.3.2; R6)."""

    def condition(m: Sem, s: S, inp: In) -> Any:
        return m.b.and_(rule_top_in(m, s, frame, state), _untouched(m, inp))

    return condition


# --- A5: the Magician's flip ------------------------------------------------------------------


def flip_offered(m: Sem, s: S, inp: In) -> Any:
    """A Magician who is not a traitor, asked in a shot window, may flip the shell paying any
    ``magician.cost`` items they hold (S2.6, S6.3.0, S5.1; R8)."""
    b = m.b
    asked = rule_top_cursor(m, s)
    within = [b.le(inp.pay[k], _held(m, s, asked, k)) for k in range(KINDS)]
    return b.and_(
        rule_top_in(m, s, FrameKind.SHOT_WINDOW, "asking"),
        rule_has_skill(m, s, asked, Role.MAGICIAN),
        *within,
        b.eqn(b.sum_(list(inp.pay)), m.rules.magician.cost),
        _untouched(m, inp, "pay"),
    )


# --- A6: the dying player's rescue ------------------------------------------------------------


def rescue_offered(m: Sem, s: S, inp: In) -> Any:
    """A dying player may use each rescue item they hold (milk tea, expired pills) on
    themself (S4.3.1, S3.5, S3.6; R10)."""
    b = m.b
    dying = rule_top_who(m, s)
    rescue = [
        b.and_(b.eqn(inp.item, k), b.ge(_held(m, s, dying, k), b.num(1))) for k in RESCUE_ITEMS
    ]
    return b.and_(
        rule_top_in(m, s, FrameKind.DYING, "asking"), b.or_(*rescue), _untouched(m, inp, "item")
    )


# --- A10: discarding any held item ------------------------------------------------------------


def discard_offered(m: Sem, s: S, inp: In) -> Any:
    """The turn owner over the cap chooses which items to discard: any item they hold
    (S4.4.3; R12)."""
    b = m.b
    held = b.ge(rule_held(m, s, s.owner, inp.item), b.num(1))
    return b.and_(
        rule_top_in(m, s, FrameKind.DISCARD, "choosing"),
        b.lt(inp.item, b.num(KINDS)),
        held,
        _untouched(m, inp, "item"),
    )


def _offer(pid: str, clauses: tuple[str, ...], statement: str, offer: Offer) -> Property:
    return Property(pid, clauses, statement, offer=offer, budget_ms=30_000)


RULES_ENABLED: tuple[Property, ...] = (
    _offer(
        "A1",
        ("S4.2.0", "S4.2.1a", "S4.2.1e", "S1.2", "R19", "R1", "R4"),
        "A shot at any living player, the shooter included, is offered while the owner waits "
        "for an action, a shell is loaded and the owner has killed no one this turn.",
        Offer(("turn:awaiting_action:shoot:0",), ("target",), shot_offered),
    ),
    _offer(
        "A2",
        ("S4.2.2", "S4.2.3", *(f"S3.{n}" for n in range(1, 9)), "R10", "R22", "R23", "R24"),
        "In the main phase the owner may use each item they hold on each target its rule "
        "allows (a chamber item while a shell is loaded).",
        Offer(USE_ITEM, ("target", "item"), item_offered),
    ),
    _offer(
        "A3",
        ("S4.2.3", "S4.2.1e", "R1", "R4", "R25"),
        "In the main phase, ending it is offered when the chamber is empty or the owner "
        "killed this turn.",
        Offer(END_MAIN, (), end_offered),
    ),
    _offer(
        "A4",
        ("S4.2.1b", "S6.2.3", "R17"),
        "Every player asked in a shot window may pass.",
        Offer(("shot_window:asking:pass_response:0",), (), asked(FrameKind.SHOT_WINDOW, "asking")),
    ),
    _offer(
        "A5",
        ("S2.6", "S6.3.0", "S5.1", "R8"),
        "A Magician who is not a traitor, asked in a shot window, may flip paying any "
        "magician.cost items they hold.",
        Offer(("shot_window:asking:flip_shell:0",), ("pay",), flip_offered),
    ),
    _offer(
        "A6",
        ("S4.3.1", "S3.5", "S3.6", "R10"),
        "A dying player may use each rescue item they hold.",
        Offer(("dying:asking:use_rescue:0",), ("item",), rescue_offered),
    ),
    _offer(
        "A7",
        ("S4.3.1", "R10"),
        "A dying player who is asked may give up.",
        Offer(("dying:asking:give_up:0",), (), asked(FrameKind.DYING, "asking")),
    ),
    _offer(
        "A8",
        ("S4.3.2", "R6"),
        "At the conversion choice the player may convert.",
        Offer(("conversion:choosing:convert:0",), (), asked(FrameKind.CONVERSION, "choosing")),
    ),
    _offer(
        "A9",
        ("S4.3.2", "R6"),
        "At the conversion choice the player may keep their role.",
        Offer(("conversion:choosing:keep_role:0",), (), asked(FrameKind.CONVERSION, "choosing")),
    ),
    _offer(
        "A10",
        ("S4.4.3", "R12"),
        "The owner discarding over the cap may discard any item they hold.",
        Offer(("discard:choosing:discard_item:0",), ("item",), discard_offered),
    ),
)
"""The enabledness properties, in ID order."""
