"""Deliberate bugs of the formal model, each a patch of one named piece or transition.

Each breaker is a wrapper of a registry guard, action or selector, or of a named model
helper (:mod:`buckshot.verification.model.patch`): it receives the original piece (bound to
the model), the model, then the piece's arguments. The decorator declares the fault (what
it breaks, the properties that must catch it) and adds it to :data:`MUTANTS`, which
``buckshot verify --mutants`` runs. A fault counts as caught only when a proof of one of
its properties fails with a confirmed counterexample *and* a seeded walk of the executable
spec reaches the bug (:mod:`buckshot.verification.proofs.mutants`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from buckshot.faults.declare import Fault, Room, declare
from buckshot.spec.charts import Trigger
from buckshot.spec.model import chart_model, chart_models
from buckshot.spec.rulebook import FrameKind, Role
from buckshot.verification.model.layout import SEATS
from buckshot.verification.model.patch import NO_PATCH, Patch, Wrapper
from buckshot.verification.proofs.mutants import Mutant, Variant
from buckshot.verification.proofs.reach import Table

MUTANTS: list[Mutant] = []
"""Every model and chart fault, as the verification runs it, in declaration order."""

_PIECES = ("guard", "action", "selector", "helper")


def model_fault(
    name: str,
    summary: str,
    *,
    breaks: tuple[str, ...],
    caught_by: tuple[str, ...],
    piece: tuple[str, str],
    also: Patch = NO_PATCH,
    table: Table | None = None,
    variant: Variant | None = None,
) -> Callable[[Wrapper], Wrapper]:
    """Declare the decorated wrapper as the fault ``name``: it replaces the model's
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
        _add(Fault(name, Room.MODEL, summary, breaks, caught_by), patch | also, table, variant)
        return wrap

    return register


def chart_fault(
    name: str,
    summary: str,
    *,
    breaks: tuple[str, ...],
    caught_by: tuple[str, ...],
    removed: frozenset[str] = frozenset(),
    retarget: tuple[tuple[str, str], ...] = (),
) -> None:
    """Declare the fault ``name``: the charts, as the model reads them, lose the transitions
    ``removed`` and send those of ``retarget`` to other states."""
    patch = Patch(name, removed=removed, retarget=retarget)
    _add(Fault(name, Room.CHART, summary, breaks, caught_by), patch, None, None)


def _add(fault: Fault, patch: Patch, table: Table | None, variant: Variant | None) -> None:
    declare(fault)
    patch = Patch(fault.name, *_fields(patch))
    MUTANTS.append(Mutant(fault.name, fault.summary, fault.caught_by, patch, table, variant))


def _fields(patch: Patch) -> tuple[Any, ...]:
    return (
        patch.guards,
        patch.actions,
        patch.selectors,
        patch.helpers,
        patch.removed,
        patch.retarget,
    )


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


@model_fault(
    "poll_no_skip",
    "a poll that does not skip the eliminated",
    breaks=("S6.2.1", "R17"),
    caught_by=("I1", "I4"),
    piece=("action", "advance_poll"),
)
def _poll_no_skip(original: Any, m: Any, s: Any, inp: Any, fx: Any) -> Any:
    moved = original(s, inp, fx)
    return m.set_top(moved, fcursor=m.next_seat(s, m.top_cursor(s), skip_dead=False))


@model_fault(
    "dead_owner_turn",
    "the turn passes to the next seat, dead or alive",
    breaks=("S1.2", "S4.5.3", "R16"),
    caught_by=("I1",),
    piece=("action", "pass_to_next_seat"),
)
def _dead_owner_turn(original: Any, m: Any, s: Any, inp: Any, fx: Any) -> Any:
    passed = original(s, inp, fx)
    b = m.b
    nxt = m.next_seat(s, s.owner, skip_dead=False)
    return passed.set(owner=nxt, k0=m.seat(s.kills, nxt), fwho=b.update(passed.fwho, b.num(0), nxt))


@model_fault(
    "poll_owner_first",
    "the shot window asks the shooter first",
    breaks=("S4.2.1b", "R17"),
    caught_by=("I4",),
    piece=("action", "open_shot_window"),
)
def _poll_owner_first(original: Any, m: Any, s: Any, inp: Any, fx: Any) -> Any:
    return m.set_top(original(s, inp, fx), fcursor=s.owner)


@model_fault(
    "owner_changes_in_window",
    "a shot window hands the turn to the next seat",
    breaks=("S1.3", "S6.2.1"),
    caught_by=("I2",),
    piece=("action", "open_shot_window"),
)
def _owner_changes_in_window(original: Any, m: Any, s: Any, inp: Any, fx: Any) -> Any:
    pushed = original(s, inp, fx)
    return pushed.set(owner=m.top_cursor(pushed))


@model_fault(
    "suspended_frame_touched",
    "a poll step also writes the suspended turn frame",
    breaks=("S6.1.2",),
    caught_by=("I2",),
    piece=("action", "advance_poll"),
)
def _suspended_frame_touched(original: Any, m: Any, s: Any, inp: Any, fx: Any) -> Any:
    moved = original(s, inp, fx)
    b = m.b
    return moved.set(fcursor=b.update(moved.fcursor, b.num(0), m.top_cursor(moved)))


@model_fault(
    "conversion_asks_owner",
    "a conversion prompt goes to the turn owner",
    breaks=("S4.3.2", "R6"),
    caught_by=("I1",),
    piece=("selector", "converting_player"),
)
def _conversion_asks_owner(original: Any, m: Any, s: Any) -> Any:
    return s.owner


# --- the discard cap --------------------------------------------------------------------------


@model_fault(
    "cap_off_by_one",
    "the discard cap is one too high",
    breaks=("S4.4.2", "R12"),
    caught_by=("I3",),
    piece=("guard", "over_cap"),
)
def _cap_off_by_one(original: Any, m: Any, s: Any, inp: Any) -> Any:
    b = m.b
    return b.gt(m.total(s, s.owner), b.addn(m.cap(s, s.owner), 1))


@model_fault(
    "traitor_cap_forgotten",
    "a traitor's cap forgets the +1",
    breaks=("S4.4.2", "S5.1", "R12"),
    caught_by=("I3",),
    piece=("guard", "over_cap"),
)
def _traitor_cap_forgotten(original: Any, m: Any, s: Any, inp: Any) -> Any:
    return original(_no_traitors(s, m), inp)


@model_fault(
    "shared_cap_off_by_one",
    "the cap helper shared by the discard guard is one too high",
    breaks=("S4.4.2", "R12"),
    caught_by=("I3",),
    piece=("helper", "cap"),
)
def _shared_cap_off_by_one(original: Any, m: Any, s: Any, p: Any) -> Any:
    return m.b.addn(original(s, p), 1)


# --- skills and conversions -------------------------------------------------------------------


@model_fault(
    "second_conversion",
    "a second conversion is offered",
    breaks=("S4.3.2", "R6"),
    caught_by=("I5",),
    piece=("guard", "conversion_due"),
)
def _second_conversion(original: Any, m: Any, s: Any, inp: Any) -> Any:
    return original(s.set(conv_used=tuple(m.b.false() for _ in range(SEATS))), inp)


@model_fault(
    "traitor_keeps_skill",
    "a traitor Magician may still flip",
    breaks=("S5.1", "S2.6", "R8"),
    caught_by=("I5",),
    piece=("guard", "can_flip"),
    table=Table(3, Role.MAGICIAN),
)
def _traitor_keeps_skill(original: Any, m: Any, s: Any, inp: Any) -> Any:
    return original(_no_traitors(s, m), inp)


def _always(original: Any, m: Any, s: Any, inp: Any) -> Any:
    return m.b.true()


@model_fault(
    "counter_unbounded",
    "counter responses ignore the stack bound",
    breaks=("S6.1.4", "S6.3.1", "R18"),
    caught_by=("I6", "L4"),
    piece=("guard", "counter_possible"),
    also=Patch(guards=(("can_counter", _always),)),
)
def _counter_unbounded(original: Any, m: Any, s: Any, inp: Any) -> Any:
    return m.b.or_(*s.alive)


# --- shots, items, kills, turn end ------------------------------------------------------------


@model_fault(
    "kill_lock_never_set",
    "a kill never locks shooting",
    breaks=("S4.2.1e", "R25"),
    caught_by=("I7",),
    piece=("action", "eliminate_dying"),
)
def _kill_lock_never_set(original: Any, m: Any, s: Any, inp: Any, fx: Any) -> Any:
    return original(s, inp, fx).set(kill_lock=s.kill_lock)


@model_fault(
    "rage_not_cleared",
    "rage charges survive the turn end",
    breaks=("S4.5.1", "R9"),
    caught_by=("I8",),
    piece=("action", "clear_turn_effects"),
)
def _rage_not_cleared(original: Any, m: Any, s: Any, inp: Any, fx: Any) -> Any:
    return original(s, inp, fx).set(rage=s.rage)


@model_fault(
    "shield_below_zero",
    "a live hit uses a shield block even when none is left",
    breaks=("S3.4",),
    caught_by=("I8",),
    piece=("helper", "has_shield_block"),
)
def _shield_below_zero(original: Any, m: Any, s: Any, p: Any) -> Any:
    return m.b.true()


@model_fault(
    "shell_not_removed",
    "a fired shell stays in the chamber",
    breaks=("S4.2.1c",),
    caught_by=("I10",),
    piece=("action", "settle_shot"),
)
def _shell_not_removed(original: Any, m: Any, s: Any, inp: Any, fx: Any) -> Any:
    return original(s, inp, fx).set(shells=s.shells, live=s.live, head_live=s.head_live)


@model_fault(
    "item_not_spent",
    "a used item is not spent",
    breaks=("S4.2.2",),
    caught_by=("I10",),
    piece=("action", "apply_item"),
)
def _item_not_spent(original: Any, m: Any, s: Any, inp: Any, fx: Any) -> Any:
    used = original(s, inp, fx)
    return used.set(items=m.change_item(used.items, s.owner, inp.item, plus=True))


# --- the end of the game ----------------------------------------------------------------------


@model_fault(
    "no_game_over_check",
    "the end condition is never checked",
    breaks=("S5.1", "R7"),
    caught_by=("I9",),
    piece=("guard", "game_is_over"),
)
def _no_game_over_check(original: Any, m: Any, s: Any, inp: Any) -> Any:
    return m.b.false()


@model_fault(
    "traitor_win_ignored",
    "a traitor's kills_to_win kills do not end the game",
    breaks=("S5.1", "R7"),
    caught_by=("I9",),
    piece=("guard", "game_is_over"),
    table=Table(6, prefer=frozenset({"give_up"})),
    variant=Variant("traitor.kills_to_win = 1", (("traitor.kills_to_win", 1),)),
)
def _traitor_win_ignored(original: Any, m: Any, s: Any, inp: Any) -> Any:
    return original(_no_traitors(s, m), inp)


@model_fault(
    "early_draw",
    "the game is drawn one turn before limits.max_turns",
    breaks=("S4.5.3", "R21"),
    caught_by=("I9",),
    piece=("guard", "turn_limit_reached"),
)
def _early_draw(original: Any, m: Any, s: Any, inp: Any) -> Any:
    return original(s.set(turn_no=m.b.addn(s.turn_no, 1)), inp)


# --- the charts' transitions ------------------------------------------------------------------

chart_fault(
    "pop_no_resume",
    "a pop that leaves the frame below suspended",
    breaks=("S6.1.3",),
    caught_by=("I2",),
    retarget=tuple((edge, source) for edge, _, source in _resume_edges()),
)

chart_fault(
    "pop_wrong_resume",
    "a pop resumes the frame below at its initial state",
    breaks=("S6.1.3",),
    caught_by=("I2",),
    retarget=tuple((edge, chart_model(kind).initial) for edge, kind, _ in _resume_edges()),
)

chart_fault(
    "window_resumes_to_action",
    "a closed shot window resumes the turn at awaiting_action, not settling",
    breaks=("S4.2.1c", "S6.1.3"),
    caught_by=("I2",),
    retarget=(("turn:awaiting_shot_window:shot_window_closed:0", "awaiting_action"),),
)

chart_fault(
    "stuck_after_kill",
    "shooting_locked loses its end_main edge (an owner who killed and holds no item can "
    "never move)",
    breaks=("S4.2.1e", "R25"),
    caught_by=("P1",),
    removed=frozenset({"turn:shooting_locked:end_main:0"}),
)


def patch_of(*names: str) -> Patch:
    """The model with the faults ``names`` at once (``KeyError`` naming an unknown one)."""
    by_name = {mutant.name: mutant for mutant in MUTANTS}
    patch = NO_PATCH
    for name in names:
        if name not in by_name:
            raise KeyError(f"unknown model fault {name!r}; known: {', '.join(by_name)}")
        patch = patch | by_name[name].patch
    return patch
