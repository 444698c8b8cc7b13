"""The registry's actions (``buckshot.spec.registry``), one method per name.

Each is registered for its name with ``@MODEL.implements(name)`` (checked against the
registry at import, :mod:`.binding`); it takes ``(state, input, effects)`` and returns the next
state; chance outcomes it reads are constrained to be legal through ``effects.require``.
"""

from __future__ import annotations

from fractions import Fraction

from buckshot.spec.rulebook import FrameKind, Item, Role
from buckshot.verification.model.backend import B, I
from buckshot.verification.model.binding import MODEL
from buckshot.verification.model.guards import Guards
from buckshot.verification.model.helpers import Effects
from buckshot.verification.model.layout import (
    DRAWN,
    KINDS,
    LAST_ITEM,
    LAST_NONE,
    LAST_SHOT,
    NONE,
    SEATS,
    WON,
    item_code,
    role_code,
)
from buckshot.verification.model.state import Input, State

EJECT = item_code(Item.EJECTING_DRINK)
RAGE = item_code(Item.RAGE_POTION)
AMULET = item_code(Item.AMULET)
MILK = item_code(Item.MILK_TEA)
PILLS = item_code(Item.EXPIRED_PILLS)
PICKPOCKET = item_code(Item.PICKPOCKET)
INVERTER = item_code(Item.INVERTER)


class Actions(Guards[I, B]):
    """Every action of the registry, over the backend's values."""

    # --- shared pieces -------------------------------------------------------------------

    def _odds(self, fx: Effects[I, B], when: B, roll: B, chance: Fraction) -> None:
        """Constrain a roll that has no choice when its chance is 0 or 1."""
        b = self.b
        if chance == 0:
            fx.require(b.implies(when, b.not_(roll)))
        elif chance == 1:
            fx.require(b.implies(when, roll))

    def _draw_amounts(self, fx: Effects[I, B], inp: Input[I, B], count: int, when: B) -> list[I]:
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

    # --- phase 1 -------------------------------------------------------------------------

    @MODEL.implements("load_chamber")
    def action_load_chamber(
        self, s: State[I, B], inp: Input[I, B], fx: Effects[I, B]
    ) -> State[I, B]:
        """Load the chamber with a load for the number of living players (S4.1.3; R1)."""
        b = self.b
        living = self.living(s)
        ok: list[B] = []
        live = b.num(0)
        total = b.num(0)
        for table in self.rules.shells.loads:
            here = b.eqn(living, table.players)
            ok.append(b.and_(here, b.lt(inp.load, b.num(len(table.options)))))
            for index, load in enumerate(table.options):
                pick = b.and_(here, b.eqn(inp.load, index))
                live = b.ite(pick, b.num(load.live), live)
                total = b.ite(pick, b.num(load.total), total)
        fx.require(b.or_(*ok))
        fx.require(self._head_possible(total, live, inp.head_live))
        return s.set(shells=total, live=live, head_live=inp.head_live)

    @MODEL.implements("draw_turn_items")
    def action_draw_turn_items(
        self, s: State[I, B], inp: Input[I, B], fx: Effects[I, B]
    ) -> State[I, B]:
        """The owner draws items.per_turn random items (S4.1.1; R15)."""
        amounts = self._draw_amounts(fx, inp, self.rules.items.per_turn, self.b.true())
        return s.set(items=self.add_counts(s.items, s.owner, amounts))

    @MODEL.implements("prophet_preview")
    def action_prophet_preview(
        self, s: State[I, B], inp: Input[I, B], fx: Effects[I, B]
    ) -> State[I, B]:
        """A non-traitor Dealer owner learns the first shell (S2.3, S4.1.2; R11); private."""
        dealer = self.with_role(s, s.owner, role_code(Role.DEALER))
        fx.skill_by = self.b.ite(dealer, s.owner, fx.skill_by)
        return s

    # --- phase 2: shooting ---------------------------------------------------------------

    @MODEL.implements("declare_shot")
    def action_declare_shot(
        self, s: State[I, B], inp: Input[I, B], fx: Effects[I, B]
    ) -> State[I, B]:
        """Record the shot: shooter, target, the head shell's locked type (S4.2.1a)."""
        return s.set(
            shot_shooter=s.owner,
            shot_target=inp.target,
            shot_live=s.head_live,
            shot_flips=self.b.num(0),
        )

    @MODEL.implements("open_shot_window")
    def action_open_shot_window(
        self, s: State[I, B], inp: Input[I, B], fx: Effects[I, B]
    ) -> State[I, B]:
        """Push a shot window polling from the owner's next living seat (S4.2.1b; R17)."""
        return self.push(s, FrameKind.SHOT_WINDOW, s.owner, self.next_seat(s, s.owner))

    @MODEL.implements("settle_shot")
    def action_settle_shot(
        self, s: State[I, B], inp: Input[I, B], fx: Effects[I, B]
    ) -> State[I, B]:
        """Fire the shell with its final type: rage, shield, damage, Gambler (S4.2.1c; R3, R9)."""
        b = self.b
        r = self.rules
        shooter, target, live = s.shot_shooter, s.shot_target, s.shot_live
        fired = self._remove_head(s, inp, fx, b.true())
        rage = self.seat(s.rage, shooter)
        used = b.gt(rage, b.num(0))
        fired = fired.set(rage=b.update(s.rage, shooter, b.ite(used, b.subn(rage, 1), rage)))
        damage = b.ite(
            used, b.num(r.shot.live_damage + r.rage.bonus_damage), b.num(r.shot.live_damage)
        )
        shield = self.seat(s.shield, target)
        cap = b.num(self.cfg.shield_cap)
        absorbed = b.and_(live, self.has_shield_block(s, target))
        spent = b.ite(b.and_(b.eq(shield, cap), inp.shield_keep), cap, b.subn(shield, 1))
        fired = fired.set(shield=b.update(s.shield, target, b.ite(absorbed, spent, shield)))
        hp = self.seat(s.hp, target)
        hit = b.and_(live, b.not_(absorbed))
        fired = self._set_hp(fired, target, b.ite(hit, b.sat_sub(hp, damage), hp), shooter)
        fired = fired.set(
            fell=b.ite(hit, fired.fell, s.fell), hit_src=b.ite(hit, fired.hit_src, s.hit_src)
        )
        lucky = b.and_(
            b.eq(shooter, target),
            b.not_(live),
            self.with_role(s, shooter, role_code(Role.GAMBLER)),
        )
        self._odds(fx, lucky, inp.gamble_win, r.gambler.bonus_chance)
        win = b.and_(lucky, inp.gamble_win)
        amounts = self._draw_amounts(fx, inp, r.gambler.bonus_items, win)
        zero = b.num(0)
        fx.skill_by = b.ite(lucky, shooter, fx.skill_by)
        return fired.set(
            items=self.add_counts(fired.items, shooter, [b.ite(win, a, zero) for a in amounts]),
            last_step=b.num(LAST_SHOT),
        )

    # --- phase 2: items ------------------------------------------------------------------

    @MODEL.implements("apply_item")
    def action_apply_item(self, s: State[I, B], inp: Input[I, B], fx: Effects[I, B]) -> State[I, B]:
        """Spend the item and apply its effect to its target (S3, S4.2.2; R9, R10, R22, R23)."""
        b = self.b
        r = self.rules
        owner, target, k = s.owner, inp.target, inp.item
        t = s.set(items=self.change_item(s.items, owner, k, plus=False))
        is_ = {code: b.eqn(k, code) for code in range(KINDS)}
        # ejecting drink (S3.2) and inverter (S3.8): the chamber
        ejected = self._remove_head(t, inp, fx, is_[EJECT])
        t = t.set(
            shells=b.ite(is_[EJECT], ejected.shells, t.shells),
            live=b.ite(
                is_[EJECT], ejected.live, b.ite(is_[INVERTER], b.sub(t.shells, t.live), t.live)
            ),
            head_live=b.bite(
                is_[EJECT], inp.head_live, b.bite(is_[INVERTER], b.not_(t.head_live), t.head_live)
            ),
        )
        # rage potion (S3.3, S2.4) and amulet (S3.4, S2.2)
        mercenary = self.with_role(s, owner, role_code(Role.MERCENARY))
        medic = self.with_role(s, owner, role_code(Role.MEDIC))
        charges = b.ite(mercenary, b.num(r.rage.mercenary_charges), b.num(r.rage.charges))
        blocks = b.ite(medic, b.num(r.shield.medic_blocks), b.num(r.shield.blocks))
        rage = self.seat(t.rage, owner)
        shield = self.seat(t.shield, owner)
        t = t.set(
            rage=b.update(t.rage, owner, b.ite(is_[RAGE], b.add(rage, charges), rage)),
            shield=b.update(
                t.shield,
                owner,
                b.ite(
                    is_[AMULET], b.min_(b.add(shield, blocks), b.num(self.cfg.shield_cap)), shield
                ),
            ),
        )
        fx.skill_by = b.ite(
            b.or_(b.and_(is_[RAGE], mercenary), b.and_(is_[AMULET], medic)), owner, fx.skill_by
        )
        # milk tea (S3.5, the user) and expired pills (S3.6, any living target)
        medicine = b.or_(is_[MILK], is_[PILLS])
        healed = b.ite(is_[PILLS], target, owner)
        new_hp = self._medicine(t, inp, fx, owner, healed, medicine)
        dosed = self._set_hp(t, healed, new_hp, owner)
        t = t.set(
            hp=tuple(b.ite(medicine, a, c) for a, c in zip(dosed.hp, t.hp, strict=True)),
            fell=b.ite(medicine, dosed.fell, t.fell),
            hit_src=b.ite(medicine, dosed.hit_src, t.hit_src),
        )
        # pickpocket (S3.7; R23): one held item of the target, picked by chance
        steal = is_[PICKPOCKET]
        fx.require(
            b.implies(
                steal,
                b.and_(
                    b.lt(inp.steal, b.num(KINDS)),
                    b.ge(self.held(t, target, inp.steal), b.num(1)),
                ),
            )
        )
        robbed = self.change_item(t.items, target, inp.steal, plus=False)
        robbed = self.change_item(robbed, owner, inp.steal, plus=True)
        t = t.set(
            items=tuple(
                tuple(b.ite(steal, x, y) for x, y in zip(row_a, row_b, strict=True))
                for row_a, row_b in zip(robbed, t.items, strict=True)
            )
        )
        return t.set(last_step=b.num(LAST_ITEM))

    # --- phase 2/3: dying, conversion, the end of the game -------------------------------

    @MODEL.implements("open_dying")
    def action_open_dying(self, s: State[I, B], inp: Input[I, B], fx: Effects[I, B]) -> State[I, B]:
        """Push a dying frame for the living player at HP 0 (S4.3.1; R5)."""
        b = self.b
        who = b.num(NONE)
        for p in range(SEATS - 1, -1, -1):
            who = b.ite(b.and_(s.alive[p], b.eqn(s.hp[p], 0)), b.num(p), who)
        return self.push(s, FrameKind.DYING, who, b.num(NONE))

    @MODEL.implements("open_conversion")
    def action_open_conversion(
        self, s: State[I, B], inp: Input[I, B], fx: Effects[I, B]
    ) -> State[I, B]:
        """Use up the player's conversion chance and push a conversion frame (S4.3.2; R6)."""
        b = self.b
        p = s.fell
        used = s.set(conv_used=b.bupdate(s.conv_used, p, b.true()), fell=b.num(NONE))
        return self.push(used, FrameKind.CONVERSION, p, b.num(NONE))

    @MODEL.implements("declare_winner")
    def action_declare_winner(
        self, s: State[I, B], inp: Input[I, B], fx: Effects[I, B]
    ) -> State[I, B]:
        """End the game: the traitor with enough kills, else the last living player (S5.1)."""
        b = self.b
        need = self.rule_value("traitor.kills_to_win", self.rules.traitor.kills_to_win)
        winner = b.num(NONE)
        for p in range(SEATS - 1, -1, -1):
            winner = b.ite(s.alive[p], b.num(p), winner)
        for p in range(SEATS - 1, -1, -1):
            winner = b.ite(b.and_(s.traitor[p], b.ge(s.kills[p], need)), b.num(p), winner)
        return s.set(result=b.num(WON), winner=winner)

    @MODEL.implements("eliminate_dying")
    def action_eliminate_dying(
        self, s: State[I, B], inp: Input[I, B], fx: Effects[I, B]
    ) -> State[I, B]:
        """Eliminate the dying player; credit the kill; lock the owner's shooting (R7, R13, R25)."""
        b = self.b
        p = self.top_who(s)
        zero = b.num(0)
        src = s.hit_src
        credited = b.and_(b.ne(src, p), b.lt(src, b.num(SEATS)))
        kills = tuple(
            b.ite(b.and_(credited, b.eqn(src, q)), b.addn(s.kills[q], 1), s.kills[q])
            for q in range(SEATS)
        )
        lock = b.or_(s.kill_lock, b.and_(credited, b.eq(src, s.owner)))
        return s.set(
            alive=b.bupdate(s.alive, p, b.false()),
            items=tuple(
                tuple(b.ite(b.eqn(p, q), zero, count) for count in row)
                for q, row in enumerate(s.items)
            ),
            shield=b.update(s.shield, p, zero),
            rage=b.update(s.rage, p, zero),
            kills=kills,
            kill_lock=lock,
        )

    @MODEL.implements("apply_rescue_item")
    def action_apply_rescue_item(
        self, s: State[I, B], inp: Input[I, B], fx: Effects[I, B]
    ) -> State[I, B]:
        """The dying player uses the rescue item on themself (S4.3.1, S3.5, S3.6, S2.5; R10)."""
        p = self.top_who(s)
        spent = s.set(items=self.change_item(s.items, p, inp.item, plus=False))
        new_hp = self._medicine(spent, inp, fx, p, p, self.b.true())
        return self._set_hp(spent, p, new_hp, p)

    @MODEL.implements("make_traitor")
    def action_make_traitor(
        self, s: State[I, B], inp: Input[I, B], fx: Effects[I, B]
    ) -> State[I, B]:
        """The converting player becomes a traitor (S4.3.2, S5.1; R6)."""
        return s.set(traitor=self.b.bupdate(s.traitor, self.top_who(s), self.b.true()))

    # --- phases 3 to 5 -------------------------------------------------------------------

    @MODEL.implements("report_tally")
    def action_report_tally(
        self, s: State[I, B], inp: Input[I, B], fx: Effects[I, B]
    ) -> State[I, B]:
        """Report the turn's tally (S4.3.0; R5): nothing left to settle, no state change."""
        return s

    @MODEL.implements("open_discard")
    def action_open_discard(
        self, s: State[I, B], inp: Input[I, B], fx: Effects[I, B]
    ) -> State[I, B]:
        """Push a discard frame for the turn owner (S4.4.3; R12)."""
        return self.push(s, FrameKind.DISCARD, s.owner, self.b.num(NONE))

    @MODEL.implements("discard_one")
    def action_discard_one(
        self, s: State[I, B], inp: Input[I, B], fx: Effects[I, B]
    ) -> State[I, B]:
        """The owner discards the given item (S4.4.3; R12)."""
        return s.set(items=self.change_item(s.items, s.owner, inp.item, plus=False))

    @MODEL.implements("clear_turn_effects")
    def action_clear_turn_effects(
        self, s: State[I, B], inp: Input[I, B], fx: Effects[I, B]
    ) -> State[I, B]:
        """Rage to 0, the kill lock and the turn's marks cleared, shields kept (S4.5.1; R25)."""
        b = self.b
        none = b.num(NONE)
        return s.set(
            rage=tuple(b.num(0) for _ in s.rage),
            kill_lock=b.false(),
            last_step=b.num(LAST_NONE),
            shot_shooter=none,
            shot_target=none,
            shot_live=b.false(),
            shot_flips=b.num(0),
            hit_src=none,
            fell=none,
        )

    @MODEL.implements("declare_draw")
    def action_declare_draw(
        self, s: State[I, B], inp: Input[I, B], fx: Effects[I, B]
    ) -> State[I, B]:
        """End the game in a draw (S4.5.3; R21)."""
        return s.set(result=self.b.num(DRAWN))

    @MODEL.implements("pass_to_next_seat")
    def action_pass_to_next_seat(
        self, s: State[I, B], inp: Input[I, B], fx: Effects[I, B]
    ) -> State[I, B]:
        """The next living seat clockwise owns the next turn (S4.5.3, S1.1; R16)."""
        b = self.b
        nxt = self.next_seat(s, s.owner)
        return s.set(
            owner=nxt,
            turn_no=b.addn(s.turn_no, 1),
            k0=self.seat(s.kills, nxt),
            fwho=b.update(s.fwho, b.num(0), nxt),
        )

    # --- the poll frames -----------------------------------------------------------------

    @MODEL.implements("advance_poll")
    def action_advance_poll(
        self, s: State[I, B], inp: Input[I, B], fx: Effects[I, B]
    ) -> State[I, B]:
        """Mark the asked player and move the cursor to the next living seat (S6.2.1; R17)."""
        b = self.b
        cursor = self.top_cursor(s)
        asked = b.bupdate(self.top_asked(s), cursor, b.true())
        return self.set_top(s, fasked=asked, fcursor=self.next_seat(s, cursor))

    @MODEL.implements("pay_flip_cost")
    def action_pay_flip_cost(
        self, s: State[I, B], inp: Input[I, B], fx: Effects[I, B]
    ) -> State[I, B]:
        """The asked Magician discards the given magician.cost items (S2.6; R8)."""
        return s.set(items=self.add_counts(s.items, self.top_cursor(s), list(inp.pay), plus=False))

    @MODEL.implements("flip_shot_shell")
    def action_flip_shot_shell(
        self, s: State[I, B], inp: Input[I, B], fx: Effects[I, B]
    ) -> State[I, B]:
        """The shot's shell changes type, live <-> blank (S2.6, S6.3.0; R8)."""
        fx.skill_by = self.top_cursor(s)
        return s.set(shot_live=self.b.not_(s.shot_live), shot_flips=self.b.addn(s.shot_flips, 1))

    @MODEL.implements("open_counter_response")
    def action_open_counter_response(
        self, s: State[I, B], inp: Input[I, B], fx: Effects[I, B]
    ) -> State[I, B]:
        """Push a counter-response frame polling from the owner's next seat (S6.3.1; R18)."""
        return self.push(s, FrameKind.COUNTER_RESPONSE, s.owner, self.next_seat(s, s.owner))

    @MODEL.implements("negate_response")
    def action_negate_response(
        self, s: State[I, B], inp: Input[I, B], fx: Effects[I, B]
    ) -> State[I, B]:
        """Undo the response below: the flip is flipped back (S6.3.1; R18)."""
        return s.set(shot_live=self.b.not_(s.shot_live), shot_flips=self.b.addn(s.shot_flips, 1))
