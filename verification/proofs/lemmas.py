"""Strengthening lemmas: facts the rules imply that make the invariants inductive.

Each is proved like an invariant (it holds initially and every step keeps it, assuming all
invariants and lemmas). They bound every value (so nothing wraps), tie the frames to the
turn's state, and record what the rules make impossible (for example L4: the stack never
holds more than two frames, since no role has a counter skill, R18).
"""

from __future__ import annotations

from typing import Any

from buckshot.spec.rulebook import FrameKind
from buckshot.verification.model.layout import (
    EMPTY,
    LAST_SHOT,
    NONE,
    RUNNING,
    SEATS,
    WON,
    kind_code,
    layout,
)
from buckshot.verification.proofs.properties import (
    Property,
    S,
    Sem,
    conversion_pending,
    game_over_condition,
    item_sums,
    on_stack,
    slot_is,
    someone_at_zero,
    top_in,
    turn_in,
)


def _scale(m: Sem, x: Any, k: int) -> Any:
    return m.b.sum_([x] * k) if k > 0 else m.b.num(0)


def _l1_bounds(m: Sem, s: S) -> Any:
    b = m.b
    cfg = m.cfg
    none = b.num(NONE)
    terms = [
        b.le(b.num(cfg.players_lo), s.n),
        b.le(s.n, b.num(cfg.players_hi)),
        b.lt(s.owner, s.n),
        b.le(b.num(1), s.turn_no),
        b.le(s.turn_no, b.num(cfg.max_turns)),
        b.le(s.last_step, b.num(LAST_SHOT)),
        b.le(s.result, b.num(WON + 1)),
        b.le(s.shot_flips, b.num(SEATS)),
        b.le(s.hit_src, none),
        b.le(s.fell, none),
        b.le(s.winner, none),
        b.le(s.snap_owner, none),
        b.le(s.shot_shooter, none),
        b.le(s.shot_target, none),
        b.le(s.k0, m.seat(s.kills, s.owner)),
    ]
    for p in range(SEATS):
        seated = b.lt(b.num(p), s.n)
        terms.append(b.implies(b.not_(seated), b.not_(s.alive[p])))
        terms.append(b.implies(b.not_(s.alive[p]), b.eqn(s.hp[p], 0)))
        terms.append(b.lt(s.role[p], b.num(6)))
        terms.append(b.le(s.kills[p], b.num(SEATS - 1)))
        terms.extend(b.le(count, b.num(cfg.owner_max)) for count in s.items[p])
    return b.and_(*terms)


def _l2_slots(m: Sem, s: S) -> Any:
    b = m.b
    lay = layout()
    none = b.num(NONE)
    terms = []
    for i in range(m.cfg.depth):
        inside = b.lt(b.num(i), s.depth)
        kinds = []
        for frame in FrameKind:
            codes = [st.code for st in lay.states if st.frame is frame]
            kinds.append(
                b.and_(
                    b.eqn(s.fkind[i], kind_code(frame)),
                    b.or_(*(b.eqn(s.fstate[i], c) for c in codes)),
                )
            )
        terms.append(b.implies(inside, b.or_(*kinds)))
        terms.append(b.le(s.fwho[i], none))
        terms.append(b.le(s.fcursor[i], none))
        terms.append(
            b.implies(
                b.not_(inside),
                b.and_(b.eqn(s.fkind[i], EMPTY), b.eqn(s.fstate[i], EMPTY)),
            )
        )
        polls = b.or_(
            b.eqn(s.fkind[i], kind_code(FrameKind.SHOT_WINDOW)),
            b.eqn(s.fkind[i], kind_code(FrameKind.COUNTER_RESPONSE)),
        )
        terms.append(
            b.implies(
                b.not_(polls),
                b.and_(b.eq(s.fcursor[i], none), *(b.not_(f) for f in s.fasked[i])),
            )
        )
    terms.append(b.eq(s.fwho[0], s.owner))
    return b.and_(*terms)


def _l3_items(m: Sem, s: S) -> Any:
    b = m.b
    cfg = m.cfg
    r = m.rules
    bonus = r.gambler.bonus_items
    charges = max(r.rage.charges, r.rage.mercenary_charges)
    owner_total = m.total(s, s.owner)
    potential = b.add(owner_total, _scale(m, s.shells, bonus))
    early = turn_in(m, s, "reloading", "drawing")
    rage = b.add(m.seat(s.rage, s.owner), _scale(m, potential, charges))
    return b.and_(
        b.le(potential, b.num(cfg.owner_max)),
        b.implies(early, b.le(owner_total, b.num(cfg.cap_max))),
        b.le(rage, b.num(charges * cfg.owner_max)),
        *(
            b.implies(b.ne(s.owner, b.num(p)), b.le(b.sum_(s.items[p]), b.num(cfg.cap_max)))
            for p in range(SEATS)
        ),
    )


def _l4_depth(m: Sem, s: S) -> Any:
    b = m.b
    return b.and_(b.le(s.depth, b.num(2)), b.not_(on_stack(m, s, FrameKind.COUNTER_RESPONSE)))


def _l5_turn(m: Sem, s: S) -> Any:
    b = m.b
    none = b.num(NONE)
    owner_kills = m.seat(s.kills, s.owner)
    window = slot_is(m, s, 1, FrameKind.SHOT_WINDOW)
    start = turn_in(m, s, "reloading", "drawing", "previewing")
    decision = b.or_(*(b.eqn(m.top_state(s), st.code) for st in m.layout.decision_states()))
    return b.and_(
        b.implies(
            start,
            b.and_(
                b.eqn(s.last_step, 0),
                b.not_(s.kill_lock),
                b.eq(owner_kills, s.k0),
                b.eq(s.fell, none),
                b.eq(s.hit_src, none),
                b.eq(s.shot_shooter, none),
                b.eq(s.shot_target, none),
                b.eqn(s.shot_flips, 0),
                b.not_(s.shot_live),
                b.not_(someone_at_zero(m, s)),
                b.ge(m.living(s), b.num(2)),
            ),
        ),
        b.implies(
            turn_in(m, s, "awaiting_shot_window"),
            b.and_(
                window,
                b.ge(s.shells, b.num(1)),
                b.eq(s.shot_shooter, s.owner),
                m.bseat(s.alive, s.shot_target),
                b.not_(s.kill_lock),
            ),
        ),
        b.implies(s.kill_lock, b.ne(owner_kills, s.k0)),
        b.implies(turn_in(m, s, "shooting_locked"), s.kill_lock),
        b.implies(b.ne(s.hit_src, none), b.eq(s.hit_src, s.owner)),
        b.implies(
            b.eqn(s.last_step, LAST_SHOT),
            b.and_(b.eq(s.shot_shooter, s.owner), b.lt(s.shot_target, none)),
        ),
        b.implies(
            b.and_(decision, b.not_(on_stack(m, s, FrameKind.DYING))),
            b.and_(b.not_(someone_at_zero(m, s)), b.not_(conversion_pending(m, s))),
        ),
        b.ge(m.living(s), b.num(1)),
        b.implies(
            window,
            b.le(
                s.shot_flips,
                b.add(
                    b.count(list(s.fasked[1])),
                    b.ite(top_in(m, s, FrameKind.SHOT_WINDOW, "responded"), b.num(1), b.num(0)),
                ),
            ),
        ),
    )


def _l6_pauses(m: Sem, s: S) -> Any:
    b = m.b
    zero_count = b.count([b.and_(s.alive[p], b.eqn(s.hp[p], 0)) for p in range(SEATS)])
    settling_alone = b.and_(turn_in(m, s, "settling"), b.eqn(s.depth, 1))
    dying = slot_is(m, s, 1, FrameKind.DYING)
    who = s.fwho[1]
    dying_open = top_in(m, s, FrameKind.DYING, "checking", "asking")
    conversion = slot_is(m, s, 1, FrameKind.CONVERSION)
    discard = slot_is(m, s, 1, FrameKind.DISCARD)
    return b.and_(
        b.le(zero_count, b.num(1)),
        b.implies(someone_at_zero(m, s), b.or_(settling_alone, dying)),
        b.implies(conversion_pending(m, s), settling_alone),
        b.implies(b.and_(conversion_pending(m, s), someone_at_zero(m, s)), b.false()),
        b.implies(
            dying,
            b.and_(
                b.lt(who, s.n),
                b.implies(dying_open, m.bseat(s.alive, who)),
                b.implies(top_in(m, s, FrameKind.DYING, "asking"), b.eqn(m.seat(s.hp, who), 0)),
                b.implies(
                    someone_at_zero(m, s),
                    b.and_(m.bseat(s.alive, who), b.eqn(m.seat(s.hp, who), 0)),
                ),
                b.implies(
                    top_in(m, s, FrameKind.DYING, "rescued"),
                    b.and_(m.bseat(s.alive, who), b.ge(m.seat(s.hp, who), b.num(1))),
                ),
                b.implies(
                    top_in(m, s, FrameKind.DYING, "eliminated"), b.not_(m.bseat(s.alive, who))
                ),
                b.not_(conversion_pending(m, s)),
                b.implies(b.not_(dying_open), b.not_(someone_at_zero(m, s))),
            ),
        ),
        b.implies(
            conversion,
            b.and_(
                b.lt(who, s.n),
                m.bseat(s.alive, who),
                m.bseat(s.conv_used, who),
                b.not_(someone_at_zero(m, s)),
                b.not_(conversion_pending(m, s)),
            ),
        ),
        b.implies(
            discard,
            b.and_(
                b.eq(who, s.owner),
                m.bseat(s.alive, s.owner),
                b.not_(someone_at_zero(m, s)),
            ),
        ),
    )


def _l7_end(m: Sem, s: S) -> Any:
    b = m.b
    over = turn_in(m, s, "game_over")
    final_pause = top_in(m, s, FrameKind.DYING, "eliminated")
    converted = top_in(m, s, FrameKind.CONVERSION, "converted")
    settling = b.and_(
        turn_in(m, s, "settling"),
        b.eqn(s.depth, 1),
        b.not_(someone_at_zero(m, s)),
        b.not_(conversion_pending(m, s)),
    )
    return b.and_(
        b.implies(
            b.and_(game_over_condition(m, s), b.not_(over)),
            b.or_(final_pause, converted, settling),
        ),
        b.implies(b.not_(over), b.eqn(s.result, RUNNING)),
    )


def _l8_fall(m: Sem, s: S) -> Any:
    b = m.b
    pending = b.and_(b.ne(s.fell, b.num(NONE)), m.bseat(s.alive, s.fell))
    converting = top_in(m, s, FrameKind.CONVERSION, "choosing")
    return b.and_(
        b.implies(pending, b.eqn(m.seat(s.hp, s.fell), 1)),
        b.implies(converting, b.eqn(m.seat(s.hp, m.top_who(s)), 1)),
    )


def _l9_shield_encoding(m: Sem, s: S) -> Any:
    b = m.b
    return b.and_(*(b.le(s.shield[p], b.num(m.cfg.shield_cap)) for p in range(SEATS)))


LEMMAS: tuple[Property, ...] = (
    Property(
        "L1",
        ("S1.2", "S5.2"),
        "Every value within its range; seats beyond N are dead; the dead have 0 HP.",
        state=_l1_bounds,
    ),
    Property(
        "L2",
        ("S6.1.2",),
        "Each slot in the stack holds a state of its own frame's chart; the turn is the "
        "owner's; slots above the stack are empty.",
        state=_l2_slots,
    ),
    Property(
        "L3",
        ("S4.4.2", "S4.1.1", "S3.3"),
        "Items held are bounded: others hold at most hp.max + cap bonus; the owner's items "
        "plus shells (and rage) form a potential bounded by the turn's draws.",
        state=_l3_items,
        per_branch=True,
        opaque=item_sums,
    ),
    Property(
        "L4",
        ("S6.1.4", "S6.3.1", "R18"),
        "The stack never holds more than 2 frames; no counter-response frame is ever pushed "
        "(no role has a counter skill, R18).",
        state=_l4_depth,
    ),
    Property(
        "L5",
        ("S4.1", "S4.2.1", "S4.2.1e"),
        "The turn's bookkeeping agrees with its state: a fresh turn has no marks, a pending "
        "shot has a shell and a living target, the kill lock matches the owner's kills.",
        state=_l5_turn,
    ),
    Property(
        "L6",
        ("S4.3.1", "S4.3.2", "S4.4.3"),
        "At most one player is at 0 HP and only while settling or dying; the dying, "
        "conversion and discard frames are for the right, living player.",
        state=_l6_pauses,
    ),
    Property(
        "L7",
        ("S5.1",),
        "When the end condition holds and the game is not over, only automatic steps remain "
        "before game over.",
        state=_l7_end,
    ),
    Property(
        "L8",
        ("S4.3.2",),
        "A first fall to 1 HP that waits for its conversion, and the player a conversion "
        "frame asks, are at 1 HP.",
        state=_l8_fall,
    ),
    Property(
        "L9",
        ("S3.4",),
        "The shield counter stays within its saturation point: a fact of the encoding, not a "
        "bound of the rules (reported as a saturation; see ABSTRACTIONS.md).",
        state=_l9_shield_encoding,
    ),
)
"""The strengthening lemmas, in ID order."""
