"""Each item's effect on the model state, one method per item kind, in a table checked at import.

An item kind the rulebook names (:data:`buckshot.spec.rulebook.ITEMS`) without an effect
here, or an effect for a kind it does not name, fails at import. Each effect takes the state
after the item was spent (``t``), the state before the use (``s``), the decision, the step's
effects and the condition ``when`` that this kind is the one used; it changes only what that
item changes, each field as an if-then-else on ``when``, so that the effects of all kinds
applied in a row give the one that was used. Below them are the pieces the item effects
share with the other actions (chance rolls, the chamber's head, HP changes, medicine).
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any, TypeVar

from buckshot.spec.rulebook import ITEMS, Item, Role
from buckshot.verification.model.backend import B, I
from buckshot.verification.model.guards import Guards
from buckshot.verification.model.helpers import Effects
from buckshot.verification.model.layout import KINDS, NONE, item_code, role_code
from buckshot.verification.model.state import Input, State

PILLS = item_code(Item.EXPIRED_PILLS)

ItemEffect = Callable[..., State[Any, Any]]
"""``effect(model, t, s, inp, fx, when)``: the state with one item kind's effect applied."""

ITEM_EFFECTS: dict[Item, ItemEffect] = {}
"""Each item kind's effect, in the order of :class:`~buckshot.spec.rulebook.Item`."""

F = TypeVar("F", bound=ItemEffect)


def effect_of(item: Item) -> Callable[[F], F]:
    """Register the decorated method as the effect of ``item`` (once)."""

    def register(fn: F) -> F:
        if item in ITEM_EFFECTS:
            raise TypeError(f"the model gives {item.value} two effects")
        ITEM_EFFECTS[item] = fn
        return fn

    return register


class ItemEffects(Guards[I, B]):
    """The item kinds' effects and the pieces of effects the actions share."""

    # --- the items (S3) --------------------------------------------------------------------

    @effect_of(Item.PEEKING_GLASS)
    def peek(
        self, t: State[I, B], s: State[I, B], inp: Input[I, B], fx: Effects[I, B], when: B
    ) -> State[I, B]:
        """Peeking glass (S3.1; R22): the user learns the head shell, no state changes."""
        return t

    @effect_of(Item.EJECTING_DRINK)
    def eject(
        self, t: State[I, B], s: State[I, B], inp: Input[I, B], fx: Effects[I, B], when: B
    ) -> State[I, B]:
        """Ejecting drink (S3.2; R22): the head shell leaves the chamber unfired."""
        b = self.b
        ejected = self._remove_head(t, inp, fx, when)
        return t.set(
            shells=b.ite(when, ejected.shells, t.shells),
            live=b.ite(when, ejected.live, t.live),
            head_live=b.ite(when, inp.head_live, t.head_live),
        )

    @effect_of(Item.RAGE_POTION)
    def rage(
        self, t: State[I, B], s: State[I, B], inp: Input[I, B], fx: Effects[I, B], when: B
    ) -> State[I, B]:
        """Rage potion (S3.3, S2.4; R9): the user gains rage charges, more for a Mercenary."""
        b = self.b
        r = self.rules
        owner = s.owner
        mercenary = self.with_role(s, owner, role_code(Role.MERCENARY))
        charges = b.ite(mercenary, b.num(r.rage.mercenary_charges), b.num(r.rage.charges))
        held = self.seat(t.rage, owner)
        fx.skill_by = b.ite(b.and_(when, mercenary), owner, fx.skill_by)
        return t.set(rage=b.update(t.rage, owner, b.ite(when, b.add(held, charges), held)))

    @effect_of(Item.AMULET)
    def amulet(
        self, t: State[I, B], s: State[I, B], inp: Input[I, B], fx: Effects[I, B], when: B
    ) -> State[I, B]:
        """Amulet (S3.4, S2.2): the user gains shield blocks, more for a Medic, up to the cap."""
        b = self.b
        r = self.rules
        owner = s.owner
        medic = self.with_role(s, owner, role_code(Role.MEDIC))
        blocks = b.ite(medic, b.num(r.shield.medic_blocks), b.num(r.shield.blocks))
        held = self.seat(t.shield, owner)
        raised = b.min_(b.add(held, blocks), b.num(self.cfg.shield_cap))
        fx.skill_by = b.ite(b.and_(when, medic), owner, fx.skill_by)
        return t.set(shield=b.update(t.shield, owner, b.ite(when, raised, held)))

    @effect_of(Item.MILK_TEA)
    def milk_tea(
        self, t: State[I, B], s: State[I, B], inp: Input[I, B], fx: Effects[I, B], when: B
    ) -> State[I, B]:
        """Milk tea (S3.5; R10): the user heals."""
        return self._dose(t, inp, fx, s.owner, s.owner, when)

    @effect_of(Item.EXPIRED_PILLS)
    def pills(
        self, t: State[I, B], s: State[I, B], inp: Input[I, B], fx: Effects[I, B], when: B
    ) -> State[I, B]:
        """Expired pills (S3.6, S2.5; R10): any living target heals or loses HP by chance."""
        return self._dose(t, inp, fx, s.owner, inp.target, when)

    @effect_of(Item.PICKPOCKET)
    def pickpocket(
        self, t: State[I, B], s: State[I, B], inp: Input[I, B], fx: Effects[I, B], when: B
    ) -> State[I, B]:
        """Pickpocket (S3.7; R23): one held item of the target, picked by chance, is the
        user's."""
        b = self.b
        target = inp.target
        fx.require(
            b.implies(
                when,
                b.and_(
                    b.lt(inp.steal, b.num(KINDS)),
                    b.ge(self.held(t, target, inp.steal), b.num(1)),
                ),
            )
        )
        robbed = self.change_item(t.items, target, inp.steal, plus=False)
        robbed = self.change_item(robbed, s.owner, inp.steal, plus=True)
        return t.set(
            items=tuple(
                tuple(b.ite(when, x, y) for x, y in zip(row_a, row_b, strict=True))
                for row_a, row_b in zip(robbed, t.items, strict=True)
            )
        )

    @effect_of(Item.INVERTER)
    def invert(
        self, t: State[I, B], s: State[I, B], inp: Input[I, B], fx: Effects[I, B], when: B
    ) -> State[I, B]:
        """Inverter (S3.8; R22): the head shell changes type, live <-> blank."""
        b = self.b
        return t.set(
            live=b.ite(when, b.sub(t.shells, t.live), t.live),
            head_live=b.ite(when, b.not_(t.head_live), t.head_live),
        )

    def _dose(
        self, t: State[I, B], inp: Input[I, B], fx: Effects[I, B], user: I, target: I, when: B
    ) -> State[I, B]:
        """``t`` with the target's HP after the user's milk tea or pills, when ``when``."""
        b = self.b
        new_hp = self._medicine(t, inp, fx, user, target, when)
        dosed = self._set_hp(t, target, new_hp, user)
        return t.set(
            hp=tuple(b.ite(when, a, c) for a, c in zip(dosed.hp, t.hp, strict=True)),
            fell=b.ite(when, dosed.fell, t.fell),
            hit_src=b.ite(when, dosed.hit_src, t.hit_src),
        )

    # --- shared pieces -------------------------------------------------------------------

    def _odds(self, fx: Effects[I, B], when: B, roll: B, chance: Fraction) -> None:
        """Constrain a roll that has no choice when its chance is 0 or 1."""
        b = self.b
        if chance == 0:
            fx.require(b.implies(when, b.not_(roll)))
        elif chance == 1:
            fx.require(b.implies(when, roll))

    def draw_amounts(self, fx: Effects[I, B], inp: Input[I, B], count: int, when: B) -> list[I]:
        """Per-kind amounts of the first ``count`` draws; each must be a kind with weight > 0."""
        b = self.b
        named = {k: self.drawable(k) for k in range(KINDS)}
        drawable = [k for k in range(KINDS) if self.cfg.weights[k] > 0 or named[k] is not None]

        def gives(j: int, k: int) -> B:
            cond = named[k]
            kind = b.eqn(inp.draws[j], k)
            return kind if cond is None else b.and_(kind, cond)

        for j in range(count):
            fx.require(b.implies(when, b.or_(*(gives(j, k) for k in drawable))))
        return [b.count([b.eqn(inp.draws[j], k) for j in range(count)]) for k in range(KINDS)]

    def _head_possible(self, shells: I, live: I, head: B) -> B:
        """A head shell of type ``head`` is one of ``shells`` shells with ``live`` live (R1)."""
        b = self.b
        loaded = b.gt(shells, b.num(0))
        return b.and_(
            b.implies(b.not_(loaded), b.not_(head)),
            b.implies(b.and_(loaded, head), b.ge(live, b.num(1))),
            b.implies(b.and_(loaded, b.not_(head)), b.lt(live, shells)),
        )

    def _remove_head(
        self, s: State[I, B], inp: Input[I, B], fx: Effects[I, B], when: B
    ) -> State[I, B]:
        """The chamber's head shell removed; the next head is a chance outcome."""
        b = self.b
        shells = b.subn(s.shells, 1)
        live = b.ite(s.head_live, b.subn(s.live, 1), s.live)
        fx.require(b.implies(when, self._head_possible(shells, live, inp.head_live)))
        return s.set(shells=shells, live=live, head_live=inp.head_live)

    def _set_hp(self, s: State[I, B], target: I, new: I, source: I) -> State[I, B]:
        """Seat ``target``'s HP set to ``new``; a loss records ``source``, a fall to 1 is noted."""
        b = self.b
        old = self.seat(s.hp, target)
        fell_to_one = b.and_(b.gt(old, b.num(1)), b.eqn(new, 1))
        return s.set(
            hp=b.update(s.hp, target, new),
            fell=b.ite(fell_to_one, target, b.num(NONE)),
            hit_src=b.ite(b.lt(new, old), source, s.hit_src),
        )

    def _medicine(
        self, s: State[I, B], inp: Input[I, B], fx: Effects[I, B], user: I, target: I, when: B
    ) -> I:
        """The target's HP after the user gives them milk tea or expired pills (R10, S2.5)."""
        b = self.b
        r = self.rules
        old = self.seat(s.hp, target)
        top = b.num(r.hp.max)

        def healed(amount: int) -> I:
            return b.min_(b.addn(old, amount), top)

        doctor_self = b.and_(self.with_role(s, user, role_code(Role.DOCTOR)), b.eq(user, target))
        is_pills = b.eqn(inp.item, PILLS)
        rolled = b.and_(when, is_pills, b.not_(doctor_self))
        self._odds(fx, rolled, inp.pill_heal, r.pills.heal_chance)
        fx.skill_by = b.ite(b.and_(when, is_pills, doctor_self), user, fx.skill_by)
        pills = b.ite(
            doctor_self,
            healed(r.pills.doctor_heal),
            b.ite(inp.pill_heal, healed(r.pills.heal), b.sat_sub(old, b.num(r.pills.loss))),
        )
        return b.ite(is_pills, pills, healed(r.milk_tea.heal))


def _check_item_effects() -> None:
    """Every item kind of the rulebook has exactly one effect here (``TypeError`` if not)."""
    named = {spec.item for spec in ITEMS}
    missing = sorted(item.value for item in named - ITEM_EFFECTS.keys())
    extra = sorted(item.value for item in ITEM_EFFECTS.keys() - named)
    if missing or extra:
        raise TypeError(f"the model's item effects: missing {missing}, unknown {extra}")
    ordered = {item: ITEM_EFFECTS[item] for item in Item}
    ITEM_EFFECTS.clear()
    ITEM_EFFECTS.update(ordered)


_check_item_effects()
