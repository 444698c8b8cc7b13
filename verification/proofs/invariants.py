"""The invariants the rules demand, each with its ID, the clauses it checks and one line.

I1-I10 are the brief's; I11-I13 are added by the rulings (R2, R13, R1, R22, R7). Each is a
state predicate, a step predicate, or both; see :mod:`.properties`.
"""

from __future__ import annotations

from typing import Any

from buckshot.spec.rulebook import FrameKind
from buckshot.verification.model.layout import (
    DRAWN,
    NONE,
    RUNNING,
    SEATS,
    WON,
    kind_code,
)
from buckshot.verification.model.state import Input
from buckshot.verification.proofs.properties import (
    TURN_PHASES,
    Property,
    Res,
    S,
    Sem,
    code,
    conversion_pending,
    fired,
    fired_action,
    game_over_condition,
    item_sums,
    items_in_play,
    on_stack,
    over_cap,
    rule_holds,
    rule_owner_over_cap,
    rule_poll_next,
    rule_seat_flag,
    rule_seat_value,
    rule_top,
    rule_top_flags,
    slot_is,
    someone_at_zero,
    state_value,
    top_in,
    turn_in,
    unasked,
)

OWNER_ACTS = (
    "reloading",
    "drawing",
    "previewing",
    "awaiting_action",
    "awaiting_shot_window",
    "shooting_locked",
    "tallying",
    "checking_cap",
    "awaiting_discard",
)
"""Turn states in which the owner acts or is about to (they must be alive there)."""


OWNER_ASKED = (
    (FrameKind.TURN, "awaiting_action"),
    (FrameKind.TURN, "shooting_locked"),
    (FrameKind.DISCARD, "choosing"),
)
"""Decision states in which the rules ask the turn owner (S4.2.0, S4.4.2; R12)."""
POLL_ASKED = ((FrameKind.SHOT_WINDOW, "asking"), (FrameKind.COUNTER_RESPONSE, "asking"))
"""Decision states in which a poll asks the next player of its order (S6.2.1; R17)."""


def should_be_asked(m: Sem, s: S) -> list[tuple[Any, Any]]:
    """For each decision state, (the top frame is in it, what the rules say of the player
    asked there), the latter as a function of the asked seat. Written from the rule text
    alone: the owner in the main phase and at discard (S4.2.0, S4.4.2), the next player of
    the poll order in a response window (S6.2.1), a living player at 0 HP in a dying frame
    (S4.3.1), a living player at 1 HP who is not a traitor in a conversion frame (S4.3.2)."""
    b = m.b
    top = rule_top(m, s.fstate, s)
    poll_next = rule_poll_next(m, s, rule_top_flags(m, s))
    rules: list[tuple[Any, Any]] = []
    for frame, state_id in OWNER_ASKED:
        rules.append((b.eqn(top, code(frame, state_id)), lambda who: b.eq(who, s.owner)))
    for frame, state_id in POLL_ASKED:
        rules.append((b.eqn(top, code(frame, state_id)), lambda who: b.eq(who, poll_next)))

    def dying(who: Any) -> Any:
        return b.and_(rule_seat_flag(m, s.alive, who), b.eqn(rule_seat_value(m, s.hp, who), 0))

    def converting(who: Any) -> Any:
        return b.and_(
            rule_seat_flag(m, s.alive, who),
            b.eqn(rule_seat_value(m, s.hp, who), 1),
            b.not_(rule_seat_flag(m, s.traitor, who)),
        )

    rules.append((b.eqn(top, code(FrameKind.DYING, "asking")), dying))
    rules.append((b.eqn(top, code(FrameKind.CONVERSION, "choosing")), converting))
    return rules


def right_living_player_is_asked(m: Sem, s: S) -> Any:
    b = m.b
    who = m.asked(s)
    rules = should_be_asked(m, s)
    return b.and_(
        b.or_(b.eqn(who, NONE), rule_seat_flag(m, s.alive, who)),
        *(b.implies(here, b.and_(b.ne(who, b.num(NONE)), right(who))) for here, right in rules),
        b.implies(b.not_(b.or_(*(here for here, _ in rules))), b.eqn(who, NONE)),
        b.implies(turn_in(m, s, *OWNER_ACTS), rule_seat_flag(m, s.alive, s.owner)),
    )


PAUSES = {
    (FrameKind.TURN, "awaiting_shot_window"): (FrameKind.SHOT_WINDOW, "settling"),
    (FrameKind.TURN, "awaiting_dying"): (FrameKind.DYING, "settling"),
    (FrameKind.TURN, "awaiting_conversion"): (FrameKind.CONVERSION, "settling"),
    (FrameKind.TURN, "awaiting_discard"): (FrameKind.DISCARD, "checking_cap"),
    (FrameKind.SHOT_WINDOW, "awaiting_counter"): (FrameKind.COUNTER_RESPONSE, "polling"),
    (FrameKind.COUNTER_RESPONSE, "awaiting_counter"): (FrameKind.COUNTER_RESPONSE, "polling"),
}
"""Each state that waits for a pushed frame, by its name: the frame it waits for and the state
of its own chart it goes on from when that frame pops, its breakpoint (S6.1.2, S6.1.3),
stated from the rule text, never read from the charts. A shot's window, then the shot's final
settlement (S4.2.1b, S4.2.1c); dying and the conversion choice, then the rest of the
settlement (S4.3.1, S4.3.2, S5.3); a discard, then the cap checked again (S4.4.3); a
response to a response, then the poll goes on where it was (S6.3.1, S6.2.2)."""


def _suspended(m: Sem, state: Any) -> Any:
    """The state waits for a pushed frame."""
    b = m.b
    return b.or_(*(b.eqn(state, code(frame, state_id)) for frame, state_id in PAUSES))


def suspended_frames_are_untouched(m: Sem, s: S) -> Any:
    b = m.b
    terms = [b.implies(b.gt(s.depth, b.num(1)), b.eq(s.owner, s.snap_owner))]
    pushed = {waiting: kind_code(frame) for waiting, (frame, _) in PAUSES.items()}
    for i in range(m.cfg.depth):
        inside = b.lt(b.num(i), s.depth)
        below_top = b.lt(b.num(i + 1), s.depth)
        same = b.and_(
            b.eq(s.fkind[i], s.skind[i]),
            b.eq(s.fstate[i], s.sstate[i]),
            b.eq(s.fwho[i], s.swho[i]),
            b.eq(s.fcursor[i], s.scursor[i]),
            *(b.eq(s.fasked[i][p], s.sasked[i][p]) for p in range(SEATS)),
        )
        terms.append(b.implies(below_top, same))
        terms.append(b.implies(inside, b.eq(_suspended(m, s.fstate[i]), below_top)))
        if i + 1 < m.cfg.depth:
            terms.append(
                b.implies(below_top, b.eq(s.fkind[i + 1], state_value(m, s.fstate[i], pushed)))
            )
    return b.and_(*terms)


def pop_lands_on_breakpoint(m: Sem, s: S, inp: Input[Any, Any], r: Res) -> Any:
    """A pop hands control to the suspended frame's breakpoint (:data:`PAUSES`), one slot
    lower, the frame's kind and player and the turn owner unchanged (S6.1.3)."""
    b = m.b
    nxt = r.next
    terms = []
    breakpoints = {(frame, id_): code(frame, bp) for (frame, id_), (_, bp) in PAUSES.items()}
    for i in range(m.cfg.depth - 1):
        here = b.and_(r.popped, b.eqn(s.depth, i + 2))
        target = state_value(m, s.fstate[i], breakpoints)
        terms.append(
            b.implies(
                here,
                b.and_(
                    b.eqn(nxt.depth, i + 1),
                    b.eq(nxt.fstate[i], target),
                    b.eq(nxt.fkind[i], s.fkind[i]),
                    b.eq(nxt.fwho[i], s.fwho[i]),
                    b.eq(nxt.owner, s.owner),
                ),
            )
        )
    return b.and_(*terms)


def item_cap_holds_after_discard(m: Sem, s: S) -> Any:
    b = m.b
    at_end = b.or_(
        b.and_(turn_in(m, s, "clearing"), rule_seat_flag(m, s.alive, s.owner)),
        top_in(m, s, FrameKind.DISCARD, "within_cap"),
    )
    choosing = top_in(m, s, FrameKind.DISCARD, "choosing")
    others_cap = b.num(m.rules.hp.max + m.rules.traitor.cap_bonus)
    return b.and_(
        b.implies(at_end, b.not_(rule_owner_over_cap(m, s))),
        b.implies(choosing, rule_owner_over_cap(m, s)),
        *(
            b.implies(b.ne(s.owner, b.num(p)), b.le(rule_holds(m, s, p), others_cap))
            for p in range(SEATS)
        ),
    )


def discards_only_over_cap(m: Sem, s: S, inp: Input[Any, Any], r: Res) -> Any:
    return m.b.implies(fired_action(m, r, "discard_one"), rule_owner_over_cap(m, s))


def shot_window_polls_in_order(m: Sem, s: S) -> Any:
    b = m.b
    terms = []
    for i in range(m.cfg.depth):
        window = slot_is(m, s, i, FrameKind.SHOT_WINDOW)
        asked = s.fasked[i]
        cursor = s.fcursor[i]
        complete = b.and_(*(b.implies(s.alive[p], asked[p]) for p in range(SEATS)))
        cursor_rank = b.select([m.rank(s.owner, p) for p in range(SEATS)], cursor)
        prefix = b.and_(
            m.bseat(s.alive, cursor),
            *(
                b.implies(s.alive[p], b.eq(asked[p], b.lt(m.rank(s.owner, p), cursor_rank)))
                for p in range(SEATS)
            ),
        )
        state = s.fstate[i]
        terms.append(
            b.implies(
                window,
                b.and_(
                    b.eq(s.fwho[i], s.owner),
                    *(b.implies(asked[p], s.alive[p]) for p in range(SEATS)),
                    b.or_(complete, prefix),
                    b.implies(b.eqn(state, code(FrameKind.SHOT_WINDOW, "closed")), complete),
                    b.implies(
                        b.or_(
                            b.eqn(state, code(FrameKind.SHOT_WINDOW, "asking")),
                            b.eqn(state, code(FrameKind.SHOT_WINDOW, "responded")),
                        ),
                        b.and_(m.bseat(s.alive, cursor), b.not_(m.b.select(asked, cursor))),
                    ),
                ),
            )
        )
    return b.and_(*terms)


def conversion_at_most_once(m: Sem, s: S) -> Any:
    b = m.b
    return b.and_(
        *(b.implies(s.traitor[p], s.conv_used[p]) for p in range(SEATS)),
        b.implies(
            top_in(m, s, FrameKind.CONVERSION, "choosing"),
            b.not_(m.bseat(s.traitor, m.top_who(s))),
        ),
    )


def traitor_uses_no_skill(m: Sem, s: S, inp: Input[Any, Any], r: Res) -> Any:
    b = m.b
    return b.and_(
        b.implies(fired_action(m, r, "open_conversion"), b.not_(m.bseat(s.conv_used, s.fell))),
        b.implies(fired_action(m, r, "make_traitor"), b.not_(m.bseat(s.traitor, m.top_who(s)))),
        b.implies(b.ne(r.skill_by, b.num(NONE)), b.not_(m.bseat(s.traitor, r.skill_by))),
    )


def stack_is_bounded_turn_at_bottom(m: Sem, s: S) -> Any:
    b = m.b
    turn = kind_code(FrameKind.TURN)
    terms = [
        b.le(b.num(1), s.depth),
        b.le(s.depth, b.num(m.cfg.depth)),
        b.eqn(s.fkind[0], turn),
    ]
    for i in range(1, m.cfg.depth):
        inside = b.lt(b.num(i), s.depth)
        terms.append(
            b.implies(inside, b.and_(b.ne(s.fkind[i], b.num(turn)), b.ne(s.fkind[i], b.num(0))))
        )
    return b.and_(*terms)


def kill_locks_shooting(m: Sem, s: S) -> Any:
    b = m.b
    kills = m.seat(s.kills, s.owner)
    running = b.eqn(s.result, RUNNING)
    return b.implies(b.and_(running, b.ne(kills, s.k0), m.bseat(s.alive, s.owner)), s.kill_lock)


def no_shot_after_kill(m: Sem, s: S, inp: Input[Any, Any], r: Res) -> Any:
    b = m.b
    return b.implies(fired_action(m, r, "declare_shot"), b.eq(m.seat(s.kills, s.owner), s.k0))


def rage_is_bounded_and_cleared(m: Sem, s: S) -> Any:
    b = m.b
    cleared = b.or_(turn_in(m, s, "reloading", "drawing", "previewing"), b.eqn(s.result, DRAWN))
    return b.and_(
        *(b.le(s.rage[p], b.num(m.cfg.rage_max)) for p in range(SEATS)),
        *(b.implies(cleared, b.eqn(s.rage[p], 0)) for p in range(SEATS)),
        *(b.implies(b.ne(s.owner, b.num(p)), b.eqn(s.rage[p], 0)) for p in range(SEATS)),
    )


def game_ends_with_rightful_result(m: Sem, s: S) -> Any:
    b = m.b
    over = turn_in(m, s, "game_over")
    cond = game_over_condition(m, s)
    need = b.num(m.rules.traitor.kills_to_win)
    w = s.winner
    traitor_won = b.or_(*(b.and_(s.traitor[p], b.ge(s.kills[p], need)) for p in range(SEATS)))
    rightful = b.ite(
        traitor_won,
        b.and_(rule_seat_flag(m, s.traitor, w), b.ge(rule_seat_value(m, s.kills, w), need)),
        b.and_(b.eqn(m.living(s), 1), rule_seat_flag(m, s.alive, w)),
    )
    return b.and_(
        b.implies(over, b.and_(b.ne(s.result, b.num(RUNNING)), b.eqn(s.depth, 1))),
        b.implies(b.not_(over), b.eqn(s.result, RUNNING)),
        b.implies(b.eqn(s.result, WON), b.and_(cond, rightful)),
        b.implies(b.ne(s.result, b.num(WON)), b.eqn(w, NONE)),
        b.le(s.turn_no, b.num(m.cfg.max_turns)),
        b.implies(b.eqn(s.result, DRAWN), b.eqn(s.turn_no, m.cfg.max_turns)),
        b.implies(cond, b.eqn(m.asked(s), NONE)),
    )


def draw_exactly_at_turn_limit(m: Sem, s: S, inp: Input[Any, Any], r: Res) -> Any:
    """The game is drawn exactly when turn limits.max_turns ends with no winner (R21): the
    turn passes on only before it, and its end draws."""
    b = m.b
    last = b.eqn(s.turn_no, m.cfg.max_turns)
    return b.and_(
        b.implies(fired(m, r, "turn:clearing:pass_turn:0"), last),
        b.implies(fired(m, r, "turn:clearing:pass_turn:1"), b.not_(last)),
    )


def shields_never_negative(m: Sem, s: S, inp: Input[Any, Any], r: Res) -> Any:
    """A step takes at most one block from a seat and only from a positive count (never
    below zero), and adds at most one grant of blocks (S3.4; R14)."""
    b = m.b
    grant = b.num(max(m.rules.shield.blocks, m.rules.shield.medic_blocks))
    terms = []
    for p in range(SEATS):
        before, after = s.shield[p], r.next.shield[p]
        terms.append(
            b.or_(
                b.eq(after, before),
                b.and_(b.gt(before, b.num(0)), b.eq(b.addn(after, 1), before)),
                b.and_(b.gt(after, before), b.le(after, b.add(before, grant))),
                b.eqn(after, 0),
            )
        )
    return b.and_(*terms)


PHASE_RANK = {state: 8 - phase for state, phase in TURN_PHASES.items()}
PHASE_RANK.update(reloading=9, drawing=8, game_over=0)
"""The turn's progress through its phases (S4.1-S4.5): it never goes back within a turn.
Phase 2 weighs 6 down to phase 5's 3; within phase 1 the load comes before the draw, the
draw before the preview (S4.1); game_over weighs 0."""

LOCAL_RANK = {
    (FrameKind.TURN, "awaiting_action"): 40,
    (FrameKind.TURN, "shooting_locked"): 40,
    (FrameKind.TURN, "settling"): 50,
    (FrameKind.TURN, "checking_cap"): 10,
    (FrameKind.SHOT_WINDOW, "polling"): 2,
    (FrameKind.SHOT_WINDOW, "asking"): 1,
    (FrameKind.SHOT_WINDOW, "responded"): 3,
    (FrameKind.COUNTER_RESPONSE, "polling"): 2,
    (FrameKind.COUNTER_RESPONSE, "asking"): 1,
    (FrameKind.COUNTER_RESPONSE, "countered"): 3,
    (FrameKind.DYING, "checking"): 3,
    (FrameKind.DYING, "asking"): 2,
    (FrameKind.CONVERSION, "choosing"): 1,
    (FrameKind.DISCARD, "checking"): 3,
    (FrameKind.DISCARD, "choosing"): 2,
}
"""Each chart state's weight in the frames' own progress (every other state weighs 0)."""

POLL_WEIGHT = 4
"""Weight of each living player a poll frame has yet to ask."""


def ranking(m: Sem, s: S) -> list[Any]:
    """R21's measure, lexicographic: living players, phase, shells, items in play, pending
    pauses, frames' progress. Nobody comes back to life, so the first never grows."""
    b = m.b
    phase = state_value(m, s.fstate[0], {(FrameKind.TURN, k): v for k, v in PHASE_RANK.items()})
    dying = b.or_(someone_at_zero(m, s), on_stack(m, s, FrameKind.DYING))
    conversion = b.or_(conversion_pending(m, s), on_stack(m, s, FrameKind.CONVERSION))
    discard = b.or_(
        b.and_(turn_in(m, s, "checking_cap", "awaiting_discard"), over_cap(m, s, s.owner)),
        on_stack(m, s, FrameKind.DISCARD),
    )
    local = []
    for i in range(m.cfg.depth):
        weight = state_value(m, s.fstate[i], LOCAL_RANK)
        polls = b.or_(
            slot_is(m, s, i, FrameKind.SHOT_WINDOW), slot_is(m, s, i, FrameKind.COUNTER_RESPONSE)
        )
        poll = b.ite(polls, b.sum_([unasked(m, s, i)] * POLL_WEIGHT), b.num(0))
        inside = b.lt(b.num(i), s.depth)
        local.append(b.ite(inside, b.add(weight, poll), b.num(0)))

    def flag(cond: Any) -> Any:
        return b.ite(cond, b.num(1), b.num(0))

    return [
        m.living(s),
        phase,
        s.shells,
        items_in_play(m, s),
        flag(dying),
        flag(conversion),
        flag(discard),
        b.sum_(local),
    ]


def lex_less(m: Sem, left: list[Any], right: list[Any]) -> Any:
    """``left`` comes strictly before ``right`` in lexicographic order."""
    b = m.b
    result = b.false()
    for a, c in reversed(list(zip(left, right, strict=True))):
        result = b.or_(b.lt(a, c), b.and_(b.eq(a, c), result))
    return result


def every_turn_ends(m: Sem, s: S, inp: Input[Any, Any], r: Res) -> Any:
    b = m.b
    new_turn = fired(m, r, "turn:clearing:pass_turn:1")
    return b.implies(b.not_(new_turn), lex_less(m, ranking(m, r.next), ranking(m, s)))


def hp_in_range_dead_hold_nothing(m: Sem, s: S) -> Any:
    b = m.b
    zero = b.num(0)
    terms = []
    for p in range(SEATS):
        terms.append(b.le(s.hp[p], b.num(m.rules.hp.max)))
        gone = b.not_(s.alive[p])
        terms.append(
            b.implies(
                gone,
                b.and_(
                    *(b.eq(count, zero) for count in s.items[p]),
                    b.eq(s.shield[p], zero),
                    b.eq(s.rage[p], zero),
                ),
            )
        )
    return b.and_(*terms)


def chamber_is_consistent(m: Sem, s: S) -> Any:
    b = m.b
    loaded = b.gt(s.shells, b.num(0))
    return b.and_(
        b.le(s.live, s.shells),
        b.le(s.shells, b.num(m.rules.shells.max_per_load)),
        b.implies(loaded, b.implies(s.head_live, b.ge(s.live, b.num(1)))),
        b.implies(loaded, b.implies(b.not_(s.head_live), b.lt(s.live, s.shells))),
        b.implies(b.not_(loaded), b.not_(s.head_live)),
    )


def kills_never_exceed_eliminations(m: Sem, s: S) -> Any:
    b = m.b
    dead = b.sub(s.n, m.living(s))
    return b.le(b.sum_(list(s.kills)), dead)


INVARIANTS: tuple[Property, ...] = (
    Property(
        "I1",
        ("S1.2", "S5.2", "S6.2.1", "S6.2.2", "S4.3.1", "S4.3.2", "S4.4.2", "R12", "R17"),
        "The player asked is the one the rules name (the owner in the main phase and at "
        "discard, the next of the poll order in a window, the dying player, the player who "
        "fell to 1 HP) and is alive; no eliminated player acts as turn owner.",
        state=right_living_player_is_asked,
    ),
    Property(
        "I2",
        ("S1.3", "S1.4", "S6.1.2", "S6.1.3", "S5.3", "S4.2.1c", "S4.4.3"),
        "Every frame below the top equals its snapshot from its suspension and waits for the "
        "frame it pushed; the owner is unchanged while a frame is pushed; every pop resumes "
        "the frame below at its breakpoint: a shot's settlement after its window, the rest "
        "of the settlement after dying or conversion, the cap check after a discard, the "
        "poll after a counter.",
        state=suspended_frames_are_untouched,
        step=pop_lands_on_breakpoint,
    ),
    Property(
        "I3",
        ("S4.4.2", "S5.1", "R12"),
        "At the end of discard and at turn end the owner holds at most HP (+ cap bonus for a "
        "traitor) items, and discards only while over that cap; every other seat holds at "
        "most hp.max + traitor.cap_bonus (R12).",
        state=item_cap_holds_after_discard,
        step=discards_only_over_cap,
    ),
    Property(
        "I4",
        ("S4.2.1b", "S6.2.1", "S6.2.3", "R17"),
        "A shot window asks every living player exactly once, clockwise from the shooter's "
        "next seat, the shooter last.",
        state=shot_window_polls_in_order,
    ),
    Property(
        "I5",
        ("S4.3.2", "S5.1", "R6"),
        "A player is offered conversion at most once, converts at most once, and a traitor "
        "never uses a role skill.",
        state=conversion_at_most_once,
        step=traitor_uses_no_skill,
    ),
    Property(
        "I6",
        ("S6.0", "S6.1", "S6.1.1", "S6.1.4", "R18"),
        "The stack is never empty, its bottom is the turn, its depth stays within "
        "limits.max_stack_depth.",
        state=stack_is_bounded_turn_at_bottom,
    ),
    Property(
        "I7",
        ("S4.2.1e", "R25"),
        "After the owner's kill shooting stays locked: no shot in the same turn.",
        state=kill_locks_shooting,
        step=no_shot_after_kill,
    ),
    Property(
        "I8",
        ("S3.3", "S3.4", "S4.5.1", "R9"),
        "Shield and rage charges are never negative (a block is taken only from a positive "
        "count, at most one grant is added per step); rage is bounded, 0 after turn end and "
        "for every player but the owner.",
        state=rage_is_bounded_and_cleared,
        step=shields_never_negative,
    ),
    Property(
        "I9",
        ("S5.1", "R7", "R13", "R21"),
        "The game is won exactly when at most one player lives or a traitor has "
        "traitor.kills_to_win kills, by that traitor or else the last living player; it is "
        "drawn exactly when turn limits.max_turns ends with no winner (R21); then no one is "
        "asked.",
        state=game_ends_with_rightful_result,
        step=draw_exactly_at_turn_limit,
    ),
    Property(
        "I10",
        ("S1.1", "S4.0", "S4.2.0", "R4", "R21"),
        "Every turn ends: every step inside a turn decreases (living players, phase, shells, "
        "items in play, pending pauses, frame progress) lexicographically (R21).",
        step=every_turn_ends,
        per_branch=True,
        opaque=item_sums,
    ),
    Property(
        "I11",
        ("S3.5", "S3.6", "S4.3.1", "S1.2", "R2", "R13"),
        "HP stays within 0..hp.max (R2); an eliminated player holds no items, shields or rage "
        "(R13).",
        state=hp_in_range_dead_hold_nothing,
    ),
    Property(
        "I12",
        ("S4.1.3", "S3.2", "S3.8", "R1", "R22"),
        "The chamber is consistent: live <= shells <= shells.max_per_load, and the head shell "
        "is one of those left (R1, R22).",
        state=chamber_is_consistent,
    ),
    Property(
        "I13",
        ("S5.1", "S4.2.1e", "R7"),
        "Kills credited never exceed players eliminated (R7).",
        state=kills_never_exceed_eliminations,
    ),
)
"""The invariants, in ID order."""
