"""Deliberate bugs of the formal model, each a patch of one named piece or transition.

Each breaker is a wrapper of a registry guard, action or selector, or of a named model
helper (:mod:`buckshot.verification.model.patch`): it receives the original piece (bound to
the model), the model, then the piece's arguments. The decorator adds its patch to
:data:`PATCHES` under the fault's name; the fault's row of ``manifest.json`` says what it
breaks, the properties that must catch it and where the evidence walk looks. A fault counts
as caught only when a proof of one of its properties fails with a confirmed counterexample
*and* a seeded walk of the executable spec reaches the bug (:mod:`faults.mutants`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from buckshot.spec.chart_data import chart_model, chart_models
from buckshot.spec.charts import Trigger
from buckshot.spec.rulebook import ITEMS, FrameKind, Item, ItemSpec, Role, Target, item_spec
from buckshot.verification.model.layout import (
    KINDS,
    LAST_SHOT,
    NONE,
    RESCUE_CODES,
    SEATS,
    item_code,
    role_code,
)
from buckshot.verification.model.patch import NO_PATCH, Patch, Wrapper

PATCHES: dict[str, Patch] = {}
"""Every model and chart fault's patch, by name, in declaration order."""

_PIECES = ("guard", "action", "selector", "helper")


def model_fault(
    name: str, *, piece: tuple[str, str], also: Patch = NO_PATCH
) -> Callable[[Wrapper], Wrapper]:
    """Register the decorated wrapper as the fault ``name``: it replaces the model's
    ``piece`` (``("guard", "over_cap")``, ``("helper", "cap")``, ...), together with the
    patch ``also`` when the bug touches more than one piece."""
    kind, piece_name = piece
    if kind not in _PIECES:
        raise ValueError(f"fault {name}: a piece is one of {', '.join(_PIECES)}, not {kind!r}")

    def register(wrap: Wrapper) -> Wrapper:
        wraps = ((piece_name, wrap),)
        patch = Patch(
            name,
            guards=wraps if kind == "guard" else (),
            actions=wraps if kind == "action" else (),
            selectors=wraps if kind == "selector" else (),
            helpers=wraps if kind == "helper" else (),
        )
        add(PATCHES, name, patch | also)
        return wrap

    return register


def chart_fault(
    name: str, *, removed: frozenset[str] = frozenset(), retarget: tuple[tuple[str, str], ...] = ()
) -> None:
    """Register the fault ``name``: the charts, as the model reads them, lose the transitions
    ``removed`` and send those of ``retarget`` to other states."""
    add(PATCHES, name, Patch(name, removed=removed, retarget=retarget))


def add(into: dict[str, Patch], name: str, patch: Patch) -> None:
    """Add ``patch`` to ``into`` as the fault ``name`` (the patch renamed so), refusing a name
    registered twice and a wrapper that cannot travel to a worker process."""
    patch = Patch(
        name,
        patch.guards,
        patch.actions,
        patch.selectors,
        patch.helpers,
        patch.removed,
        patch.retarget,
    )
    for _, wrap in (*patch.guards, *patch.actions, *patch.selectors, *patch.helpers):
        function = getattr(wrap, "func", wrap)  # a functools.partial's function
        if "<" in getattr(function, "__qualname__", "<"):  # <locals>, <lambda>
            # a patch travels to the worker processes with every proof task, by reference
            raise TypeError(
                f"fault {name}: its wrapper {function.__qualname__} is no module-level "
                "function, so its patch cannot go to a worker process"
            )
    if name in into:
        raise ValueError(f"fault {name} is registered twice")
    into[name] = patch


def _resume_edges() -> list[tuple[str, FrameKind, str]]:
    """Every transition taken on a resume event: its id, its chart's frame kind and its
    source state (the suspension state the popped frame returns to)."""
    return [
        (edge.id, chart.kind, edge.source)
        for chart in chart_models()
        for edge in chart.transitions
        if edge.trigger is Trigger.RESUME
    ]


def _no_traitors(s: Any, m: Any) -> Any:
    """``s`` with no seat a traitor."""
    return s.set(traitor=tuple(m.b.false() for _ in range(SEATS)))


# --- who is asked, and in which order -------------------------------------------------------


@model_fault("poll_no_skip", piece=("action", "advance_poll"))
def _poll_no_skip(original: Any, m: Any, s: Any, inp: Any, fx: Any) -> Any:
    moved = original(s, inp, fx)
    return m.set_top(moved, fcursor=m.next_seat(s, m.top_cursor(s), skip_dead=False))


@model_fault("dead_owner_turn", piece=("action", "pass_to_next_seat"))
def _dead_owner_turn(original: Any, m: Any, s: Any, inp: Any, fx: Any) -> Any:
    passed = original(s, inp, fx)
    b = m.b
    nxt = m.next_seat(s, s.owner, skip_dead=False)
    return passed.set(owner=nxt, k0=m.seat(s.kills, nxt), fwho=b.update(passed.fwho, b.num(0), nxt))


@model_fault("poll_owner_first", piece=("action", "open_shot_window"))
def _poll_owner_first(original: Any, m: Any, s: Any, inp: Any, fx: Any) -> Any:
    return m.set_top(original(s, inp, fx), fcursor=s.owner)


@model_fault("owner_changes_in_window", piece=("action", "open_shot_window"))
def _owner_changes_in_window(original: Any, m: Any, s: Any, inp: Any, fx: Any) -> Any:
    pushed = original(s, inp, fx)
    return pushed.set(owner=m.top_cursor(pushed))


@model_fault("suspended_frame_touched", piece=("action", "advance_poll"))
def _suspended_frame_touched(original: Any, m: Any, s: Any, inp: Any, fx: Any) -> Any:
    moved = original(s, inp, fx)
    b = m.b
    return moved.set(fcursor=b.update(moved.fcursor, b.num(0), m.top_cursor(moved)))


@model_fault("conversion_asks_owner", piece=("selector", "converting_player"))
def _conversion_asks_owner(original: Any, m: Any, s: Any) -> Any:
    return s.owner


# --- the discard cap --------------------------------------------------------------------------


@model_fault("cap_off_by_one", piece=("guard", "over_cap"))
def _cap_off_by_one(original: Any, m: Any, s: Any, inp: Any) -> Any:
    b = m.b
    return b.gt(m.total(s, s.owner), b.addn(m.cap(s, s.owner), 1))


@model_fault("traitor_cap_forgotten", piece=("guard", "over_cap"))
def _traitor_cap_forgotten(original: Any, m: Any, s: Any, inp: Any) -> Any:
    return original(_no_traitors(s, m), inp)


@model_fault("shared_cap_off_by_one", piece=("helper", "cap"))
def _shared_cap_off_by_one(original: Any, m: Any, s: Any, p: Any) -> Any:
    return m.b.addn(original(s, p), 1)


# --- skills and conversions -------------------------------------------------------------------


@model_fault("second_conversion", piece=("guard", "conversion_due"))
def _second_conversion(original: Any, m: Any, s: Any, inp: Any) -> Any:
    return original(s.set(conv_used=tuple(m.b.false() for _ in range(SEATS))), inp)


@model_fault("traitor_keeps_skill", piece=("guard", "can_flip"))
def _traitor_keeps_skill(original: Any, m: Any, s: Any, inp: Any) -> Any:
    return original(_no_traitors(s, m), inp)


def _always(original: Any, m: Any, s: Any, inp: Any) -> Any:
    return m.b.true()


@model_fault(
    "counter_unbounded",
    piece=("guard", "counter_possible"),
    also=Patch(guards=(("can_counter", _always),)),
)
def _counter_unbounded(original: Any, m: Any, s: Any, inp: Any) -> Any:
    return m.b.or_(*s.alive)


# --- shots, items, kills, turn end ------------------------------------------------------------


@model_fault("kill_lock_never_set", piece=("action", "eliminate_dying"))
def _kill_lock_never_set(original: Any, m: Any, s: Any, inp: Any, fx: Any) -> Any:
    return original(s, inp, fx).set(kill_lock=s.kill_lock)


@model_fault("rage_not_cleared", piece=("action", "clear_turn_effects"))
def _rage_not_cleared(original: Any, m: Any, s: Any, inp: Any, fx: Any) -> Any:
    return original(s, inp, fx).set(rage=s.rage)


@model_fault("shield_below_zero", piece=("helper", "has_shield_block"))
def _shield_below_zero(original: Any, m: Any, s: Any, p: Any) -> Any:
    return m.b.true()


@model_fault("shell_not_removed", piece=("action", "settle_shot"))
def _shell_not_removed(original: Any, m: Any, s: Any, inp: Any, fx: Any) -> Any:
    return original(s, inp, fx).set(shells=s.shells, live=s.live, head_live=s.head_live)


@model_fault("item_not_spent", piece=("action", "apply_item"))
def _item_not_spent(original: Any, m: Any, s: Any, inp: Any, fx: Any) -> Any:
    used = original(s, inp, fx)
    return used.set(items=m.change_item(used.items, s.owner, inp.item, plus=True))


# --- the end of the game ----------------------------------------------------------------------


@model_fault("no_game_over_check", piece=("guard", "game_is_over"))
def _no_game_over_check(original: Any, m: Any, s: Any, inp: Any) -> Any:
    return m.b.false()


@model_fault("traitor_win_ignored", piece=("guard", "game_is_over"))
def _traitor_win_ignored(original: Any, m: Any, s: Any, inp: Any) -> Any:
    return original(_no_traitors(s, m), inp)


@model_fault("early_draw", piece=("guard", "turn_limit_reached"))
def _early_draw(original: Any, m: Any, s: Any, inp: Any) -> Any:
    return original(s.set(turn_no=m.b.addn(s.turn_no, 1)), inp)


# --- the charts' transitions ------------------------------------------------------------------

chart_fault("pop_no_resume", retarget=tuple((edge, source) for edge, _, source in _resume_edges()))

chart_fault(
    "pop_wrong_resume",
    retarget=tuple((edge, chart_model(kind).initial) for edge, kind, _ in _resume_edges()),
)

chart_fault(
    "window_resumes_to_action",
    retarget=(("turn:awaiting_shot_window:shot_window_closed:0", "awaiting_action"),),
)

chart_fault("stuck_after_kill", removed=frozenset({"turn:shooting_locked:end_main:0"}))


# --- the rule properties' teeth (verification/proofs/rules_*.py) ------------------------------
#
# One fault at least for every rule property, each a plausible wrong reading of the rule
# sentence the property states; the property is named first in ``caught_by``, any other
# property that also catches it after.


def _living_seat_after(m: Any, s: Any, p: Any, skip: Callable[[int], Any]) -> Any:
    """The first seat clockwise after ``p`` that is alive and not ``skip(seat)`` (``p``
    itself when there is none)."""
    b = m.b
    chains = []
    for start in range(SEATS):
        chain = b.num(start)
        for k in range(SEATS - 1, 0, -1):
            seat = (start + k) % SEATS
            chain = b.ite(b.and_(s.alive[seat], b.not_(skip(seat))), b.num(seat), chain)
        chains.append(chain)
    return b.select(chains, p)


@model_fault("turn_passes_at_shot", piece=("action", "settle_shot"))
def _turn_passes_at_shot(original: Any, m: Any, s: Any, inp: Any, fx: Any) -> Any:
    fired = original(s, inp, fx)
    b = m.b
    keeps = b.and_(b.eq(s.shot_target, s.shot_shooter), b.not_(s.shot_live))
    owner = b.ite(keeps, s.owner, m.next_seat(fired, s.owner))
    return fired.set(
        owner=owner,
        fwho=b.update(fired.fwho, b.num(0), owner),
        k0=b.ite(keeps, s.k0, m.seat(fired.kills, owner)),
    )


def _living_seat_before(m: Any, s: Any, p: Any) -> Any:
    """The first living seat anticlockwise before ``p`` (``p`` itself when none other
    lives)."""
    b = m.b
    chains = []
    for start in range(SEATS):
        chain = b.num(start)
        for k in range(SEATS - 1, 0, -1):
            seat = (start - k) % SEATS
            chain = b.ite(s.alive[seat], b.num(seat), chain)
        chains.append(chain)
    return b.select(chains, p)


@model_fault("turn_passes_anticlockwise", piece=("action", "pass_to_next_seat"))
def _turn_passes_anticlockwise(original: Any, m: Any, s: Any, inp: Any, fx: Any) -> Any:
    passed = original(s, inp, fx)
    b = m.b
    owner = _living_seat_before(m, s, s.owner)
    return passed.set(
        owner=owner, k0=m.seat(s.kills, owner), fwho=b.update(passed.fwho, b.num(0), owner)
    )


@model_fault("turn_count_rounds", piece=("action", "pass_to_next_seat"))
def _turn_count_rounds(original: Any, m: Any, s: Any, inp: Any, fx: Any) -> Any:
    passed = original(s, inp, fx)
    b = m.b
    wrapped = b.le(passed.owner, s.owner)
    return passed.set(turn_no=b.ite(wrapped, passed.turn_no, s.turn_no))


chart_fault("settlement_phase_skipped", retarget=(("turn:settling:settle:6", "checking_cap"),))


@model_fault("end_main_any_time", piece=("guard", "can_shoot"))
def _end_main_any_time(original: Any, m: Any, s: Any, inp: Any) -> Any:
    b = m.b
    end_main = m.layout.edge_by_id("turn:awaiting_action:end_main:0").code
    return b.and_(original(s, inp), b.ne(inp.edge, b.num(end_main)))


@model_fault("extra_action_any_blank", piece=("guard", "main_continues"))
def _extra_action_any_blank(original: Any, m: Any, s: Any, inp: Any) -> Any:
    b = m.b
    blank = b.and_(b.eqn(s.last_step, LAST_SHOT), b.not_(s.shot_live))
    return b.or_(original(s, inp), blank)


@model_fault("turn_end_clears_shields", piece=("action", "clear_turn_effects"))
def _turn_end_clears_shields(original: Any, m: Any, s: Any, inp: Any, fx: Any) -> Any:
    b = m.b
    return original(s, inp, fx).set(shield=tuple(b.num(0) for _ in range(SEATS)))


@model_fault("everyone_draws", piece=("action", "draw_turn_items"))
def _everyone_draws(original: Any, m: Any, s: Any, inp: Any, fx: Any) -> Any:
    drawn = original(s, inp, fx)
    b = m.b
    count = m.rules.items.per_turn
    amounts = [b.count([b.eqn(inp.draws[j], k) for j in range(count)]) for k in range(KINDS)]
    rows = tuple(
        tuple(
            b.ite(
                b.and_(s.alive[q], b.ne(s.owner, b.num(q))),
                b.add(drawn.items[q][k], amounts[k]),
                drawn.items[q][k],
            )
            for k in range(KINDS)
        )
        for q in range(SEATS)
    )
    return drawn.set(items=rows)


@model_fault("rescue_restores_full_hp", piece=("action", "apply_rescue_item"))
def _rescue_restores_full_hp(original: Any, m: Any, s: Any, inp: Any, fx: Any) -> Any:
    rescued = original(s, inp, fx)
    b = m.b
    p = m.top_who(s)
    hp = m.seat(rescued.hp, p)
    full = b.ite(b.ge(hp, b.num(1)), b.num(m.rules.hp.max), hp)
    return rescued.set(hp=b.update(rescued.hp, p, full))


@model_fault("blank_uses_block", piece=("action", "settle_shot"))
def _blank_uses_block(original: Any, m: Any, s: Any, inp: Any, fx: Any) -> Any:
    fired = original(s, inp, fx)
    b = m.b
    target = s.shot_target
    shield = m.seat(s.shield, target)
    spent = b.and_(b.not_(s.shot_live), b.gt(shield, b.num(0)))
    after = b.ite(spent, b.subn(shield, 1), m.seat(fired.shield, target))
    return fired.set(shield=b.update(fired.shield, target, after))


@model_fault("blank_keeps_rage", piece=("action", "settle_shot"))
def _blank_keeps_rage(original: Any, m: Any, s: Any, inp: Any, fx: Any) -> Any:
    fired = original(s, inp, fx)
    b = m.b
    blank = b.not_(s.shot_live)
    return fired.set(
        rage=tuple(b.ite(blank, a, c) for a, c in zip(s.rage, fired.rage, strict=True))
    )


@model_fault("self_kill_credited", piece=("action", "eliminate_dying"))
def _self_kill_credited(original: Any, m: Any, s: Any, inp: Any, fx: Any) -> Any:
    gone = original(s, inp, fx)
    b = m.b
    src = s.hit_src
    own = b.and_(b.eq(src, m.top_who(s)), b.lt(src, b.num(SEATS)))
    kills = tuple(
        b.ite(b.and_(own, b.eqn(src, q)), b.addn(gone.kills[q], 1), gone.kills[q])
        for q in range(SEATS)
    )
    return gone.set(kills=kills)


@model_fault("loot_to_killer", piece=("action", "eliminate_dying"))
def _loot_to_killer(original: Any, m: Any, s: Any, inp: Any, fx: Any) -> Any:
    gone = original(s, inp, fx)
    b = m.b
    p = m.top_who(s)
    src = s.hit_src
    heir = b.ite(b.and_(b.ne(src, p), b.lt(src, b.num(SEATS))), src, b.num(NONE))
    loot = [m.held_n(s, p, k) for k in range(KINDS)]
    return gone.set(items=m.add_counts(gone.items, heir, loot))


@model_fault("reload_when_empty", piece=("action", "settle_shot"))
def _reload_when_empty(original: Any, m: Any, s: Any, inp: Any, fx: Any) -> Any:
    fired = original(s, inp, fx)
    b = m.b
    empty = b.eqn(fired.shells, 0)
    living = m.living(fired)
    live, total = b.num(0), b.num(0)
    options = []
    for table in m.rules.shells.loads:
        here = b.eqn(living, table.players)
        options.append(b.and_(here, b.lt(inp.load, b.num(len(table.options)))))
        for index, load in enumerate(table.options):
            pick = b.and_(here, b.eqn(inp.load, index))
            live = b.ite(pick, b.num(load.live), live)
            total = b.ite(pick, b.num(load.total), total)
    # the new first shell is the one the removal left as the head: blank (none was left)
    fx.require(b.implies(empty, b.and_(b.or_(*options), b.lt(live, total))))
    return fired.set(shells=b.ite(empty, total, fired.shells), live=b.ite(empty, live, fired.live))


@model_fault("shell_counted_by_final_type", piece=("action", "settle_shot"))
def _shell_counted_by_final_type(original: Any, m: Any, s: Any, inp: Any, fx: Any) -> Any:
    fired = original(s, inp, fx)
    b = m.b
    return fired.set(live=b.ite(s.shot_live, b.subn(s.live, 1), s.live))


@model_fault("rescue_unheld", piece=("guard", "rescue_usable"))
def _rescue_unheld(original: Any, m: Any, s: Any, inp: Any) -> Any:
    b = m.b
    return b.or_(*(b.eqn(inp.item, k) for k in RESCUE_CODES))


@model_fault("peek_empty_chamber", piece=("guard", "item_usable"))
def _peek_empty_chamber(original: Any, m: Any, s: Any, inp: Any) -> Any:
    b = m.b
    glass = b.eqn(inp.item, item_code(Item.PEEKING_GLASS))
    loaded = s.set(shells=b.ite(b.eqn(s.shells, 0), b.num(1), s.shells))
    return b.ite(glass, original(loaded, inp), original(s, inp))


@model_fault("ejected_shell_counted_blank", piece=("helper", "eject"))
def _ejected_shell_counted_blank(
    original: Any, m: Any, t: Any, s: Any, inp: Any, fx: Any, when: Any
) -> Any:
    return original(t, s, inp, fx, when).set(live=t.live)


def _replace_grant(field: str, m: Any, t: Any, out: Any, s: Any, when: Any) -> Any:
    """``out`` with the user's ``field`` set to what the item granted (``out`` less ``t``)
    instead of the sum of what they held and the grant."""
    b = m.b
    held = m.seat(getattr(t, field), s.owner)
    after = m.seat(getattr(out, field), s.owner)
    grant = b.ite(when, b.sub(after, held), after)
    return out.set(**{field: b.update(getattr(out, field), s.owner, grant)})


@model_fault("rage_replaces", piece=("helper", "rage"))
def _rage_replaces(original: Any, m: Any, t: Any, s: Any, inp: Any, fx: Any, when: Any) -> Any:
    return _replace_grant("rage", m, t, original(t, s, inp, fx, when), s, when)


@model_fault("amulet_replaces", piece=("helper", "amulet"))
def _amulet_replaces(original: Any, m: Any, t: Any, s: Any, inp: Any, fx: Any, when: Any) -> Any:
    return _replace_grant("shield", m, t, original(t, s, inp, fx, when), s, when)


@model_fault("milk_tea_rolls", piece=("helper", "milk_tea"))
def _milk_tea_rolls(original: Any, m: Any, t: Any, s: Any, inp: Any, fx: Any, when: Any) -> Any:
    out = original(t, s, inp, fx, when)
    b = m.b
    missed = b.and_(when, b.not_(inp.pill_heal))
    return out.set(hp=tuple(b.ite(missed, a, c) for a, c in zip(t.hp, out.hp, strict=True)))


@model_fault("pill_odds_swapped", piece=("helper", "pills"))
def _pill_odds_swapped(original: Any, m: Any, t: Any, s: Any, inp: Any, fx: Any, when: Any) -> Any:
    return original(t, s, replace(inp, pill_heal=m.b.not_(inp.pill_heal)), fx, when)


@model_fault("pickpocket_self", piece=("guard", "item_usable"))
def _pickpocket_self(original: Any, m: Any, s: Any, inp: Any) -> Any:
    b = m.b
    pick = item_code(Item.PICKPOCKET)
    own = b.and_(b.eqn(inp.item, pick), b.eq(inp.target, s.owner))
    holds = b.ge(m.held_n(s, s.owner, pick), b.num(1))
    others = b.ge(m.total(s, s.owner), b.num(2))
    return b.ite(own, b.and_(holds, others), original(s, inp))


@model_fault("inverter_flips_head_only", piece=("helper", "invert"))
def _inverter_flips_head_only(
    original: Any, m: Any, t: Any, s: Any, inp: Any, fx: Any, when: Any
) -> Any:
    out = original(t, s, inp, fx, when)
    b = m.b
    live = b.ite(t.head_live, b.subn(t.live, 1), b.addn(t.live, 1))
    return out.set(live=b.ite(when, live, t.live))


@model_fault("lucky_any_blank", piece=("action", "settle_shot"))
def _lucky_any_blank(original: Any, m: Any, s: Any, inp: Any, fx: Any) -> Any:
    fired = original(s, inp, fx)
    b = m.b
    shooter = s.shot_shooter
    other = b.and_(
        b.ne(s.shot_target, shooter),
        b.not_(s.shot_live),
        m.with_role(s, shooter, role_code(Role.GAMBLER)),
    )
    win = b.and_(other, inp.gamble_win)
    amounts = m.draw_amounts(fx, inp, m.rules.gambler.bonus_items, win)
    zero = b.num(0)
    fx.skill_by = b.ite(other, shooter, fx.skill_by)
    gained = [b.ite(win, a, zero) for a in amounts]
    return fired.set(items=m.add_counts(fired.items, shooter, gained))


@model_fault("traitor_medic_protected", piece=("helper", "amulet"))
def _traitor_medic_protected(
    original: Any, m: Any, t: Any, s: Any, inp: Any, fx: Any, when: Any
) -> Any:
    return original(t, _no_traitors(s, m), inp, fx, when)


@model_fault("dealer_sees_every_turn", piece=("action", "prophet_preview"))
def _dealer_sees_every_turn(original: Any, m: Any, s: Any, inp: Any, fx: Any) -> Any:
    out = original(s, inp, fx)
    b = m.b
    dealer = b.num(NONE)
    for p in range(SEATS - 1, -1, -1):
        sees = b.and_(s.alive[p], m.with_role(s, b.num(p), role_code(Role.DEALER)))
        dealer = b.ite(sees, b.num(p), dealer)
    fx.skill_by = b.ite(b.eqn(fx.skill_by, NONE), dealer, fx.skill_by)
    return out


@model_fault("fresh_load_shown_to_owner_only", piece=("action", "load_chamber"))
def _fresh_load_shown_to_owner_only(original: Any, m: Any, s: Any, inp: Any, fx: Any) -> Any:
    out = original(s, inp, fx)
    b = m.b
    fx.shown = [b.and_(shown, b.eqn(s.owner, p)) for p, shown in enumerate(fx.shown)]
    return out


@model_fault("mercenary_extra_charges", piece=("helper", "rage"))
def _mercenary_extra_charges(
    original: Any, m: Any, t: Any, s: Any, inp: Any, fx: Any, when: Any
) -> Any:
    out = original(t, s, inp, fx, when)
    b = m.b
    extra = b.and_(when, m.with_role(s, s.owner, role_code(Role.MERCENARY)))
    held = m.seat(out.rage, s.owner)
    more = b.ite(extra, b.addn(held, m.rules.rage.charges), held)
    return out.set(rage=b.update(out.rage, s.owner, more))


@model_fault("doctor_reverses_for_others", piece=("helper", "pills"))
def _doctor_reverses_for_others(
    original: Any, m: Any, t: Any, s: Any, inp: Any, fx: Any, when: Any
) -> Any:
    out = original(t, s, inp, fx, when)
    b = m.b
    target = inp.target
    others = b.and_(when, b.ne(target, s.owner), m.with_role(s, s.owner, role_code(Role.DOCTOR)))
    old = m.seat(t.hp, target)
    healed = b.min_(b.addn(old, m.rules.pills.doctor_heal), b.num(m.rules.hp.max))
    fx.skill_by = b.ite(others, s.owner, fx.skill_by)
    return out.set(hp=b.update(out.hp, target, b.ite(others, healed, m.seat(out.hp, target))))


@model_fault("anyone_may_flip", piece=("guard", "can_flip"))
def _anyone_may_flip(original: Any, m: Any, s: Any, inp: Any) -> Any:
    b = m.b
    magician = b.num(role_code(Role.MAGICIAN))
    return original(s.set(role=b.update(s.role, m.top_cursor(s), magician)), inp)


@model_fault("dying_asked_empty_handed", piece=("guard", "holds_rescue_item"))
def _dying_asked_empty_handed(original: Any, m: Any, s: Any, inp: Any) -> Any:
    return m.b.true()


@model_fault("conversion_on_rescue", piece=("action", "apply_rescue_item"))
def _conversion_on_rescue(original: Any, m: Any, s: Any, inp: Any, fx: Any) -> Any:
    rescued = original(s, inp, fx)
    b = m.b
    p = m.top_who(s)
    rose = b.and_(b.eqn(m.seat(s.hp, p), 0), b.eqn(m.seat(rescued.hp, p), 1))
    return rescued.set(fell=b.ite(rose, p, rescued.fell))


@model_fault("discard_whole_kind", piece=("action", "discard_one"))
def _discard_whole_kind(original: Any, m: Any, s: Any, inp: Any, fx: Any) -> Any:
    out = original(s, inp, fx)
    b = m.b
    rows = tuple(
        tuple(
            b.ite(b.and_(b.eqn(s.owner, q), b.eqn(inp.item, k)), b.num(0), count)
            for k, count in enumerate(row)
        )
        for q, row in enumerate(out.items)
    )
    return out.set(items=rows)


@model_fault("only_magicians_polled", piece=("action", "open_shot_window"))
def _only_magicians_polled(original: Any, m: Any, s: Any, inp: Any, fx: Any) -> Any:
    pushed = original(s, inp, fx)
    b = m.b
    magician = role_code(Role.MAGICIAN)

    def passive(seat: int) -> Any:
        return b.and_(b.ne(s.owner, b.num(seat)), b.not_(m.with_role(s, b.num(seat), magician)))

    skipped = tuple(b.and_(s.alive[q], passive(q)) for q in range(SEATS))
    first = _living_seat_after(m, s, s.owner, passive)
    return m.set_top(pushed, fasked=skipped, fcursor=first)


@model_fault("block_roll_below_cap", piece=("action", "settle_shot"))
def _block_roll_below_cap(original: Any, m: Any, s: Any, inp: Any, fx: Any) -> Any:
    fired = original(s, inp, fx)
    b = m.b
    target = s.shot_target
    kept = b.and_(s.shot_live, b.gt(m.seat(s.shield, target), b.num(0)), inp.shield_keep)
    after = b.ite(kept, m.seat(s.shield, target), m.seat(fired.shield, target))
    return fired.set(shield=b.update(fired.shield, target, after))


@model_fault("pickpocket_takes_first_kind", piece=("helper", "pickpocket"))
def _pickpocket_takes_first_kind(
    original: Any, m: Any, t: Any, s: Any, inp: Any, fx: Any, when: Any
) -> Any:
    b = m.b
    first = b.num(KINDS)
    for k in range(KINDS - 1, -1, -1):
        first = b.ite(b.ge(m.held_n(t, inp.target, k), b.num(1)), b.num(k), first)
    fx.require(b.implies(when, b.eq(inp.steal, first)))
    return original(t, s, inp, fx, when)


@model_fault("owner_wins", piece=("action", "declare_winner"))
def _owner_wins(original: Any, m: Any, s: Any, inp: Any, fx: Any) -> Any:
    return original(s, inp, fx).set(winner=s.owner)


# What a player may not do. The random searches try it (the executable spec's refused inputs:
# a shot at an eliminated player or at a seat no one sits at, an item not held), so a guard
# that wrongly allows it is reached by a path from an initial state, not only by a proof.


@model_fault("shot_at_the_dead", piece=("guard", "shot_target_valid"))
def _shot_at_the_dead(original: Any, m: Any, s: Any, inp: Any) -> Any:
    return m.b.lt(inp.target, s.n)


@model_fault("shot_at_an_empty_seat", piece=("guard", "shot_target_valid"))
def _shot_at_an_empty_seat(original: Any, m: Any, s: Any, inp: Any) -> Any:
    b = m.b
    return b.or_(original(s, inp), b.and_(b.ge(inp.target, s.n), b.lt(inp.target, b.num(SEATS))))


@model_fault("item_unheld", piece=("guard", "item_usable"))
def _item_unheld(original: Any, m: Any, s: Any, inp: Any) -> Any:
    b = m.b
    one = [b.ite(b.eqn(inp.item, k), b.num(1), b.num(0)) for k in range(KINDS)]
    in_hand = s.set(items=m.add_counts(s.items, s.owner, one))
    return b.or_(original(s, inp), original(in_hand, inp))


# Choices the rules allow, removed: each breaks no step property (what a step does stays
# right), only the enabledness property (verification/proofs/rules_enabled.py) that says the
# choice is offered, named first in ``caught_by``; progress after it when the removal can leave
# a player with no choice at all.

PILLS = item_code(Item.EXPIRED_PILLS)


def _next_living(m: Any, s: Any, p: Any) -> Any:
    return _living_seat_after(m, s, p, lambda seat: m.b.false())


@model_fault("no_shot_at_the_next_seat", piece=("guard", "shot_target_valid"))
def _no_shot_at_the_next_seat(original: Any, m: Any, s: Any, inp: Any) -> Any:
    return m.b.and_(original(s, inp), m.b.ne(inp.target, _next_living(m, s, s.owner)))


@model_fault("pills_only_for_oneself", piece=("guard", "item_usable"))
def _pills_only_for_oneself(original: Any, m: Any, s: Any, inp: Any) -> Any:
    b = m.b
    return b.and_(original(s, inp), b.or_(b.ne(inp.item, b.num(PILLS)), b.eq(inp.target, s.owner)))


# --- the rulebook's item table misread: the model's item_usable reading another table -------
#
# The model and the engine read an item's need of a shell and its target rule from the
# rulebook (spec/rulebook.py, ITEMS); the properties state them from the rule text. A wrong
# entry in the table moves the model (and the engine) with it, and only a property that does
# not read the table catches it (issue 33: with the properties reading the table, U1 and A2
# were proved under both misreadings).


def _usable_misread(m: Any, s: Any, inp: Any, wrong: ItemSpec) -> Any:
    """``item_usable`` under a rulebook whose entry of ``wrong.item`` is ``wrong``."""
    table = tuple(wrong if spec.item is wrong.item else spec for spec in ITEMS)
    targets = {item_code(spec.item): spec.target for spec in table}
    chamber = {item_code(spec.item) for spec in table if spec.needs_shell}
    return m.item_usable_under(s, inp, targets, chamber)


@model_fault("rulebook_glass_needs_no_shell", piece=("guard", "item_usable"))
def _rulebook_glass_needs_no_shell(original: Any, m: Any, s: Any, inp: Any) -> Any:
    return _usable_misread(m, s, inp, replace(item_spec(Item.PEEKING_GLASS), needs_shell=False))


@model_fault("rulebook_pills_target_others", piece=("guard", "item_usable"))
def _rulebook_pills_target_others(original: Any, m: Any, s: Any, inp: Any) -> Any:
    pills = replace(item_spec(Item.EXPIRED_PILLS), target=Target.OTHER_LIVING)
    return _usable_misread(m, s, inp, pills)


chart_fault("no_end_on_empty_chamber", removed=frozenset({"turn:awaiting_action:end_main:0"}))


def _can_flip(m: Any, s: Any, who: Any) -> Any:
    """``who`` is a Magician who is not a traitor and holds at least magician.cost items."""
    b = m.b
    magician = m.with_role(s, who, role_code(Role.MAGICIAN))
    return b.and_(magician, b.ge(m.total(s, who), b.num(m.rules.magician.cost)))


@model_fault("magician_must_flip", piece=("action", "advance_poll"))
def _magician_must_flip(original: Any, m: Any, s: Any, inp: Any, fx: Any) -> Any:
    fx.require(m.b.not_(_can_flip(m, s, m.top_cursor(s))))
    return original(s, inp, fx)


@model_fault("flip_needs_two_kinds", piece=("guard", "can_flip"))
def _flip_needs_two_kinds(original: Any, m: Any, s: Any, inp: Any) -> Any:
    b = m.b
    return b.and_(original(s, inp), *(b.le(count, b.num(1)) for count in inp.pay))


@model_fault("pills_no_rescue", piece=("guard", "rescue_usable"))
def _pills_no_rescue(original: Any, m: Any, s: Any, inp: Any) -> Any:
    return m.b.and_(original(s, inp), m.b.ne(inp.item, m.b.num(PILLS)))


@model_fault("no_giving_up_with_rescue", piece=("action", "eliminate_dying"))
def _no_giving_up_with_rescue(original: Any, m: Any, s: Any, inp: Any, fx: Any) -> Any:
    b = m.b
    who = m.top_who(s)
    fx.require(b.and_(*(b.eqn(m.held_n(s, who, k), 0) for k in RESCUE_CODES)))
    return original(s, inp, fx)


chart_fault("conversion_never_taken", removed=frozenset({"conversion:choosing:convert:0"}))

chart_fault("conversion_always_taken", removed=frozenset({"conversion:choosing:keep_role:0"}))


@model_fault("rescue_items_kept_at_discard", piece=("guard", "item_held"))
def _rescue_items_kept_at_discard(original: Any, m: Any, s: Any, inp: Any) -> Any:
    b = m.b
    return b.and_(original(s, inp), *(b.ne(inp.item, b.num(k)) for k in RESCUE_CODES))
