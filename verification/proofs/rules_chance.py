"""Which inputs a step may read: the rolls the rules make at that point, and no others.

A step's input carries a decision (the transition, its target, its item, a Magician's
payment) and every chance outcome the model might need (a load, the new first shell, items
drawn, the pill roll, the Gambler's roll, a pickpocket's pick, the shield counter's
saturation). The rules say which of them each step reads: a roll that the rules do not make
at that point must not count, even when nothing uses it.

These two properties compare a step with the same step from the same state under another
input, run on the model under test (a hyperproperty over two runs; the rules themselves, where
each roll is made, are stated from the rule text):

* Q1: changing any input the rules do not give this step (a decision parameter the
  decision does not carry, a roll not made here) to another value changes nothing: the step
  stays legal, with the same next state and the same skill use.
* Q2: every outcome the rules allow for a roll made here is possible: with any other allowed
  value the step stays legal.

In a proof, each branch's second run is that branch's transition alone
(:meth:`~buckshot.verification.model.semantics.Semantics.transitions`), under the branch's
condition; on plain values it is the whole step.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from typing import Any

from buckshot.spec.charts import Trigger
from buckshot.spec.rulebook import FrameKind
from buckshot.verification.model.layout import KINDS
from buckshot.verification.model.state import Input, flatten, leaves, unflatten_input
from buckshot.verification.proofs.properties import (
    EJECT,
    PICK,
    PILLS,
    TARGETED_ANY,
    TARGETED_OTHER,
    In,
    Property,
    Res,
    S,
    Sem,
    doctor_on_self,
    drew,
    fired_action,
    fired_event,
    loaded,
    lucky,
    rescued,
    rule_held,
    rule_living,
    rule_next,
    rule_seat_value,
    rule_top_who,
    settled,
    used,
)

TARGETED = TARGETED_ANY + TARGETED_OTHER
"""The items whose use names a target (R10, R23)."""


def rerun(m: Sem, s: S, inp: In, r: Res) -> Res:
    """The step from ``s`` under ``inp`` by the transition that ``r`` took: the whole step on
    plain values (or when ``r`` names no single transition), that transition alone on a
    proof's branch."""
    b = m.b
    if b.concrete:
        return m.step(s, inp)
    taken = [code for code, flag in enumerate(r.fired) if not b.known_false(flag)]
    if len(taken) != 1:
        return m.step(s, inp)
    ((_, result),) = m.transitions(s, inp, only=frozenset(taken))
    return result


def _decided(m: Sem, r: Res) -> Any:
    """A player's decision was taken in this step (the input's edge counts)."""
    b = m.b
    return b.or_(*(r.fired[e.code] for e in m.layout.edges if e.edge.trigger is Trigger.DECISION))


def _pills_rolled(m: Sem, s: S, inp: In, r: Res) -> Any:
    """The pill roll is made: expired pills used in the main phase or by a dying player,
    except by a Doctor who is not a traitor on themself (S3.6, S2.5; R10)."""
    b = m.b
    who = rule_top_who(m, s)
    return b.or_(
        b.and_(used(m, inp, r, PILLS), b.not_(doctor_on_self(m, s, s.owner, inp.target))),
        b.and_(rescued(m, r), b.eqn(inp.item, PILLS), b.not_(doctor_on_self(m, s, who, who))),
    )


def _head_drawn(m: Sem, inp: In, r: Res) -> Any:
    """A new first shell is exposed (the order is shuffled and hidden, R1): at a load, or
    when a shell leaves the chamber (a settled shot, an ejecting drink)."""
    return m.b.or_(loaded(m, r), settled(m, r), used(m, inp, r, EJECT))


def _won(m: Sem, s: S, inp: In, r: Res) -> Any:
    """The Gambler's roll is made and won in this step (S2.1; R20)."""
    return m.b.and_(settled(m, r), lucky(m, s), inp.gamble_win)


def _given(m: Sem, s: S, inp: In, r: Res) -> dict[str, Any]:
    """For each scalar input (by field, with ``[j]`` for the list fields), whether the rules
    give it to this step."""
    b = m.b
    cfg = m.cfg
    rules = m.rules
    edge = _decided(m, r)
    shoot = fired_action(m, r, "declare_shot")
    use = fired_action(m, r, "apply_item")
    targeted = b.or_(*(b.eqn(inp.item, k) for k in TARGETED))
    item = b.or_(
        use,
        rescued(m, r),
        fired_event(m, r, FrameKind.DISCARD, "choosing", "discard_item"),
    )
    pay = fired_event(m, r, FrameKind.SHOT_WINDOW, "asking", "flip_shell")
    draw, won = drew(m, r), _won(m, s, inp, r)
    target_shield = rule_seat_value(m, s.shield, s.shot_target)
    given: dict[str, Any] = {
        "edge": edge,
        "target": b.or_(shoot, b.and_(use, targeted)),
        "item": item,
        "load": loaded(m, r),
        "head_live": _head_drawn(m, inp, r),
        "pill_heal": _pills_rolled(m, s, inp, r),
        "gamble_win": b.and_(settled(m, r), lucky(m, s)),
        "steal": used(m, inp, r, PICK),
        "shield_keep": b.and_(settled(m, r), s.shot_live, b.eqn(target_shield, cfg.shield_cap)),
    }
    for k in range(KINDS):
        given[f"pay[{k}]"] = pay
    for j in range(cfg.draws):
        at_draw = b.and_(draw, b.boolean(j < rules.items.per_turn))
        at_bonus = b.and_(won, b.boolean(j < rules.gambler.bonus_items))
        given[f"draws[{j}]"] = b.or_(at_draw, at_bonus)
    return given


def _other(m: Sem, inp: In, given: dict[str, Any], value: int) -> In:
    """``inp`` with every input the step is not given set to ``value`` (false for 0)."""
    b = m.b
    values = [
        b.ite(given[leaf.label], old, b.boolean(bool(value)) if leaf.boolean else b.num(value))
        for leaf, old in zip(leaves(m.cfg, Input), flatten(m.cfg, inp), strict=True)
    ]
    return unflatten_input(m.cfg, values)


def _same_step(m: Sem, r: Res, other: Res) -> Any:
    """The two results are both legal steps to the same state with the same skill use."""
    b = m.b
    pairs = zip(flatten(m.cfg, r.next), flatten(m.cfg, other.next), strict=True)
    return b.and_(
        other.ok,
        *(b.eq(x, y) for x, y in pairs),
        b.eq(r.skill_by, other.skill_by),
    )


def no_roll_where_the_rules_roll_none(m: Sem, s: S, inp: In, r: Res) -> Any:
    """A step reads only the inputs the rules give it: its decision's own parameters (the
    target of a shot or of an item that takes one, the item used or discarded, a Magician's
    payment) and the rolls made at that point (a load and its first shell, R1; a new first
    shell when one leaves, R1; the turn's draw, R15; the pill roll, S3.6, S2.5, R10; the
    Gambler's roll and bonus draw, S2.1, R20; a pickpocket's pick, R23). Set to 0 or to 1,
    every other input leaves the step legal, with the same next state and skill use."""
    given = _given(m, s, inp, r)
    return m.b.and_(
        *(_same_step(m, r, rerun(m, s, _other(m, inp, given, value), r)) for value in (0, 1))
    )


def _open(chance: Fraction) -> bool:
    """A roll with this chance can go either way."""
    return 0 < chance < 1


def every_allowed_outcome_is_possible(m: Sem, s: S, inp: In, r: Res) -> Any:
    """For a roll the rules make at this step, every outcome they allow keeps the step legal:
    both pill outcomes and both Gambler's outcomes when their chance is neither 0 nor 1
    (S3.6, S2.1); either type for a new first shell while both types are left (R1); every
    option of the load table for the living players (R1); every item kind with a positive
    weight for each draw (R15); every kind the pickpocket's target holds (R23).

    Where the outcomes allowed are many, one second run suffices: the step with the next
    allowed outcome in cyclic order (each draw's kind on its own) stays legal. If the model
    allowed only some of them, one allowed outcome would have a next one it refuses."""
    b = m.b
    rules = m.rules
    nxt = r.next
    terms: list[Any] = []

    def possible(when: Any, other: In) -> None:
        if not b.known_false(when):
            terms.append(b.implies(when, rerun(m, s, other, r).ok))

    if _open(rules.pills.heal_chance):
        # the roll is made only for expired pills, so the second run names them
        other = replace(inp, item=b.num(PILLS), pill_heal=b.not_(inp.pill_heal))
        possible(_pills_rolled(m, s, inp, r), other)
    weights = [b.boolean(w > 0) for w in m.cfg.weights]
    first = next(k for k, w in enumerate(m.cfg.weights) if w > 0)
    if _open(rules.gambler.bonus_chance):
        any_kind = tuple(b.num(first) for _ in inp.draws)
        flipped = replace(inp, gamble_win=b.not_(inp.gamble_win), draws=any_kind)
        possible(b.and_(settled(m, r), lucky(m, s)), flipped)
    both_left = b.and_(b.ge(nxt.live, b.num(1)), b.lt(nxt.live, nxt.shells))
    head = b.not_(inp.head_live)
    possible(b.and_(b.or_(loaded(m, r), settled(m, r)), both_left), replace(inp, head_live=head))
    ejected = replace(inp, item=b.num(EJECT), head_live=head)
    possible(b.and_(used(m, inp, r, EJECT), both_left), ejected)
    living = rule_living(m, s)
    load = loaded(m, r)
    for table in rules.shells.loads:
        options = [b.true() for _ in table.options]
        cycled = replace(inp, load=rule_next(m, inp.load, options), head_live=b.true())
        possible(b.and_(load, b.eqn(living, table.players)), cycled)
    drawing = b.or_(drew(m, r), _won(m, s, inp, r))
    for j in range(m.cfg.draws):
        draws = list(inp.draws)
        draws[j] = rule_next(m, inp.draws[j], weights)
        possible(drawing, replace(inp, draws=tuple(draws)))
    held = [b.ge(rule_held(m, s, inp.target, b.num(k)), b.num(1)) for k in range(KINDS)]
    picked = rule_next(m, inp.steal, held)
    possible(used(m, inp, r, PICK), replace(inp, item=b.num(PICK), steal=picked))
    return b.and_(*terms)


RULES_CHANCE: tuple[Property, ...] = (
    Property(
        "Q1",
        ("S3.6", "S2.1", "S2.5", "S3.7", "S4.1.1", "R1", "R10", "R15", "R20", "R23"),
        "A step reads only its decision's own parameters and the rolls the rules make at that "
        "point; any other input, set to 0 or 1, leaves it legal with the same next state.",
        step=no_roll_where_the_rules_roll_none,
    ),
    Property(
        "Q2",
        ("S3.6", "S2.1", "S3.7", "S4.1.1", "S4.1.3", "R1", "R15", "R23"),
        "Every outcome the rules allow for a roll made at a step keeps it legal: both pill "
        "and Gambler's outcomes, either first shell while both types are left, every load "
        "option, every drawable kind, every kind the pickpocket's target holds.",
        step=every_allowed_outcome_is_possible,
    ),
)
"""The chance properties, in ID order."""
