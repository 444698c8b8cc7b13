"""Each role's skill as a property: when it acts, for whom, and what it does (S2, S5.1).

A skill acts only for its holder who is not a traitor (S5.1; R6), and the step records who
used a role skill (``skill_by``, which I5 checks against traitors). Each property states the
skill's condition and effect from the rule text through the ``rule_*`` readers, never through
the model's guards, actions or helpers.
"""

from __future__ import annotations

from typing import Any

from buckshot.spec.rulebook import FrameKind, Role
from buckshot.verification.model.layout import KINDS, NONE, SEATS
from buckshot.verification.proofs.properties import (
    AMULET,
    PILLS,
    RAGE,
    In,
    Property,
    Res,
    S,
    Sem,
    chamber_kept,
    code,
    doctor_on_self,
    drawn,
    fired_action,
    flipped,
    items_kept,
    kept,
    loaded,
    lucky,
    rescued,
    rule_has_skill,
    rule_heal,
    rule_held,
    rule_rage_grant,
    rule_seat_flag,
    rule_seat_value,
    rule_shield_grant,
    rule_top,
    rule_top_cursor,
    rule_top_who,
    settled,
    turn_ended,
    turn_in,
    used,
)


def _skill(m: Sem, r: Res, when: Any, who: Any) -> Any:
    """The step records ``who`` as having used a role skill exactly when ``when``."""
    b = m.b
    return b.eq(r.skill_by, b.ite(when, who, b.num(NONE)))


def gambler_lucky_streak(m: Sem, s: S, inp: In, r: Res) -> Any:
    """When a shot settles, a Gambler who is not a traitor, who shot themself and whose shell
    was blank in the end, rolls: on a win they gain ``gambler.bonus_items`` random items
    (S2.1; R20, R15); no other shot gives the shooter items or uses the skill."""
    b = m.b
    luck = lucky(m, s)
    won = b.and_(luck, inp.gamble_win)
    bonus = m.rules.gambler.bonus_items
    terms = [_skill(m, r, luck, s.shot_shooter)]
    for p in range(SEATS):
        gains = [
            b.eq(
                r.next.items[p][k],
                b.ite(won, b.add(s.items[p][k], drawn(m, inp, bonus, k)), s.items[p][k]),
            )
            for k in range(KINDS)
        ]
        terms.append(b.implies(b.eqn(s.shot_shooter, p), b.and_(*gains)))
    return b.implies(settled(m, r), b.and_(*terms))


def medic_double_protection(m: Sem, s: S, inp: In, r: Res) -> Any:
    """An amulet used by a Medic who is not a traitor gives ``shield.medic_blocks`` blocks,
    anyone else's ``shield.blocks`` (S2.2, S3.4; R9): the blocks gained below the counter's
    saturation point are those, and the skill is recorded for the Medic only."""
    b = m.b
    medic = rule_has_skill(m, s, s.owner, Role.MEDIC)
    grant = rule_shield_grant(m, s, s.owner)
    before = rule_seat_value(m, s.shield, s.owner)
    after = rule_seat_value(m, r.next.shield, s.owner)
    below = b.lt(b.add(before, grant), b.num(m.cfg.shield_cap))
    return b.implies(
        used(m, inp, r, AMULET),
        b.and_(
            _skill(m, r, medic, s.owner),
            b.implies(below, b.eq(after, b.add(before, grant))),
        ),
    )


def dealer_prophet(m: Sem, s: S, inp: In, r: Res) -> Any:
    """At the preview of phase 1, a Dealer who is not a traitor and owns the turn learns the
    chamber's first shell, which is there to see (S2.3, S4.1.2; R11): the skill is recorded
    for that Dealer only, and the preview changes nothing but the turn's state (S4.1.4)."""
    b = m.b
    preview = fired_action(m, r, "prophet_preview")
    dealer = rule_has_skill(m, s, s.owner, Role.DEALER)
    same = b.and_(
        chamber_kept(m, s, r),
        b.eq(r.next.depth, s.depth),
        kept(m, s, r, "hp"),
        items_kept(m, s, r),
    )
    return b.and_(
        b.implies(preview, b.and_(_skill(m, r, dealer, s.owner), b.ge(s.shells, b.num(1)), same)),
        dealers_shown_as_the_rules_say(m, s, inp, r),
    )


def dealers_shown_as_the_rules_say(m: Sem, s: S, inp: In, r: Res) -> Any:
    """Who is privately shown the chamber's first shell (S2.3, S4.1.3; R11): at a fresh load,
    whoever's turn it is, every living Dealer who is not a traitor and no one else; at the
    preview of phase 1, the owner alone, when a Dealer who is not a traitor (on a turn that
    began with a fresh load, the same shell the load showed them); at any other step, no one.
    """
    b = m.b
    load = loaded(m, r)
    preview = fired_action(m, r, "prophet_preview")
    terms = []
    for p in range(SEATS):
        dealer = rule_has_skill(m, s, b.num(p), Role.DEALER)
        at_load = b.and_(s.alive[p], dealer)
        at_preview = b.and_(b.eqn(s.owner, p), dealer)
        expected = b.ite(load, at_load, b.ite(preview, at_preview, b.false()))
        terms.append(b.eq(r.shown[p], expected))
    return b.and_(*terms)


def dealer_finds_a_shell(m: Sem, s: S) -> Any:
    """Phase 1 loads an empty chamber before the draw and the preview, so a shell is there
    when a Dealer looks (R11)."""
    b = m.b
    return b.implies(turn_in(m, s, "drawing", "previewing"), b.ge(s.shells, b.num(1)))


def mercenary_sustained_fire(m: Sem, s: S, inp: In, r: Res) -> Any:
    """A rage potion used by a Mercenary who is not a traitor gives
    ``rage.mercenary_charges`` charges, anyone else's ``rage.charges`` (S2.4, S3.3; R9); the
    skill is recorded for the Mercenary only."""
    b = m.b
    mercenary = rule_has_skill(m, s, s.owner, Role.MERCENARY)
    grant = rule_rage_grant(m, s, s.owner)
    before = rule_seat_value(m, s.rage, s.owner)
    after = rule_seat_value(m, r.next.rage, s.owner)
    return b.implies(
        used(m, inp, r, RAGE),
        b.and_(_skill(m, r, mercenary, s.owner), b.eq(after, b.add(before, grant))),
    )


def doctor_reverse_pharmacology(m: Sem, s: S, inp: In, r: Res) -> Any:
    """Expired pills a Doctor who is not a traitor takes themself (in the main phase or while
    dying) always heal ``pills.doctor_heal``, with no roll; pills given to anyone else, or
    taken by anyone else, follow the roll (S2.5, S3.6; R10). The skill is recorded for that
    Doctor only."""
    b = m.b
    nxt = r.next
    main = used(m, inp, r, PILLS)
    who = rule_top_who(m, s)
    rescue = b.and_(rescued(m, r), b.eqn(inp.item, PILLS))
    user = b.ite(rescue, who, s.owner)
    target = b.ite(rescue, who, inp.target)
    reversed_ = doctor_on_self(m, s, user, target)
    hp = rule_seat_value(m, s.hp, target)
    after = rule_seat_value(m, nxt.hp, target)
    healed = rule_heal(m, hp, m.rules.pills.doctor_heal)
    return b.implies(
        b.or_(main, rescue),
        b.and_(_skill(m, r, reversed_, user), b.implies(reversed_, b.eq(after, healed))),
    )


def magician_ballistic_control(m: Sem, s: S, inp: In, r: Res) -> Any:
    """A flip is made only by the player a shot window asks, a living Magician who is not a
    traitor, paying exactly ``magician.cost`` items of their own (S2.6, S6.3.0; R8); it turns
    the shot's type live <-> blank, counts one flip and records the skill for them. The
    shot's type and its count of flips change only so, or when a shot is declared or the
    turn ends."""
    b = m.b
    nxt = r.next
    flip = flipped(m, r)
    who = rule_top_cursor(m, s)
    asking = b.eqn(rule_top(m, s.fstate, s), code(FrameKind.SHOT_WINDOW, "asking"))
    pays = [b.le(inp.pay[k], rule_held(m, s, who, b.num(k))) for k in range(KINDS)]
    legal = b.and_(
        asking,
        rule_seat_flag(m, s.alive, who),
        rule_has_skill(m, s, who, Role.MAGICIAN),
        *pays,
        b.eqn(b.sum_(list(inp.pay)), m.rules.magician.cost),
    )
    effect = b.and_(
        b.eq(nxt.shot_live, b.not_(s.shot_live)),
        b.eq(nxt.shot_flips, b.addn(s.shot_flips, 1)),
        _skill(m, r, b.true(), who),
    )
    others = b.or_(
        flip,
        fired_action(m, r, "declare_shot"),
        fired_action(m, r, "negate_response"),
        turn_ended(m, r),
    )
    same = b.and_(b.eq(nxt.shot_live, s.shot_live), b.eq(nxt.shot_flips, s.shot_flips))
    return b.and_(
        b.implies(flip, b.and_(legal, effect)),
        b.implies(b.not_(others), same),
    )


RULES_ROLES: tuple[Property, ...] = (
    Property(
        "K1",
        ("S2.1", "S4.2.1c", "R15", "R20"),
        "A settled shot gives its shooter items only when a non-traitor Gambler shot "
        "themself, the final type was blank and the roll won: gambler.bonus_items of them; "
        "the skill is recorded exactly for such shots.",
        step=gambler_lucky_streak,
    ),
    Property(
        "K2",
        ("S2.2", "S3.4", "R6", "R9"),
        "An amulet gives shield.medic_blocks to a non-traitor Medic and shield.blocks to "
        "anyone else; the skill is recorded for the Medic only.",
        step=medic_double_protection,
    ),
    Property(
        "K3",
        ("S2.3", "S4.1.2", "S4.1.3", "R11"),
        "The preview records the Dealer's skill exactly when the owner is a non-traitor "
        "Dealer, finds a shell in the chamber, and changes nothing else; a fresh load shows "
        "its first shell to every living non-traitor Dealer, the preview to the owner alone "
        "if one, no other step to anyone.",
        state=dealer_finds_a_shell,
        step=dealer_prophet,
    ),
    Property(
        "K4",
        ("S2.4", "S3.3", "R6", "R9"),
        "A rage potion gives rage.mercenary_charges to a non-traitor Mercenary and "
        "rage.charges to anyone else; the skill is recorded for the Mercenary only.",
        step=mercenary_sustained_fire,
    ),
    Property(
        "K5",
        ("S2.5", "S3.6", "R6", "R10"),
        "Expired pills a non-traitor Doctor takes themself heal pills.doctor_heal with no "
        "roll, in the main phase or dying; the skill is recorded for that use only.",
        step=doctor_reverse_pharmacology,
    ),
    Property(
        "K6",
        ("S2.6", "S4.2.1b", "S6.2.3", "S6.3", "S6.3.0", "R6", "R8"),
        "A flip is made only by the asked player, a living non-traitor Magician paying "
        "exactly magician.cost items they hold; it flips the shot's type and counts; the "
        "shot's type and flips change otherwise only when declared or at turn end.",
        step=magician_ballistic_control,
    ),
)
"""The roles' properties, in ID order."""
