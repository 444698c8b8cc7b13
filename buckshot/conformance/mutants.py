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
    setattr(effects, name, value)


def _recompile() -> None:
    tables.TABLES.clear()
    tables.TABLES.update(tables._compile())


def _action(name: str, wrap: Callable[[effects.Action], effects.Action]) -> None:
    effects.ACTIONS[name] = wrap(effects.ACTIONS[name])
    _recompile()


def _guard(name: str, replacement: effects.Guard) -> None:
    effects.GUARDS[name] = replacement
    _recompile()


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
