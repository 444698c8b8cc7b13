"""The registry's guards and selectors (``buckshot.spec.registry``), one method per name.

Each is registered for its name with ``@MODEL.implements(name)`` (checked against the
registry at import, :mod:`.binding`): a guard takes ``(state, input)``, a selector
``(state)``. Their meanings are the registry's; the clauses cited are its.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping

from buckshot.spec.rulebook import Role, Target
from buckshot.verification.model.backend import B, I
from buckshot.verification.model.binding import MODEL
from buckshot.verification.model.helpers import Helpers
from buckshot.verification.model.layout import (
    ITEM_KINDS,
    LAST_ITEM,
    LAST_SHOT,
    NONE,
    RESCUE_CODES,
    SEATS,
    SHELL_CODES,
    TARGET_OF,
    role_code,
)
from buckshot.verification.model.state import Input, State


class Guards(Helpers[I, B]):
    """Selectors (who is asked) and guards (when a transition is enabled)."""

    # --- selectors -----------------------------------------------------------------------

    @MODEL.implements("turn_owner")
    def select_turn_owner(self, s: State[I, B]) -> I:
        """The player whose turn it is (S1.1, S1.3)."""
        return s.owner

    @MODEL.implements("poll_cursor")
    def select_poll_cursor(self, s: State[I, B]) -> I:
        """The player the top poll frame asks now (S4.2.1b, S6.2.1; R17)."""
        return self.top_cursor(s)

    @MODEL.implements("dying_player")
    def select_dying_player(self, s: State[I, B]) -> I:
        """The player the dying frame was pushed for (S4.3.1)."""
        return self.top_who(s)

    @MODEL.implements("converting_player")
    def select_converting_player(self, s: State[I, B]) -> I:
        """The player the conversion frame was pushed for (S4.3.2; R6)."""
        return self.top_who(s)

    # --- guards --------------------------------------------------------------------------

    @MODEL.implements("chamber_empty")
    def guard_chamber_empty(self, s: State[I, B], inp: Input[I, B]) -> B:
        """The chamber holds no shell (S4.1.3; R1)."""
        return self.b.eqn(s.shells, 0)

    @MODEL.implements("can_shoot")
    def guard_can_shoot(self, s: State[I, B], inp: Input[I, B]) -> B:
        """A shell is loaded and shooting is not locked by a kill (S4.2.1e; R4, R25)."""
        b = self.b
        return b.and_(b.gt(s.shells, b.num(0)), b.not_(s.kill_lock))

    @MODEL.implements("shot_target_valid")
    def guard_shot_target_valid(self, s: State[I, B], inp: Input[I, B]) -> B:
        """The target is a living player, the shooter included (S4.2.1a; R19)."""
        return self.bseat(s.alive, inp.target)

    @MODEL.implements("item_usable")
    def guard_item_usable(self, s: State[I, B], inp: Input[I, B]) -> B:
        """The owner holds the item, its target is allowed, a chamber item finds a shell."""
        return self.item_usable_under(s, inp, TARGET_OF, SHELL_CODES)

    def item_usable_under(
        self,
        s: State[I, B],
        inp: Input[I, B],
        targets: Mapping[int, Target],
        chamber_items: Collection[int],
    ) -> B:
        """``item_usable`` with the rulebook's target rules ``targets`` and items that act on
        the chamber ``chamber_items`` (by code): the rulebook's own, or a misreading of it."""
        b = self.b
        k = inp.item
        holds = b.ge(self.held(s, s.owner, k), b.num(1))
        alive_target = self.bseat(s.alive, inp.target)
        other_with_items = b.and_(
            alive_target,
            b.ne(inp.target, s.owner),
            b.ge(self.total(s, inp.target), b.num(1)),
        )
        rules: list[B] = []
        for code in range(len(ITEM_KINDS)):
            target = targets[code]
            allowed = (
                alive_target
                if target is Target.ANY_LIVING
                else other_with_items
                if target is Target.OTHER_LIVING
                else b.true()
            )
            if code in chamber_items:
                allowed = b.and_(allowed, b.gt(s.shells, b.num(0)))
            rules.append(b.implies(b.eqn(k, code), allowed))
        return b.and_(b.lt(k, b.num(len(ITEM_KINDS))), holds, *rules)

    @MODEL.implements("someone_dying")
    def guard_someone_dying(self, s: State[I, B], inp: Input[I, B]) -> B:
        """Some living player has HP 0 (S4.3.1; R5)."""
        b = self.b
        return b.or_(*(b.and_(s.alive[p], b.eqn(s.hp[p], 0)) for p in range(SEATS)))

    @MODEL.implements("conversion_due")
    def guard_conversion_due(self, s: State[I, B], inp: Input[I, B]) -> B:
        """A living player's HP just fell from above 1 to 1 and their chance is unused (R6)."""
        b = self.b
        unused = b.not_(self.bseat(s.conv_used, s.fell))
        return b.and_(b.ne(s.fell, b.num(NONE)), self.bseat(s.alive, s.fell), unused)

    def game_over_condition(self, s: State[I, B]) -> B:
        """At most one player lives, or a traitor has traitor.kills_to_win kills (S5.1; R7)."""
        b = self.b
        need = self.rule_value("traitor.kills_to_win", self.rules.traitor.kills_to_win)
        return b.or_(
            b.le(self.living(s), b.num(1)),
            *(b.and_(s.traitor[p], b.ge(s.kills[p], need)) for p in range(SEATS)),
        )

    @MODEL.implements("game_is_over")
    def guard_game_is_over(self, s: State[I, B], inp: Input[I, B]) -> B:
        """The game's end condition holds (S5.1; R7, R13)."""
        return self.game_over_condition(s)

    @MODEL.implements("owner_eliminated")
    def guard_owner_eliminated(self, s: State[I, B], inp: Input[I, B]) -> B:
        """The turn owner has been eliminated this turn (S5.2, S1.2; R13)."""
        return self.b.not_(self.bseat(s.alive, s.owner))

    @MODEL.implements("kill_locked")
    def guard_kill_locked(self, s: State[I, B], inp: Input[I, B]) -> B:
        """The owner has been credited with a kill this turn (S4.2.1e, S4.2.3; R25)."""
        return s.kill_lock

    @MODEL.implements("main_continues")
    def guard_main_continues(self, s: State[I, B], inp: Input[I, B]) -> B:
        """The last main-phase step was an item use, or a blank shot at oneself (S4.2.1d)."""
        b = self.b
        self_blank = b.and_(
            b.eqn(s.last_step, LAST_SHOT),
            b.eq(s.shot_target, s.shot_shooter),
            b.not_(s.shot_live),
        )
        return b.or_(b.eqn(s.last_step, LAST_ITEM), self_blank)

    @MODEL.implements("over_cap")
    def guard_over_cap(self, s: State[I, B], inp: Input[I, B]) -> B:
        """The owner holds more items than HP (+ traitor.cap_bonus for a traitor) (S4.4.2)."""
        return self.b.gt(self.total(s, s.owner), self.cap(s, s.owner))

    @MODEL.implements("turn_limit_reached")
    def guard_turn_limit_reached(self, s: State[I, B], inp: Input[I, B]) -> B:
        """This turn is turn number limits.max_turns (S4.5.3; R21); the counter is exact."""
        return self.b.ge(s.turn_no, self.b.num(self.cfg.max_turns))

    @MODEL.implements("poll_complete")
    def guard_poll_complete(self, s: State[I, B], inp: Input[I, B]) -> B:
        """Every living player of the poll order has been asked (S4.2.1b, S6.2.2; R17)."""
        b = self.b
        asked = self.top_asked(s)
        return b.and_(*(b.implies(s.alive[p], asked[p]) for p in range(SEATS)))

    @MODEL.implements("can_flip")
    def guard_can_flip(self, s: State[I, B], inp: Input[I, B]) -> B:
        """The asked player is a non-traitor Magician paying magician.cost held items (R8)."""
        b = self.b
        who = self.top_cursor(s)
        magician = role_code(Role.MAGICIAN)
        is_magician = self.with_role(s, who, magician)
        pays = [b.le(inp.pay[k], self.held_n(s, who, k)) for k in range(len(ITEM_KINDS))]
        cost = self.rule_value("magician.cost", self.rules.magician.cost)
        return b.and_(is_magician, *pays, b.eq(b.sum_(inp.pay), cost))

    def has_counter_skill(self, s: State[I, B], p: I) -> B:
        """Seat ``p`` holds a counter skill: no role of S2 has one (R18)."""
        return self.b.false()

    @MODEL.implements("counter_possible")
    def guard_counter_possible(self, s: State[I, B], inp: Input[I, B]) -> B:
        """A living player holds a counter skill and the stack has room (S6.3.1, S6.1.4)."""
        b = self.b
        holder = b.or_(
            *(b.and_(s.alive[p], self.has_counter_skill(s, b.num(p))) for p in range(SEATS))
        )
        return b.and_(holder, b.lt(s.depth, b.num(self.cfg.depth)))

    @MODEL.implements("can_counter")
    def guard_can_counter(self, s: State[I, B], inp: Input[I, B]) -> B:
        """The asked player holds a counter skill (S6.3.1; R18)."""
        return self.has_counter_skill(s, self.top_cursor(s))

    @MODEL.implements("dying_hp_restored")
    def guard_dying_hp_restored(self, s: State[I, B], inp: Input[I, B]) -> B:
        """The dying player's HP is 1 or more (S4.3.1; R10)."""
        return self.b.ge(self.seat(s.hp, self.top_who(s)), self.b.num(1))

    @MODEL.implements("holds_rescue_item")
    def guard_holds_rescue_item(self, s: State[I, B], inp: Input[I, B]) -> B:
        """The dying player holds milk tea or expired pills (S4.3.1; R10)."""
        b = self.b
        who = self.top_who(s)
        return b.or_(*(b.ge(self.held_n(s, who, k), b.num(1)) for k in RESCUE_CODES))

    @MODEL.implements("rescue_usable")
    def guard_rescue_usable(self, s: State[I, B], inp: Input[I, B]) -> B:
        """The given item is a rescue item the dying player holds (S4.3.1; R10)."""
        b = self.b
        is_rescue = b.or_(*(b.eqn(inp.item, k) for k in RESCUE_CODES))
        return b.and_(is_rescue, b.ge(self.held(s, self.top_who(s), inp.item), b.num(1)))

    @MODEL.implements("item_held")
    def guard_item_held(self, s: State[I, B], inp: Input[I, B]) -> B:
        """The owner holds the given item (S4.4.3; R12)."""
        b = self.b
        return b.and_(
            b.lt(inp.item, b.num(len(ITEM_KINDS))),
            b.ge(self.held(s, s.owner, inp.item), b.num(1)),
        )
