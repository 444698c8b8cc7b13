"""The shape of a checked property, the state predicates that invariants and lemmas share,
and what the rule properties read of a step (which transition fired, which item was used) and
of an effect (the items' facts and the turn's phases as the rule text states them).

A property has a state part (holds in every reachable state) and/or a step part (holds for
every step taken from a state satisfying the invariants). Both are written with the
backend's operations only, so the same text is evaluated on concrete witnesses and proved
on Z3 terms.

A property checks a rule with the ``rule_*`` readers below, written from the rule text on
the state's fields and plain seat arithmetic, never with the model's guards, actions or
helpers: a property that reused the code it checks could not catch a bug in it. The
predicates above them (``turn_in``, ``on_stack``, ``fired``, ...) read only the control
state and which transition fired; ``over_cap``, ``game_over_condition`` and
``conversion_pending`` still read model helpers (``cap``, ``living``, ``bseat``): the
termination measure (I10), the lemmas and I9's end condition use them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from buckshot.spec.rulebook import FrameKind, Item, Role
from buckshot.verification.model.layout import (
    EMPTY,
    KINDS,
    NONE,
    ROLES,
    SEATS,
    item_code,
    kind_code,
)
from buckshot.verification.model.semantics import Semantics, StepResult
from buckshot.verification.model.state import Input, State

Sem = Semantics[Any, Any]
S = State[Any, Any]
In = Input[Any, Any]
Res = StepResult[Any, Any]
StatePred = Callable[[Sem, S], Any]
StepPred = Callable[[Sem, S, In, Res], Any]


@dataclass(frozen=True)
class Opaque:
    """A sum over the state before a step that a step's proof may first treat as an opaque
    value: one at least each of its terms, and at most ``bound`` if given (see
    :class:`Property`)."""

    total: Any
    terms: tuple[Any, ...]
    bound: int | None = None


OpaquePred = Callable[[Sem, S], Sequence[Opaque]]


StepCondition = Callable[[Sem, S, In], Any]
"""A condition over a state and the parameters of a decision taken in it."""


@dataclass(frozen=True)
class Offer:
    """What an enabledness property says must be offered: in a state where ``when`` holds
    for the decision's parameters (``target``, ``item``, ``pay`` of the input, those named
    in ``params``), the player may take one of the chart transitions ``edges`` (their ids,
    spec data) with those parameters, for some chance outcome the rules allow."""

    edges: tuple[str, ...]
    params: tuple[str, ...]
    when: StepCondition


@dataclass(frozen=True)
class Property:
    """An invariant (``I..``) or a strengthening lemma (``L..``) with what it checks."""

    id: str
    clauses: tuple[str, ...]
    statement: str
    state: StatePred | None = None
    step: StepPred | None = None
    per_branch: bool = False
    """Prove the step one branch at a time (faster for arithmetic-heavy properties)."""
    opaque: OpaquePred | None = None
    """Sums over the state before the step that a branch's query may first replace by fresh
    values (outermost first), each bounded by its terms and its bound, a fact proved once from
    the assumptions. The query is then about the sums' changes, not the sums; when it cannot
    refute the branch, the plain query decides, so the verdict is the plain query's."""

    budget_ms: int = 60_000
    """The resource budget of each of its solver queries, in nominal milliseconds of solver
    work (:class:`.limits.Budget`): what decides an ``unknown``, the same on every machine."""
    progress: bool = False
    """A progress property (no state and no step part): every state that satisfies the
    assumptions and is not over has an enabled input, checked with the input quantified
    (:mod:`buckshot.verification.proofs.progress`)."""
    offer: Offer | None = None
    """An enabledness property (no state and no step part): in every state that satisfies
    the assumptions and the offer's condition, the offered decision is legal for some chance
    outcome (:mod:`buckshot.verification.proofs.rules_enabled`)."""

    @property
    def lemma(self) -> bool:
        """True for a strengthening lemma (it serves the proofs; the rules do not state it)."""
        return self.id.startswith("L")


# --- shared readings of the state ------------------------------------------------------------


def code(frame: FrameKind, state_id: str) -> int:
    """The layout code of a chart state."""
    from buckshot.verification.model.layout import layout

    return layout().state(frame, state_id).code


def state_value(m: Sem, state: Any, values: Mapping[tuple[FrameKind, str], int]) -> Any:
    """The number ``values`` gives the chart state whose code is ``state`` (0 for a state it
    does not name)."""
    b = m.b
    out = b.num(0)
    for (frame, state_id), value in values.items():
        out = b.ite(b.eqn(state, code(frame, state_id)), b.num(value), out)
    return out


def turn_in(m: Sem, s: S, *ids: str) -> Any:
    """The bottom (turn) frame is in one of the states ``ids``."""
    b = m.b
    return b.or_(*(b.eqn(s.fstate[0], code(FrameKind.TURN, i)) for i in ids))


def top_in(m: Sem, s: S, frame: FrameKind, *ids: str) -> Any:
    """The top frame is in one of the states ``ids`` of ``frame``'s chart."""
    b = m.b
    top = m.top_state(s)
    return b.or_(*(b.eqn(top, code(frame, i)) for i in ids))


def slot_is(m: Sem, s: S, i: int, frame: FrameKind) -> Any:
    """Slot ``i`` holds a frame of kind ``frame`` and lies within the stack."""
    b = m.b
    return b.and_(b.lt(b.num(i), s.depth), b.eqn(s.fkind[i], kind_code(frame)))


def on_stack(m: Sem, s: S, frame: FrameKind) -> Any:
    """Some frame of kind ``frame`` is on the stack."""
    return m.b.or_(*(slot_is(m, s, i, frame) for i in range(m.cfg.depth)))


def fired(m: Sem, r: Res, edge_id: str) -> Any:
    """The step took the transition ``edge_id``."""
    return r.fired[m.layout.edge_by_id(edge_id).code]


def fired_action(m: Sem, r: Res, action: str) -> Any:
    """The step took a transition that runs ``action``."""
    return m.b.or_(*(r.fired[e.code] for e in m.layout.edges if action in e.edge.actions))


def game_over_condition(m: Sem, s: S) -> Any:
    """At most one player lives, or a traitor has traitor.kills_to_win kills (S5.1, R7)."""
    b = m.b
    need = b.num(m.rules.traitor.kills_to_win)
    return b.or_(
        b.le(m.living(s), b.num(1)),
        *(b.and_(s.traitor[p], b.ge(s.kills[p], need)) for p in range(SEATS)),
    )


def over_cap(m: Sem, s: S, p: Any) -> Any:
    """Seat ``p`` holds more items than HP (+ traitor.cap_bonus for a traitor) (S4.4.2)."""
    return m.b.gt(m.total(s, p), m.cap(s, p))


def conversion_pending(m: Sem, s: S) -> Any:
    """A first fall to 1 HP waits for its conversion choice (S4.3.2, R6)."""
    b = m.b
    return b.and_(
        b.ne(s.fell, b.num(NONE)),
        m.bseat(s.alive, s.fell),
        b.not_(m.bseat(s.conv_used, s.fell)),
    )


def someone_at_zero(m: Sem, s: S) -> Any:
    """Some living player has HP 0 (S4.3.1)."""
    b = m.b
    return b.or_(*(b.and_(s.alive[p], b.eqn(s.hp[p], 0)) for p in range(SEATS)))


def items_in_play(m: Sem, s: S) -> Any:
    """Every item held by anyone."""
    b = m.b
    return b.sum_([b.sum_(row) for row in s.items])


def item_sums(m: Sem, s: S) -> list[Opaque]:
    """Items in play, then each seat's items: the sums that the item counts' proofs read.

    No seat holds more than the owner may (L1, L3), and none of these sums wraps; the items
    in play are given no upper bound (no proof needs one, and it is the costly one to show).
    """
    b = m.b
    rows = [Opaque(b.sum_(row), tuple(row), m.cfg.owner_max) for row in s.items]
    cells = tuple(count for row in s.items for count in row)
    return [Opaque(items_in_play(m, s), cells), *rows]


def unasked(m: Sem, s: S, i: int) -> Any:
    """Living players that slot ``i``'s poll has not asked yet."""
    b = m.b
    return b.count([b.and_(s.alive[p], b.not_(s.fasked[i][p])) for p in range(SEATS)])


# --- readings of the rule text, independent of the step semantics --------------------------
#
# The properties below state who should be asked, what the cap is and where a pop lands
# straight from the rules, the rulings and the charts' data. They read the state's fields
# through these functions only, never through the model's helpers (``asked``, ``cap``,
# ``next_seat``, ``top_*``), so that a bug in a helper cannot hide itself from its check.


def rule_top_flags(m: Sem, s: S) -> tuple[Any, ...]:
    """The poll flags (asked already) of the top frame, one per seat."""
    b = m.b
    flags = []
    for p in range(SEATS):
        flag = b.false()
        for i in range(m.cfg.depth):
            flag = b.ite(b.eqn(s.depth, i + 1), s.fasked[i][p], flag)
        flags.append(flag)
    return tuple(flags)


def rule_poll_next(m: Sem, s: S, asked: tuple[Any, ...]) -> Any:
    """The player a poll asks next (S6.2.1, S4.2.1b; R17): the first living seat not asked
    yet, clockwise from the turn owner's next seat and ending with the owner; NONE when
    every living seat has been asked."""
    b = m.b
    out = b.num(NONE)
    for owner in range(SEATS):
        chain = b.num(NONE)
        for k in range(SEATS, 0, -1):
            seat = (owner + k) % SEATS
            chain = b.ite(b.and_(s.alive[seat], b.not_(asked[seat])), b.num(seat), chain)
        out = b.ite(b.eqn(s.owner, owner), chain, out)
    return out


def rule_seat_value(m: Sem, values: tuple[Any, ...], p: Any) -> Any:
    """``values[p]`` for a symbolic seat ``p`` (0 for NONE), by an if-then-else per seat."""
    b = m.b
    out = b.num(0)
    for q in range(SEATS):
        out = b.ite(b.eqn(p, q), values[q], out)
    return out


def rule_seat_flag(m: Sem, flags: tuple[Any, ...], p: Any) -> Any:
    """``flags[p]`` for a symbolic seat ``p`` (false for NONE)."""
    b = m.b
    return b.or_(*(b.and_(b.eqn(p, q), flags[q]) for q in range(SEATS)))


def rule_cap(m: Sem, s: S, p: int) -> Any:
    """Seat ``p``'s item cap as S4.4.2 and R12 give it: its HP, plus ``traitor.cap_bonus``
    when it is a traitor."""
    b = m.b
    bonus = m.rules.traitor.cap_bonus
    return b.add(s.hp[p], b.ite(s.traitor[p], b.num(bonus), b.num(0)))


def rule_holds(m: Sem, s: S, p: int) -> Any:
    """How many items seat ``p`` holds: its counts of every kind added up."""
    return m.b.sum_(list(s.items[p]))


def rule_owner_over_cap(m: Sem, s: S) -> Any:
    """The turn owner holds more items than their cap (:func:`rule_cap`)."""
    b = m.b
    return b.or_(
        *(
            b.and_(b.eqn(s.owner, p), b.gt(rule_holds(m, s, p), rule_cap(m, s, p)))
            for p in range(SEATS)
        )
    )


# --- more readings of the rule text, for the rule properties (rules_*.py) ------------------


def rule_top(m: Sem, values: tuple[Any, ...], s: S) -> Any:
    """The top frame's entry of a per-slot field (``s.fwho``, ``s.fcursor``, ``s.fkind``...),
    read slot by slot from the depth (0 for an empty stack)."""
    b = m.b
    out = b.num(EMPTY)
    for i in range(m.cfg.depth):
        out = b.ite(b.eqn(s.depth, i + 1), values[i], out)
    return out


def rule_top_in(m: Sem, s: S, frame: FrameKind, *ids: str) -> Any:
    """The stack's top frame is in one of the states ``ids`` of ``frame``'s chart (read slot
    by slot)."""
    top = rule_top(m, s.fstate, s)
    return m.b.or_(*(m.b.eqn(top, code(frame, i)) for i in ids))


def rule_top_who(m: Sem, s: S) -> Any:
    """The player the top frame is for (the dying, the converting, the discarding player)."""
    return rule_top(m, s.fwho, s)


def rule_top_cursor(m: Sem, s: S) -> Any:
    """The player a poll frame on top asks now."""
    return rule_top(m, s.fcursor, s)


def rule_next(m: Sem, value: Any, allowed: Sequence[Any], default: Any = None) -> Any:
    """The first ``k`` after ``value`` in cyclic order over ``0..len(allowed)-1`` with
    ``allowed[k]`` (``value`` itself when there is none; ``default``, or ``value``, when
    ``value`` is out of range)."""
    b = m.b
    size = len(allowed)
    out = value if default is None else default
    for start in range(size):
        chain = b.num(start)
        for step in range(size - 1, 0, -1):
            k = (start + step) % size
            chain = b.ite(allowed[k], b.num(k), chain)
        out = b.ite(b.eqn(value, start), chain, out)
    return out


def rule_next_living(m: Sem, s: S, p: Any) -> Any:
    """The first living seat clockwise after seat ``p`` (``p`` itself when no other seat
    lives): S1.1, S4.5.3 and R16, as seat arithmetic modulo the table's eight slots (the
    seats beyond the player count are never alive)."""
    return rule_next(m, p, s.alive, m.b.num(NONE))


def rule_living(m: Sem, s: S) -> Any:
    """How many players are alive."""
    b = m.b
    return b.sum_([b.ite(s.alive[p], b.num(1), b.num(0)) for p in range(SEATS)])


def rule_has_skill(m: Sem, s: S, p: Any, role: Role) -> Any:
    """Seat ``p`` holds ``role`` and is not a traitor, so the role's skill is theirs (S2,
    S5.1; R6); false for NONE."""
    b = m.b
    code_ = ROLES.index(role)
    return b.and_(
        b.lt(p, b.num(SEATS)),
        b.eqn(rule_seat_value(m, s.role, p), code_),
        b.not_(rule_seat_flag(m, s.traitor, p)),
    )


def rule_rage_grant(m: Sem, s: S, p: Any) -> Any:
    """The rage charges a rage potion gives seat ``p``: ``rage.mercenary_charges`` for a
    Mercenary who is not a traitor, else ``rage.charges`` (S3.3, S2.4; R9)."""
    b = m.b
    rage = m.rules.rage
    mercenary = rule_has_skill(m, s, p, Role.MERCENARY)
    return b.ite(mercenary, b.num(rage.mercenary_charges), b.num(rage.charges))


def rule_shield_grant(m: Sem, s: S, p: Any) -> Any:
    """The blocks an amulet gives seat ``p``: ``shield.medic_blocks`` for a Medic who is not
    a traitor, else ``shield.blocks`` (S3.4, S2.2; R9)."""
    b = m.b
    shield = m.rules.shield
    medic = rule_has_skill(m, s, p, Role.MEDIC)
    return b.ite(medic, b.num(shield.medic_blocks), b.num(shield.blocks))


def rule_held(m: Sem, s: S, p: Any, k: Any) -> Any:
    """How many items of kind ``k`` seat ``p`` holds (0 for NONE or an unknown kind)."""
    b = m.b
    out = b.num(0)
    for q in range(SEATS):
        for kind in range(KINDS):
            out = b.ite(b.and_(b.eqn(p, q), b.eqn(k, kind)), s.items[q][kind], out)
    return out


def rule_killed_this_turn(m: Sem, s: S) -> Any:
    """The turn owner has been credited with a kill during this turn: more kills than when the
    turn began (``k0``, whose bookkeeping T4 checks)."""
    return m.b.ne(rule_seat_value(m, s.kills, s.owner), s.k0)


def rule_end_condition(m: Sem, s: S) -> Any:
    """The game's end condition (S5.1; R7): at most one player lives, or a traitor has been
    credited with ``traitor.kills_to_win`` kills."""
    b = m.b
    need = b.num(m.rules.traitor.kills_to_win)
    return b.or_(
        b.le(rule_living(m, s), b.num(1)),
        *(b.and_(s.traitor[p], b.ge(s.kills[p], need)) for p in range(SEATS)),
    )


def rule_heal(m: Sem, hp: Any, amount: int) -> Any:
    """``hp`` raised by ``amount``, the part beyond ``hp.max`` lost (R2). (A loss, floored at 0
    by R2, is the backend's ``sat_sub``.)"""
    return m.b.min_(m.b.addn(hp, amount), m.b.num(m.rules.hp.max))


def cases(m: Sem, default: Any, *pairs: tuple[Any, Any]) -> Any:
    """The value of the first ``(condition, value)`` pair whose condition holds, else
    ``default``: a chain of if-then-else, the first pair outermost."""
    out = default
    for cond, value in reversed(pairs):
        out = m.b.ite(cond, value, out)
    return out


def fired_event(m: Sem, r: Res, frame: FrameKind, source: str, event: str) -> Any:
    """The step took some transition of ``frame``'s chart leaving ``source`` on ``event``."""
    lay = m.layout
    codes = [
        e.code
        for e in lay.edges
        if e.frame is frame and e.edge.source == source and e.edge.event == event
    ]
    return m.b.or_(*(r.fired[c] for c in codes))


# --- what a step did, and what the rules say an effect is, for the rule properties ----------
#
# Which transition fired is read from the charts (spec data) through the step's flags; which
# item was used and on whom from the decision; what healing, damage, draws and the Gambler's
# luck come to from the rule text and the ruleset's numbers.

PEEK = item_code(Item.PEEKING_GLASS)
EJECT = item_code(Item.EJECTING_DRINK)
RAGE = item_code(Item.RAGE_POTION)
AMULET = item_code(Item.AMULET)
MILK = item_code(Item.MILK_TEA)
PILLS = item_code(Item.EXPIRED_PILLS)
PICK = item_code(Item.PICKPOCKET)
INVERT = item_code(Item.INVERTER)

# The items' facts, stated from the rule text, never read from the rulebook's item table
# (which the model and the engine read: a misreading there must not move the properties too).
CHAMBER_ITEMS = (PEEK, EJECT, INVERT)
"""The items that act on the chamber, usable only while it holds a shell (S3.1, S3.2, S3.8;
R22)."""
RESCUE_ITEMS = (MILK, PILLS)
"""The items a dying player may use on themself (S4.3.1, S3.5, S3.6; R10)."""
TARGETED_ANY = (PILLS,)
"""The items given to any living player, the user included (S3.6; R10)."""
TARGETED_OTHER = (PICK,)
"""The items aimed at another living player who holds an item (S3.7; R23); every item not
named here or in :data:`TARGETED_ANY` acts on its user and takes no target."""

GAME_OVER_PHASE = 6
"""The phase number given to ``game_over`` (after the five phases of S4.0)."""
TURN_PHASES = {
    "reloading": 1,
    "drawing": 1,
    "previewing": 1,
    "awaiting_action": 2,
    "awaiting_shot_window": 2,
    "settling": 2,
    "awaiting_dying": 2,
    "awaiting_conversion": 2,
    "shooting_locked": 2,
    "tallying": 3,
    "checking_cap": 4,
    "awaiting_discard": 4,
    "clearing": 5,
    "game_over": GAME_OVER_PHASE,
}
"""Each state of the turn, by its name, with the phase of S4.0 it belongs to, stated from the
rule text, never read from the chart: phase 1 loads, draws and previews (S4.1.1-S4.1.3);
phase 2 takes actions, a shot's window and its settlement (S4.2), with dying and the
conversion choice as soon as they are due (S4.3.1, S4.3.2 settled at once, R5); phase 3
tallies (S4.3.0); phase 4 checks the cap and discards (S4.4); phase 5 clears (S4.5)."""


def phase_states(number: int) -> tuple[str, ...]:
    """The turn's states in phase ``number`` of S4.0."""
    return tuple(state for state, phase in TURN_PHASES.items() if phase == number)


NO_LOAD_EDGE = "turn:reloading:check_chamber:1"


def used(m: Sem, inp: In, r: Res, kind: int) -> Any:
    """The turn owner used an item of ``kind`` in this step."""
    return m.b.and_(fired_action(m, r, "apply_item"), m.b.eqn(inp.item, kind))


def settled(m: Sem, r: Res) -> Any:
    """The step settled a shot (its shell fired with its final type)."""
    return fired_action(m, r, "settle_shot")


def rescued(m: Sem, r: Res) -> Any:
    """A dying player used a rescue item in this step."""
    return fired_action(m, r, "apply_rescue_item")


def eliminated(m: Sem, r: Res) -> Any:
    """The step eliminated the dying player."""
    return fired_action(m, r, "eliminate_dying")


def loaded(m: Sem, r: Res) -> Any:
    """The step loaded the chamber."""
    return fired(m, r, "turn:reloading:check_chamber:0")


def drew(m: Sem, r: Res) -> Any:
    """The step was the turn owner's draw of phase 1."""
    return fired_action(m, r, "draw_turn_items")


def flipped(m: Sem, r: Res) -> Any:
    """A Magician flipped the shot's shell in this step."""
    return fired_action(m, r, "flip_shot_shell")


def discarded(m: Sem, r: Res) -> Any:
    """The turn owner discarded an item in this step."""
    return fired_action(m, r, "discard_one")


def turn_ended(m: Sem, r: Res) -> Any:
    """The step ended the turn (phase 5)."""
    return fired_action(m, r, "clear_turn_effects")


def drawn(m: Sem, inp: In, count: int, kind: int) -> Any:
    """How many of the step's first ``count`` random items are of ``kind`` (R15)."""
    b = m.b
    return b.sum_([b.ite(b.eqn(inp.draws[j], kind), b.num(1), b.num(0)) for j in range(count)])


def lucky(m: Sem, s: S) -> Any:
    """The shot in flight is a Gambler's (not a traitor's) at themself whose final type is
    blank: the Lucky Streak's roll is due when it settles (S2.1; R20)."""
    b = m.b
    return b.and_(
        b.eq(s.shot_target, s.shot_shooter),
        b.not_(s.shot_live),
        rule_has_skill(m, s, s.shot_shooter, Role.GAMBLER),
    )


def doctor_on_self(m: Sem, s: S, user: Any, target: Any) -> Any:
    """A Doctor who is not a traitor gives expired pills to themself (S2.5; R10)."""
    b = m.b
    return b.and_(b.eq(user, target), rule_has_skill(m, s, user, Role.DOCTOR))


def pills_hp(m: Sem, s: S, inp: In, user: Any, target: Any) -> Any:
    """The target's HP after ``user`` gives them expired pills (S3.6, S2.5; R10, R2): a
    Doctor on themself heals ``pills.doctor_heal``; otherwise the roll heals ``pills.heal``
    (the ``pill_heal`` outcome) or takes ``pills.loss``."""
    b = m.b
    r = m.rules
    hp = rule_seat_value(m, s.hp, target)
    loss = b.sat_sub(hp, b.num(r.pills.loss))
    rolled = b.ite(inp.pill_heal, rule_heal(m, hp, r.pills.heal), loss)
    return b.ite(doctor_on_self(m, s, user, target), rule_heal(m, hp, r.pills.doctor_heal), rolled)


def rescue_hp(m: Sem, s: S, inp: In, who: Any) -> Any:
    """The dying player's HP after they use the decision's item on themself (S4.3.1, S3.5,
    S3.6, S2.5; R10): milk tea heals ``milk_tea.heal``, expired pills as :func:`pills_hp`."""
    b = m.b
    hp = rule_seat_value(m, s.hp, who)
    milk = rule_heal(m, hp, m.rules.milk_tea.heal)
    pills = pills_hp(m, s, inp, who, who)
    return b.ite(b.eqn(inp.item, MILK), milk, b.ite(b.eqn(inp.item, PILLS), pills, hp))


def kept(m: Sem, s: S, r: Res, *names: str, but: Any = None) -> Any:
    """The per-seat fields ``names`` are unchanged for every seat (but the seat ``but``)."""
    b = m.b
    terms = []
    for name in names:
        before, after = getattr(s, name), getattr(r.next, name)
        for p in range(SEATS):
            keep = b.eq(after[p], before[p])
            terms.append(keep if but is None else b.implies(b.ne(but, b.num(p)), keep))
    return b.and_(*terms)


def items_kept(m: Sem, s: S, r: Res) -> Any:
    """Every seat's count of every item kind is unchanged."""
    b = m.b
    cells = [(p, k) for p in range(SEATS) for k in range(KINDS)]
    return b.and_(*(b.eq(r.next.items[p][k], s.items[p][k]) for p, k in cells))


def chamber_kept(m: Sem, s: S, r: Res) -> Any:
    """The chamber is unchanged."""
    b = m.b
    nxt = r.next
    return b.and_(
        b.eq(nxt.shells, s.shells), b.eq(nxt.live, s.live), b.eq(nxt.head_live, s.head_live)
    )


def chamber_ejected(m: Sem, s: S, r: Res) -> Any:
    """The chamber's first shell left it: one shell fewer, one live fewer if it was live
    (S4.2.1c, S3.2; R22)."""
    b = m.b
    nxt = r.next
    return b.and_(
        b.eq(nxt.shells, b.subn(s.shells, 1)),
        b.eq(nxt.live, b.ite(s.head_live, b.subn(s.live, 1), s.live)),
    )


def chamber_inverted(m: Sem, s: S, r: Res) -> Any:
    """Every shell changed type: as many shells, live and blank counts swapped, the first
    shell's type flipped (S3.8; R22)."""
    b = m.b
    nxt = r.next
    return b.and_(
        b.eq(nxt.shells, s.shells),
        b.eq(nxt.live, b.sub(s.shells, s.live)),
        b.eq(nxt.head_live, b.not_(s.head_live)),
    )
