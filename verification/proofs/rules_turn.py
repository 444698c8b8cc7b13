"""The turn's rules as properties: who owns it, its number, its phases, shots, its end (S1,
S4), and how the game ends and who wins (S5.1; R7, R13, R21).

Stated through the ``rule_*`` readers of :mod:`.properties` only. E1 states as a step what
I9 states of the state; I9 reads the number of living players through the model's helper,
E1 only through the state's fields, so a bug in that helper cannot hide from it.
"""

from __future__ import annotations

from typing import Any

from buckshot.spec.rulebook import FrameKind
from buckshot.verification.model.layout import (
    DRAWN,
    LAST_ITEM,
    LAST_NONE,
    LAST_SHOT,
    NONE,
    RUNNING,
    SEATS,
    WON,
)
from buckshot.verification.proofs.properties import (
    GAME_OVER_PHASE,
    TURN_PHASES,
    In,
    Property,
    Res,
    S,
    Sem,
    cases,
    chamber_kept,
    code,
    fired,
    fired_action,
    items_kept,
    kept,
    phase_states,
    rule_end_condition,
    rule_killed_this_turn,
    rule_living,
    rule_next_living,
    rule_seat_flag,
    rule_seat_value,
    state_value,
    turn_ended,
    turn_in,
)

PASS_TURN = "turn:clearing:pass_turn:1"
"""The turn end that hands the turn on (the other one draws the game, R21)."""
END_MAIN = "turn:awaiting_action:end_main:0"
"""Ending the main phase from ``awaiting_action`` (shooting not locked)."""


# --- T1: who owns the turn -------------------------------------------------------------------


def owner_is_seat_zero_first(m: Sem, s: S) -> Any:
    """Turn 1 is seat 0's (R16)."""
    b = m.b
    return b.implies(b.eqn(s.turn_no, 1), b.eqn(s.owner, 0))


def owner_changes_only_at_turn_end(m: Sem, s: S, inp: In, r: Res) -> Any:
    """The owner changes only when the turn passes, and then to the first living seat
    clockwise after the old owner (S1.1, S4.5.3, R16); pauses never change it (S1.3)."""
    b = m.b
    passed = fired(m, r, PASS_TURN)
    return b.eq(r.next.owner, b.ite(passed, rule_next_living(m, s, s.owner), s.owner))


# --- T2: the turn number ---------------------------------------------------------------------


def turn_number_counts_turns(m: Sem, s: S, inp: In, r: Res) -> Any:
    """The turn number goes up by one exactly when the turn passes (R21), never otherwise."""
    b = m.b
    passed = fired(m, r, PASS_TURN)
    return b.eq(r.next.turn_no, b.ite(passed, b.addn(s.turn_no, 1), s.turn_no))


# --- T3: the phases in order -----------------------------------------------------------------


def phases_in_order(m: Sem, s: S, inp: In, r: Res) -> Any:
    """The turn goes through the five phases in order, one after the other (S4.0): a step
    stays in its phase or enters the next; phase 5 hands over to phase 1 of the next turn; an
    owner eliminated in phase 2 goes straight to phase 5 (R13); the game ends only from
    phase 2 (a win, R7) or phase 5 (a draw, R21)."""
    b = m.b
    phases = {(FrameKind.TURN, state_id): phase for state_id, phase in TURN_PHASES.items()}
    before, after = state_value(m, s.fstate[0], phases), state_value(m, r.next.fstate[0], phases)
    last = GAME_OVER_PHASE - 1
    owner_alive = rule_seat_flag(m, s.alive, s.owner)
    return b.or_(
        b.eq(after, before),
        *(b.and_(b.eqn(before, number), b.eqn(after, number + 1)) for number in range(1, last)),
        b.and_(b.eqn(before, last), b.eqn(after, 1), fired(m, r, PASS_TURN)),
        b.and_(b.eqn(before, 2), b.eqn(after, last), b.not_(owner_alive)),
        b.and_(b.eqn(after, GAME_OVER_PHASE), b.or_(b.eqn(before, 2), b.eqn(before, last))),
    )


# --- T4: shooting rights, the declared shot, the kill lock -----------------------------------


def shots_as_the_rules_allow(m: Sem, s: S, inp: In, r: Res) -> Any:
    """A shot is declared only by the owner who has not killed this turn, with a shell in the
    chamber, at a living target (themself allowed); it records the owner, the target and the
    chamber's first shell's type, locked (S4.2.1a, S4.2.1e; R1, R19); the shot's shooter and
    target change only so, or at turn end. The main phase is ended
    from ``awaiting_action`` only when the owner cannot shoot (R4). The turn's kill mark
    (``k0``, the owner's kills when the turn began) is set as the turn passes; the kill lock
    is set when the owner is credited with a kill and cleared only at turn end (R25)."""
    b = m.b
    nxt = r.next
    killed = rule_killed_this_turn(m, s)
    shoot = fired_action(m, r, "declare_shot")
    declared = b.and_(
        b.ge(s.shells, b.num(1)),
        b.not_(killed),
        rule_seat_flag(m, s.alive, inp.target),
        b.eq(nxt.shot_shooter, s.owner),
        b.eq(nxt.shot_target, inp.target),
        b.eq(nxt.shot_live, s.head_live),
        b.eqn(nxt.shot_flips, 0),
    )
    ended = b.or_(b.eqn(s.shells, 0), killed)
    passed = fired(m, r, PASS_TURN)
    k0 = b.ite(passed, rule_seat_value(m, nxt.kills, nxt.owner), s.k0)
    owner_kills = rule_seat_value(m, s.kills, s.owner)
    credited = b.gt(rule_seat_value(m, nxt.kills, s.owner), owner_kills)
    lock = b.ite(turn_ended(m, r), b.false(), b.or_(s.kill_lock, credited))
    kept = b.and_(b.eq(nxt.shot_shooter, s.shot_shooter), b.eq(nxt.shot_target, s.shot_target))
    return b.and_(
        b.implies(shoot, declared),
        b.implies(b.not_(b.or_(shoot, turn_ended(m, r))), kept),
        b.implies(fired(m, r, END_MAIN), ended),
        b.eq(nxt.k0, k0),
        b.eq(nxt.kill_lock, lock),
    )


# --- T5: what follows a settled step ---------------------------------------------------------


def settling_goes_on_as_the_rules_say(m: Sem, s: S, inp: In, r: Res) -> Any:
    """When a shot or an item use has settled (the turn at ``settling``, nothing pushed), the
    turn goes on, in this order: a dying frame for a living player at 0 HP (S4.3.1; R5); a
    conversion choice for a first fall to 1 HP (S4.3.2; R6); game over when the end condition
    holds (S5.1; R7, R13); turn end when the owner was eliminated (R13); shooting locked after
    the owner's kill (S4.2.1e, S4.2.3); the main phase again after an item use or a shot at
    oneself whose final type was blank (S4.2.1d; R4, R19); otherwise phase 3. The turn's last
    main-phase step is recorded by the shot's settlement and the item use, and cleared at turn
    end."""
    b = m.b
    nxt = r.next
    at = b.and_(turn_in(m, s, "settling"), b.eqn(s.depth, 1))
    dying = b.or_(*(b.and_(s.alive[p], b.eqn(s.hp[p], 0)) for p in range(SEATS)))
    conversion = b.and_(
        b.ne(s.fell, b.num(NONE)),
        rule_seat_flag(m, s.alive, s.fell),
        b.not_(rule_seat_flag(m, s.conv_used, s.fell)),
    )
    self_blank = b.and_(
        b.eqn(s.last_step, LAST_SHOT),
        b.eq(s.shot_target, s.shot_shooter),
        b.not_(s.shot_live),
    )
    goes_on = b.or_(b.eqn(s.last_step, LAST_ITEM), self_blank)

    def turn(state_id: str) -> Any:
        return b.num(code(FrameKind.TURN, state_id))

    expected = cases(
        m,
        turn("tallying"),
        (dying, turn("awaiting_dying")),
        (conversion, turn("awaiting_conversion")),
        (rule_end_condition(m, s), turn("game_over")),
        (b.not_(rule_seat_flag(m, s.alive, s.owner)), turn("clearing")),
        (rule_killed_this_turn(m, s), turn("shooting_locked")),
        (goes_on, turn("awaiting_action")),
    )
    last = cases(
        m,
        s.last_step,
        (fired_action(m, r, "settle_shot"), b.num(LAST_SHOT)),
        (fired_action(m, r, "apply_item"), b.num(LAST_ITEM)),
        (turn_ended(m, r), b.num(LAST_NONE)),
    )
    return b.and_(b.implies(at, b.eq(nxt.fstate[0], expected)), b.eq(nxt.last_step, last))


# --- T6: the turn end ------------------------------------------------------------------------


def turn_end_clears_what_the_rules_clear(m: Sem, s: S, inp: In, r: Res) -> Any:
    """At turn end every rage charge goes to 0, the kill lock and the turn's marks (the shot,
    its last step, a pending fall, the damage source) are cleared, and shield blocks, HP,
    items, kills, the chamber and who is alive are kept (S4.5.1, S4.5.2; R9, R25)."""
    b = m.b
    nxt = r.next
    none = b.num(NONE)
    cleared = b.and_(
        *(b.eqn(nxt.rage[p], 0) for p in range(SEATS)),
        b.not_(nxt.kill_lock),
        b.eqn(nxt.last_step, LAST_NONE),
        b.eq(nxt.shot_shooter, none),
        b.eq(nxt.shot_target, none),
        b.not_(nxt.shot_live),
        b.eqn(nxt.shot_flips, 0),
        b.eq(nxt.hit_src, none),
        b.eq(nxt.fell, none),
    )
    same = b.and_(
        kept(m, s, r, "shield", "hp", "kills", "alive", "traitor"),
        items_kept(m, s, r),
        chamber_kept(m, s, r),
    )
    return b.implies(turn_ended(m, r), b.and_(cleared, same))


# --- T7: phases 1 and 3 ----------------------------------------------------------------------

QUIET_PHASES = phase_states(1) + phase_states(3)
"""The automatic steps of phase 1 (S4.1) and phase 3 (S4.3.0)."""


def quiet_phases_change_only_their_own(m: Sem, s: S, inp: In, r: Res) -> Any:
    """The steps of phase 1 and phase 3 push no frame and ask no one (S4.1.4, R5): phase 1
    only loads the chamber (checked by C6) and gives the owner ``items.per_turn`` items
    (S4.1.1; R15); phase 3 only reports the tally (S4.3.0); nobody's HP, shields, rage, kills,
    life or role, and nobody else's items, change."""
    b = m.b
    nxt = r.next
    here = b.and_(turn_in(m, s, *QUIET_PHASES), b.eqn(s.depth, 1))
    draw = fired_action(m, r, "draw_turn_items")
    per_turn = m.rules.items.per_turn
    terms = [
        b.eqn(nxt.depth, 1),
        kept(m, s, r, "hp", "shield", "rage", "kills", "alive", "traitor"),
    ]
    for p in range(SEATS):
        before, after = b.sum_(list(s.items[p])), b.sum_(list(nxt.items[p]))
        gains = b.and_(draw, b.eqn(s.owner, p))
        terms.append(b.eq(after, b.ite(gains, b.addn(before, per_turn), before)))
    return b.implies(here, b.and_(*terms))


RULES_TURN: tuple[Property, ...] = (
    Property(
        "T1",
        ("S1.1", "S1.2", "S1.3", "S4.5.3", "S5.2", "R16", "R13"),
        "The owner changes only when the turn passes, to the first living seat clockwise "
        "after the old owner; pauses never change it; turn 1 is seat 0's.",
        state=owner_is_seat_zero_first,
        step=owner_changes_only_at_turn_end,
    ),
    Property(
        "T2",
        ("S4.5.3", "R21"),
        "The turn number goes up by one exactly when the turn passes, and never otherwise.",
        step=turn_number_counts_turns,
    ),
    Property(
        "T3",
        ("S4.0", "S4.1", "S4.2", "S4.3", "S4.4", "S4.5", "R4", "R13"),
        "The five phases come in order, one after the other; phase 5 hands over to phase 1; "
        "an eliminated owner's turn goes from phase 2 to phase 5; the game ends only from "
        "phase 2 or phase 5.",
        step=phases_in_order,
    ),
    Property(
        "T4",
        ("S4.2.0", "S4.2.1", "S4.2.1a", "S4.2.1e", "R1", "R4", "R19", "R25"),
        "A shot is declared only by an owner who has not killed this turn, with a shell "
        "loaded, at a living target, recording the owner, the target and the first shell's "
        "type; the main phase ends only when the owner cannot shoot; a kill by the owner "
        "locks shooting until turn end.",
        step=shots_as_the_rules_allow,
    ),
    Property(
        "T5",
        ("S4.2.1c", "S4.2.1d", "S4.2.1e", "S4.2.3", "S4.3.1", "S4.3.2", "R4", "R5", "R6", "R19"),
        "After a settled shot or item: dying, then conversion, then game over, then an "
        "eliminated owner's turn end, then shooting locked after a kill, then the main phase "
        "again after an item or a blank at oneself, else phase 3.",
        step=settling_goes_on_as_the_rules_say,
    ),
    Property(
        "T6",
        ("S4.5.1", "S4.5.2", "R9", "R25"),
        "Turn end sets every rage charge to 0, clears the kill lock and the turn's marks, and "
        "keeps shields, HP, items, kills, lives and the chamber.",
        step=turn_end_clears_what_the_rules_clear,
    ),
    Property(
        "T7",
        ("S4.1.1", "S4.1.4", "S4.3.0", "R5", "R15"),
        "Phases 1 and 3 push nothing and change no one's HP, shields, rage, kills or life; "
        "only the owner gains items, items.per_turn of them, at the draw.",
        step=quiet_phases_change_only_their_own,
    ),
)
"""The turn's properties, in ID order."""


# --- E1: the end of the game ----------------------------------------------------------------


def rightful_winner(m: Sem, s: S) -> Any:
    """The player the rules name as the winner in ``s`` (S5.1; R7): a traitor credited with
    ``traitor.kills_to_win`` kills, else the only living player (NONE when neither)."""
    b = m.b
    need = b.num(m.rules.traitor.kills_to_win)
    last = b.num(NONE)
    for p in range(SEATS - 1, -1, -1):
        last = b.ite(s.alive[p], b.num(p), last)
    last = b.ite(b.eqn(rule_living(m, s), 1), last, b.num(NONE))
    winner = last
    for p in range(SEATS - 1, -1, -1):
        winner = b.ite(b.and_(s.traitor[p], b.ge(s.kills[p], need)), b.num(p), winner)
    return winner


def game_ends_as_the_rules_say(m: Sem, s: S, inp: In, r: Res) -> Any:
    """The result changes only from a running game: to won, when the end condition holds,
    with the winner the rules name (a traitor with ``traitor.kills_to_win`` kills, else the
    last living player; S5.1; R7, R13); or to drawn, at the end of turn ``limits.max_turns``
    with no winner (R21). The winner is set only so."""
    b = m.b
    nxt = r.next
    ended = b.ne(nxt.result, s.result)
    won = b.and_(
        b.eqn(nxt.result, WON),
        rule_end_condition(m, s),
        b.eq(nxt.winner, rightful_winner(m, s)),
        b.ne(nxt.winner, b.num(NONE)),
    )
    drawn = b.and_(
        b.eqn(nxt.result, DRAWN),
        b.eqn(s.turn_no, m.cfg.max_turns),
        b.not_(rule_end_condition(m, s)),
        b.eqn(nxt.winner, NONE),
    )
    return b.and_(
        b.implies(ended, b.and_(b.eqn(s.result, RUNNING), b.or_(won, drawn))),
        b.implies(b.not_(ended), b.eq(nxt.winner, s.winner)),
    )


RULES_END: tuple[Property, ...] = (
    Property(
        "E1",
        ("S5.1", "R7", "R13", "R21"),
        "A running game is won only when the end condition holds, by the traitor with "
        "traitor.kills_to_win kills or else the last living player, and drawn only at the end "
        "of turn limits.max_turns with no winner; the winner changes only then.",
        step=game_ends_as_the_rules_say,
    ),
)
"""The end of the game's properties."""
