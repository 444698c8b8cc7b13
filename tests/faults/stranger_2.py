"""Model bugs written by a stranger to the properties, second batch (issue 24's measure).

The same mechanism as the first batch (:mod:`faults.stranger_1`): each bug is a
plain misreading of one numbered rule sentence (S..) or ruling (R..), written from the rule
text, the rulings and the model's named pieces alone, before the properties
(verification/proofs/), the project's faults or the first batch's bugs were read. Each reaches
the model as a :class:`~buckshot.verification.model.patch.Patch` of a registry guard, action
or selector, of a public model helper, or of the charts' transitions (removed or sent
elsewhere); the wrappers are module-level functions, so that a patch can travel to a worker
process. ``python benchmarks/faults.py --batch stranger-2`` runs the proofs against each.

The batch favours sentences the first batch did not touch. Among its bugs, some remove a
legal choice or add an illegal one, some draw a chance at the wrong point or with the wrong
odds, and some change the end of the game or its winner: the ``kind`` of its row of
``manifest.json`` says which (``choice``, ``chance``, ``end of game``).

A wrapper receives the original piece bound to the model, then the model, then the piece's
arguments (:mod:`buckshot.verification.model.patch`).
"""

from __future__ import annotations

from typing import Any

from buckshot.spec.rulebook import Item, Role
from buckshot.verification.model.layout import KINDS, SEATS, item_code, layout, role_code
from buckshot.verification.model.patch import Patch
from faults.model import add

PATCHES: dict[str, Patch] = {}
"""The second batch's patches, by name, in the order of the rule text's chapters (the end of
the game last)."""

PILLS = item_code(Item.EXPIRED_PILLS)
PEEK = item_code(Item.PEEKING_GLASS)
END_MAIN = next(e.code for e in layout().edges if e.edge.id == "turn:awaiting_action:end_main:0")
"""The code of the main phase's ``end_main`` decision (offered only when shooting is not)."""


# --- S1 and R16: turn order ------------------------------------------------------------------


def previous_living_seat(m: Any, s: Any, p: Any) -> Any:
    """The first living seat counter-clockwise before ``p`` (``p`` itself when none other)."""
    b = m.b
    chains = []
    for start in range(SEATS):
        result = b.num(start)
        for step in range(SEATS - 1, 0, -1):
            seat = (start - step) % SEATS
            result = b.ite(s.alive[seat], b.num(seat), result)
        chains.append(result)
    return b.select(chains, p)


def pass_turn_anticlockwise(original: Any, m: Any, s: Any, inp: Any, fx: Any) -> Any:
    """The turn goes to the previous living seat, not the next one."""
    b = m.b
    passed = original(s, inp, fx)
    prev = previous_living_seat(m, s, s.owner)
    return passed.set(
        owner=prev, k0=m.seat(s.kills, prev), fwho=b.update(passed.fwho, b.num(0), prev)
    )


# --- S5.2: the eliminated ----------------------------------------------------------------------


def owner_never_eliminated(original: Any, m: Any, s: Any, inp: Any) -> Any:
    """The owner's elimination never skips the rest of their turn."""
    return m.b.false()


# --- S4.3.2 and R6: the conversion choice ------------------------------------------------------


def conversion_for_owner(original: Any, m: Any, s: Any, inp: Any, fx: Any) -> Any:
    """The conversion frame is pushed for the turn owner, whoever fell to 1."""
    pushed = original(s, inp, fx)
    return m.set_top(pushed, fwho=pushed.owner)


# --- S2: roles ---------------------------------------------------------------------------------


def gambler_lucky_on_any_blank(original: Any, m: Any, s: Any, inp: Any, fx: Any) -> Any:
    """Lucky Streak also rolls when the Gambler's blank hits another player."""
    b = m.b
    fired = original(s, inp, fx)
    shooter = s.shot_shooter
    at_other = b.and_(
        b.ne(shooter, s.shot_target),
        b.not_(s.shot_live),
        m.with_role(s, shooter, role_code(Role.GAMBLER)),
    )
    win = b.and_(at_other, inp.gamble_win)
    amounts = m.draw_amounts(fx, inp, m.rules.gambler.bonus_items, win)
    zero = b.num(0)
    fx.skill_by = b.ite(at_other, shooter, fx.skill_by)
    return fired.set(
        items=m.add_counts(fired.items, shooter, [b.ite(win, a, zero) for a in amounts])
    )


def flip_to_blank_only(original: Any, m: Any, s: Any, inp: Any, fx: Any) -> Any:
    """A Magician's flip makes the shot's shell blank, whatever it was."""
    return original(s, inp, fx).set(shot_live=m.b.false())


# --- S3: items ---------------------------------------------------------------------------------


def eject_keeps_live_count(
    original: Any, m: Any, t: Any, s: Any, inp: Any, fx: Any, when: Any
) -> Any:
    """The ejecting drink removes a shell but never a live one from the count."""
    return original(t, s, inp, fx, when).set(live=t.live)


def no_block_on_own_shot(original: Any, m: Any, s: Any, p: Any) -> Any:
    """A shield blocks a shot by another player only."""
    return m.b.and_(original(s, p), m.b.ne(s.shot_shooter, p))


def steal_first_kind_held(
    original: Any, m: Any, t: Any, s: Any, inp: Any, fx: Any, when: Any
) -> Any:
    """The pickpocket always takes the target's first kind held (item order), not a random
    one."""
    b = m.b
    target = inp.target
    earlier_empty = b.and_(
        *(
            b.implies(b.lt(b.num(k), inp.steal), b.eqn(m.held_n(t, target, k), 0))
            for k in range(KINDS)
        )
    )
    fx.require(b.implies(when, earlier_empty))
    return original(t, s, inp, fx, when)


def peek_without_shell(original: Any, m: Any, s: Any, inp: Any) -> Any:
    """A held peeking glass is usable on an empty chamber too."""
    b = m.b
    peek = b.and_(b.eqn(inp.item, PEEK), b.ge(m.held(s, s.owner, inp.item), b.num(1)))
    return b.or_(original(s, inp), peek)


def pills_on_self_only(original: Any, m: Any, s: Any, inp: Any) -> Any:
    """Expired pills may target their user only."""
    b = m.b
    return b.and_(original(s, inp), b.implies(b.eqn(inp.item, PILLS), b.eq(inp.target, s.owner)))


# --- S4: the phases ----------------------------------------------------------------------------


def first_shell_always_live(original: Any, m: Any, s: Any, inp: Any, fx: Any) -> Any:
    """A fresh load puts its live shells first: its first shell is live."""
    loaded = original(s, inp, fx)
    fx.require(inp.head_live)
    return loaded


def end_main_always_offered(original: Any, m: Any, s: Any, inp: Any) -> Any:
    """``can_shoot`` read as false when the owner asks to end the main phase."""
    b = m.b
    return b.and_(original(s, inp), b.ne(inp.edge, b.num(END_MAIN)))


def dying_pills_never_fail(original: Any, m: Any, s: Any, inp: Any, fx: Any) -> Any:
    """A dying player's expired pills always win their roll."""
    b = m.b
    rescued = original(s, inp, fx)
    fx.require(b.implies(b.eqn(inp.item, PILLS), inp.pill_heal))
    return rescued


# --- S5.1, R7 and R21: the end of the game -----------------------------------------------------


def last_standing_only(original: Any, m: Any, s: Any) -> Any:
    """The game ends only when at most one player lives."""
    return m.b.le(m.living(s), m.b.num(1))


def credit_self_kill(original: Any, m: Any, s: Any, inp: Any, fx: Any) -> Any:
    """A player who eliminates themself is credited with the kill."""
    b = m.b
    eliminated = original(s, inp, fx)
    p = m.top_who(s)
    own = b.eq(s.hit_src, p)
    return eliminated.set(
        kills=tuple(
            b.ite(b.and_(own, b.eqn(p, q)), b.addn(count, 1), count)
            for q, count in enumerate(eliminated.kills)
        )
    )


def limit_one_turn_early(original: Any, m: Any, s: Any, inp: Any) -> Any:
    """The draw comes when limits.max_turns - 1 turns have ended."""
    b = m.b
    return b.ge(s.turn_no, b.num(m.cfg.max_turns - 1))


def _bug(name: str, **pieces: Any) -> None:
    add(PATCHES, name, Patch(name, **pieces))


_bug(
    "stranger_turn_passes_anticlockwise", actions=(("pass_to_next_seat", pass_turn_anticlockwise),)
)
_bug("dead_owner_keeps_acting", guards=(("owner_eliminated", owner_never_eliminated),))
_bug("conversion_offered_to_owner", actions=(("open_conversion", conversion_for_owner),))
_bug(
    "conversion_resumes_main_phase",
    retarget=(("turn:awaiting_conversion:conversion_resolved:0", "awaiting_action"),),
)
_bug("magician_flips_twice", retarget=(("shot_window:asking:flip_shell:0", "polling"),))
_bug("gambler_lucky_on_any_blank", actions=(("settle_shot", gambler_lucky_on_any_blank),))
_bug("flip_only_to_blank", actions=(("flip_shot_shell", flip_to_blank_only),))
_bug("eject_keeps_live_count", helpers=(("eject", eject_keeps_live_count),))
_bug("shield_ignores_own_shot", helpers=(("has_shield_block", no_block_on_own_shot),))
_bug("stranger_pickpocket_takes_first_kind", helpers=(("pickpocket", steal_first_kind_held),))
_bug("peek_into_empty_chamber", guards=(("item_usable", peek_without_shell),))
_bug("pills_on_oneself_only", guards=(("item_usable", pills_on_self_only),))
_bug("first_shell_always_live", actions=(("load_chamber", first_shell_always_live),))
_bug("end_main_without_shooting", guards=(("can_shoot", end_main_always_offered),))
_bug("no_items_after_kill", removed=frozenset({"turn:shooting_locked:use_item:0"}))
_bug("dying_cannot_give_up", removed=frozenset({"dying:asking:give_up:0"}))
_bug("dying_pills_never_fail", actions=(("apply_rescue_item", dying_pills_never_fail),))
_bug("traitor_waits_for_last_standing", helpers=(("game_over_condition", last_standing_only),))
_bug("stranger_self_kill_credited", actions=(("eliminate_dying", credit_self_kill),))
_bug("draw_one_turn_early", guards=(("turn_limit_reached", limit_one_turn_early),))
