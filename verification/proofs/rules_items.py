"""Each item's rules as a property: when it may be used, on whom, and what it does (S3, S4.2.2).

U0 states who may use items and when (R24); U1-U8 state, one item kind each, its
precondition (a shell in the chamber for the items that act on it, R22), its target rule
(settled by R10 and R23) and its effect, and that it changes nothing else. Written from the
rule text through the ``rule_*`` readers and the items' facts of :mod:`.properties`, never
through the model's guards, actions or helpers, nor the rulebook's item table.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from buckshot.spec.rulebook import Item
from buckshot.verification.model.layout import KINDS, SEATS, item_code
from buckshot.verification.proofs.properties import (
    CHAMBER_ITEMS,
    PICK,
    RESCUE_ITEMS,
    TARGETED_ANY,
    TARGETED_OTHER,
    In,
    Property,
    Res,
    S,
    Sem,
    chamber_ejected,
    chamber_inverted,
    chamber_kept,
    fired_action,
    kept,
    pills_hp,
    rescued,
    rule_heal,
    rule_held,
    rule_rage_grant,
    rule_seat_flag,
    rule_seat_value,
    rule_shield_grant,
    rule_top_who,
    turn_in,
    used,
)

Effect = Callable[[Sem, S, In, Res], Any]


def items_used_when_the_rules_allow(m: Sem, s: S, inp: In, r: Res) -> Any:
    """Items are used only by the turn owner in the main phase (waiting for an action, with
    shooting locked or not), who holds one of that kind, and settle at once: no frame is
    pushed (S4.2.2, S4.2.0; R24). A dying player uses only milk tea or expired pills, which
    they hold, on themself (S4.3.1; R10, R24)."""
    b = m.b
    use = fired_action(m, r, "apply_item")
    main = b.and_(turn_in(m, s, "awaiting_action", "shooting_locked"), b.eqn(s.depth, 1))
    held = rule_held(m, s, s.owner, inp.item)
    rescue_kind = b.or_(*(b.eqn(inp.item, k) for k in RESCUE_ITEMS))
    who = rule_top_who(m, s)
    return b.and_(
        b.implies(
            use,
            b.and_(
                main,
                b.lt(inp.item, b.num(KINDS)),
                b.ge(held, b.num(1)),
                b.eq(r.next.depth, s.depth),
            ),
        ),
        b.implies(
            rescued(m, r), b.and_(rescue_kind, b.ge(rule_held(m, s, who, inp.item), b.num(1)))
        ),
    )


def precondition(m: Sem, s: S, inp: In, kind: int) -> Any:
    """What must hold for the owner to use an item of ``kind``: its target rule and its need
    of a shell, as the rule text states them (S3; R10, R22, R23)."""
    b = m.b
    alive = rule_seat_flag(m, s.alive, inp.target)
    terms = []
    if kind in TARGETED_ANY:
        terms.append(alive)
    elif kind in TARGETED_OTHER:
        holds = b.sum_([rule_held(m, s, inp.target, b.num(k)) for k in range(KINDS)])
        terms += [alive, b.ne(inp.target, s.owner), b.ge(holds, b.num(1))]
    if kind in CHAMBER_ITEMS:
        terms.append(b.ge(s.shells, b.num(1)))
    return b.and_(*terms)


def _peek(m: Sem, s: S, inp: In, r: Res) -> Any:
    """The user learns the first shell privately: no other change (S3.1; R22)."""
    return m.b.and_(chamber_kept(m, s, r), kept(m, s, r, "hp", "shield", "rage"))


def _eject(m: Sem, s: S, inp: In, r: Res) -> Any:
    """The first shell leaves, no damage (S3.2; R22)."""
    return m.b.and_(chamber_ejected(m, s, r), kept(m, s, r, "hp", "shield", "rage"))


def _only(m: Sem, s: S, r: Res, field: str, who: Any, value: Any) -> Any:
    """Of the seats' HP, shield blocks and rage charges, only seat ``who``'s ``field``
    changes, to ``value``; the chamber is unchanged."""
    others = [name for name in ("hp", "shield", "rage") if name != field]
    return m.b.and_(
        m.b.eq(rule_seat_value(m, getattr(r.next, field), who), value),
        kept(m, s, r, field, but=who),
        kept(m, s, r, *others),
        chamber_kept(m, s, r),
    )


def _rage(m: Sem, s: S, inp: In, r: Res) -> Any:
    """The user gains rage charges, more for a Mercenary who is not a traitor; they add up
    (S3.3, S2.4; R9)."""
    grant = rule_rage_grant(m, s, s.owner)
    held = rule_seat_value(m, s.rage, s.owner)
    return _only(m, s, r, "rage", s.owner, m.b.add(held, grant))


def _amulet(m: Sem, s: S, inp: In, r: Res) -> Any:
    """The user gains shield blocks, more for a Medic who is not a traitor; they add up (to
    the counter's saturation point) (S3.4, S2.2; R9)."""
    b = m.b
    grant = rule_shield_grant(m, s, s.owner)
    held = rule_seat_value(m, s.shield, s.owner)
    cap = b.num(m.cfg.shield_cap)
    raised = b.add(held, grant)
    return _only(m, s, r, "shield", s.owner, b.ite(b.le(raised, cap), raised, cap))


def _milk_tea(m: Sem, s: S, inp: In, r: Res) -> Any:
    """The user, whoever the decision names, regains ``milk_tea.heal`` HP up to ``hp.max``
    (S3.5; R10, R2)."""
    hp = rule_seat_value(m, s.hp, s.owner)
    return _only(m, s, r, "hp", s.owner, rule_heal(m, hp, m.rules.milk_tea.heal))


def _pills(m: Sem, s: S, inp: In, r: Res) -> Any:
    """The target heals or loses HP by the roll; a Doctor's on themself heal (S3.6, S2.5;
    R10)."""
    return _only(m, s, r, "hp", inp.target, pills_hp(m, s, inp, s.owner, inp.target))


def _pickpocket(m: Sem, s: S, inp: In, r: Res) -> Any:
    """One item the target holds, of the kind picked at random, moves to the user (S3.7;
    R23)."""
    b = m.b
    nxt = r.next
    terms = [
        b.lt(inp.steal, b.num(KINDS)),
        b.ge(rule_held(m, s, inp.target, inp.steal), b.num(1)),
        kept(m, s, r, "hp", "shield", "rage"),
        chamber_kept(m, s, r),
    ]
    for p in range(SEATS):
        owner, target = b.eqn(s.owner, p), b.eqn(inp.target, p)
        for k in range(KINDS):
            before = s.items[p][k]
            picked = b.eqn(inp.steal, k)
            gained = b.ite(picked, b.num(1), b.num(0))
            spent = b.num(1 if k == PICK else 0)
            expected = b.ite(
                owner,
                b.sub(b.add(before, gained), spent),
                b.ite(target, b.sub(before, gained), before),
            )
            terms.append(b.eq(nxt.items[p][k], expected))
    return b.and_(*terms)


def _inverter(m: Sem, s: S, inp: In, r: Res) -> Any:
    """Every shell in the chamber changes type (S3.8; R22)."""
    return m.b.and_(chamber_inverted(m, s, r), kept(m, s, r, "hp", "shield", "rage"))


def item_rule(item: Item, effect: Effect) -> Callable[[Sem, S, In, Res], Any]:
    """The step property of one item kind: when it is used, its precondition held and its
    effect is the rule's."""
    kind = item_code(item)

    def rule(m: Sem, s: S, inp: In, r: Res) -> Any:
        b = m.b
        return b.implies(
            used(m, inp, r, kind), b.and_(precondition(m, s, inp, kind), effect(m, s, inp, r))
        )

    rule.__doc__ = f"When {item.value.replace('_', ' ')} is used: {effect.__doc__}"
    return rule


RULES_ITEMS: tuple[Property, ...] = (
    Property(
        "U0",
        ("S4.2.2", "S4.2.0", "S4.1.4", "S4.4.4", "S4.3.1", "R10", "R24"),
        "Items are used only by the turn owner in the main phase, from their own hand, and "
        "settle at once (nothing pushed); a dying player uses only milk tea or expired pills "
        "they hold.",
        step=items_used_when_the_rules_allow,
    ),
    Property(
        "U1",
        ("S3.1", "R22"),
        "A peeking glass needs a shell in the chamber and changes nothing but the glass spent.",
        step=item_rule(Item.PEEKING_GLASS, _peek),
    ),
    Property(
        "U2",
        ("S3.2", "R22"),
        "An ejecting drink needs a shell; the first shell leaves the chamber (the live count "
        "down if it was live) and no one is hurt.",
        step=item_rule(Item.EJECTING_DRINK, _eject),
    ),
    Property(
        "U3",
        ("S3.3", "S2.4", "R9"),
        "A rage potion adds rage.charges to its user's charges (a Mercenary's "
        "rage.mercenary_charges), and changes nothing else.",
        step=item_rule(Item.RAGE_POTION, _rage),
    ),
    Property(
        "U4",
        ("S3.4", "S2.2", "R9"),
        "An amulet adds shield.blocks to its user's blocks (a Medic's shield.medic_blocks), "
        "and changes nothing else.",
        step=item_rule(Item.AMULET, _amulet),
    ),
    Property(
        "U5",
        ("S3.5", "R2", "R10"),
        "Milk tea heals its user, whoever the decision names, by milk_tea.heal up to hp.max, "
        "and changes nothing else.",
        step=item_rule(Item.MILK_TEA, _milk_tea),
    ),
    Property(
        "U6",
        ("S3.6", "S2.5", "R2", "R10"),
        "Expired pills go to a living target, who heals pills.heal on the roll and loses "
        "pills.loss otherwise (a Doctor on themself heals pills.doctor_heal); nothing else "
        "changes.",
        step=item_rule(Item.EXPIRED_PILLS, _pills),
    ),
    Property(
        "U7",
        ("S3.7", "R23"),
        "A pickpocket targets another living player who holds an item; one item of a kind "
        "they hold moves to the user; nothing else changes.",
        step=item_rule(Item.PICKPOCKET, _pickpocket),
    ),
    Property(
        "U8",
        ("S3.8", "R22"),
        "An inverter needs a shell and flips every shell in the chamber: as many shells, the "
        "live and blank counts swapped, the first shell's type flipped.",
        step=item_rule(Item.INVERTER, _inverter),
    ),
)
"""The items' properties, in ID order."""
