"""Every counter's update as a property: HP, shield blocks, rage charges, kills, items, shells.

Each is a frame condition written from the rules: for every seat (and item kind), the value
after a step is what the rule of the transition that fired makes of it, and every other step
leaves it as it was. Stated on the state's fields and the ruleset's numbers through the
``rule_*`` readers (:mod:`.properties`), never through the model's guards, actions or
helpers.
"""

from __future__ import annotations

from typing import Any

from buckshot.verification.model.layout import KINDS, NONE, SEATS
from buckshot.verification.proofs.properties import (
    AMULET,
    EJECT,
    INVERT,
    MILK,
    NO_LOAD_EDGE,
    PICK,
    PILLS,
    RAGE,
    In,
    Property,
    Res,
    S,
    Sem,
    cases,
    chamber_ejected,
    chamber_inverted,
    chamber_kept,
    discarded,
    drawn,
    drew,
    eliminated,
    fired,
    fired_action,
    flipped,
    loaded,
    lucky,
    pills_hp,
    rescue_hp,
    rescued,
    rule_heal,
    rule_living,
    rule_rage_grant,
    rule_seat_value,
    rule_shield_grant,
    rule_top_cursor,
    rule_top_who,
    settled,
    turn_ended,
    used,
)

# --- C1: HP ----------------------------------------------------------------------------------


def shot_damage(m: Sem, s: S) -> Any:
    """The damage of the shot in flight if live (R3, R9): ``shot.live_damage``, plus
    ``rage.bonus_damage`` when its shooter holds a rage charge."""
    b = m.b
    r = m.rules
    rage = rule_seat_value(m, s.rage, s.shot_shooter)
    boosted = r.shot.live_damage + r.rage.bonus_damage
    return b.ite(b.gt(rage, b.num(0)), b.num(boosted), b.num(r.shot.live_damage))


def hp_changes_as_the_rules_say(m: Sem, s: S, inp: In, r: Res) -> Any:
    """Each seat's HP after a step: a live shot not absorbed by a block takes its damage from
    the target (S4.2.1c; R3, R9); milk tea heals its user (S3.5; R10); expired pills heal or
    hurt their target (S3.6, S2.5; R10); a rescue item heals the dying player (S4.3.1; R10);
    healing is capped at ``hp.max`` and HP floored at 0 (R2); nothing else changes HP."""
    b = m.b
    nxt = r.next
    settle = settled(m, r)
    milk = used(m, inp, r, MILK)
    pills = used(m, inp, r, PILLS)
    rescue = rescued(m, r)
    who = rule_top_who(m, s)
    damage = shot_damage(m, s)
    terms = []
    for p in range(SEATS):
        hp = s.hp[p]
        hit = b.and_(settle, b.eqn(s.shot_target, p), s.shot_live, b.eqn(s.shield[p], 0))
        expected = cases(
            m,
            hp,
            (hit, b.sat_sub(hp, damage)),
            (b.and_(milk, b.eqn(s.owner, p)), rule_heal(m, hp, m.rules.milk_tea.heal)),
            (b.and_(pills, b.eqn(inp.target, p)), pills_hp(m, s, inp, s.owner, b.num(p))),
            (b.and_(rescue, b.eqn(who, p)), rescue_hp(m, s, inp, b.num(p))),
        )
        terms.append(b.eq(nxt.hp[p], expected))
    return b.and_(*terms)


# --- C2: shield blocks -----------------------------------------------------------------------


def shields_change_as_the_rules_say(m: Sem, s: S, inp: In, r: Res) -> Any:
    """Each seat's shield blocks after a step: an amulet adds ``shield.blocks`` to its user,
    ``shield.medic_blocks`` for a Medic who is not a traitor (S3.4, S2.2; R9); a live shot at
    a player with a block uses one (S3.4; R9); elimination takes them all (R13); nothing
    else, turn end included, changes them. (At the counter's saturation point a used block
    may leave it there: the encoding's over-approximation, see ABSTRACTIONS.md.)"""
    b = m.b
    nxt = r.next
    settle = settled(m, r)
    amulet = used(m, inp, r, AMULET)
    gone = eliminated(m, r)
    who = rule_top_who(m, s)
    cap = b.num(m.cfg.shield_cap)
    terms = []
    for p in range(SEATS):
        shield = s.shield[p]
        absorbed = b.and_(settle, b.eqn(s.shot_target, p), s.shot_live, b.gt(shield, b.num(0)))
        spent = b.ite(b.and_(b.eq(shield, cap), inp.shield_keep), cap, b.subn(shield, 1))
        grant = rule_shield_grant(m, s, b.num(p))
        raised = b.add(shield, grant)
        raised = b.ite(b.le(raised, cap), raised, cap)
        expected = cases(
            m,
            shield,
            (b.and_(gone, b.eqn(who, p)), b.num(0)),
            (absorbed, spent),
            (b.and_(amulet, b.eqn(s.owner, p)), raised),
        )
        terms.append(b.eq(nxt.shield[p], expected))
    return b.and_(*terms)


# --- C3: rage charges ------------------------------------------------------------------------


def rage_changes_as_the_rules_say(m: Sem, s: S, inp: In, r: Res) -> Any:
    """Each seat's rage charges after a step: a rage potion adds ``rage.charges`` to its
    user, ``rage.mercenary_charges`` for a Mercenary who is not a traitor (S3.3, S2.4; R9);
    every shot its holder fires uses one, live or blank (S3.3, S2.4); turn end (S4.5.1) and
    elimination (R13) take them all; nothing else changes them."""
    b = m.b
    nxt = r.next
    settle = settled(m, r)
    potion = used(m, inp, r, RAGE)
    gone = eliminated(m, r)
    end = turn_ended(m, r)
    who = rule_top_who(m, s)
    terms = []
    for p in range(SEATS):
        rage = s.rage[p]
        grant = rule_rage_grant(m, s, b.num(p))
        fired_one = b.ite(b.gt(rage, b.num(0)), b.subn(rage, 1), rage)
        expected = cases(
            m,
            rage,
            (b.or_(end, b.and_(gone, b.eqn(who, p))), b.num(0)),
            (b.and_(settle, b.eqn(s.shot_shooter, p)), fired_one),
            (b.and_(potion, b.eqn(s.owner, p)), b.add(rage, grant)),
        )
        terms.append(b.eq(nxt.rage[p], expected))
    return b.and_(*terms)


# --- C4: kills -------------------------------------------------------------------------------


def kills_are_credited_as_the_rules_say(m: Sem, s: S, inp: In, r: Res) -> Any:
    """A kill is credited only when a player is eliminated, one to the player whose action
    last lowered their HP, never to the eliminated player themself (R7); nothing else changes
    kills. That damage source is the acting player of each step that lowers someone's HP (the
    shooter, the item's user, the dying player using a rescue item) and is cleared at turn
    end."""
    b = m.b
    nxt = r.next
    gone = eliminated(m, r)
    who = rule_top_who(m, s)
    terms = []
    for p in range(SEATS):
        credited = b.and_(gone, b.eqn(s.hit_src, p), b.ne(who, b.num(p)))
        terms.append(b.eq(nxt.kills[p], b.ite(credited, b.addn(s.kills[p], 1), s.kills[p])))
    lowered = b.or_(*(b.lt(nxt.hp[p], s.hp[p]) for p in range(SEATS)))
    actor = b.ite(settled(m, r), s.shot_shooter, b.ite(rescued(m, r), who, s.owner))
    source = b.ite(turn_ended(m, r), b.num(NONE), b.ite(lowered, actor, s.hit_src))
    terms.append(b.eq(nxt.hit_src, source))
    return b.and_(*terms)


# --- C5: items held --------------------------------------------------------------------------


def items_change_as_the_rules_say(m: Sem, s: S, inp: In, r: Res) -> Any:
    """Each seat's count of each item kind after a step: the owner's draw adds
    ``items.per_turn`` random items (S4.1.1; R15); a Gambler's won roll adds
    ``gambler.bonus_items`` (S2.1; R20); an item use spends it, and a pickpocket moves the
    picked item from the target to the user (S4.2.2, S3.7; R23); a Magician's flip spends the
    items paid (S2.6; R8); a rescue spends the item used (S4.3.1); a discard removes the item
    chosen (S4.4.3; R12); elimination takes them all (R13); nothing else changes them."""
    b = m.b
    nxt = r.next
    rules = m.rules
    draw = drew(m, r)
    settle = settled(m, r)
    won = b.and_(settle, lucky(m, s), inp.gamble_win)
    use = fired_action(m, r, "apply_item")
    pick = used(m, inp, r, PICK)
    flip = flipped(m, r)
    rescue = rescued(m, r)
    discard = discarded(m, r)
    gone = eliminated(m, r)
    who = rule_top_who(m, s)
    cursor = rule_top_cursor(m, s)
    terms = []
    for p in range(SEATS):
        owner = b.eqn(s.owner, p)
        for k in range(KINDS):
            count = s.items[p][k]
            spent = b.ite(b.eqn(inp.item, k), b.num(1), b.num(0))
            stolen = b.ite(b.eqn(inp.steal, k), b.num(1), b.num(0))
            owner_after_use = b.sub(b.add(count, b.ite(pick, stolen, b.num(0))), spent)
            spends = b.or_(b.and_(rescue, b.eqn(who, p)), b.and_(discard, owner))
            expected = cases(
                m,
                count,
                (b.and_(gone, b.eqn(who, p)), b.num(0)),
                (b.and_(draw, owner), b.add(count, drawn(m, inp, rules.items.per_turn, k))),
                (
                    b.and_(won, b.eqn(s.shot_shooter, p)),
                    b.add(count, drawn(m, inp, rules.gambler.bonus_items, k)),
                ),
                (b.and_(use, owner), owner_after_use),
                (b.and_(pick, b.eqn(inp.target, p)), b.sub(count, stolen)),
                (b.and_(flip, b.eqn(cursor, p)), b.sub(count, inp.pay[k])),
                (spends, b.sub(count, spent)),
            )
            terms.append(b.eq(nxt.items[p][k], expected))
    return b.and_(*terms)


# --- C6, C7: the chamber ---------------------------------------------------------------------


def chamber_loads_as_the_rules_say(m: Sem, s: S, inp: In, r: Res) -> Any:
    """The chamber is loaded only at turn start and only when it is empty, with one of the
    options of ``shells.loads`` for the number of living players; a loaded chamber is kept as
    it is; no other step adds a shell (S4.1.3; R1)."""
    b = m.b
    nxt = r.next
    living = rule_living(m, s)
    options = []
    for table in m.rules.shells.loads:
        for load in table.options:
            options.append(
                b.and_(
                    b.eqn(living, table.players),
                    b.eqn(nxt.shells, load.total),
                    b.eqn(nxt.live, load.live),
                )
            )
    load = loaded(m, r)
    return b.and_(
        b.implies(load, b.and_(b.eqn(s.shells, 0), b.or_(*options))),
        b.implies(fired(m, r, NO_LOAD_EDGE), b.gt(s.shells, b.num(0))),
        b.implies(b.not_(load), b.le(nxt.shells, s.shells)),
    )


def chamber_changes_as_the_rules_say(m: Sem, s: S, inp: In, r: Res) -> Any:
    """Between loads, the chamber changes only so: a settled shot and an ejecting drink take
    its first shell out (one shell fewer, one live fewer if it was live; S4.2.1c, S3.2; R3,
    R22); an inverter flips every shell (as many shells, live and blank counts swapped, the
    first shell's type flipped; S3.8; R22); every other step but a load keeps it."""
    b = m.b
    out = b.or_(settled(m, r), used(m, inp, r, EJECT))
    invert = used(m, inp, r, INVERT)
    return b.and_(
        b.implies(out, chamber_ejected(m, s, r)),
        b.implies(invert, chamber_inverted(m, s, r)),
        b.implies(b.not_(b.or_(out, invert, loaded(m, r))), chamber_kept(m, s, r)),
    )


RULES_COUNTERS: tuple[Property, ...] = (
    Property(
        "C1",
        ("S4.2.1c", "S3.5", "S3.6", "S2.5", "S4.3.1", "R2", "R3", "R9", "R10"),
        "HP changes only by a live shot not absorbed (its damage, plus the rage bonus), milk "
        "tea on its user, expired pills on their target (a Doctor on themself heals, else the "
        "roll) and a dying player's rescue item; capped at hp.max, floored at 0.",
        step=hp_changes_as_the_rules_say,
    ),
    Property(
        "C2",
        ("S3.4", "S2.2", "R9", "R13"),
        "Shield blocks change only by an amulet (blocks, a Medic's medic_blocks), a live shot "
        "at their holder (one used) and elimination (all gone).",
        step=shields_change_as_the_rules_say,
    ),
    Property(
        "C3",
        ("S3.3", "S2.4", "S4.5.1", "R9", "R13"),
        "Rage charges change only by a rage potion (charges, a Mercenary's "
        "mercenary_charges), each shot its holder fires, live or blank (one used), turn end "
        "and elimination (all gone).",
        step=rage_changes_as_the_rules_say,
    ),
    Property(
        "C4",
        ("S5.1", "R7"),
        "A kill is credited only at an elimination, to the player whose action last lowered "
        "the eliminated player's HP, never to that player themself; nothing else changes "
        "kills.",
        step=kills_are_credited_as_the_rules_say,
    ),
    Property(
        "C5",
        (
            "S4.1.1",
            "S4.2.2",
            "S3.7",
            "S2.1",
            "S2.6",
            "S4.3.1",
            "S4.4.3",
            "R8",
            "R12",
            "R13",
            "R15",
            "R20",
            "R23",
        ),
        "Items change only by the owner's draw, a Gambler's won roll, an item use (a "
        "pickpocket moves the picked item), a Magician's payment, a rescue, a discard and "
        "elimination (all gone).",
        step=items_change_as_the_rules_say,
    ),
    Property(
        "C6",
        ("S4.1.3", "R1"),
        "The chamber is loaded only at turn start when empty, with an option of shells.loads "
        "for the living players; nothing else adds a shell.",
        step=chamber_loads_as_the_rules_say,
    ),
    Property(
        "C7",
        ("S4.2.1c", "S3.2", "S3.8", "R3", "R22"),
        "Between loads a settled shot and an ejecting drink take the first shell out, an "
        "inverter flips every shell, and nothing else changes the chamber.",
        step=chamber_changes_as_the_rules_say,
    ),
)
"""The counters' properties, in ID order."""
