"""The pauses' rules as properties: dying, conversion, discard and the shot window's poll.

Each pause is a frame pushed on the stack (S5.3); these properties state, from the rule text
and the rulings, when each is opened, who is asked in it and in which order, and what each
of its steps may change. Written through the ``rule_*`` readers, never through the model's
guards, actions or helpers.
"""

from __future__ import annotations

from typing import Any

from buckshot.spec.rulebook import FrameKind
from buckshot.verification.model.layout import KINDS, NONE, SEATS, kind_code
from buckshot.verification.proofs.properties import (
    RESCUE_ITEMS,
    In,
    Property,
    Res,
    S,
    Sem,
    code,
    discarded,
    eliminated,
    fired_action,
    fired_event,
    kept,
    phase_states,
    rule_held,
    rule_owner_over_cap,
    rule_poll_next,
    rule_seat_flag,
    rule_seat_value,
    rule_top,
    rule_top_cursor,
    rule_top_flags,
    rule_top_in,
    rule_top_who,
    turn_ended,
)

# --- D1: dying -------------------------------------------------------------------------------


def dying_as_the_rules_say(m: Sem, s: S, inp: In, r: Res) -> Any:
    """A dying frame is opened for a living player at 0 HP (S4.3.1; R5). In it, the player is
    rescued once their HP is 1 or more, is asked while at 0 HP and holding milk tea or expired
    pills, and is eliminated otherwise, without being asked (R10). A player leaves the game
    only so, and never comes back (S1.2, S5.2; R13)."""
    b = m.b
    nxt = r.next
    who = rule_top_who(m, s)
    opened = rule_top_who(m, nxt)
    open_ok = b.and_(rule_seat_flag(m, s.alive, opened), b.eqn(rule_seat_value(m, s.hp, opened), 0))
    hp = rule_seat_value(m, s.hp, who)
    holds = b.or_(*(b.ge(rule_held(m, s, who, b.num(k)), b.num(1)) for k in RESCUE_ITEMS))

    def dying(state_id: str) -> Any:
        return b.num(code(FrameKind.DYING, state_id))

    expected = b.ite(
        b.ge(hp, b.num(1)),
        dying("rescued"),
        b.ite(holds, dying("asking"), dying("eliminated")),
    )
    checking = rule_top_in(m, s, FrameKind.DYING, "checking")
    gone = eliminated(m, r)
    return b.and_(
        b.implies(fired_action(m, r, "open_dying"), open_ok),
        b.implies(checking, b.eq(rule_top(m, nxt.fstate, nxt), expected)),
        *(
            b.eq(nxt.alive[p], b.and_(s.alive[p], b.not_(b.and_(gone, b.eqn(who, p)))))
            for p in range(SEATS)
        ),
    )


# --- D2: conversion --------------------------------------------------------------------------


def conversion_as_the_rules_say(m: Sem, s: S, inp: In, r: Res) -> Any:
    """A player is offered the conversion choice when their HP falls from more than 1 to
    exactly 1 and their chance is unused (S4.3.2; R6): such a fall is noted (``fell``) by the
    step that makes it, and only such a fall; the choice is opened for that player and uses
    up their chance; only converting makes a traitor, of the player asked, for good (S5.1),
    who keeps their role's name, as everyone keeps theirs (R6)."""
    b = m.b
    nxt = r.next

    def falls(p: Any) -> Any:
        return b.and_(
            rule_seat_flag(m, s.alive, p),
            b.gt(rule_seat_value(m, s.hp, p), b.num(1)),
            b.eqn(rule_seat_value(m, nxt.hp, p), 1),
        )

    opened = fired_action(m, r, "open_conversion")
    convert = fired_action(m, r, "make_traitor")
    who = rule_top_who(m, s)
    noted = b.or_(b.eqn(nxt.fell, NONE), b.eq(nxt.fell, s.fell), falls(nxt.fell))
    terms = [
        noted,
        *(b.implies(falls(b.num(p)), b.eqn(nxt.fell, p)) for p in range(SEATS)),
        b.implies(b.or_(opened, turn_ended(m, r)), b.eqn(nxt.fell, NONE)),
        b.implies(
            opened,
            b.and_(
                rule_seat_flag(m, s.alive, s.fell),
                b.not_(rule_seat_flag(m, s.conv_used, s.fell)),
                b.eq(rule_top_who(m, nxt), s.fell),
            ),
        ),
    ]
    for p in range(SEATS):
        chance = b.or_(s.conv_used[p], b.and_(opened, b.eqn(s.fell, p)))
        terms.append(b.eq(nxt.conv_used[p], chance))
        turned = b.or_(s.traitor[p], b.and_(convert, b.eqn(who, p)))
        terms.append(b.eq(nxt.traitor[p], turned))
        terms.append(b.eq(nxt.role[p], s.role[p]))
    return b.and_(*terms)


# --- D3: discard -----------------------------------------------------------------------------

PHASE_4 = phase_states(4)
"""The turn's states in phase 4 (S4.4); the discard frame's steps are phase 4's too."""


def discard_as_the_rules_say(m: Sem, s: S, inp: In, r: Res) -> Any:
    """Phase 4 checks the turn owner's HP and items (S4.4.1): each check of the cap (the
    turn's, then the discard frame's) asks for a discard exactly while they hold more than
    their cap (S4.4.2; R12); each discard removes one item
    of the chosen kind from the owner's own hand (S4.4.3); nothing else changes in phase 4
    (S4.4.4)."""
    b = m.b
    nxt = r.next
    over = rule_owner_over_cap(m, s)

    def state(frame: FrameKind, state_id: str) -> Any:
        return b.num(code(frame, state_id))

    cap_check = fired_event(m, r, FrameKind.TURN, "checking_cap", "check_cap")
    cap_next = b.ite(
        over, state(FrameKind.TURN, "awaiting_discard"), state(FrameKind.TURN, "clearing")
    )
    frame_check = fired_event(m, r, FrameKind.DISCARD, "checking", "check_count")
    frame_next = b.ite(
        over, state(FrameKind.DISCARD, "choosing"), state(FrameKind.DISCARD, "within_cap")
    )
    discard = discarded(m, r)
    holds = rule_held(m, s, s.owner, inp.item)
    removed = b.and_(
        rule_top_in(m, s, FrameKind.DISCARD, "choosing"),
        b.eq(rule_top_who(m, s), s.owner),
        b.lt(inp.item, b.num(KINDS)),
        b.ge(holds, b.num(1)),
        *(
            b.eq(
                nxt.items[p][k],
                b.ite(
                    b.and_(b.eqn(s.owner, p), b.eqn(inp.item, k)),
                    b.subn(s.items[p][k], 1),
                    s.items[p][k],
                ),
            )
            for p in range(SEATS)
            for k in range(KINDS)
        ),
    )
    in_phase = b.or_(
        *(
            r.fired[e.code]
            for e in m.layout.edges
            if e.frame is FrameKind.DISCARD
            or (e.frame is FrameKind.TURN and e.edge.source in PHASE_4)
        )
    )
    quiet = b.and_(kept(m, s, r, "hp", "shield", "rage", "alive"), b.eq(nxt.shells, s.shells))
    return b.and_(
        b.implies(cap_check, b.eq(nxt.fstate[0], cap_next)),
        b.implies(frame_check, b.eq(rule_top(m, nxt.fstate, nxt), frame_next)),
        b.implies(discard, removed),
        b.implies(in_phase, quiet),
    )


# --- D4: the shot window's poll --------------------------------------------------------------


def poll_as_the_rules_say(m: Sem, s: S, inp: In, r: Res) -> Any:
    """A shot window opens with no one asked and asks first the turn owner's next living seat
    (S4.2.1b, S6.2.1; R17). Each step that moves its poll on marks the player just asked, and
    only them, and asks next the first living seat not yet asked in clockwise order from the
    owner's next seat, ending with the owner (S6.2.1, S6.2.2); no other step of the window
    changes who has been asked or who is asked, so each player is asked once and may respond
    once (S6.2.3; R8, R17). Once every living player has been asked, no one is asked (the
    window closes), wherever the cursor rests."""
    b = m.b
    nxt = r.next
    window = kind_code(FrameKind.SHOT_WINDOW)
    opened = fired_action(m, r, "open_shot_window")
    fresh = tuple(b.false() for _ in range(SEATS))
    first = rule_poll_next(m, nxt, fresh)
    after_flags = rule_top_flags(m, nxt)
    open_ok = b.and_(
        b.eqn(rule_top(m, nxt.fkind, nxt), window),
        *(b.not_(flag) for flag in after_flags),
        b.eq(rule_top_cursor(m, nxt), first),
    )
    staying = b.and_(
        b.eqn(rule_top(m, s.fkind, s), window),
        b.eq(nxt.depth, s.depth),
        b.eqn(rule_top(m, nxt.fkind, nxt), window),
    )
    advanced = fired_action(m, r, "advance_poll")
    cursor = rule_top_cursor(m, s)
    before = rule_top_flags(m, s)
    marked = tuple(b.or_(before[p], b.and_(advanced, b.eqn(cursor, p))) for p in range(SEATS))
    moved = b.ite(advanced, rule_poll_next(m, s, marked), cursor)
    step_ok = b.and_(
        *(b.eq(after_flags[p], marked[p]) for p in range(SEATS)),
        b.or_(b.eqn(moved, NONE), b.eq(rule_top_cursor(m, nxt), moved)),
    )
    return b.and_(b.implies(opened, open_ok), b.implies(staying, step_ok))


RULES_PAUSES: tuple[Property, ...] = (
    Property(
        "D1",
        ("S4.3.1", "S1.2", "S5.2", "R5", "R10", "R13"),
        "A dying frame opens for a living player at 0 HP; in it the player is rescued at 1 HP "
        "or more, asked while holding milk tea or pills, eliminated otherwise; no one leaves "
        "the game any other way, and no one comes back.",
        step=dying_as_the_rules_say,
    ),
    Property(
        "D2",
        ("S4.3.2", "S5.1", "S1.3", "R6"),
        "Only a fall from more than 1 HP to exactly 1 is noted for a conversion; the choice "
        "opens for that player with their chance unused and uses it up; only converting "
        "makes a traitor, of the player asked, for good.",
        step=conversion_as_the_rules_say,
    ),
    Property(
        "D3",
        ("S4.4.1", "S4.4.2", "S4.4.3", "S4.4.4", "R12"),
        "Phase 4 asks the owner to discard exactly while they are over their cap; a discard "
        "removes one item of the chosen kind from the owner's hand; nothing else changes in "
        "phase 4.",
        step=discard_as_the_rules_say,
    ),
    Property(
        "D4",
        ("S4.2.1b", "S6.2", "S6.2.1", "S6.2.2", "S6.2.3", "R8", "R17"),
        "A shot window opens with no one asked, asking the owner's next living seat; each "
        "move of the poll marks only the player just asked and asks the next living seat not "
        "asked yet, the owner last; nothing else changes the poll.",
        step=poll_as_the_rules_say,
    ),
)
"""The pauses' properties, in ID order."""
