"""Deliberate bugs of the reference engine's rules, each caught by conformance cases.

Each breaker changes one rule of the engine in the adapter's process, through the engine's
seams only (``tests/faults/seams.py``): a registry guard or action replaced or
wrapped, a rule helper substituted, or an edge of the tables edited. The decorator above it
adds it to :data:`BREAKERS` under its name; its row of ``manifest.json`` says what it
breaks and the cases that must catch it. ``python tests/faults/adapter.py --fault NAME``
serves the reference adapter with it, and a test runs each against its cases and checks
that they fail (``tests/conformance/test_conformance_mutants.py``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from weakref import WeakKeyDictionary

from buckshot.reference import effects
from buckshot.reference.effects import Action, Board, Guard, Params
from buckshot.reference.events import EventType
from buckshot.reference.state import Seat
from buckshot.reference.tables import Edge
from buckshot.spec.polling import poll_order as spec_poll_order
from buckshot.spec.rulebook import FrameKind, Item, Role, Shell, item_spec
from faults import seams
from faults.seams import Helper
from faults.served import B, Breaker, served_fault

BREAKERS: dict[str, Breaker] = {}
"""Every fault of the engine's rules, by name, in declaration order."""


def engine_fault(name: str) -> Callable[[B], B]:
    """Register the decorated breaker as the engine fault ``name`` (its row of manifest.json
    says what it breaks and what must catch it)."""
    return served_fault(BREAKERS, name)


def _owner(g: Board) -> Seat:
    return g.state.seats[g.state.owner]


def _unguarded(edge: Edge) -> Edge:
    """``edge`` with no guards at all (the edge works out its guard tests from them)."""
    return dataclasses.replace(edge, guards=())


# --- the faults, each above its breaker -----------------------------------------------------------


@engine_fault("poll-keeps-eliminated")
def _poll_keeps_eliminated() -> None:
    def poll_order(alive: Sequence[bool], owner: int) -> tuple[int, ...]:
        return tuple((owner + step) % len(alive) for step in range(1, len(alive) + 1))

    seams.replace_helper("poll_order", poll_order)


@engine_fault("poll-owner-first")
def _poll_owner_first() -> None:
    def poll_order(alive: Sequence[bool], owner: int) -> tuple[int, ...]:
        order = spec_poll_order(alive, owner)
        return order[-1:] + order[:-1]

    seams.replace_helper("poll_order", poll_order)


@engine_fault("next-turn-to-eliminated")
def _next_turn_to_eliminated() -> None:
    def next_living_seat(alive: Sequence[bool], seat: int) -> int | None:
        return (seat + 1) % len(alive)

    seams.replace_helper("next_living_seat", next_living_seat)


@engine_fault("pop-resumes-wrong-state")
def _pop_resumes_wrong_state() -> None:
    def resume_in_main(edge: Edge) -> Edge:
        return dataclasses.replace(edge, entry="awaiting_action")

    seams.edit_edges(FrameKind.TURN, "awaiting_dying", "dying_resolved", resume_in_main)


@engine_fault("cap-off-by-one")
def _cap_off_by_one() -> None:
    def wrap(original: Helper) -> Helper:
        return lambda g, seat: original(g, seat) + 1

    seams.wrap_helper("item_cap", wrap)


@engine_fault("traitor-cap-forgotten")
def _traitor_cap_forgotten() -> None:
    seams.replace_helper("item_cap", lambda g, seat: seat.hp)


@engine_fault("shield-two-blocks-for-all")
def _shield_two_blocks_for_all() -> None:
    def wrap(original: Action) -> Action:
        def apply_item(g: Board, p: Params) -> None:
            original(g, p)
            owner = _owner(g)
            if p["item"] is Item.AMULET and not owner.skilled(Role.MEDIC):
                owner.shield += g.rules.shield.medic_blocks - g.rules.shield.blocks

        return apply_item

    seams.wrap_action("apply_item", wrap)


@engine_fault("kill-does-not-lock")
def _kill_does_not_lock() -> None:
    def wrap(original: Action) -> Action:
        def eliminate_dying(g: Board, p: Params) -> None:
            original(g, p)
            g.state.kill_lock = False

        return eliminate_dying

    seams.wrap_action("eliminate_dying", wrap)


@engine_fault("second-conversion")
def _second_conversion() -> None:
    def lose(g: Board, seat: Seat, amount: int, source: int, cause: str) -> None:
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

    def converting_seat(g: Board) -> Seat | None:
        for seat_no in g.state.fell_to_one:
            seat = g.state.seats[seat_no]
            if seat.alive and seat.hp == 1:
                return seat
        return None

    seams.replace_helper("lose", lose)
    seams.replace_helper("converting_seat", converting_seat)


@engine_fault("rage-not-cleared")
def _rage_not_cleared() -> None:
    def wrap(original: Action) -> Action:
        def clear_turn_effects(g: Board, p: Params) -> None:
            kept = [seat.rage for seat in g.state.seats]
            original(g, p)
            for seat, rage in zip(g.state.seats, kept, strict=True):
                seat.rage = rage

        return clear_turn_effects

    seams.wrap_action("clear_turn_effects", wrap)


@engine_fault("no-extra-action-after-self-blank")
def _no_extra_action_after_self_blank() -> None:
    seams.replace_guard("main_continues", lambda g, p: g.state.last_step == "item")


@engine_fault("extra-action-by-initial-type")
def _extra_action_by_initial_type() -> None:
    def wrap(original: Action) -> Action:
        def settle_shot(g: Board, p: Params) -> None:
            shot = g.state.shot
            assert shot is not None
            at_self, initial = shot.target == shot.shooter, shot.initial
            original(g, p)
            g.state.last_step = "self_blank" if at_self and initial is Shell.BLANK else "shot"

        return settle_shot

    seams.wrap_action("settle_shot", wrap)


@engine_fault("blank-keeps-rage")
def _blank_keeps_rage() -> None:
    def wrap(original: Action) -> Action:
        def settle_shot(g: Board, p: Params) -> None:
            shot = g.state.shot
            assert shot is not None
            shooter = g.state.seats[shot.shooter]
            refund = shot.shell is Shell.BLANK and shooter.rage > 0
            original(g, p)
            if refund:
                shooter.rage += 1

        return settle_shot

    seams.wrap_action("settle_shot", wrap)


@engine_fault("traitor-magician-flips")
def _traitor_magician_flips() -> None:
    def can_flip(g: Board, p: Params) -> bool:
        seat = g.state.seats[effects.poll_cursor(g)]
        items = p.get("items")
        if seat.role is not Role.MAGICIAN or not isinstance(items, tuple):
            return False
        if len(items) != g.rules.magician.cost:
            return False
        return all(seat.count(item) >= items.count(item) for item in set(items))

    seams.replace_guard("can_flip", can_flip)


@engine_fault("dealers-miss-fresh-loads")
def _dealers_miss_fresh_loads() -> None:
    def wrap(original: Action) -> Action:
        def load_chamber(g: Board, p: Params) -> None:
            dealers = [s for s in g.state.seats if s.role is Role.DEALER and not s.traitor]
            for seat in dealers:
                seat.traitor = True  # hide the skill while loading
            try:
                original(g, p)
            finally:
                for seat in dealers:
                    seat.traitor = False

        return load_chamber

    seams.wrap_action("load_chamber", wrap)


@engine_fault("doctor-reversal-for-everyone")
def _doctor_reversal_for_everyone() -> None:
    def wrap(original: Helper) -> Helper:
        def pills(g: Board, user: Seat, target: Seat) -> None:
            if user.skilled(Role.DOCTOR) and target is not user:
                effects.heal(g, target, g.rules.pills.doctor_heal, "expired_pills")
                return
            original(g, user, target)

        return pills

    seams.wrap_helper("pills", wrap)


@engine_fault("heal-above-max")
def _heal_above_max() -> None:
    def heal(g: Board, seat: Seat, amount: int, cause: str) -> None:
        if amount:
            seat.hp += amount
            g.emit(EventType.HP_CHANGED, player=seat.seat, hp=seat.hp, delta=amount, cause=cause)

    seams.replace_helper("heal", heal)


@engine_fault("eliminated-keep-items")
def _eliminated_keep_items() -> None:
    def wrap(original: Action) -> Action:
        def eliminate_dying(g: Board, p: Params) -> None:
            frame = g.state.stack[-1]
            assert frame.player is not None
            seat = g.state.seats[frame.player]
            kept = dict(seat.items)
            original(g, p)
            seat.items.update(kept)

        return eliminate_dying

    seams.wrap_action("eliminate_dying", wrap)


@engine_fault("self-kill-credited")
def _self_kill_credited() -> None:
    def wrap(original: Action) -> Action:
        def eliminate_dying(g: Board, p: Params) -> None:
            frame = g.state.stack[-1]
            assert frame.player is not None
            own = g.state.damage_source.get(frame.player) == frame.player
            original(g, p)
            if own:
                g.state.seats[frame.player].kills += 1

        return eliminate_dying

    seams.wrap_action("eliminate_dying", wrap)


@engine_fault("pickpocket-from-oneself")
def _pickpocket_from_oneself() -> None:
    def wrap(original: Guard) -> Guard:
        def item_usable(g: Board, p: Params) -> bool:
            if p.get("item") is Item.PICKPOCKET and p.get("target") == g.state.owner:
                return _owner(g).count(Item.PICKPOCKET) > 0
            return original(g, p)

        return item_usable

    seams.wrap_guard("item_usable", wrap)


@engine_fault("dying-asks-without-rescue-items")
def _dying_asks_without_rescue_items() -> None:
    seams.replace_guard("holds_rescue_item", lambda g, p: True)


@engine_fault("mercenary-single-charge")
def _mercenary_single_charge() -> None:
    def wrap(original: Action) -> Action:
        def apply_item(g: Board, p: Params) -> None:
            original(g, p)
            owner = _owner(g)
            if p["item"] is Item.RAGE_POTION and owner.skilled(Role.MERCENARY):
                owner.rage -= g.rules.rage.mercenary_charges - g.rules.rage.charges

        return apply_item

    seams.wrap_action("apply_item", wrap)


@engine_fault("conversion-on-rise")
def _conversion_on_rise() -> None:
    def wrap(original: Helper) -> Helper:
        def heal(g: Board, seat: Seat, amount: int, cause: str) -> None:
            before = seat.hp
            original(g, seat, amount, cause)
            if before < 1 and seat.hp == 1 and not seat.conversion_used:
                g.state.fell_to_one.append(seat.seat)

        return heal

    seams.wrap_helper("heal", wrap)


@engine_fault("end-main-while-loaded")
def _end_main_while_loaded() -> None:
    seams.edit_edges(FrameKind.TURN, "awaiting_action", "end_main", _unguarded)


@engine_fault("turn-start-skips-the-draw")
def _turn_start_skips_the_draw() -> None:
    def wrap(original: Action) -> Action:
        def draw_turn_items(g: Board, p: Params) -> None:
            if g.state.turn == 1:
                original(g, p)

        return draw_turn_items

    seams.wrap_action("draw_turn_items", wrap)


@engine_fault("shot-fired-shows-the-initial-type")
def _shot_fired_shows_the_initial_type() -> None:
    def wrap(original: Action) -> Action:
        def settle_shot(g: Board, p: Params) -> None:
            shot = g.state.shot
            assert shot is not None
            initial, at = shot.initial, len(g.events)
            original(g, p)
            for event in g.events[at:]:
                if event.type is EventType.SHOT_FIRED:
                    event.data["shell"] = initial.value

        return settle_shot

    seams.wrap_action("settle_shot", wrap)


_OWED_KILLS: WeakKeyDictionary[Board, dict[int, int]] = WeakKeyDictionary()
"""Kills each game owes its seats until the tally (kills-credited-at-settlement)."""


@engine_fault("kills-credited-at-settlement")
def _kills_credited_at_settlement() -> None:
    def wrap_elimination(original: Action) -> Action:
        def eliminate_dying(g: Board, p: Params) -> None:
            before = [seat.kills for seat in g.state.seats]
            original(g, p)
            owed = _OWED_KILLS.setdefault(g, {})
            for seat, kills in zip(g.state.seats, before, strict=True):
                if seat.kills > kills:
                    owed[seat.seat] = owed.get(seat.seat, 0) + seat.kills - kills
                    seat.kills = kills

        return eliminate_dying

    def wrap_tally(original: Action) -> Action:
        def report_tally(g: Board, p: Params) -> None:
            for seat, kills in _OWED_KILLS.pop(g, {}).items():
                g.state.seats[seat].kills += kills
            original(g, p)

        return report_tally

    seams.wrap_action("eliminate_dying", wrap_elimination)
    seams.wrap_action("report_tally", wrap_tally)


@engine_fault("magician-cannot-flip-own-shot")
def _magician_cannot_flip_own_shot() -> None:
    def wrap(original: Guard) -> Guard:
        def can_flip(g: Board, p: Params) -> bool:
            shot = g.state.shot
            if shot is not None and effects.poll_cursor(g) == shot.shooter:
                return False
            return original(g, p)

        return can_flip

    seams.wrap_guard("can_flip", wrap)


@engine_fault("turn-passes-counter-clockwise")
def _turn_passes_counter_clockwise() -> None:
    def next_living_seat(alive: Sequence[bool], seat: int) -> int | None:
        seats = len(alive)
        for step in range(1, seats + 1):
            if alive[(seat - step) % seats]:
                return (seat - step) % seats
        return None

    seams.replace_helper("next_living_seat", next_living_seat)


@engine_fault("counter-window-without-a-counter-skill")
def _counter_window_without_a_counter_skill() -> None:
    seams.replace_guard(
        "counter_possible", lambda g, p: len(g.state.stack) < g.rules.limits.max_stack_depth
    )


@engine_fault("lucky-streak-on-any-blank")
def _lucky_streak_on_any_blank() -> None:
    def wrap(original: Action) -> Action:
        def settle_shot(g: Board, p: Params) -> None:
            shot = g.state.shot
            assert shot is not None
            shooter = g.state.seats[shot.shooter]
            at_another = shot.target != shot.shooter
            original(g, p)
            if at_another and shot.shell is Shell.BLANK and shooter.skilled(Role.GAMBLER):
                rules = g.rules.gambler
                won = g.chance.gambler_bonus(rules.bonus_chance)
                g.emit(EventType.GAMBLER_ROLLED, player=shooter.seat, won=won)
                if won:
                    effects.draw(g, shooter, rules.bonus_items, "lucky_streak")

        return settle_shot

    seams.wrap_action("settle_shot", wrap)


@engine_fault("turn-limit-draw-names-the-living")
def _turn_limit_draw_names_the_living() -> None:
    def declare_draw(g: Board, p: Params) -> None:
        living = [seat.seat for seat in g.state.seats if seat.alive]
        g.state.winners, g.state.end_reason = living, "turn_limit"
        g.emit(EventType.GAME_OVER, winners=living, reason="turn_limit")

    seams.replace_action("declare_draw", declare_draw)


@engine_fault("chamber-items-on-an-empty-chamber")
def _chamber_items_on_an_empty_chamber() -> None:
    def wrap(original: Guard) -> Guard:
        def item_usable(g: Board, p: Params) -> bool:
            item = p.get("item")
            if not g.state.shells and isinstance(item, Item) and item_spec(item).needs_shell:
                return _owner(g).count(item) > 0 and p.get("target") is None
            return original(g, p)

        return item_usable

    seams.wrap_guard("item_usable", wrap)


@engine_fault("others-over-the-cap-discard-too")
def _others_over_the_cap_discard_too() -> None:
    def wrap(original: Action) -> Action:
        def report_tally(g: Board, p: Params) -> None:
            original(g, p)
            for seat in g.state.seats:
                if seat.seat == g.state.owner or not seat.alive:
                    continue
                while seat.total_items() > effects.item_cap(g, seat):
                    item = [kind for kind in Item if seat.count(kind)][-1]
                    seat.remove(item)
                    g.emit(EventType.DISCARDED, player=seat.seat, item=item.value)

        return report_tally

    seams.wrap_action("report_tally", wrap)


@engine_fault("no-items-while-shooting-locked")
def _no_items_while_shooting_locked() -> None:
    def wrap(original: Guard) -> Guard:
        return lambda g, p: not g.state.kill_lock and original(g, p)

    seams.wrap_guard("item_usable", wrap)


# --- second readings of the rulings (docs/conformance.md, "Plausible wrong readings") ------


@engine_fault("damage-below-zero")
def _damage_below_zero() -> None:
    def wrap(original: Helper) -> Helper:
        def lose(g: Board, seat: Seat, amount: int, source: int, cause: str) -> None:
            below = amount - seat.hp
            original(g, seat, amount, source, cause)
            if below > 0:
                seat.hp = -below

        return lose

    seams.wrap_helper("lose", wrap)


@engine_fault("rage-adds-no-damage")
def _rage_adds_no_damage() -> None:
    def wrap(original: Helper) -> Helper:
        def lose(g: Board, seat: Seat, amount: int, source: int, cause: str) -> None:
            if cause == "shot":
                amount = min(amount, g.rules.shot.live_damage)
            original(g, seat, amount, source, cause)

        return lose

    seams.wrap_helper("lose", wrap)


@engine_fault("no-shot-at-oneself")
def _no_shot_at_oneself() -> None:
    def wrap(original: Guard) -> Guard:
        return lambda g, p: p.get("target") != g.state.owner and original(g, p)

    seams.wrap_guard("shot_target_valid", wrap)


@engine_fault("turn-limit-one-turn-late")
def _turn_limit_one_turn_late() -> None:
    seams.replace_guard("turn_limit_reached", lambda g, p: g.state.turn > g.rules.limits.max_turns)


@engine_fault("pickpocket-from-empty-hands")
def _pickpocket_from_empty_hands() -> None:
    def wrap(original: Guard) -> Guard:
        def item_usable(g: Board, p: Params) -> bool:
            target = p.get("target")
            if p.get("item") is Item.PICKPOCKET and isinstance(target, int):
                seats = g.state.seats
                return (
                    _owner(g).count(Item.PICKPOCKET) > 0
                    and 0 <= target < len(seats)
                    and seats[target].alive
                    and target != g.state.owner
                )
            return original(g, p)

        return item_usable

    seams.wrap_guard("item_usable", wrap)


@engine_fault("window-skips-players-without-a-skill")
def _window_skips_players_without_a_skill() -> None:
    def wrap(original: Action) -> Action:
        def open_shot_window(g: Board, p: Params) -> None:
            original(g, p)
            frame, seats, owner = g.state.stack[-1], g.state.seats, g.state.owner
            frame.order = tuple(
                s for s in frame.order if s == owner or seats[s].skilled(Role.MAGICIAN)
            )

        return open_shot_window

    seams.wrap_action("open_shot_window", wrap)


@engine_fault("traitor-gambler-rolls")
def _traitor_gambler_rolls() -> None:
    def wrap(original: Action) -> Action:
        def settle_shot(g: Board, p: Params) -> None:
            shot = g.state.shot
            assert shot is not None
            shooter = g.state.seats[shot.shooter]
            at_self = shot.target == shot.shooter
            original(g, p)
            blank = g.state.last_step == "self_blank"
            if at_self and blank and shooter.role is Role.GAMBLER and shooter.traitor:
                rules = g.rules.gambler
                won = g.chance.gambler_bonus(rules.bonus_chance)
                g.emit(EventType.GAMBLER_ROLLED, player=shooter.seat, won=won)
                if won:
                    effects.draw(g, shooter, rules.bonus_items, "lucky_streak")

        return settle_shot

    seams.wrap_action("settle_shot", wrap)


@engine_fault("inverter-flips-the-next-shell-only")
def _inverter_flips_the_next_shell_only() -> None:
    def wrap(original: Action) -> Action:
        def apply_item(g: Board, p: Params) -> None:
            rest = list(g.state.shells[1:])
            original(g, p)
            if p["item"] is Item.INVERTER:
                g.state.shells[1:] = rest

        return apply_item

    seams.wrap_action("apply_item", wrap)


_RESCUED_ONCE: WeakKeyDictionary[Board, set[int]] = WeakKeyDictionary()
"""Dying frames (by id) whose player already used a rescue item (one-rescue-while-dying)."""


@engine_fault("one-rescue-while-dying")
def _one_rescue_while_dying() -> None:
    def wrap_rescue(original: Action) -> Action:
        def apply_rescue_item(g: Board, p: Params) -> None:
            _RESCUED_ONCE.setdefault(g, set()).add(g.state.stack[-1].id)
            original(g, p)

        return apply_rescue_item

    def wrap_holds(original: Guard) -> Guard:
        def holds_rescue_item(g: Board, p: Params) -> bool:
            used = g.state.stack[-1].id in _RESCUED_ONCE.get(g, set())
            return not used and original(g, p)

        return holds_rescue_item

    seams.wrap_action("apply_rescue_item", wrap_rescue)
    seams.wrap_guard("holds_rescue_item", wrap_holds)


@engine_fault("a-kill-ends-the-main-phase")
def _a_kill_ends_the_main_phase() -> None:
    seams.replace_guard("kill_locked", lambda g, p: False)


@engine_fault("turn-draw-after-the-preview")
def _turn_draw_after_the_preview() -> None:
    def wrap_draw(original: Action) -> Action:
        return lambda g, p: None

    def wrap_preview(original: Action) -> Action:
        def prophet_preview(g: Board, p: Params) -> None:
            original(g, p)
            effects.draw(g, _owner(g), g.rules.items.per_turn, "turn_start")

        return prophet_preview

    seams.wrap_action("draw_turn_items", wrap_draw)
    seams.wrap_action("prophet_preview", wrap_preview)


@engine_fault("dying-uses-any-item")
def _dying_uses_any_item() -> None:
    def wrap(original: Guard) -> Guard:
        def rescue_usable(g: Board, p: Params) -> bool:
            item = p.get("item")
            return isinstance(item, Item) and effects.frame_player(g).count(item) > 0

        return rescue_usable

    seams.wrap_guard("rescue_usable", wrap)


@engine_fault("dying-checked-only-after-shots")
def _dying_checked_only_after_shots() -> None:
    def wrap(original: Guard) -> Guard:
        return lambda g, p: g.state.last_step != "item" and original(g, p)

    seams.wrap_guard("someone_dying", wrap)
