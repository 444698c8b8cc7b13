"""Deliberately broken variants of the reference engine, to prove the suite catches them.

Each mutant breaks one rule by monkeypatching the engine's effect functions, helpers or
compiled tables in the running process (no engine file is edited). The reference adapter
applies one with ``--mutant NAME``; a test runs each against the cases listed in
``caught_by`` and checks that they fail. ``breaks`` is the one place that says what a
mutant breaks (clauses, rulings, MUST tags of INTERPRETING.md; checked at import), and
:mod:`buckshot.conformance.coverage` checks every ruling and MUST tag is broken by some
caught mutant.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from buckshot.conformance import contract_mutants as contract
from buckshot.conformance import coverage, patching
from buckshot.reference import effects, tables
from buckshot.reference.events import EventType
from buckshot.spec.polling import poll_order as spec_poll_order
from buckshot.spec.rulebook import FrameKind, Item, Role, Shell, item_spec

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
    breaks: tuple[str, ...]
    """The clauses, rulings and MUST tags of INTERPRETING.md it breaks (the one place)."""


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


def _shot_fired_shows_the_initial_type() -> None:
    def wrap(original: effects.Action) -> effects.Action:
        def settle_shot(g: Game, p: Params) -> None:
            shot = g.state.shot
            assert shot is not None
            initial, at = shot.initial, len(g.events)
            original(g, p)
            for event in g.events[at:]:
                if event.type is EventType.SHOT_FIRED:
                    event.data["shell"] = initial.value

        return settle_shot

    _action("settle_shot", wrap)


def _kills_credited_at_settlement() -> None:
    def wrap_elimination(original: effects.Action) -> effects.Action:
        def eliminate_dying(g: Game, p: Params) -> None:
            before = [seat.kills for seat in g.state.seats]
            original(g, p)
            owed: dict[int, int] = g.__dict__.setdefault("_owed_kills", {})
            for seat, kills in zip(g.state.seats, before, strict=True):
                if seat.kills > kills:
                    owed[seat.seat] = owed.get(seat.seat, 0) + seat.kills - kills
                    seat.kills = kills

        return eliminate_dying

    def wrap_tally(original: effects.Action) -> effects.Action:
        def report_tally(g: Game, p: Params) -> None:
            for seat, kills in g.__dict__.pop("_owed_kills", {}).items():
                g.state.seats[seat].kills += kills
            original(g, p)

        return report_tally

    _action("eliminate_dying", wrap_elimination)
    _action("report_tally", wrap_tally)


def _magician_cannot_flip_own_shot() -> None:
    original = effects.GUARDS["can_flip"]

    def can_flip(g: Game, p: Params) -> bool:
        shot = g.state.shot
        if shot is not None and effects.poll_cursor(g) == shot.shooter:
            return False
        return original(g, p)

    _guard("can_flip", can_flip)


def _turn_passes_counter_clockwise() -> None:
    def next_living_seat(alive: Sequence[bool], seat: int) -> int | None:
        seats = len(alive)
        for step in range(1, seats + 1):
            if alive[(seat - step) % seats]:
                return (seat - step) % seats
        return None

    _patch("next_living_seat", next_living_seat)


def _counter_window_without_a_counter_skill() -> None:
    _guard("counter_possible", lambda g, p: len(g.state.stack) < g.rules.limits.max_stack_depth)


def _lucky_streak_on_any_blank() -> None:
    def wrap(original: effects.Action) -> effects.Action:
        def settle_shot(g: Game, p: Params) -> None:
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
                    effects._draw(g, shooter, rules.bonus_items, "lucky_streak")

        return settle_shot

    _action("settle_shot", wrap)


def _turn_limit_draw_names_the_living() -> None:
    def declare_draw(g: Game, p: Params) -> None:
        living = [seat.seat for seat in g.state.seats if seat.alive]
        g.state.winners, g.state.end_reason = living, "turn_limit"
        g.emit(EventType.GAME_OVER, winners=living, reason="turn_limit")

    _action("declare_draw", lambda original: declare_draw)


def _chamber_items_on_an_empty_chamber() -> None:
    original = effects.GUARDS["item_usable"]

    def item_usable(g: Game, p: Params) -> bool:
        item = p.get("item")
        if not g.state.shells and isinstance(item, Item) and item_spec(item).needs_shell:
            return _owner(g).count(item) > 0 and p.get("target") is None
        return original(g, p)

    _guard("item_usable", item_usable)


def _others_over_the_cap_discard_too() -> None:
    def wrap(original: effects.Action) -> effects.Action:
        def report_tally(g: Game, p: Params) -> None:
            original(g, p)
            for seat in g.state.seats:
                if seat.seat == g.state.owner or not seat.alive:
                    continue
                while seat.total_items() > effects.item_cap(g, seat):
                    item = [kind for kind in Item if seat.count(kind)][-1]
                    seat.remove(item)
                    g.emit(EventType.DISCARDED, player=seat.seat, item=item.value)

        return report_tally

    _action("report_tally", wrap)


def _no_items_while_shooting_locked() -> None:
    original = effects.GUARDS["item_usable"]
    _guard("item_usable", lambda g, p: not g.state.kill_lock and original(g, p))


MUTANTS: dict[str, Mutant] = {
    m.name: m
    for m in (
        Mutant(
            "poll-keeps-eliminated",
            "the shot window also asks eliminated players",
            _poll_keeps_eliminated,
            ("poll.n3.owner0.out-1", "poll.n8.owner0.out-1-3-5-7"),
            breaks=("S6.2.2",),
        ),
        Mutant(
            "poll-owner-first",
            "the shot window asks the shooter first instead of last",
            _poll_owner_first,
            ("stack.s6-3-worked-example", "poll.n4.owner0.out-none"),
            breaks=("S6.3.0", "R17"),
        ),
        Mutant(
            "next-turn-to-eliminated",
            "the turn passes to the next seat even when it is eliminated",
            _next_turn_to_eliminated,
            ("turn.next-turn-skips-a-player-killed-this-turn", "poll.n3.owner0.out-1"),
            breaks=("S4.5.3", "S5.2", "R16"),
        ),
        Mutant(
            "pop-resumes-wrong-state",
            "popping a dying frame resumes the turn waiting for an action, skipping settlement",
            _pop_resumes_wrong_state,
            ("dying.milk-tea-rescues", "stack.frames-pop-last-in-first-out"),
            breaks=("S6.1.3",),
        ),
        Mutant(
            "cap-off-by-one",
            "the item cap is HP + 1",
            _cap_off_by_one,
            ("cap.hp2.holds4", "discard.only-the-owner-discards"),
            breaks=("S4.4.2", "R12"),
        ),
        Mutant(
            "traitor-cap-forgotten",
            "a traitor's item cap has no + 1",
            _traitor_cap_forgotten,
            ("cap.hp2-traitor.holds4",),
            breaks=("S4.4.2", "S5.1", "R12"),
        ),
        Mutant(
            "shield-two-blocks-for-all",
            "every amulet blocks two hits, not only a Medic's",
            _shield_two_blocks_for_all,
            ("roleitem.gambler.amulet", "items.amulets-add-up"),
            breaks=("S2.2", "S3.4"),
        ),
        Mutant(
            "kill-does-not-lock",
            "a kill does not lock shooting for the rest of the turn",
            _kill_does_not_lock,
            ("shot.a-kill-locks-shooting", "shot.shooting-while-locked-not-offered"),
            breaks=("S4.2.1e",),
        ),
        Mutant(
            "second-conversion",
            "the conversion choice can fire again after it was used",
            _second_conversion,
            ("conversion.keeping-the-role-uses-the-chance", "roles.traitor-doctor-pills-roll"),
            breaks=("S4.3.2",),
        ),
        Mutant(
            "rage-not-cleared",
            "rage charges survive the turn end",
            _rage_not_cleared,
            (
                "turn.turn-end-clears-rage-and-keeps-shields",
                "items.rage-adds-one-damage-once-per-shot",
            ),
            breaks=("S4.5.1",),
        ),
        Mutant(
            "no-extra-action-after-self-blank",
            "a blank at oneself ends the main phase",
            _no_extra_action_after_self_blank,
            ("shot.blank-at-oneself-grants-another-action", "roles.gambler-lucky-streak-pays"),
            breaks=("S4.2.1d",),
        ),
        Mutant(
            "extra-action-by-initial-type",
            "the extra action follows the shell's initial type, not its final one",
            _extra_action_by_initial_type,
            (
                "roles.magician-flips-own-shot-into-another-action",
                "roles.gambler-flipped-to-blank-rolls",
            ),
            breaks=("R19",),
        ),
        Mutant(
            "blank-keeps-rage",
            "a blank shot does not use a rage charge",
            _blank_keeps_rage,
            ("roles.mercenary-rage-lasts-two-shots",),
            breaks=("S2.4", "S3.3"),
        ),
        Mutant(
            "traitor-magician-flips",
            "a traitor Magician keeps Ballistic Control",
            _traitor_magician_flips,
            (
                "roles.magician-needs-two-items-and-no-traitor-flag",
                "conversion.a-traitor-magician-cannot-flip",
            ),
            breaks=("S5.1", "R8"),
        ),
        Mutant(
            "dealers-miss-fresh-loads",
            "Dealers do not see the first shell of a fresh load",
            _dealers_miss_fresh_loads,
            ("roles.every-dealer-sees-a-fresh-load", "roles.dealer-owner-sees-a-fresh-load"),
            breaks=("S4.1.3", "R11"),
        ),
        Mutant(
            "doctor-reversal-for-everyone",
            "a Doctor's pills heal 2 with no roll on any target, not only on themself",
            _doctor_reversal_for_everyone,
            ("roles.doctor-pills-on-another-roll",),
            breaks=("S2.5",),
        ),
        Mutant(
            "heal-above-max",
            "healing ignores the maximum HP",
            _heal_above_max,
            ("items.milk-tea-heals-up-to-the-maximum", "roles.doctor-pills-on-themself-capped"),
            breaks=("R2",),
        ),
        Mutant(
            "eliminated-keep-items",
            "an eliminated player's items stay in the game",
            _eliminated_keep_items,
            ("dying.giving-up-eliminates", "dying.without-rescue-items-eliminated-unasked"),
            breaks=("R13",),
        ),
        Mutant(
            "self-kill-credited",
            "eliminating oneself counts as a kill",
            _self_kill_credited,
            ("dying.an-owner-who-dies-skips-to-turn-end",),
            breaks=("R7",),
        ),
        Mutant(
            "pickpocket-from-oneself",
            "the pickpocket may target its own user",
            _pickpocket_from_oneself,
            ("items.pickpocket-takes-from-another-who-holds-items",),
            breaks=("S3.7", "R23"),
        ),
        Mutant(
            "dying-asks-without-rescue-items",
            "a dying player with no rescue item is asked instead of being eliminated",
            _dying_asks_without_rescue_items,
            (
                "dying.without-rescue-items-eliminated-unasked",
                "turn.next-turn-skips-a-player-killed-this-turn",
            ),
            breaks=("R10",),
        ),
        Mutant(
            "mercenary-single-charge",
            "a Mercenary's rage potion gives one charge",
            _mercenary_single_charge,
            ("roleitem.mercenary.rage_potion", "roles.mercenary-rage-lasts-two-shots"),
            breaks=("S2.4",),
        ),
        Mutant(
            "conversion-on-rise",
            "a rescue from 0 up to 1 triggers the conversion choice",
            _conversion_on_rise,
            ("dying.milk-tea-rescues", "conversion.a-fall-from-two-to-zero-skips-it"),
            breaks=("R6",),
        ),
        Mutant(
            "end-main-while-loaded",
            "the owner may end the main phase with a shell still loaded",
            _end_main_while_loaded,
            ("shot.end-main-withheld-while-loaded", "shot.end-main-refused-while-loaded"),
            breaks=("R4",),
        ),
        Mutant(
            "turn-start-skips-the-draw",
            "only the first turn start draws items",
            _turn_start_skips_the_draw,
            ("turn.five-phases-in-order", "poll.n2.owner0.out-none"),
            breaks=("S4.1.1",),
        ),
        Mutant(
            "dealer-told-twice",
            "a Dealer owner is told the first shell twice at a fresh load on their own turn",
            contract.dealer_told_twice,
            (
                "roles.dealer-owner-told-once-at-a-fresh-load",
                "roles.two-dealers-each-told-once-at-a-fresh-load",
            ),
            breaks=("R11",),
        ),
        Mutant(
            "eliminated-keep-shield-and-rage",
            "an eliminated player keeps their shield blocks and rage charges",
            contract.eliminated_keep_shield_and_rage,
            (
                "dying.eliminated-seat-loses-shield-and-rage",
                "dying.eliminated-seat-loses-rage-at-once",
            ),
            breaks=("R13",),
        ),
        Mutant(
            "tally-hp-of-the-living",
            "the tally's hp lists the living seats only",
            contract.tally_hp_of_the_living,
            (
                "turn.tally-lists-every-seat-hp",
                "dying.eliminated-seat-loses-shield-and-rage",
            ),
            breaks=("M6.2a",),
        ),
        Mutant(
            "rage-cleared-for-the-owner-only",
            "turn end clears the owner's rage charges only",
            contract.rage_cleared_for_the_owner_only,
            ("turn.turn-end-clears-every-seats-rage",),
            breaks=("R9", "R25"),
        ),
        Mutant(
            "conversion-only-from-two",
            "only a fall from 2 to 1 offers the conversion, never a boosted one from 3",
            contract.conversion_only_from_two,
            ("conversion.a-boosted-fall-from-three-to-one-converts",),
            breaks=("R6",),
        ),
        Mutant(
            "last-standing-before-traitor-kills",
            "a traitor's winning kill that leaves one standing gives last_standing",
            contract.last_standing_before_traitor_kills,
            ("win.traitor-kill-that-leaves-one-standing-is-traitor-kills",),
            breaks=("S5.1", "R7"),
        ),
        Mutant(
            "tally-counts-rescue-items",
            "the tally counts rescue items used in the owner's own dying frame",
            contract.tally_counts_rescue_items,
            ("turn.rescue-items-not-counted-in-the-tally",),
            breaks=("M6.2a",),
        ),
        Mutant(
            "empty-draw-announced",
            "a turn start that draws nothing writes an empty items_drawn",
            contract.empty_draw_announced,
            ("turn.no-items-drawn-event-when-none-are-drawn",),
            breaks=("M6.2a",),
        ),
        Mutant(
            "malformed-before-wrong-player",
            "the option text is read before the sender is checked",
            contract.malformed_before_wrong_player,
            ("decision.malformed-text-from-the-wrong-player-is-wrong-player",),
            breaks=("M7a",),
        ),
        Mutant(
            "malformed-before-game-over",
            "the option text is read before the end of the game is checked",
            contract.malformed_before_game_over,
            ("decision.unreadable-text-after-the-end-is-game-over",),
            breaks=("M7a",),
        ),
        Mutant(
            "refused-before-not-offered",
            "an option the state has no transition for is refused, not not_offered",
            contract.refused_before_not_offered,
            ("decision.item-not-held-in-a-window-not-offered",),
            breaks=("M7a",),
        ),
        Mutant(
            "not-offered-before-malformed",
            "a decision with no transition is not_offered even when its text is malformed",
            contract.not_offered_before_malformed,
            ("decision.unknown-parameter-before-not-offered",),
            breaks=("M7a",),
        ),
        Mutant(
            "target-beyond-the-table-malformed",
            "a target numeral that names no seat is malformed, not refused",
            contract.target_beyond_the_table_malformed,
            ("shot.target-outside-the-table-refused",),
            breaks=("M7a",),
        ),
        Mutant(
            "negative-target-refused",
            "a target that is not a numeral (-1) is refused, not malformed",
            contract.negative_target_refused,
            ("decision.target-not-a-numeral-malformed",),
            breaks=("M7a",),
        ),
        Mutant(
            "absent-seat-malformed",
            "a player number the table does not have is malformed, not wrong_player",
            contract.absent_seat_malformed,
            ("decision.a-seat-not-at-the-table-is-wrong-player",),
            breaks=("M7a",),
        ),
        Mutant(
            "non-canonical-text-malformed",
            "option text with parameters or flip items out of order is malformed",
            contract.non_canonical_text_malformed,
            (
                "decision.parameters-in-any-order-accepted",
                "roles.flip-items-in-any-order-accepted",
            ),
            breaks=("M4b",),
        ),
        Mutant(
            "decided-as-sent",
            "decided.option repeats the text as sent, not its canonical form",
            contract.decided_as_sent,
            (
                "decision.parameters-in-any-order-accepted",
                "roles.flip-items-in-any-order-accepted",
            ),
            breaks=("M4a",),
        ),
        Mutant(
            "order-counts-unchecked",
            "an order with other counts than the load is played",
            contract.order_counts_unchecked,
            ("chance.order-with-other-counts-invalid",),
            breaks=("M3.2a",),
        ),
        Mutant(
            "zero-weight-items-drawn",
            "an item of weight 0 can be drawn",
            contract.zero_weight_items_drawn,
            ("chance.item-of-weight-zero-invalid",),
            breaks=("R15", "M3.2a"),
        ),
        Mutant(
            "unknown-item-drawn-as-the-first-kind",
            "an unknown item name is drawn as the first item kind",
            contract.unknown_item_drawn_as_the_first_kind,
            ("chance.unknown-item-invalid",),
            breaks=("M3.2a",),
        ),
        Mutant(
            "pill-anything-but-heal-loses",
            "a pill outcome other than heal counts as lose",
            contract.pill_anything_but_heal_loses,
            ("chance.pill-outcome-other-than-heal-or-lose-invalid",),
            breaks=("M3.2a",),
        ),
        Mutant(
            "gambler-truthy-values",
            "any truthy Lucky Streak outcome counts as a win",
            contract.gambler_truthy_values,
            ("chance.gambler-outcome-not-a-boolean-invalid",),
            breaks=("M3.2a",),
        ),
        Mutant(
            "chance-invalid-rolls-back-the-decision",
            "on chance.invalid the trace is reported as before the decision",
            contract.chance_invalid_rolls_back_the_decision,
            ("chance.pill-outcome-other-than-heal-or-lose-invalid",),
            breaks=("M3.2b",),
        ),
        Mutant(
            "chance-invalid-reports-no-trace",
            "on chance.invalid no events are reported",
            contract.chance_invalid_reports_no_trace,
            (
                "chance.order-with-other-counts-invalid",
                "chance.pill-outcome-other-than-heal-or-lose-invalid",
            ),
            breaks=("M3.2b",),
        ),
        Mutant(
            "shot-kept-after-the-window",
            "the canonical state's shot stays set after its window closed",
            contract.shot_kept_after_the_window,
            ("shot.no-shot-in-the-state-once-the-window-closes",),
            breaks=("M5a",),
        ),
        Mutant(
            "turn-started-stamped-before-the-increment",
            "turn_started carries the number of the turn that ended",
            contract.turn_started_stamped_before_the_increment,
            ("turn.turn-started-carries-the-new-turn-number",),
            breaks=("M6.1a",),
        ),
        Mutant(
            "setup-hp-clamped",
            "HP outside 0..hp.max, or 0 for a living seat, is clamped, not refused",
            contract.setup_hp_clamped,
            (
                "setup.living-seat-at-zero-hp-refused",
                "setup.hp-above-the-maximum-refused",
            ),
            breaks=("M3.1a",),
        ),
        Mutant(
            "setup-negative-counts-zeroed",
            "negative counts in a setup are read as 0",
            contract.setup_negative_counts_zeroed,
            (
                "setup.negative-shield-refused",
                "setup.negative-kills-refused",
            ),
            breaks=("M3.1a",),
        ),
        Mutant(
            "setup-unknown-names-dropped",
            "unknown items are dropped and unknown roles read as a Medic",
            contract.setup_unknown_names_dropped,
            (
                "setup.unknown-role-refused",
                "setup.unknown-item-refused",
            ),
            breaks=("M3.1a",),
        ),
        Mutant(
            "setup-owner-moved-to-a-living-seat",
            "an owner that is no living seat is replaced by the first living one",
            contract.setup_owner_moved_to_a_living_seat,
            (
                "setup.eliminated-owner-refused",
                "setup.owner-outside-the-table-refused",
            ),
            breaks=("M3.1a",),
        ),
        Mutant(
            "setup-invalid-ruleset-ignored",
            "a ruleset that breaks its own rules is replaced by the default",
            contract.setup_invalid_ruleset_ignored,
            ("setup.invalid-ruleset-refused",),
            breaks=("M3.1a",),
        ),
        Mutant(
            "setup-eliminated-seat-cleaned",
            "an eliminated seat with HP or effects is accepted and cleaned",
            contract.setup_eliminated_seat_cleaned,
            (
                "setup.eliminated-seat-with-hp-refused",
                "setup.eliminated-seat-with-effects-refused",
            ),
            breaks=("R13", "M3.1a"),
        ),
        Mutant(
            "setup-traitor-conversion-marked-used",
            "a traitor seat whose conversion is unused is accepted, marked used",
            contract.setup_traitor_conversion_marked_used,
            ("setup.traitor-with-an-unused-conversion-refused",),
            breaks=("R6", "M3.1a"),
        ),
        Mutant(
            "setup-chamber-trimmed",
            "a chamber longer than shells.max_per_load is cut to that length",
            contract.setup_chamber_trimmed,
            ("setup.chamber-beyond-a-load-refused",),
            breaks=("R1", "M3.1a"),
        ),
        Mutant(
            "setup-won-game-accepted",
            "a setup in which a traitor has already won is played on",
            contract.setup_won_game_accepted,
            (
                "setup.traitor-who-has-won-refused",
                "setup.eliminated-traitor-who-has-won-refused",
            ),
            breaks=("M3.1a",),
        ),
        Mutant(
            "setup-dead-traitor-never-won",
            "an eliminated traitor's kills are no win, so such a setup is played on",
            contract.setup_dead_traitor_never_won,
            ("setup.eliminated-traitor-who-has-won-refused",),
            breaks=("M3.1a",),
        ),
        Mutant(
            "shot-fired-shows-the-initial-type",
            "a shot's shell is shown as it was loaded, not as the window left it",
            _shot_fired_shows_the_initial_type,
            (
                "shot.settles-with-the-final-type",
                "roles.magician-flips-own-shot-into-another-action",
            ),
            breaks=("R3", "R8", "S4.2.1c"),
        ),
        Mutant(
            "kills-credited-at-settlement",
            "kills are credited in phase 3, not at the elimination",
            _kills_credited_at_settlement,
            ("win.traitor-with-two-kills-wins-at-once", "dying.giving-up-eliminates"),
            breaks=("R5", "R7"),
        ),
        Mutant(
            "magician-cannot-flip-own-shot",
            "a Magician shooter, asked last, may not flip their own shot",
            _magician_cannot_flip_own_shot,
            ("roles.magician-flips-own-shot-into-another-action",),
            breaks=("R8",),
        ),
        Mutant(
            "turn-passes-counter-clockwise",
            "the turn passes to the previous living seat, not the next one clockwise",
            _turn_passes_counter_clockwise,
            ("turn.last-seat-passes-to-seat-0", "dying.an-owner-who-dies-skips-to-turn-end"),
            breaks=("R16", "S4.5.3"),
        ),
        Mutant(
            "counter-window-without-a-counter-skill",
            "a counter response frame is pushed after a response though no one holds a "
            "counter skill",
            _counter_window_without_a_counter_skill,
            ("stack.s6-3-worked-example",),
            breaks=("R18",),
        ),
        Mutant(
            "lucky-streak-on-any-blank",
            "a Gambler's blank at another player also rolls for the Lucky Streak",
            _lucky_streak_on_any_blank,
            ("roles.gambler-blank-at-another-no-roll",),
            breaks=("R20",),
        ),
        Mutant(
            "turn-limit-draw-names-the-living",
            "the turn limit's draw names the living players as winners",
            _turn_limit_draw_names_the_living,
            ("turn.turn-limit-ends-in-a-draw",),
            breaks=("R21",),
        ),
        Mutant(
            "chamber-items-on-an-empty-chamber",
            "items that act on the chamber are offered while it is empty",
            _chamber_items_on_an_empty_chamber,
            ("turn.an-emptied-chamber-waits-for-the-next-turn",),
            breaks=("R22", "R1"),
        ),
        Mutant(
            "others-over-the-cap-discard-too",
            "every player over their cap discards in the owner's phase 4, not the owner only",
            _others_over_the_cap_discard_too,
            ("discard.only-the-owner-discards",),
            breaks=("R12", "S4.4.1"),
        ),
        Mutant(
            "no-items-while-shooting-locked",
            "a kill that locks shooting also ends item use for the turn",
            _no_items_while_shooting_locked,
            ("shot.a-kill-locks-shooting", "win.kills-before-converting-count"),
            breaks=("R24", "R25"),
        ),
        Mutant(
            "private-events-public",
            "peeks and previews are reported as public events",
            contract.private_events_public,
            (
                "roles.every-dealer-sees-a-fresh-load",
                "roles.dealer-owner-told-once-at-a-fresh-load",
            ),
            breaks=("R14", "M6.1a"),
        ),
        Mutant(
            "options-written-target-first",
            "prompts write an item's target before the item",
            contract.options_written_target_first,
            ("items.pickpocket-takes-from-another-who-holds-items",),
            breaks=("M4a",),
        ),
        Mutant(
            "events-before-off-by-one",
            "events_before is the index of the last event before the decision, not the count",
            contract.events_before_off_by_one,
            (
                "shot.end-main-refused-while-loaded",
                "decision.a-seat-not-at-the-table-is-wrong-player",
            ),
            breaks=("M2.2c",),
        ),
        Mutant(
            "prompts-after-the-decision",
            "each decision's prompt is reported as the one pending after it was sent",
            contract.prompts_after_the_decision,
            ("turn.five-phases-in-order", "dying.milk-tea-rescues"),
            breaks=("M3.3a",),
        ),
        Mutant(
            "refused-decision-writes-decided",
            "a refused decision still writes its decided event",
            contract.refused_decision_writes_decided,
            ("shot.eliminated-target-refused", "discard.an-item-not-held-refused"),
            breaks=("M3.3b",),
        ),
    )
}
"""Every mutant, by name."""


def _check_catalogue() -> None:
    """Each mutant names what it breaks in ``breaks`` only, with IDs that exist."""
    for mutant in MUTANTS.values():
        if not mutant.breaks:
            raise ValueError(f"mutant {mutant.name} names nothing it breaks")
        coverage.check_citations(f"mutant {mutant.name}", mutant.breaks)
        if CITATION.search(mutant.summary):
            raise ValueError(f"mutant {mutant.name}: its summary repeats IDs; keep them in breaks")


CITATION = re.compile(r"\b(?:S\d+\.\d|R\d+\b|M\d+(?:\.\d+)?[a-z]\b)")
"""An ID of a clause, ruling or MUST tag in a summary (they belong in ``breaks``)."""

_check_catalogue()


def apply_mutant(name: str) -> Mutant:
    """Break the engine in this process as mutant ``name`` says; ``KeyError`` if unknown."""
    try:
        mutant = MUTANTS[name]
    except KeyError:
        raise KeyError(f"unknown mutant {name!r}; known: {', '.join(MUTANTS)}") from None
    mutant.apply()
    return mutant
