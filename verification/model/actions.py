"""The registry's actions (``buckshot.spec.registry``), one method per name.

Each is registered for its name with ``@MODEL.implements(name)`` (checked against the
registry at import, :mod:`.binding`); it takes ``(state, input, effects)`` and returns the next
state; chance outcomes it reads are constrained to be legal through ``effects.require``.
"""

from __future__ import annotations

from buckshot.spec.rulebook import FrameKind, Role
from buckshot.verification.model.backend import B, I
from buckshot.verification.model.binding import MODEL
from buckshot.verification.model.helpers import Effects
from buckshot.verification.model.items import ITEM_EFFECTS, ItemEffects
from buckshot.verification.model.layout import (
    DRAWN,
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


class Actions(ItemEffects[I, B]):
    """Every action of the registry, over the backend's values."""

    # --- phase 1 -------------------------------------------------------------------------

    @MODEL.implements("load_chamber")
    def action_load_chamber(
        self, s: State[I, B], inp: Input[I, B], fx: Effects[I, B]
    ) -> State[I, B]:
        """Load the chamber with a load for the number of living players (S4.1.3; R1); every
        living Dealer who is not a traitor is shown its first shell (S2.3; R11)."""
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
        dealer = role_code(Role.DEALER)
        for p in range(SEATS):
            seen = b.and_(s.alive[p], self.with_role(s, b.num(p), dealer))
            fx.shown[p] = b.or_(fx.shown[p], seen)  # every living Dealer sees it (S4.1.3; R11)
        return s.set(shells=total, live=live, head_live=inp.head_live)

    @MODEL.implements("draw_turn_items")
    def action_draw_turn_items(
        self, s: State[I, B], inp: Input[I, B], fx: Effects[I, B]
    ) -> State[I, B]:
        """The owner draws items.per_turn random items (S4.1.1; R15)."""
        amounts = self.draw_amounts(fx, inp, self.rules.items.per_turn, self.b.true())
        return s.set(items=self.add_counts(s.items, s.owner, amounts))

    @MODEL.implements("prophet_preview")
    def action_prophet_preview(
        self, s: State[I, B], inp: Input[I, B], fx: Effects[I, B]
    ) -> State[I, B]:
        """A non-traitor Dealer owner learns the first shell (S2.3, S4.1.2; R11); private."""
        b = self.b
        dealer = self.with_role(s, s.owner, role_code(Role.DEALER))
        fx.skill_by = b.ite(dealer, s.owner, fx.skill_by)
        fx.shown = [
            b.or_(shown, b.and_(dealer, b.eqn(s.owner, p))) for p, shown in enumerate(fx.shown)
        ]
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
        amounts = self.draw_amounts(fx, inp, r.gambler.bonus_items, win)
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
        k = inp.item
        t = s.set(items=self.change_item(s.items, s.owner, k, plus=False))
        for item, effect in ITEM_EFFECTS.items():
            # read through the model, so that a patch of the effect's helper (a deliberate
            # bug of tests/faults, :mod:`.patch`) is the effect applied
            applied = getattr(self, effect.__name__)
            t = applied(t, s, inp, fx, b.eqn(k, item_code(item)))
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
        used = s.set(conv_used=b.update(s.conv_used, p, b.true()), fell=b.num(NONE))
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
            alive=b.update(s.alive, p, b.false()),
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
        return s.set(traitor=self.b.update(s.traitor, self.top_who(s), self.b.true()))

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
        asked = b.update(self.top_asked(s), cursor, b.true())
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
