"""Wrong readings written by a stranger to the checks, third batch (issue 33's measure).

Each bug is a plain misreading of one rule sentence (S..) or ruling (R..), written from the
rule text and the rulings alone, before any conformance case, test or property was read.
Most are bugs of the reference engine (:data:`BREAKERS`, served by ``python
tests/faults/adapter.py --fault NAME`` and caught, or not, by the conformance cases), some of
free chance (caught, or not, by chance mode's experiments), and seven are also written as
patches of the formal model (:data:`PATCHES`, caught, or not, by the proofs). The engine
and chance faults reach the engine through its seams only (:mod:`faults.seams`); the model
patches wrap named pieces of the model (:mod:`buckshot.verification.model.patch`). Each
is a row of ``manifest.json`` with batch ``stranger-3``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any
from weakref import WeakKeyDictionary

from buckshot.reference import effects
from buckshot.reference.adapter import Run
from buckshot.reference.chance import SeededChance
from buckshot.reference.effects import Action, Board, Guard, Params
from buckshot.reference.events import EventType
from buckshot.reference.state import Seat
from buckshot.spec.polling import poll_order as spec_poll_order
from buckshot.spec.rulebook import Item, Shell
from buckshot.verification.model.layout import NONE, SEATS, item_code
from buckshot.verification.model.patch import Patch
from faults import seams
from faults.model import add
from faults.seams import Helper
from faults.served import B, Breaker, served_fault

BREAKERS: dict[str, Breaker] = {}
"""The batch's engine and chance faults, by name, in the order of the rule text."""

PATCHES: dict[str, Patch] = {}
"""The batch's model patches, by name."""


def stranger_fault(name: str) -> Callable[[B], B]:
    """Register the decorated breaker as the served fault ``name`` of this batch."""
    return served_fault(BREAKERS, name)


def _drawing_from(source: type[SeededChance]) -> type[Run]:
    """The run class whose free plays draw from ``source``."""

    class Drawing(Run):
        free_chance = source

    return Drawing


# --- S1, S6: turn order and polling ----------------------------------------------------------


@stranger_fault("s3-poll-owner-first")
def _poll_owner_first() -> None:
    def poll_order(alive: Sequence[bool], owner: int) -> tuple[int, ...]:
        order = spec_poll_order(alive, owner)
        return order[-1:] + order[:-1]

    seams.replace_helper("poll_order", poll_order)


@stranger_fault("s3-reload-when-empty")
def _reload_when_empty() -> None:
    def wrap(original: Action) -> Action:
        def act(g: Board, p: Params) -> None:
            original(g, p)
            if not g.state.shells and sum(g.state.alive()) > 1:
                effects.ACTIONS["load_chamber"](g, p)

        return act

    seams.wrap_action("settle_shot", wrap)
    seams.wrap_action("apply_item", wrap)


@stranger_fault("s3-game-ends-at-turn-end")
def _game_ends_at_turn_end() -> None:
    def living(g: Board) -> int:
        return sum(g.state.alive())

    def traitor_won(g: Board, p: Params) -> bool:
        need = g.rules.traitor.kills_to_win
        return any(s.traitor and s.kills >= need for s in g.state.seats)

    def wrap_limit(original: Guard) -> Guard:
        return lambda g, p: living(g) <= 1 or original(g, p)

    def wrap_draw(original: Action) -> Action:
        def declare_draw(g: Board, p: Params) -> None:
            if living(g) <= 1:
                effects.ACTIONS["declare_winner"](g, p)
            else:
                original(g, p)

        return declare_draw

    seams.replace_guard("game_is_over", traitor_won)
    seams.wrap_guard("turn_limit_reached", wrap_limit)
    seams.wrap_action("declare_draw", wrap_draw)


# --- the shot's settlement, read four wrong ways (S2.4, S3.3, S3.4) ---------------------------


def _settle_reading(
    *,
    blank_uses_block: bool = False,
    block_absorbs_one_point: bool = False,
    bonus_per_charge: bool = False,
    blank_keeps_rage: bool = False,
) -> Callable[[Action], Action]:
    """A wrapper of ``settle_shot`` that settles as the original, then applies the
    misreadings asked for to the shot it settled."""

    def wrap(original: Action) -> Action:
        def settle_shot(g: Board, p: Params) -> None:
            shot = g.state.shot
            assert shot is not None
            shooter, target = g.state.seats[shot.shooter], g.state.seats[shot.target]
            live, charges, blocks = shot.shell is Shell.LIVE, shooter.rage, target.shield
            original(g, p)
            rules = g.rules
            if blank_keeps_rage and not live and charges > 0:
                shooter.rage += 1
            if blank_uses_block and not live and target.shield > 0:
                target.shield -= 1
                g.write(EventType.SHOT_BLOCKED, target.seat, target.shield)
            bonus = rules.rage.bonus_damage if charges > 0 else 0
            if bonus_per_charge and charges > 1:
                bonus = rules.rage.bonus_damage * charges
            damage = rules.shot.live_damage + bonus
            if not live or not target.alive:
                return
            blocked = blocks > 0
            if blocked and block_absorbs_one_point and damage > 1:
                effects.lose(g, target, damage - 1, shooter.seat, "shot")
            elif not blocked and bonus_per_charge and charges > 1:
                effects.lose(g, target, bonus - rules.rage.bonus_damage, shooter.seat, "shot")

        return settle_shot

    return wrap


@stranger_fault("s3-blank-uses-shield")
def _blank_uses_shield() -> None:
    seams.wrap_action("settle_shot", _settle_reading(blank_uses_block=True))


@stranger_fault("s3-shield-absorbs-one-point")
def _shield_absorbs_one_point() -> None:
    seams.wrap_action("settle_shot", _settle_reading(block_absorbs_one_point=True))


@stranger_fault("s3-rage-bonus-per-charge")
def _rage_bonus_per_charge() -> None:
    seams.wrap_action("settle_shot", _settle_reading(bonus_per_charge=True))


@stranger_fault("s3-blank-keeps-rage")
def _blank_keeps_rage() -> None:
    seams.wrap_action("settle_shot", _settle_reading(blank_keeps_rage=True))


# --- S2: roles ---------------------------------------------------------------------------------


@stranger_fault("s3-preview-public")
def _preview_public() -> None:
    def preview(g: Board, seat: Seat) -> None:
        g.write(EventType.PREVIEW, seat.seat, g.state.shells[0].value)

    seams.replace_helper("preview", preview)


@stranger_fault("s3-other-dealers-miss-loads")
def _other_dealers_miss_loads() -> None:
    def wrap(original: Action) -> Action:
        def load_chamber(g: Board, p: Params) -> None:
            hidden = [
                s for s in g.state.seats if s.seat != g.state.owner and not s.traitor
            ]  # a skill-less seat sees nothing: every Dealer but the owner, for this load
            for seat in hidden:
                seat.traitor = True
            try:
                original(g, p)
            finally:
                for seat in hidden:
                    seat.traitor = False

        return load_chamber

    seams.wrap_action("load_chamber", wrap)


@stranger_fault("s3-traitor-magician-flips")
def _traitor_magician_flips() -> None:
    def wrap(original: Guard) -> Guard:
        def can_flip(g: Board, p: Params) -> bool:
            seat = g.state.seats[effects.poll_cursor(g)]
            was = seat.traitor
            seat.traitor = False
            try:
                return original(g, p)
            finally:
                seat.traitor = was

        return can_flip

    seams.wrap_guard("can_flip", wrap)


@stranger_fault("s3-flip-reveals-type")
def _flip_reveals_type() -> None:
    def wrap(original: Action) -> Action:
        def flip_shot_shell(g: Board, p: Params) -> None:
            original(g, p)
            shot = g.state.shot
            assert shot is not None
            g.write(EventType.PEEK, effects.poll_cursor(g), shot.shell.value)

        return flip_shot_shell

    seams.wrap_action("flip_shot_shell", wrap)


# --- S3: items ---------------------------------------------------------------------------------


@stranger_fault("s3-peek-public")
def _peek_public() -> None:
    def wrap(original: Action) -> Action:
        def apply_item(g: Board, p: Params) -> None:
            if p["item"] is not Item.PEEKING_GLASS:
                original(g, p)
                return
            owner = g.state.seats[g.state.owner]
            owner.remove(Item.PEEKING_GLASS)
            g.state.last_step = "item"
            g.state.tally["items_used"] = g.state.tally.get("items_used", 0) + 1
            g.write(EventType.ITEM_USED, owner.seat, Item.PEEKING_GLASS.value, None)
            g.write(EventType.PEEK, owner.seat, g.state.shells[0].value)

        return apply_item

    seams.wrap_action("apply_item", wrap)


@stranger_fault("s3-inverter-first-only")
def _inverter_first_only() -> None:
    def wrap(original: Action) -> Action:
        def apply_item(g: Board, p: Params) -> None:
            rest = list(g.state.shells[1:])
            original(g, p)
            if p["item"] is Item.INVERTER:
                g.state.shells[1:] = rest

        return apply_item

    seams.wrap_action("apply_item", wrap)


@stranger_fault("s3-milk-tea-uncapped")
def _milk_tea_uncapped() -> None:
    def wrap(original: Helper) -> Helper:
        def heal(g: Board, seat: Seat, amount: int, cause: str) -> None:
            if cause != "milk_tea":
                original(g, seat, amount, cause)
                return
            seat.hp += amount
            g.write(EventType.HP_CHANGED, seat.seat, seat.hp, amount, cause)

        return heal

    seams.wrap_helper("heal", wrap)


@stranger_fault("s3-killer-takes-items")
def _killer_takes_items() -> None:
    def wrap(original: Action) -> Action:
        def eliminate_dying(g: Board, p: Params) -> None:
            dead = effects.frame_player(g)
            loot = dead.held()
            source = g.state.damage_source.get(dead.seat)
            original(g, p)
            if source is None or source == dead.seat:
                return
            killer = g.state.seats[source]
            for item in loot:
                killer.add(item)
                g.write(EventType.ITEM_STOLEN, killer.seat, dead.seat, item.value)

        return eliminate_dying

    seams.wrap_action("eliminate_dying", wrap)


# --- S4.3: dying and the conversion ------------------------------------------------------------


_RESCUED: WeakKeyDictionary[Board, set[int]] = WeakKeyDictionary()
"""Dying frames (by id) whose player used their one rescue item (s3-single-rescue)."""


@stranger_fault("s3-single-rescue")
def _single_rescue() -> None:
    def wrap_rescue(original: Action) -> Action:
        def apply_rescue_item(g: Board, p: Params) -> None:
            _RESCUED.setdefault(g, set()).add(g.state.stack[-1].id)
            original(g, p)

        return apply_rescue_item

    def wrap_holds(original: Guard) -> Guard:
        def holds_rescue_item(g: Board, p: Params) -> bool:
            if g.state.stack[-1].id in _RESCUED.get(g, set()):
                return False
            return original(g, p)

        return holds_rescue_item

    seams.wrap_action("apply_rescue_item", wrap_rescue)
    seams.wrap_guard("holds_rescue_item", wrap_holds)


@stranger_fault("s3-conversion-on-rescue")
def _conversion_on_rescue() -> None:
    def wrap(original: Helper) -> Helper:
        def heal(g: Board, seat: Seat, amount: int, cause: str) -> None:
            before = seat.hp
            original(g, seat, amount, cause)
            if before == 0 and seat.hp == 1 and not seat.conversion_used:
                g.state.fell_to_one.append(seat.seat)

        return heal

    seams.wrap_helper("heal", wrap)


@stranger_fault("s3-conversion-when-passing-one")
def _conversion_when_passing_one() -> None:
    def wrap(original: Helper) -> Helper:
        def lose(g: Board, seat: Seat, amount: int, source: int, cause: str) -> None:
            before = seat.hp
            original(g, seat, amount, source, cause)
            if before > 1 and seat.hp == 0 and not seat.conversion_used:
                g.state.fell_to_one.append(seat.seat)

        return lose

    def converting_seat(g: Board) -> Seat | None:
        for seat_no in g.state.fell_to_one:
            seat = g.state.seats[seat_no]
            if seat.alive and seat.hp >= 1 and not seat.conversion_used:
                return seat
        return None

    seams.wrap_helper("lose", wrap)
    seams.replace_helper("converting_seat", converting_seat)


@stranger_fault("s3-pill-kill-uncredited")
def _pill_kill_uncredited() -> None:
    def wrap(original: Helper) -> Helper:
        def lose(g: Board, seat: Seat, amount: int, source: int, cause: str) -> None:
            original(g, seat, amount, source, cause)
            if cause == "expired_pills":
                g.state.damage_source.pop(seat.seat, None)

        return lose

    seams.wrap_helper("lose", wrap)


# --- S4.2, S4.4, S4.5: the phases --------------------------------------------------------------


_KILLERS: WeakKeyDictionary[Board, set[int]] = WeakKeyDictionary()
"""Seats that have killed, in each game (s3-kill-lock-permanent)."""


@stranger_fault("s3-kill-lock-permanent")
def _kill_lock_permanent() -> None:
    def wrap_elimination(original: Action) -> Action:
        def eliminate_dying(g: Board, p: Params) -> None:
            original(g, p)
            if g.state.kill_lock:
                _KILLERS.setdefault(g, set()).add(g.state.owner)

        return eliminate_dying

    def wrap_shoot(original: Guard) -> Guard:
        return lambda g, p: original(g, p) and g.state.owner not in _KILLERS.get(g, set())

    seams.wrap_action("eliminate_dying", wrap_elimination)
    seams.wrap_guard("can_shoot", wrap_shoot)


@stranger_fault("s3-traitor-cap-plus-two")
def _traitor_cap_plus_two() -> None:
    def item_cap(g: Board, seat: Seat) -> int:
        return seat.hp + (2 * g.rules.traitor.cap_bonus if seat.traitor else 0)

    seams.replace_helper("item_cap", item_cap)


@stranger_fault("s3-rage-survives-turn-end")
def _rage_survives_turn_end() -> None:
    def wrap(original: Action) -> Action:
        def clear_turn_effects(g: Board, p: Params) -> None:
            kept = [seat.rage for seat in g.state.seats]
            original(g, p)
            for seat, rage in zip(g.state.seats, kept, strict=True):
                seat.rage = rage

        return clear_turn_effects

    seams.wrap_action("clear_turn_effects", wrap)


# --- free chance (S3.6, S4.1.1) ----------------------------------------------------------------


class _TextPills(SeededChance):
    def pill_heals(self, chance: Fraction) -> bool:
        return super().pill_heals(Fraction(1, 3))


@stranger_fault("s3-pills-text-odds")
def _pills_text_odds() -> type[Run]:
    return _drawing_from(_TextPills)


class _SwappedPills(SeededChance):
    def pill_heals(self, chance: Fraction) -> bool:
        return super().pill_heals(1 - chance)


@stranger_fault("s3-pills-odds-swapped")
def _pills_odds_swapped() -> type[Run]:
    return _drawing_from(_SwappedPills)


class _NoRepeatItems(SeededChance):
    """Two random items are two different items: no draw repeats the kind just drawn."""

    _last: Item | None = None

    def item(self, weights: Sequence[tuple[Item, int]]) -> Item:
        others = [(item, weight) for item, weight in weights if item is not self._last]
        drawn = super().item(others if any(w for _, w in others) else weights)
        self._last = drawn
        return drawn


@stranger_fault("s3-turn-draw-distinct-kinds")
def _turn_draw_distinct_kinds() -> type[Run]:
    return _drawing_from(_NoRepeatItems)


# --- the model patches -------------------------------------------------------------------------

PILLS = item_code(Item.EXPIRED_PILLS)


def blank_uses_shield(original: Any, m: Any, s: Any, inp: Any, fx: Any) -> Any:
    """A blank shot at a shielded player uses up one of their blocks."""
    b = m.b
    fired = original(s, inp, fx)
    target = s.shot_target
    hit = b.and_(b.not_(s.shot_live), m.has_shield_block(s, target))
    shield = m.seat(fired.shield, target)
    return fired.set(shield=b.update(fired.shield, target, b.ite(hit, b.subn(shield, 1), shield)))


def shield_absorbs_one_point(original: Any, m: Any, s: Any, inp: Any, fx: Any) -> Any:
    """A block absorbs one point of a live hit: a boosted hit gets its bonus through."""
    b = m.b
    fired = original(s, inp, fx)
    target, shooter = s.shot_target, s.shot_shooter
    boosted = b.gt(m.seat(s.rage, shooter), b.num(0))
    through = b.and_(s.shot_live, m.has_shield_block(s, target), boosted)
    hp = m.seat(fired.hp, target)
    bonus = b.num(m.rules.rage.bonus_damage)
    hurt = m._set_hp(fired, target, b.sat_sub(hp, bonus), shooter)
    return fired.set(
        hp=tuple(b.ite(through, x, y) for x, y in zip(hurt.hp, fired.hp, strict=True)),
        fell=b.ite(through, hurt.fell, fired.fell),
        hit_src=b.ite(through, hurt.hit_src, fired.hit_src),
    )


def rage_bonus_per_charge(original: Any, m: Any, s: Any, inp: Any, fx: Any) -> Any:
    """A live shot deals the rage bonus once for every charge its shooter holds."""
    b = m.b
    fired = original(s, inp, fx)
    target, shooter = s.shot_target, s.shot_shooter
    charges = m.seat(s.rage, shooter)
    hit = b.and_(s.shot_live, b.not_(m.has_shield_block(s, target)), b.gt(charges, b.num(1)))
    bonus = b.num(0)
    for held in range(1, 16):
        bonus = b.ite(b.eqn(charges, held), b.num(held * m.rules.rage.bonus_damage), bonus)
    damage = b.addn(bonus, m.rules.shot.live_damage)
    hurt = m._set_hp(fired.set(hp=s.hp), target, b.sat_sub(m.seat(s.hp, target), damage), shooter)
    return fired.set(
        hp=tuple(b.ite(hit, x, y) for x, y in zip(hurt.hp, fired.hp, strict=True)),
        fell=b.ite(hit, hurt.fell, fired.fell),
        hit_src=b.ite(hit, hurt.hit_src, fired.hit_src),
    )


def killer_takes_items(original: Any, m: Any, s: Any, inp: Any, fx: Any) -> Any:
    """The eliminated player's items go to the player credited with the kill."""
    b = m.b
    done = original(s, inp, fx)
    p, src = m.top_who(s), s.hit_src
    credited = b.and_(b.ne(src, p), b.lt(src, b.num(SEATS)))
    loot = [b.ite(credited, m.held_n(s, p, k), b.num(0)) for k in range(len(s.items[0]))]
    return done.set(items=m.add_counts(done.items, src, loot))


def pill_kill_uncredited(original: Any, m: Any, s: Any, inp: Any, fx: Any) -> Any:
    """Only a shot credits a kill: HP lost to expired pills has no source."""
    b = m.b
    done = original(s, inp, fx)
    return done.set(hit_src=b.ite(b.eqn(inp.item, PILLS), b.num(NONE), done.hit_src))


def conversion_when_passing_one_shot(original: Any, m: Any, s: Any, inp: Any, fx: Any) -> Any:
    """A shot that takes HP from 2 or more to 0 passes 1: the conversion is due once the
    player is rescued."""
    b = m.b
    fired = original(s, inp, fx)
    target = s.shot_target
    through = b.and_(
        b.gt(m.seat(s.hp, target), b.num(1)),
        b.eqn(m.seat(fired.hp, target), 0),
        b.not_(m.bseat(s.conv_used, target)),
    )
    return fired.set(fell=b.ite(through, target, fired.fell))


def conversion_when_passing_one_rescue(original: Any, m: Any, s: Any, inp: Any, fx: Any) -> Any:
    """A rescue keeps the pending conversion of a fall through 1."""
    b = m.b
    rescued = original(s, inp, fx)
    kept = b.and_(b.eqn(rescued.fell, NONE), b.eq(s.fell, m.top_who(s)))
    return rescued.set(fell=b.ite(kept, s.fell, rescued.fell))


def traitor_cap_plus_two(original: Any, m: Any, s: Any, p: Any) -> Any:
    """A traitor's item cap is HP + 1 + 1: the bonus of S4.3.2 and again that of S5.1."""
    b = m.b
    bonus = b.num(m.rules.traitor.cap_bonus)
    return b.add(original(s, p), b.ite(m.bseat(s.traitor, p), bonus, b.num(0)))


def _bug(name: str, **pieces: Any) -> None:
    add(PATCHES, name, Patch(name, **pieces))


_bug("s3_blank_uses_shield", actions=(("settle_shot", blank_uses_shield),))
_bug("s3_shield_absorbs_one_point", actions=(("settle_shot", shield_absorbs_one_point),))
_bug("s3_rage_bonus_per_charge", actions=(("settle_shot", rage_bonus_per_charge),))
_bug("s3_killer_takes_items", actions=(("eliminate_dying", killer_takes_items),))
_bug("s3_pill_kill_uncredited", actions=(("apply_item", pill_kill_uncredited),))
_bug(
    "s3_conversion_when_passing_one",
    actions=(
        ("settle_shot", conversion_when_passing_one_shot),
        ("apply_rescue_item", conversion_when_passing_one_rescue),
    ),
)
_bug("s3_traitor_cap_plus_two", helpers=(("cap", traitor_cap_plus_two),))
