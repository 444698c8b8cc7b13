"""Deliberately broken variants of the reference engine, to prove the suite catches them.

Each mutant breaks one rule by monkeypatching the engine's effect functions, helpers or
compiled tables in the running process (no engine file is edited). The reference adapter
applies one with ``--mutant NAME``; a test runs each against the cases listed in
``caught_by`` and checks that they fail.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from buckshot.conformance import contract_mutants as contract
from buckshot.conformance import patching
from buckshot.reference import effects, tables
from buckshot.reference.events import EventType
from buckshot.spec.polling import poll_order as spec_poll_order
from buckshot.spec.rulebook import FrameKind, Item, Role, Shell

if TYPE_CHECKING:
    from buckshot.reference.game import Game
    from buckshot.reference.state import Seat

Params = dict[str, Any]


@dataclass(frozen=True)
class Mutant:
    """One broken variant: what it breaks, how, and the cases that must catch it."""

    name: str
    summary: str
    apply: Callable[[], None]
    caught_by: tuple[str, ...]


def _patch(name: str, value: object) -> None:
    """Replace the engine's module-level ``effects.<name>`` (a helper its functions call)."""
    patching.replace(effects, name, value)


_action = patching.wrap_action
_guard = patching.replace_guard


def _unguarded(edge: tables.Edge) -> tables.Edge:
    """``edge`` with no guards at all (in whichever guard fields the compiled edge has)."""
    names = {field.name for field in dataclasses.fields(edge)}
    empty: dict[str, Any] = {name: () for name in names if name.endswith("guards")}
    return dataclasses.replace(edge, **empty)


def _owner(g: Game) -> Seat:
    return g.state.seats[g.state.owner]


# --- the mutants -----------------------------------------------------------------------------


def _poll_keeps_eliminated() -> None:
    def poll_order(alive: Sequence[bool], owner: int) -> tuple[int, ...]:
        return tuple((owner + step) % len(alive) for step in range(1, len(alive) + 1))

    _patch("poll_order", poll_order)


def _poll_owner_first() -> None:
    def poll_order(alive: Sequence[bool], owner: int) -> tuple[int, ...]:
        order = spec_poll_order(alive, owner)
        return order[-1:] + order[:-1]

    _patch("poll_order", poll_order)


def _next_turn_to_eliminated() -> None:
    def next_living_seat(alive: Sequence[bool], seat: int) -> int | None:
        return (seat + 1) % len(alive)

    _patch("next_living_seat", next_living_seat)


def _pop_resumes_wrong_state() -> None:
    row = tables.TABLES[FrameKind.TURN].states["awaiting_dying"]
    (edge,) = row.edges["dying_resolved"]
    row.edges["dying_resolved"] = (dataclasses.replace(edge, entry="awaiting_action"),)


def _cap_off_by_one() -> None:
    original = effects.item_cap
    _patch("item_cap", lambda g, seat: original(g, seat) + 1)


def _traitor_cap_forgotten() -> None:
    _patch("item_cap", lambda g, seat: seat.hp)


def _shield_two_blocks_for_all() -> None:
    def wrap(original: effects.Action) -> effects.Action:
        def apply_item(g: Game, p: Params) -> None:
            original(g, p)
            owner = _owner(g)
            if p["item"] is Item.AMULET and not owner.skilled(Role.MEDIC):
                owner.shield += g.rules.shield.medic_blocks - g.rules.shield.blocks

        return apply_item

    _action("apply_item", wrap)


def _kill_does_not_lock() -> None:
    def wrap(original: effects.Action) -> effects.Action:
        def eliminate_dying(g: Game, p: Params) -> None:
            original(g, p)
            g.state.kill_lock = False

        return eliminate_dying

    _action("eliminate_dying", wrap)


def _second_conversion() -> None:
    def lose(g: Game, seat: Seat, amount: int, source: int, cause: str) -> None:
        before = seat.hp
        seat.hp = max(0, seat.hp - amount)
        if seat.hp == before:
            return
        g.state.damage_source[seat.seat] = source
        g.emit(
            EventType.HP_CHANGED,
            player=seat.seat,
            hp=seat.hp,
            delta=seat.hp - before,
            cause=cause,
        )
        if before > 1 and seat.hp == 1:
            g.state.fell_to_one.append(seat.seat)

    def converting_seat(g: Game) -> Seat | None:
        for seat_no in g.state.fell_to_one:
            seat = g.state.seats[seat_no]
            if seat.alive and seat.hp == 1:
                return seat
        return None

    _patch("_lose", lose)
    _patch("_converting_seat", converting_seat)


def _rage_not_cleared() -> None:
    def wrap(original: effects.Action) -> effects.Action:
        def clear_turn_effects(g: Game, p: Params) -> None:
            kept = [seat.rage for seat in g.state.seats]
            original(g, p)
            for seat, rage in zip(g.state.seats, kept, strict=True):
                seat.rage = rage

        return clear_turn_effects

    _action("clear_turn_effects", wrap)


def _no_extra_action_after_self_blank() -> None:
    _guard("main_continues", lambda g, p: g.state.last_step == "item")


def _extra_action_by_initial_type() -> None:
    def wrap(original: effects.Action) -> effects.Action:
        def settle_shot(g: Game, p: Params) -> None:
            shot = g.state.shot
            assert shot is not None
            at_self, initial = shot.target == shot.shooter, shot.initial
            original(g, p)
            g.state.last_step = "self_blank" if at_self and initial is Shell.BLANK else "shot"

        return settle_shot

    _action("settle_shot", wrap)


def _blank_keeps_rage() -> None:
    def wrap(original: effects.Action) -> effects.Action:
        def settle_shot(g: Game, p: Params) -> None:
            shot = g.state.shot
            assert shot is not None
            shooter = g.state.seats[shot.shooter]
            refund = shot.shell is Shell.BLANK and shooter.rage > 0
            original(g, p)
            if refund:
                shooter.rage += 1

        return settle_shot

    _action("settle_shot", wrap)


def _traitor_magician_flips() -> None:
    def can_flip(g: Game, p: Params) -> bool:
        seat = g.state.seats[effects.poll_cursor(g)]
        items = p.get("items")
        if seat.role is not Role.MAGICIAN or not isinstance(items, tuple):
            return False
        if len(items) != g.rules.magician.cost:
            return False
        return all(seat.count(item) >= items.count(item) for item in set(items))

    _guard("can_flip", can_flip)


def _dealers_miss_fresh_loads() -> None:
    def wrap(original: effects.Action) -> effects.Action:
        def load_chamber(g: Game, p: Params) -> None:
            dealers = [s for s in g.state.seats if s.role is Role.DEALER and not s.traitor]
            for seat in dealers:
                seat.traitor = True  # hide the skill while loading
            try:
                original(g, p)
            finally:
                for seat in dealers:
                    seat.traitor = False

        return load_chamber

    _action("load_chamber", wrap)


def _doctor_reversal_for_everyone() -> None:
    original = effects._pills

    def pills(g: Game, user: Seat, target: Seat) -> None:
        if user.skilled(Role.DOCTOR) and target is not user:
            effects._heal(g, target, g.rules.pills.doctor_heal, "expired_pills")
            return
        original(g, user, target)

    _patch("_pills", pills)


def _heal_above_max() -> None:
    def heal(g: Game, seat: Seat, amount: int, cause: str) -> None:
        if amount:
            seat.hp += amount
            g.emit(EventType.HP_CHANGED, player=seat.seat, hp=seat.hp, delta=amount, cause=cause)

    _patch("_heal", heal)


def _eliminated_keep_items() -> None:
    def wrap(original: effects.Action) -> effects.Action:
        def eliminate_dying(g: Game, p: Params) -> None:
            frame = g.state.stack[-1]
            assert frame.player is not None
            seat = g.state.seats[frame.player]
            kept = dict(seat.items)
            original(g, p)
            seat.items.update(kept)

        return eliminate_dying

    _action("eliminate_dying", wrap)


def _self_kill_credited() -> None:
    def wrap(original: effects.Action) -> effects.Action:
        def eliminate_dying(g: Game, p: Params) -> None:
            frame = g.state.stack[-1]
            assert frame.player is not None
            own = g.state.damage_source.get(frame.player) == frame.player
            original(g, p)
            if own:
                g.state.seats[frame.player].kills += 1

        return eliminate_dying

    _action("eliminate_dying", wrap)


def _pickpocket_from_oneself() -> None:
    original = effects.GUARDS["item_usable"]

    def item_usable(g: Game, p: Params) -> bool:
        if p.get("item") is Item.PICKPOCKET and p.get("target") == g.state.owner:
            return _owner(g).count(Item.PICKPOCKET) > 0
        return original(g, p)

    _guard("item_usable", item_usable)


def _dying_asks_without_rescue_items() -> None:
    _guard("holds_rescue_item", lambda g, p: True)


def _mercenary_single_charge() -> None:
    def wrap(original: effects.Action) -> effects.Action:
        def apply_item(g: Game, p: Params) -> None:
            original(g, p)
            owner = _owner(g)
            if p["item"] is Item.RAGE_POTION and owner.skilled(Role.MERCENARY):
                owner.rage -= g.rules.rage.mercenary_charges - g.rules.rage.charges

        return apply_item

    _action("apply_item", wrap)


def _conversion_on_rise() -> None:
    original = effects._heal

    def heal(g: Game, seat: Seat, amount: int, cause: str) -> None:
        before = seat.hp
        original(g, seat, amount, cause)
        if before < 1 and seat.hp == 1 and not seat.conversion_used:
            g.state.fell_to_one.append(seat.seat)

    _patch("_heal", heal)


def _end_main_while_loaded() -> None:
    row = tables.TABLES[FrameKind.TURN].states["awaiting_action"]
    row.edges["end_main"] = tuple(_unguarded(edge) for edge in row.edges["end_main"])


def _turn_start_skips_the_draw() -> None:
    def wrap(original: effects.Action) -> effects.Action:
        def draw_turn_items(g: Game, p: Params) -> None:
            if g.state.turn == 1:
                original(g, p)

        return draw_turn_items

    _action("draw_turn_items", wrap)


MUTANTS: dict[str, Mutant] = {
    m.name: m
    for m in (
        Mutant(
            "poll-keeps-eliminated",
            "the shot window also asks eliminated players (S6.2.2)",
            _poll_keeps_eliminated,
            ("poll.n3.owner0.out-1", "poll.n8.owner0.out-1-3-5-7"),
        ),
        Mutant(
            "poll-owner-first",
            "the shot window asks the shooter first instead of last (S6.3.0, R17)",
            _poll_owner_first,
            ("stack.s6-3-worked-example", "poll.n4.owner0.out-none"),
        ),
        Mutant(
            "next-turn-to-eliminated",
            "the turn passes to the next seat even when it is eliminated (S4.5.3, S5.2)",
            _next_turn_to_eliminated,
            ("turn.next-turn-skips-a-player-killed-this-turn", "poll.n3.owner0.out-1"),
        ),
        Mutant(
            "pop-resumes-wrong-state",
            "popping a dying frame resumes the turn waiting for an action, skipping settlement "
            "(S6.1.3)",
            _pop_resumes_wrong_state,
            ("dying.milk-tea-rescues", "stack.frames-pop-last-in-first-out"),
        ),
        Mutant(
            "cap-off-by-one",
            "the item cap is HP + 1 (S4.4.2)",
            _cap_off_by_one,
            ("cap.hp2.holds4", "discard.only-the-owner-discards"),
        ),
        Mutant(
            "traitor-cap-forgotten",
            "a traitor's item cap has no + 1 (S4.4.2, S5.1)",
            _traitor_cap_forgotten,
            ("cap.hp2-traitor.holds4",),
        ),
        Mutant(
            "shield-two-blocks-for-all",
            "every amulet blocks two hits, not only a Medic's (S2.2, S3.4)",
            _shield_two_blocks_for_all,
            ("roleitem.gambler.amulet", "items.amulets-add-up"),
        ),
        Mutant(
            "kill-does-not-lock",
            "a kill does not lock shooting for the rest of the turn (S4.2.1e)",
            _kill_does_not_lock,
            ("shot.a-kill-locks-shooting", "shot.shooting-while-locked-not-offered"),
        ),
        Mutant(
            "second-conversion",
            "the conversion choice can fire again after it was used (S4.3.2)",
            _second_conversion,
            ("conversion.keeping-the-role-uses-the-chance", "roles.traitor-doctor-pills-roll"),
        ),
        Mutant(
            "rage-not-cleared",
            "rage charges survive the turn end (S4.5.1)",
            _rage_not_cleared,
            (
                "turn.turn-end-clears-rage-and-keeps-shields",
                "items.rage-adds-one-damage-once-per-shot",
            ),
        ),
        Mutant(
            "no-extra-action-after-self-blank",
            "a blank at oneself ends the main phase (S4.2.1d)",
            _no_extra_action_after_self_blank,
            ("shot.blank-at-oneself-grants-another-action", "roles.gambler-lucky-streak-pays"),
        ),
        Mutant(
            "extra-action-by-initial-type",
            "the extra action follows the shell's initial type, not its final one (R19)",
            _extra_action_by_initial_type,
            (
                "roles.magician-flips-own-shot-into-another-action",
                "roles.gambler-flipped-to-blank-rolls",
            ),
        ),
        Mutant(
            "blank-keeps-rage",
            "a blank shot does not use a rage charge (S2.4, S3.3)",
            _blank_keeps_rage,
            ("roles.mercenary-rage-lasts-two-shots",),
        ),
        Mutant(
            "traitor-magician-flips",
            "a traitor Magician keeps Ballistic Control (S5.1)",
            _traitor_magician_flips,
            (
                "roles.magician-needs-two-items-and-no-traitor-flag",
                "conversion.a-traitor-magician-cannot-flip",
            ),
        ),
        Mutant(
            "dealers-miss-fresh-loads",
            "Dealers do not see the first shell of a fresh load (S4.1.3, R11)",
            _dealers_miss_fresh_loads,
            ("roles.every-dealer-sees-a-fresh-load", "roles.dealer-owner-sees-a-fresh-load"),
        ),
        Mutant(
            "doctor-reversal-for-everyone",
            "a Doctor's pills heal 2 with no roll on any target, not only on themself (S2.5)",
            _doctor_reversal_for_everyone,
            ("roles.doctor-pills-on-another-roll",),
        ),
        Mutant(
            "heal-above-max",
            "healing ignores the maximum HP (R2)",
            _heal_above_max,
            ("items.milk-tea-heals-up-to-the-maximum", "roles.doctor-pills-on-themself-capped"),
        ),
        Mutant(
            "eliminated-keep-items",
            "an eliminated player's items stay in the game (R13)",
            _eliminated_keep_items,
            ("dying.giving-up-eliminates", "dying.without-rescue-items-eliminated-unasked"),
        ),
        Mutant(
            "self-kill-credited",
            "eliminating oneself counts as a kill (R7)",
            _self_kill_credited,
            ("dying.an-owner-who-dies-skips-to-turn-end",),
        ),
        Mutant(
            "pickpocket-from-oneself",
            "the pickpocket may target its own user (S3.7, R23)",
            _pickpocket_from_oneself,
            ("items.pickpocket-takes-from-another-who-holds-items",),
        ),
        Mutant(
            "dying-asks-without-rescue-items",
            "a dying player with no rescue item is asked instead of being eliminated (R10)",
            _dying_asks_without_rescue_items,
            (
                "dying.without-rescue-items-eliminated-unasked",
                "turn.next-turn-skips-a-player-killed-this-turn",
            ),
        ),
        Mutant(
            "mercenary-single-charge",
            "a Mercenary's rage potion gives one charge (S2.4)",
            _mercenary_single_charge,
            ("roleitem.mercenary.rage_potion", "roles.mercenary-rage-lasts-two-shots"),
        ),
        Mutant(
            "conversion-on-rise",
            "a rescue from 0 up to 1 triggers the conversion choice (R6)",
            _conversion_on_rise,
            ("dying.milk-tea-rescues", "conversion.a-fall-from-two-to-zero-skips-it"),
        ),
        Mutant(
            "end-main-while-loaded",
            "the owner may end the main phase with a shell still loaded (R4)",
            _end_main_while_loaded,
            ("shot.end-main-withheld-while-loaded", "shot.end-main-refused-while-loaded"),
        ),
        Mutant(
            "turn-start-skips-the-draw",
            "only the first turn start draws items (S4.1.1)",
            _turn_start_skips_the_draw,
            ("turn.five-phases-in-order", "poll.n2.owner0.out-none"),
        ),
        Mutant(
            "dealer-told-twice",
            "a Dealer owner is told the first shell twice at a fresh load on their own turn (R11)",
            contract.dealer_told_twice,
            (
                "roles.dealer-owner-told-once-at-a-fresh-load",
                "roles.two-dealers-each-told-once-at-a-fresh-load",
            ),
        ),
        Mutant(
            "eliminated-keep-shield-and-rage",
            "an eliminated player keeps their shield blocks and rage charges (R13)",
            contract.eliminated_keep_shield_and_rage,
            (
                "dying.eliminated-seat-loses-shield-and-rage",
                "dying.eliminated-seat-loses-rage-at-once",
            ),
        ),
        Mutant(
            "tally-hp-of-the-living",
            "the tally's hp lists the living seats only (INTERPRETING.md 6.2)",
            contract.tally_hp_of_the_living,
            (
                "turn.tally-lists-every-seat-hp",
                "dying.eliminated-seat-loses-shield-and-rage",
            ),
        ),
        Mutant(
            "rage-cleared-for-the-owner-only",
            "turn end clears the owner's rage charges only (R9, R25)",
            contract.rage_cleared_for_the_owner_only,
            ("turn.turn-end-clears-every-seats-rage",),
        ),
        Mutant(
            "conversion-only-from-two",
            "only a fall from 2 to 1 offers the conversion, never a boosted one from 3 (R6)",
            contract.conversion_only_from_two,
            ("conversion.a-boosted-fall-from-three-to-one-converts",),
        ),
        Mutant(
            "last-standing-before-traitor-kills",
            "a traitor's winning kill that leaves one standing gives last_standing (S5.1, R7)",
            contract.last_standing_before_traitor_kills,
            ("win.traitor-kill-that-leaves-one-standing-is-traitor-kills",),
        ),
        Mutant(
            "tally-counts-rescue-items",
            "the tally counts rescue items used in the owner's own dying frame (6.2)",
            contract.tally_counts_rescue_items,
            ("turn.rescue-items-not-counted-in-the-tally",),
        ),
        Mutant(
            "empty-draw-announced",
            "a turn start that draws nothing writes an empty items_drawn (INTERPRETING.md 6.2)",
            contract.empty_draw_announced,
            ("turn.no-items-drawn-event-when-none-are-drawn",),
        ),
        Mutant(
            "malformed-before-wrong-player",
            "the option text is read before the sender is checked (INTERPRETING.md 7)",
            contract.malformed_before_wrong_player,
            ("decision.malformed-text-from-the-wrong-player-is-wrong-player",),
        ),
        Mutant(
            "malformed-before-game-over",
            "the option text is read before the end of the game is checked (INTERPRETING.md 7)",
            contract.malformed_before_game_over,
            ("decision.unreadable-text-after-the-end-is-game-over",),
        ),
        Mutant(
            "refused-before-not-offered",
            "an option the state has no transition for is refused, not not_offered (7)",
            contract.refused_before_not_offered,
            ("decision.item-not-held-in-a-window-not-offered",),
        ),
        Mutant(
            "not-offered-before-malformed",
            "a decision with no transition is not_offered even when its text is malformed (7)",
            contract.not_offered_before_malformed,
            ("decision.unknown-parameter-before-not-offered",),
        ),
        Mutant(
            "target-beyond-the-table-malformed",
            "a target numeral that names no seat is malformed, not refused (7, settled)",
            contract.target_beyond_the_table_malformed,
            ("shot.target-outside-the-table-refused",),
        ),
        Mutant(
            "negative-target-refused",
            "a target that is not a numeral (-1) is refused, not malformed (7, settled)",
            contract.negative_target_refused,
            ("decision.target-not-a-numeral-malformed",),
        ),
        Mutant(
            "absent-seat-malformed",
            "a player number the table does not have is malformed, not wrong_player (settled)",
            contract.absent_seat_malformed,
            ("decision.a-seat-not-at-the-table-is-wrong-player",),
        ),
        Mutant(
            "non-canonical-text-malformed",
            "option text with parameters or flip items out of order is malformed (settled)",
            contract.non_canonical_text_malformed,
            (
                "decision.parameters-in-any-order-accepted",
                "roles.flip-items-in-any-order-accepted",
            ),
        ),
        Mutant(
            "decided-as-sent",
            "decided.option repeats the text as sent, not its canonical form (settled)",
            contract.decided_as_sent,
            (
                "decision.parameters-in-any-order-accepted",
                "roles.flip-items-in-any-order-accepted",
            ),
        ),
        Mutant(
            "order-counts-unchecked",
            "an order with other counts than the load is played (INTERPRETING.md 3.2)",
            contract.order_counts_unchecked,
            ("chance.order-with-other-counts-invalid",),
        ),
        Mutant(
            "zero-weight-items-drawn",
            "an item of weight 0 can be drawn (INTERPRETING.md 3.2, R15)",
            contract.zero_weight_items_drawn,
            ("chance.item-of-weight-zero-invalid",),
        ),
        Mutant(
            "unknown-item-drawn-as-the-first-kind",
            "an unknown item name is drawn as the first item kind (INTERPRETING.md 3.2)",
            contract.unknown_item_drawn_as_the_first_kind,
            ("chance.unknown-item-invalid",),
        ),
        Mutant(
            "pill-anything-but-heal-loses",
            "a pill outcome other than heal counts as lose (INTERPRETING.md 3.2)",
            contract.pill_anything_but_heal_loses,
            ("chance.pill-outcome-other-than-heal-or-lose-invalid",),
        ),
        Mutant(
            "gambler-truthy-values",
            "any truthy Lucky Streak outcome counts as a win (INTERPRETING.md 3.2)",
            contract.gambler_truthy_values,
            ("chance.gambler-outcome-not-a-boolean-invalid",),
        ),
        Mutant(
            "chance-invalid-rolls-back-the-decision",
            "on chance.invalid the trace is reported as before the decision (settled)",
            contract.chance_invalid_rolls_back_the_decision,
            ("chance.pill-outcome-other-than-heal-or-lose-invalid",),
        ),
        Mutant(
            "chance-invalid-reports-no-trace",
            "on chance.invalid no events are reported (settled)",
            contract.chance_invalid_reports_no_trace,
            (
                "chance.order-with-other-counts-invalid",
                "chance.pill-outcome-other-than-heal-or-lose-invalid",
            ),
        ),
        Mutant(
            "shot-kept-after-the-window",
            "the canonical state's shot stays set after its window closed (INTERPRETING.md 5)",
            contract.shot_kept_after_the_window,
            ("shot.no-shot-in-the-state-once-the-window-closes",),
        ),
        Mutant(
            "turn-started-stamped-before-the-increment",
            "turn_started carries the number of the turn that ended (settled)",
            contract.turn_started_stamped_before_the_increment,
            ("turn.turn-started-carries-the-new-turn-number",),
        ),
        Mutant(
            "setup-hp-clamped",
            "HP outside 0..hp.max, or 0 for a living seat, is clamped, not refused (3.1)",
            contract.setup_hp_clamped,
            (
                "setup.living-seat-at-zero-hp-refused",
                "setup.hp-above-the-maximum-refused",
            ),
        ),
        Mutant(
            "setup-negative-counts-zeroed",
            "negative counts in a setup are read as 0 (INTERPRETING.md 3.1)",
            contract.setup_negative_counts_zeroed,
            (
                "setup.negative-shield-refused",
                "setup.negative-kills-refused",
            ),
        ),
        Mutant(
            "setup-unknown-names-dropped",
            "unknown items are dropped and unknown roles read as a Medic (INTERPRETING.md 3.1)",
            contract.setup_unknown_names_dropped,
            (
                "setup.unknown-role-refused",
                "setup.unknown-item-refused",
            ),
        ),
        Mutant(
            "setup-owner-moved-to-a-living-seat",
            "an owner that is no living seat is replaced by the first living one (3.1)",
            contract.setup_owner_moved_to_a_living_seat,
            (
                "setup.eliminated-owner-refused",
                "setup.owner-outside-the-table-refused",
            ),
        ),
        Mutant(
            "setup-invalid-ruleset-ignored",
            "a ruleset that breaks its own rules is replaced by the default (INTERPRETING.md 3.1)",
            contract.setup_invalid_ruleset_ignored,
            ("setup.invalid-ruleset-refused",),
        ),
        Mutant(
            "setup-eliminated-seat-cleaned",
            "an eliminated seat with HP or effects is accepted and cleaned (settled, R13)",
            contract.setup_eliminated_seat_cleaned,
            (
                "setup.eliminated-seat-with-hp-refused",
                "setup.eliminated-seat-with-effects-refused",
            ),
        ),
        Mutant(
            "setup-traitor-conversion-marked-used",
            "a traitor seat whose conversion is unused is accepted, marked used (3.1, R6)",
            contract.setup_traitor_conversion_marked_used,
            ("setup.traitor-with-an-unused-conversion-refused",),
        ),
        Mutant(
            "setup-chamber-trimmed",
            "a chamber longer than shells.max_per_load is cut to that length (3.1, R1)",
            contract.setup_chamber_trimmed,
            ("setup.chamber-beyond-a-load-refused",),
        ),
        Mutant(
            "setup-won-game-accepted",
            "a setup in which a traitor has already won is played on (settled)",
            contract.setup_won_game_accepted,
            (
                "setup.traitor-who-has-won-refused",
                "setup.eliminated-traitor-who-has-won-refused",
            ),
        ),
        Mutant(
            "setup-dead-traitor-never-won",
            "an eliminated traitor's kills are no win, so such a setup is played on (settled)",
            contract.setup_dead_traitor_never_won,
            ("setup.eliminated-traitor-who-has-won-refused",),
        ),
    )
}
"""Every mutant, by name."""


def apply_mutant(name: str) -> Mutant:
    """Break the engine in this process as mutant ``name`` says; ``KeyError`` if unknown."""
    try:
        mutant = MUTANTS[name]
    except KeyError:
        raise KeyError(f"unknown mutant {name!r}; known: {', '.join(MUTANTS)}") from None
    mutant.apply()
    return mutant
