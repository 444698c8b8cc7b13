"""Model bugs written by a stranger to the properties (issue 24's measure).

Each bug is a plain misreading of one numbered rule sentence (S..) or ruling (R..), written
from the rule text, the rulings and the model's named pieces alone, before the properties
(verification/proofs/) were read. Each reaches the model as a
:class:`~buckshot.verification.model.patch.Patch` of a registry guard, action or selector,
or of a public model helper; the wrappers are module-level functions, so that a patch can
travel to a worker process. ``benchmarks/stranger_mutants.py`` runs the proofs against
each bug.

A wrapper receives the original piece bound to the model, then the model, then the piece's
arguments (:mod:`buckshot.verification.model.patch`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from buckshot.spec.rulebook import FrameKind, Role
from buckshot.verification.model.layout import ITEM_KINDS, LAST_SHOT, NONE, SEATS, role_code
from buckshot.verification.model.patch import Patch


@dataclass(frozen=True)
class StrangerBug:
    """One deliberate misreading of a rule sentence, and the patch that makes it."""

    name: str
    rule: str
    """The clause or ruling it breaks."""
    sentence: str
    """The sentence misread, and how."""
    patch: Patch


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


def _bug(name: str, rule: str, sentence: str, **pieces: Any) -> StrangerBug:
    return StrangerBug(name, rule, sentence, Patch(name, **pieces))


BUGS: tuple[StrangerBug, ...] = (
    _bug(
        "turn_passes_to_the_dead",
        "S1.2",
        "'removed from the turn sequence' read as only skipping their actions: the next seat "
        "(turn, poll) counts eliminated seats",
        helpers=(("next_seat", next_seat_keeps_the_dead),),
    ),
    _bug(
        "turn_never_passes",
        "S1.1",
        "'then the right to act passes to the next living player' dropped: the owner keeps it",
        actions=(("pass_to_next_seat", pass_turn_to_self),),
    ),
    _bug(
        "preview_for_every_owner",
        "S2.3",
        "'this player learns the first shell' read as every turn owner learning it",
        actions=(("prophet_preview", preview_for_any_owner),),
    ),
    _bug(
        "magician_flip_costs_one",
        "S2.6",
        "'may spend 2 items' read off by one: one item pays the flip",
        guards=(("can_flip", flip_costs_one_less),),
    ),
    _bug(
        "traitor_magician_still_flips",
        "S5.1",
        "'permanently loses all of their role's skills' missed for the Magician's response",
        guards=(("can_flip", traitor_keeps_ballistic_control),),
    ),
    _bug(
        "medic_single_block",
        "S2.2",
        "'blocks live-shell damage 2 times' missed: a Medic's amulet blocks once",
        helpers=(("amulet", medic_blocks_once),),
    ),
    _bug(
        "doctor_pills_rolled",
        "S2.5",
        "'no random loss or gain' missed: a Doctor's own pills are rolled",
        helpers=(("pills", doctor_pills_rolled),),
    ),
    _bug(
        "blank_keeps_rage",
        "S3.3",
        "'A blank shot also uses up a charge' missed: only a live shot uses one",
        actions=(("settle_shot", blank_keeps_rage),),
    ),
    _bug(
        "milk_tea_heals_two",
        "S3.5",
        "'Regain 1 HP' read as the heal applied twice",
        helpers=(("milk_tea", milk_tea_heals_twice),),
    ),
    _bug(
        "inverter_flips_next_shell",
        "S3.8",
        "'Flip every shell' read as flipping the next shell (its count moves by one)",
        helpers=(("invert", inverter_flips_head_only),),
    ),
    _bug(
        "turn_items_to_next_seat",
        "S4.1.1",
        "'The turn owner always gains 2 random items' given to the wrong seat (the next one)",
        actions=(("draw_turn_items", draw_for_next_seat),),
    ),
    _bug(
        "no_shot_at_oneself",
        "S4.2.1a",
        "'(themself allowed)' missed: the target must be another player",
        guards=(("shot_target_valid", no_self_target),),
    ),
    _bug(
        "any_blank_gives_extra_action",
        "S4.2.1d",
        "'after a blank shot at oneself' read as after any blank shot",
        guards=(("main_continues", any_blank_continues),),
    ),
    _bug(
        "kill_never_locks_shooting",
        "S4.2.1e",
        "'shooting is locked for the rest of that turn' missed: a killer may shoot again",
        guards=(("can_shoot", kill_never_locks),),
    ),
    _bug(
        "kill_lock_outlives_turn",
        "S4.5.2",
        "'Every temporary state ... of this turn is cleared' missed for the kill lock",
        actions=(("clear_turn_effects", kill_lock_outlives_turn),),
    ),
    _bug(
        "rage_outlives_turn",
        "S4.5.1",
        "'the rage potion's charges go to zero' at turn end missed",
        actions=(("clear_turn_effects", rage_outlives_turn),),
    ),
    _bug(
        "shields_cleared_at_turn_end",
        "S4.5.1",
        "'unused lasting shields ... are kept' read as cleared with the other boosts",
        actions=(("clear_turn_effects", shields_cleared_at_turn_end),),
    ),
    _bug(
        "traitor_cap_without_bonus",
        "S4.4.2",
        "'a traitor's is current HP + 1' missed: every cap is HP",
        helpers=(("cap", cap_without_traitor_bonus),),
    ),
    _bug(
        "discard_stops_one_over",
        "S4.4.3",
        "'until they are within it' read off by one: discarding stops at cap + 1",
        guards=(("over_cap", discard_stops_one_over),),
    ),
    _bug(
        "conversion_at_every_fall",
        "S4.3.2",
        "'their one and only conversion choice' missed: every fall to 1 asks again",
        guards=(("conversion_due", conversion_at_every_fall),),
    ),
    _bug(
        "no_rescue_offered",
        "S4.3.1",
        "'Only the dying player may use milk tea or expired pills' read as no one may",
        guards=(("holds_rescue_item", dying_without_rescue),),
    ),
    _bug(
        "traitor_wins_one_kill_early",
        "S5.1",
        "'having killed two players' read off by one: one kill wins",
        helpers=(("game_over_condition", traitor_wins_one_kill_early),),
        actions=(("declare_winner", winner_with_one_kill_early),),
    ),
    _bug(
        "dead_keep_items",
        "R13",
        "'An eliminated player's items ... leave the game' missed: they stay in the hand",
        actions=(("eliminate_dying", dead_keep_items),),
    ),
    _bug(
        "poll_starts_with_shooter",
        "S6.2.1",
        "'polled from the clockwise next seat of the turn owner' read as from the owner",
        actions=(("open_shot_window", poll_starts_with_owner),),
    ),
    _bug(
        "poll_skips_shooter",
        "R17",
        "'ending with the turn owner' missed: the window closes before the shooter is asked",
        guards=(("poll_complete", poll_skips_shooter),),
    ),
)
"""The catalogue, in the order of the rule text's chapters."""
