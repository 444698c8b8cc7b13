"""What a step did, and what the rules say an effect is, shared by the rule properties.

Which transition fired is read from the charts (spec data) through the step's flags; which
item was used and on whom from the decision; what healing, damage, draws and the Gambler's
luck come to from the rule text and the ruleset's numbers. Nothing here calls the model's
guards, actions or helpers.
"""

from __future__ import annotations

from typing import Any

from buckshot.spec.rulebook import Item, Role
from buckshot.verification.model.layout import KINDS, SEATS, item_code
from buckshot.verification.proofs.properties import (
    In,
    Res,
    S,
    Sem,
    fired,
    fired_action,
    rule_has_skill,
    rule_heal,
    rule_seat_value,
)

PEEK = item_code(Item.PEEKING_GLASS)
EJECT = item_code(Item.EJECTING_DRINK)
RAGE = item_code(Item.RAGE_POTION)
AMULET = item_code(Item.AMULET)
MILK = item_code(Item.MILK_TEA)
PILLS = item_code(Item.EXPIRED_PILLS)
PICK = item_code(Item.PICKPOCKET)
INVERT = item_code(Item.INVERTER)

# The items' facts, stated from the rule text, never read from the rulebook's item table
# (which the model and the engine read: a misreading there must not move the properties too).
CHAMBER_ITEMS = (PEEK, EJECT, INVERT)
"""The items that act on the chamber, usable only while it holds a shell (S3.1, S3.2, S3.8;
R22)."""
RESCUE_ITEMS = (MILK, PILLS)
"""The items a dying player may use on themself (S4.3.1, S3.5, S3.6; R10)."""
TARGETED_ANY = (PILLS,)
"""The items given to any living player, the user included (S3.6; R10)."""
TARGETED_OTHER = (PICK,)
"""The items aimed at another living player who holds an item (S3.7; R23); every item not
named here or in :data:`TARGETED_ANY` acts on its user and takes no target."""

GAME_OVER_PHASE = 6
"""The phase number given to ``game_over`` (after the five phases of S4.0)."""
TURN_PHASES = {
    "reloading": 1,
    "drawing": 1,
    "previewing": 1,
    "awaiting_action": 2,
    "awaiting_shot_window": 2,
    "settling": 2,
    "awaiting_dying": 2,
    "awaiting_conversion": 2,
    "shooting_locked": 2,
    "tallying": 3,
    "checking_cap": 4,
    "awaiting_discard": 4,
    "clearing": 5,
    "game_over": GAME_OVER_PHASE,
}
"""Each state of the turn, by its name, with the phase of S4.0 it belongs to, stated from the
rule text, never read from the chart: phase 1 loads, draws and previews (S4.1.1-S4.1.3);
phase 2 takes actions, a shot's window and its settlement (S4.2), with dying and the
conversion choice as soon as they are due (S4.3.1, S4.3.2 settled at once, R5); phase 3
tallies (S4.3.0); phase 4 checks the cap and discards (S4.4); phase 5 clears (S4.5)."""


def phase_states(number: int) -> tuple[str, ...]:
    """The turn's states in phase ``number`` of S4.0."""
    return tuple(state for state, phase in TURN_PHASES.items() if phase == number)


NO_LOAD_EDGE = "turn:reloading:check_chamber:1"


def used(m: Sem, inp: In, r: Res, kind: int) -> Any:
    """The turn owner used an item of ``kind`` in this step."""
    return m.b.and_(fired_action(m, r, "apply_item"), m.b.eqn(inp.item, kind))


def settled(m: Sem, r: Res) -> Any:
    """The step settled a shot (its shell fired with its final type)."""
    return fired_action(m, r, "settle_shot")


def rescued(m: Sem, r: Res) -> Any:
    """A dying player used a rescue item in this step."""
    return fired_action(m, r, "apply_rescue_item")


def eliminated(m: Sem, r: Res) -> Any:
    """The step eliminated the dying player."""
    return fired_action(m, r, "eliminate_dying")


def loaded(m: Sem, r: Res) -> Any:
    """The step loaded the chamber."""
    return fired(m, r, "turn:reloading:check_chamber:0")


def drew(m: Sem, r: Res) -> Any:
    """The step was the turn owner's draw of phase 1."""
    return fired_action(m, r, "draw_turn_items")


def flipped(m: Sem, r: Res) -> Any:
    """A Magician flipped the shot's shell in this step."""
    return fired_action(m, r, "flip_shot_shell")


def discarded(m: Sem, r: Res) -> Any:
    """The turn owner discarded an item in this step."""
    return fired_action(m, r, "discard_one")


def turn_ended(m: Sem, r: Res) -> Any:
    """The step ended the turn (phase 5)."""
    return fired_action(m, r, "clear_turn_effects")


def drawn(m: Sem, inp: In, count: int, kind: int) -> Any:
    """How many of the step's first ``count`` random items are of ``kind`` (R15)."""
    b = m.b
    return b.sum_([b.ite(b.eqn(inp.draws[j], kind), b.num(1), b.num(0)) for j in range(count)])


def lucky(m: Sem, s: S) -> Any:
    """The shot in flight is a Gambler's (not a traitor's) at themself whose final type is
    blank: the Lucky Streak's roll is due when it settles (S2.1; R20)."""
    b = m.b
    return b.and_(
        b.eq(s.shot_target, s.shot_shooter),
        b.not_(s.shot_live),
        rule_has_skill(m, s, s.shot_shooter, Role.GAMBLER),
    )


def doctor_on_self(m: Sem, s: S, user: Any, target: Any) -> Any:
    """A Doctor who is not a traitor gives expired pills to themself (S2.5; R10)."""
    b = m.b
    return b.and_(b.eq(user, target), rule_has_skill(m, s, user, Role.DOCTOR))


def pills_hp(m: Sem, s: S, inp: In, user: Any, target: Any) -> Any:
    """The target's HP after ``user`` gives them expired pills (S3.6, S2.5; R10, R2): a
    Doctor on themself heals ``pills.doctor_heal``; otherwise the roll heals ``pills.heal``
    (the ``pill_heal`` outcome) or takes ``pills.loss``."""
    b = m.b
    r = m.rules
    hp = rule_seat_value(m, s.hp, target)
    loss = b.sat_sub(hp, b.num(r.pills.loss))
    rolled = b.ite(inp.pill_heal, rule_heal(m, hp, r.pills.heal), loss)
    return b.ite(doctor_on_self(m, s, user, target), rule_heal(m, hp, r.pills.doctor_heal), rolled)


def rescue_hp(m: Sem, s: S, inp: In, who: Any) -> Any:
    """The dying player's HP after they use the decision's item on themself (S4.3.1, S3.5,
    S3.6, S2.5; R10): milk tea heals ``milk_tea.heal``, expired pills as :func:`pills_hp`."""
    b = m.b
    hp = rule_seat_value(m, s.hp, who)
    milk = rule_heal(m, hp, m.rules.milk_tea.heal)
    pills = pills_hp(m, s, inp, who, who)
    return b.ite(b.eqn(inp.item, MILK), milk, b.ite(b.eqn(inp.item, PILLS), pills, hp))


def kept(m: Sem, s: S, r: Res, *names: str, but: Any = None) -> Any:
    """The per-seat fields ``names`` are unchanged for every seat (but the seat ``but``)."""
    b = m.b
    terms = []
    for name in names:
        before, after = getattr(s, name), getattr(r.next, name)
        for p in range(SEATS):
            keep = b.eq(after[p], before[p])
            terms.append(keep if but is None else b.implies(b.ne(but, b.num(p)), keep))
    return b.and_(*terms)


def items_kept(m: Sem, s: S, r: Res) -> Any:
    """Every seat's count of every item kind is unchanged."""
    b = m.b
    cells = [(p, k) for p in range(SEATS) for k in range(KINDS)]
    return b.and_(*(b.eq(r.next.items[p][k], s.items[p][k]) for p, k in cells))


def chamber_kept(m: Sem, s: S, r: Res) -> Any:
    """The chamber is unchanged."""
    b = m.b
    nxt = r.next
    return b.and_(
        b.eq(nxt.shells, s.shells), b.eq(nxt.live, s.live), b.eq(nxt.head_live, s.head_live)
    )


def chamber_ejected(m: Sem, s: S, r: Res) -> Any:
    """The chamber's first shell left it: one shell fewer, one live fewer if it was live
    (S4.2.1c, S3.2; R22)."""
    b = m.b
    nxt = r.next
    return b.and_(
        b.eq(nxt.shells, b.subn(s.shells, 1)),
        b.eq(nxt.live, b.ite(s.head_live, b.subn(s.live, 1), s.live)),
    )


def chamber_inverted(m: Sem, s: S, r: Res) -> Any:
    """Every shell changed type: as many shells, live and blank counts swapped, the first
    shell's type flipped (S3.8; R22)."""
    b = m.b
    nxt = r.next
    return b.and_(
        b.eq(nxt.shells, s.shells),
        b.eq(nxt.live, b.sub(s.shells, s.live)),
        b.eq(nxt.head_live, b.not_(s.head_live)),
    )
