"""Model bugs written by a stranger to the properties (issue 24's measure).

Each bug is a plain misreading of one numbered rule sentence (S..) or ruling (R..), written
from the rule text, the rulings and the model's named pieces alone, before the properties
(verification/proofs/) were read. Each reaches the model as a
:class:`~buckshot.verification.model.patch.Patch` of a registry guard, action or selector,
or of a public model helper; the wrappers are module-level functions, so that a patch can
travel to a worker process. Each is a row of ``manifest.json`` (room ``model``, batch
``stranger-1``: the rule it misreads, the sentence and how, the properties that failed and
the verdict), and ``python benchmarks/faults.py --batch stranger-1`` runs the proofs against
each bug.

A wrapper receives the original piece bound to the model, then the model, then the piece's
arguments (:mod:`buckshot.verification.model.patch`).
"""

from __future__ import annotations

from typing import Any

from buckshot.spec.rulebook import FrameKind, Role
from buckshot.verification.model.layout import ITEM_KINDS, LAST_SHOT, NONE, SEATS, role_code
from buckshot.verification.model.patch import Patch
from faults.model import add

PATCHES: dict[str, Patch] = {}
"""The first batch's patches, by name, in the order of the rule text's chapters."""


# --- S1: turn order ------------------------------------------------------------------------


def next_seat_keeps_the_dead(original: Any, m: Any, s: Any, p: Any, skip_dead: bool = True) -> Any:
    """The next seat clockwise, counting eliminated seats too."""
    return original(s, p, False)


def pass_turn_to_self(original: Any, m: Any, s: Any, inp: Any, fx: Any) -> Any:
    """Turn end counts the turn but leaves it with the same owner."""
    b = m.b
    t = original(s, inp, fx)
    return t.set(
        owner=s.owner, k0=m.seat(s.kills, s.owner), fwho=b.update(t.fwho, b.num(0), s.owner)
    )


# --- S2: roles -----------------------------------------------------------------------------


def preview_for_any_owner(original: Any, m: Any, s: Any, inp: Any, fx: Any) -> Any:
    """Every turn owner, Dealer or not, learns the first shell at turn start."""
    b = m.b
    t = original(s, inp, fx)
    fx.shown = [b.or_(shown, b.eqn(s.owner, p)) for p, shown in enumerate(fx.shown)]
    return t


def flip_costs_one_less(original: Any, m: Any, s: Any, inp: Any) -> Any:
    """A Magician's flip costs magician.cost - 1 items."""
    b = m.b
    who = m.top_cursor(s)
    is_magician = m.with_role(s, who, role_code(Role.MAGICIAN))
    pays = [b.le(inp.pay[k], m.held_n(s, who, k)) for k in range(len(ITEM_KINDS))]
    cost = m.rules.magician.cost - 1
    return b.and_(is_magician, *pays, b.eq(b.sum_(inp.pay), b.num(cost)))


def traitor_keeps_ballistic_control(original: Any, m: Any, s: Any, inp: Any) -> Any:
    """A converted Magician may still flip (the role read, the conversion ignored)."""
    b = m.b
    who = m.top_cursor(s)
    everyone_loyal = s.set(traitor=tuple(b.false() for _ in s.traitor))
    return b.and_(b.lt(who, b.num(SEATS)), original(everyone_loyal, inp))


def _as_traitors(m: Any, t: Any) -> Any:
    """``t`` with every seat a traitor (so no role skill applies)."""
    return t.set(traitor=tuple(m.b.true() for _ in t.traitor))


def medic_blocks_once(original: Any, m: Any, t: Any, s: Any, inp: Any, fx: Any, when: Any) -> Any:
    """An amulet gives a Medic the default single block."""
    return original(t, _as_traitors(m, s), inp, fx, when)


def doctor_pills_rolled(original: Any, m: Any, t: Any, s: Any, inp: Any, fx: Any, when: Any) -> Any:
    """A Doctor's pills on themself are rolled like anyone's."""
    done = original(_as_traitors(m, t), _as_traitors(m, s), inp, fx, when)
    return done.set(traitor=t.traitor)


# --- S3: items -----------------------------------------------------------------------------


def blank_keeps_rage(original: Any, m: Any, s: Any, inp: Any, fx: Any) -> Any:
    """A blank shot leaves the rage charge in place."""
    b = m.b
    t = original(s, inp, fx)
    rage = tuple(
        b.ite(s.shot_live, after, before) for after, before in zip(t.rage, s.rage, strict=True)
    )
    return t.set(rage=rage)


def milk_tea_heals_twice(
    original: Any, m: Any, t: Any, s: Any, inp: Any, fx: Any, when: Any
) -> Any:
    """Milk tea restores its heal twice over."""
    return original(original(t, s, inp, fx, when), s, inp, fx, when)


def inverter_flips_head_only(
    original: Any, m: Any, t: Any, s: Any, inp: Any, fx: Any, when: Any
) -> Any:
    """The inverter flips the next shell; the live count is left as it was."""
    done = original(t, s, inp, fx, when)
    b = m.b
    head = b.ite(t.head_live, b.num(-1), b.num(1))
    return done.set(live=b.ite(when, b.add(t.live, head), t.live))


# --- S4: the turn's phases -----------------------------------------------------------------


def draw_for_next_seat(original: Any, m: Any, s: Any, inp: Any, fx: Any) -> Any:
    """The turn-start items go to the next seat rather than the turn owner."""
    nxt = m.next_seat(s, s.owner)
    return original(s.set(owner=nxt), inp, fx).set(owner=s.owner)


def no_self_target(original: Any, m: Any, s: Any, inp: Any) -> Any:
    """The target must be another living player."""
    return m.b.and_(original(s, inp), m.b.ne(inp.target, s.owner))


def any_blank_continues(original: Any, m: Any, s: Any, inp: Any) -> Any:
    """Any blank shot, at oneself or not, gives the extra action."""
    b = m.b
    blank = b.and_(b.eqn(s.last_step, LAST_SHOT), b.not_(s.shot_live))
    return b.or_(original(s, inp), blank)


def kill_never_locks(original: Any, m: Any, s: Any, inp: Any) -> Any:
    """Shooting needs only a shell; a kill locks nothing."""
    return m.b.gt(s.shells, m.b.num(0))


def kill_lock_outlives_turn(original: Any, m: Any, s: Any, inp: Any, fx: Any) -> Any:
    """Turn end clears the turn's marks but not the kill lock."""
    return original(s, inp, fx).set(kill_lock=s.kill_lock)


def rage_outlives_turn(original: Any, m: Any, s: Any, inp: Any, fx: Any) -> Any:
    """Turn end keeps the rage charges."""
    return original(s, inp, fx).set(rage=s.rage)


def shields_cleared_at_turn_end(original: Any, m: Any, s: Any, inp: Any, fx: Any) -> Any:
    """Turn end clears shield blocks with the other boosts."""
    return original(s, inp, fx).set(shield=tuple(m.b.num(0) for _ in s.shield))


def cap_without_traitor_bonus(original: Any, m: Any, s: Any, p: Any) -> Any:
    """Every player's item cap is their HP."""
    return m.seat(s.hp, p)


def discard_stops_one_over(original: Any, m: Any, s: Any, inp: Any) -> Any:
    """The owner discards only while holding more than cap + 1 items."""
    b = m.b
    return b.gt(m.total(s, s.owner), b.addn(m.cap(s, s.owner), 1))


def conversion_at_every_fall(original: Any, m: Any, s: Any, inp: Any) -> Any:
    """The conversion choice comes at every fall to 1, not only the first."""
    b = m.b
    return b.and_(b.ne(s.fell, b.num(NONE)), m.bseat(s.alive, s.fell))


def dying_without_rescue(original: Any, m: Any, s: Any, inp: Any) -> Any:
    """A dying player is never offered a rescue."""
    return m.b.false()


# --- S5, S6: special states and polling ----------------------------------------------------


def traitor_wins_one_kill_early(original: Any, m: Any, s: Any) -> Any:
    """A traitor wins with traitor.kills_to_win - 1 kills."""
    b = m.b
    need = b.num(m.rules.traitor.kills_to_win - 1)
    return b.or_(
        b.le(m.living(s), b.num(1)),
        *(b.and_(s.traitor[p], b.ge(s.kills[p], need)) for p in range(SEATS)),
    )


def winner_with_one_kill_early(original: Any, m: Any, s: Any, inp: Any, fx: Any) -> Any:
    """Declares the traitor who has traitor.kills_to_win - 1 kills the winner."""
    b = m.b
    t = original(s, inp, fx)
    need = b.num(m.rules.traitor.kills_to_win - 1)
    winner = t.winner
    for p in range(SEATS - 1, -1, -1):
        winner = b.ite(b.and_(s.traitor[p], b.ge(s.kills[p], need)), b.num(p), winner)
    return t.set(winner=winner)


def dead_keep_items(original: Any, m: Any, s: Any, inp: Any, fx: Any) -> Any:
    """An eliminated player keeps their items."""
    return original(s, inp, fx).set(items=s.items)


def poll_starts_with_owner(original: Any, m: Any, s: Any, inp: Any, fx: Any) -> Any:
    """The shot window asks the turn owner first."""
    return m.push(s, FrameKind.SHOT_WINDOW, s.owner, s.owner)


def poll_skips_shooter(original: Any, m: Any, s: Any, inp: Any) -> Any:
    """The shot window closes once every living player but the shooter was asked."""
    b = m.b
    asked = m.top_asked(s)
    return b.and_(
        *(b.implies(b.and_(s.alive[p], b.ne(s.owner, b.num(p))), asked[p]) for p in range(SEATS))
    )


def _bug(name: str, **pieces: Any) -> None:
    add(PATCHES, name, Patch(name, **pieces))


_bug("turn_passes_to_the_dead", helpers=(("next_seat", next_seat_keeps_the_dead),))
_bug("turn_never_passes", actions=(("pass_to_next_seat", pass_turn_to_self),))
_bug("preview_for_every_owner", actions=(("prophet_preview", preview_for_any_owner),))
_bug("magician_flip_costs_one", guards=(("can_flip", flip_costs_one_less),))
_bug("traitor_magician_still_flips", guards=(("can_flip", traitor_keeps_ballistic_control),))
_bug("medic_single_block", helpers=(("amulet", medic_blocks_once),))
_bug("doctor_pills_rolled", helpers=(("pills", doctor_pills_rolled),))
_bug("stranger_blank_keeps_rage", actions=(("settle_shot", blank_keeps_rage),))
_bug("milk_tea_heals_two", helpers=(("milk_tea", milk_tea_heals_twice),))
_bug("inverter_flips_next_shell", helpers=(("invert", inverter_flips_head_only),))
_bug("turn_items_to_next_seat", actions=(("draw_turn_items", draw_for_next_seat),))
_bug("no_shot_at_oneself", guards=(("shot_target_valid", no_self_target),))
_bug("any_blank_gives_extra_action", guards=(("main_continues", any_blank_continues),))
_bug("kill_never_locks_shooting", guards=(("can_shoot", kill_never_locks),))
_bug("kill_lock_outlives_turn", actions=(("clear_turn_effects", kill_lock_outlives_turn),))
_bug("rage_outlives_turn", actions=(("clear_turn_effects", rage_outlives_turn),))
_bug("shields_cleared_at_turn_end", actions=(("clear_turn_effects", shields_cleared_at_turn_end),))
_bug("traitor_cap_without_bonus", helpers=(("cap", cap_without_traitor_bonus),))
_bug("discard_stops_one_over", guards=(("over_cap", discard_stops_one_over),))
_bug("conversion_at_every_fall", guards=(("conversion_due", conversion_at_every_fall),))
_bug("no_rescue_offered", guards=(("holds_rescue_item", dying_without_rescue),))
_bug(
    "traitor_wins_one_kill_early",
    helpers=(("game_over_condition", traitor_wins_one_kill_early),),
    actions=(("declare_winner", winner_with_one_kill_early),),
)
_bug("dead_keep_items", actions=(("eliminate_dying", dead_keep_items),))
_bug("poll_starts_with_shooter", actions=(("open_shot_window", poll_starts_with_owner),))
_bug("poll_skips_shooter", guards=(("poll_complete", poll_skips_shooter),))
