"""Trace validation: Z3 finds model steps that match a saved event log, or the first event none can.

The log's first event, ``game_started``, fixes the start state exactly (seats, roles, HP).
From there the model (:class:`buckshot.verification.semantics.Semantics` on the Z3 backend)
is stepped along the log, one chart transition at a time, and its state is kept symbolic:
each step gets fresh input variables for its chance outcomes (the load drawn, the head
shell's type, the kinds drawn, pill and Gambler rolls, the pickpocket's pick), while the
decision's edge and parameters are the constants the ``decided`` event names. Constants
fold as terms are built, so most of the state stays concrete; what the log does not reveal
(chiefly the type of a shell not yet fired, ejected or peeked) stays a Z3 term until some
event pins it down, and after each step every field the solver proves to have a single
value is replaced by that value, which keeps the terms small.

The events between two decisions are split among the model's steps with the log format's
table of which events each action writes (:data:`.trace_observe.ACTION_EVENTS`), plus
``frame_popped`` for a pop and ``phase`` when the turn enters another phase (S4.0). Each
step's state is then constrained by what its events observe: per event, its own facts (a
fired shell's type and damage, a peeked or previewed head shell, a roll, a popped frame's
kind and outcome, the asked player and prompt, the decision's legality) and the fields of
the folded view (:class:`.trace_observe.View`) it set; after the step, every other field
the view knows must be unchanged in the model. The first event whose constraints no model
step can meet is reported, with the reason.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from itertools import combinations_with_replacement
from typing import Any

import z3  # type: ignore[import-untyped]

from buckshot.reference.errors import GameError
from buckshot.reference.options import Option, parse_option
from buckshot.spec.model import StateKind
from buckshot.spec.registry import entry
from buckshot.spec.rulebook import FrameKind, Item, Phase, Role, Target
from buckshot.spec.ruleset import Ruleset, load_ruleset
from buckshot.verification.config import make_config
from buckshot.verification.layout import (
    ITEM_KINDS,
    KINDS,
    NONE,
    SEATS,
    TARGET_OF,
    EdgeCode,
    StateCode,
    item_code,
    kind_code,
    layout,
    role_code,
)
from buckshot.verification.semantics import StepResult
from buckshot.verification.state import Input, State, flatten, unflatten_state
from buckshot.verification.symbolic import Symbols
from buckshot.verification.trace_log import LogInput, TraceEvent, TraceLogError, read_log
from buckshot.verification.trace_observe import (
    ACTION_EVENTS,
    REPEATABLE,
    Key,
    Value,
    View,
    item_of,
)
from buckshot.verification.z3backend import Term

PHASES = frozenset(phase.value for phase in Phase)
REBASE_AFTER = 8
"""Solver checks that add constraints before the solver is rebuilt from the open fields."""
REBASE_COMBOS = 32
"""Most value combinations of the open fields a rebuilt solver lists."""
DEALER = role_code(Role.DEALER)


@dataclass(frozen=True)
class TraceFailure:
    """The first event no model step can match, and why."""

    index: int
    """Position of the event in the log (from 0); the log's length when the log ends early."""
    seq: int | None
    event_type: str | None
    """The event's type; None when the log ended where the model needs another event."""
    reason: str

    def to_json(self) -> dict[str, Any]:
        """The failure as JSON-ready data."""
        return {
            "index": self.index,
            "seq": self.seq,
            "type": self.event_type,
            "reason": self.reason,
        }


@dataclass(frozen=True)
class TraceResult:
    """The verdict on one log."""

    matched: bool
    """Every event is matched by model steps."""
    complete: bool
    """The log reaches the end of the game (otherwise it stops at some decision)."""
    events: int
    events_matched: int
    """Events matched before the first failing one (all of them when matched)."""
    steps: int
    """Model steps (chart transitions) matched."""
    decisions: int
    solver_checks: int
    seconds: float
    failure: TraceFailure | None

    def to_json(self) -> dict[str, Any]:
        """The result as JSON-ready data."""
        return {
            "matched": self.matched,
            "complete": self.complete,
            "events": self.events,
            "events_matched": self.events_matched,
            "steps": self.steps,
            "decisions": self.decisions,
            "solver_checks": self.solver_checks,
            "seconds": round(self.seconds, 3),
            "failure": None if self.failure is None else self.failure.to_json(),
        }

    def summary(self) -> str:
        """One readable paragraph: the verdict, the counts, the failure if any."""
        counts = (
            f"{self.events_matched}/{self.events} events, {self.steps} model steps, "
            f"{self.decisions} decisions, {self.solver_checks} solver checks, "
            f"{self.seconds:.2f} s"
        )
        if self.failure is None:
            end = "to the end of the game" if self.complete else "(the log stops mid-game)"
            return f"matched {end}: {counts}"
        f = self.failure
        what = (
            f"event #{f.index} {f.event_type}"
            if f.event_type
            else f"the end of the log (#{f.index})"
        )
        seq = "" if f.seq is None else f" (seq {f.seq})"
        return f"mismatch at {what}{seq}: {f.reason}\n{counts}"


class Mismatch(Exception):
    """No model step matches the event at ``index``."""

    def __init__(self, index: int, reason: str) -> None:
        super().__init__(reason)
        self.index = index
        self.reason = reason


def validate_log(
    log: LogInput | Sequence[TraceEvent],
    ruleset: Ruleset | None = None,
    check_options: bool = True,
) -> TraceResult:
    """Check a saved event log against the model: matched, or the first event no step can match.

    ``log`` is JSON-lines text, a list of engine events or of their JSON dicts (or events
    already read by :func:`.trace_log.read_log`); ``ruleset`` the rules the game was played
    by (the default ruleset when None). With ``check_options`` each ``asked`` event's option
    list must be exactly the decisions the model allows there. Raises
    :class:`.trace_log.TraceLogError` (code ``trace.malformed``) when the log is not a
    well-formed event log.
    """
    started = time.perf_counter()
    if isinstance(log, list) and log and isinstance(log[0], TraceEvent):
        events: list[TraceEvent] = list(log)
    else:
        events = read_log(log)  # type: ignore[arg-type]
    rules = ruleset if ruleset is not None else load_ruleset()
    checker = _Checker(events, rules, check_options)
    failure: TraceFailure | None = None
    complete = False
    try:
        complete = checker.run()
    except Mismatch as mismatch:
        event = events[mismatch.index] if mismatch.index < len(events) else None
        failure = TraceFailure(
            mismatch.index,
            None if event is None else event.seq,
            None if event is None else event.type,
            mismatch.reason,
        )
    return TraceResult(
        matched=failure is None,
        complete=complete and failure is None,
        events=len(events),
        events_matched=len(events) if failure is None else failure.index,
        steps=checker.steps,
        decisions=checker.decisions,
        solver_checks=checker.checks,
        seconds=time.perf_counter() - started,
        failure=failure,
    )


Req = tuple[str, Term, Value]
"""A requirement: its label, a model term, the value the log gives it."""
Cond = tuple[str, Term]
"""A requirement: its label and a model condition that must hold."""


class _Checker:
    """Steps the model along one log."""

    def __init__(self, events: list[TraceEvent], rules: Ruleset, check_options: bool) -> None:
        self.events = events
        self.rules = rules
        self.check_options = check_options
        seats = events[0].data["seats"]
        self.n = len(seats)
        self.fatal: str | None = None
        """Why the start cannot match at all (reported at event 0 by :meth:`run`)."""
        if not rules.players.min <= self.n <= rules.players.max:
            self.fatal = (
                f"{self.n} seats; the ruleset allows {rules.players.min}..{rules.players.max}"
            )
        lo = min(max(self.n, 2), 8)
        self.cfg = make_config(rules, (lo, lo))
        self.sym = Symbols(self.cfg)
        self.b = self.sym.backend
        self.sem = self.sym.sem
        self.lay = layout()
        self.solver = z3.SolverFor("QF_BV")
        self.dirty = False
        self.steps = 0
        self.decisions = 0
        self.checks = 0
        self.pos = 1
        self.literals = 0
        self.grown = 0
        self.rebases = 0
        b = self.b
        self.known: dict[int, Value] = {id(b.num(v)): v for v in range(1 << self.cfg.width)}
        self.known[id(b.true())] = True
        self.known[id(b.false())] = False
        roles = [role_code(Role(seat["role"])) for seat in seats] + [0] * (SEATS - self.n)
        self.state: State[Term, Term] = self.sem.initial(
            b.num(self.n), tuple(b.num(r) for r in roles[:SEATS])
        )
        self.view = View.start(
            [seat["hp"] for seat in seats], self.cfg.shield_cap, self.cfg.turn_cap, self.cfg.depth
        )
        turn = self.lay.chart(FrameKind.TURN)
        self.phase_of = {
            self.lay.state(FrameKind.TURN, node.id).code: node.parent or node.id
            for node in turn.states
            if node.kind is not StateKind.COMPOUND
        }
        self.asked_options: list[str] | None = None
        zero = b.num(0)
        self.probe: Input[Term, Term] = Input(
            edge=zero,
            target=b.num(NONE),
            item=zero,
            pay=tuple(zero for _ in range(KINDS)),
            load=zero,
            head_live=b.false(),
            draws=tuple(zero for _ in range(self.cfg.draws)),
            pill_heal=b.false(),
            gamble_win=b.false(),
            steal=zero,
            shield_keep=b.false(),
            limit=b.false(),
        )

    # --- values --------------------------------------------------------------------------

    def const(self, term: Term) -> Value | None:
        """The value of a folded constant term, else None."""
        return self.known.get(id(term))

    def num(self, term: Term) -> int:
        """The value of a term that must be a constant integer here."""
        value = self.const(term)
        if value is None or isinstance(value, bool):
            raise Mismatch(self.pos, "the model's control state is not determined by the log here")
        return value

    def lit(self, value: Value) -> Term:
        """The backend constant for ``value``."""
        if isinstance(value, bool):
            return self.b.boolean(value)
        return self.b.num(value)

    def top(self, s: State[Term, Term]) -> StateCode:
        """The top frame's chart state (it must be determined)."""
        code = self.num(self.sem.top_state(s))
        state = self.lay.by_code(code)
        if state is None:
            raise Mismatch(self.pos, f"the model's stack holds no state (code {code})")
        return state

    def phase(self, s: State[Term, Term]) -> str | None:
        """The turn's phase in ``s`` (the compound state of the bottom frame's state, S4.0)."""
        value = self.const(s.fstate[0])
        return None if value is None else self.phase_of.get(int(value))

    # --- requirements --------------------------------------------------------------------

    def require(self, index: int, reqs: Iterable[Req], conds: Iterable[Cond] = ()) -> None:
        """Constrain the model by ``reqs`` and ``conds``; :class:`Mismatch` at ``index`` if unmet.

        Constant terms are compared at once; the rest go to the solver.
        """
        pending: list[tuple[str, Term]] = []
        for label, term, want in reqs:
            have = self.const(term)
            if have is not None:
                if have != want:
                    raise Mismatch(
                        index, f"{label}: the log has {_show(want)}, the model {_show(have)}"
                    )
                continue
            if isinstance(want, int) and not isinstance(want, bool) and want >= 1 << self.cfg.width:
                raise Mismatch(index, f"{label}: {want} is beyond every value the model reaches")
            pending.append((f"{label} = {_show(want)} (log)", term == self.lit(want)))
        for label, cond in conds:
            have = self.const(cond)
            if have is False:
                raise Mismatch(index, f"{label} does not hold")
            if have is None:
                pending.append((label, cond))
        if pending:
            self.solve(index, pending)

    def solve(self, index: int, pending: list[tuple[str, Term]]) -> None:
        """Add ``pending`` to the solver under assumption literals; explain an unsat core."""
        literals = []
        for label, cond in pending:
            literal = self.fresh("req")
            self.solver.add(z3.Implies(literal, cond))
            literals.append((literal, label))
        self.checks += 1
        result = self.solver.check(*(literal for literal, _ in literals))
        if result == z3.unsat:
            core = {str(c) for c in self.solver.unsat_core()}
            labels = [label for literal, label in literals if str(literal) in core] or [
                label for _, label in literals
            ]
            raise Mismatch(index, "no model step meets " + "; ".join(labels))
        if result != z3.sat:
            raise Mismatch(index, f"the solver gave up ({self.solver.reason_unknown()})")
        self.solver.add(*(literal for literal, _ in literals))
        self.dirty = True
        self.grown += 1

    def fresh(self, prefix: str) -> Term:
        """A new boolean literal."""
        self.literals += 1
        return z3.Bool(f"{prefix}{self.literals}")

    def settle(self, s: State[Term, Term]) -> State[Term, Term]:
        """``s`` with every field the solver proves single-valued replaced by its value.

        When the solver has grown, it is then replaced by a fresh one that holds only the
        combinations of values the open fields may still take (new variables stand for
        them): the future depends on the past only through the state, so this projection
        loses nothing and keeps every later query small.
        """
        if not self.dirty:
            return s
        self.dirty = False
        values = flatten(self.cfg, s)
        open_ = [i for i, term in enumerate(values) if self.const(term) is None]
        if open_:
            self.checks += 1
            if self.solver.check() != z3.sat:
                raise Mismatch(self.pos, "the solver gave up")
            model = self.solver.model()
            guess = {i: _read(model, values[i]) for i in open_}
            forced = set(self._forced(values, open_, guess))
            for i in forced:
                values[i] = self.lit(guess[i])
            open_ = [i for i in open_ if i not in forced]
        if self.grown >= REBASE_AFTER or not open_:
            values = self.rebase(values, open_)
        return unflatten_state(self.cfg, values)

    def _forced(self, values: list[Term], open_: list[int], guess: dict[int, Value]) -> list[int]:
        def differs(i: int) -> Term:
            return values[i] != self.lit(guess[i])

        literal = self.fresh("probe")
        self.solver.add(z3.Implies(literal, z3.Or(*(differs(i) for i in open_))))
        self.checks += 1
        if self.solver.check(literal) == z3.unsat:
            return open_
        free = {i for i in open_ if _read(self.solver.model(), values[i]) != guess[i]}
        forced = []
        for i in open_:
            if i in free:
                continue
            literal = self.fresh("probe")
            self.solver.add(z3.Implies(literal, differs(i)))
            self.checks += 1
            if self.solver.check(literal) == z3.unsat:
                forced.append(i)
            else:
                model = self.solver.model()
                free |= {j for j in open_ if _read(model, values[j]) != guess[j]}
        return forced

    def rebase(self, values: list[Any], open_: list[int]) -> list[Any]:
        """A fresh solver holding only the value combinations ``open_`` fields may take."""
        combos: list[list[Value]] = []
        if open_:
            block = self.fresh("block")
            while len(combos) <= REBASE_COMBOS:
                self.checks += 1
                if self.solver.check(block) != z3.sat:
                    break
                model = self.solver.model()
                combo = [_read(model, values[i]) for i in open_]
                combos.append(combo)
                same = z3.And(
                    *(values[i] == self.lit(v) for i, v in zip(open_, combo, strict=True))
                )
                self.solver.add(z3.Implies(block, z3.Not(same)))
            if len(combos) > REBASE_COMBOS:
                return values  # too many to list: keep the solver as it is
        self.rebases += 1
        solver = z3.SolverFor("QF_BV")
        renamed = list(values)
        for i in open_:
            name = f"r{self.rebases}.{i}"
            renamed[i] = z3.Bool(name) if z3.is_bool(values[i]) else z3.BitVec(name, self.cfg.width)
        if open_:
            solver.add(
                z3.Or(
                    *(
                        z3.And(
                            *(renamed[i] == self.lit(v) for i, v in zip(open_, combo, strict=True))
                        )
                        for combo in combos
                    )
                )
            )
        self.solver = solver
        self.grown = 0
        return renamed

    # --- the walk ------------------------------------------------------------------------

    def run(self) -> bool:
        """Match every event; True when the log reaches the end of the game."""
        if self.fatal is not None:
            raise Mismatch(0, self.fatal)
        start = self.rules.hp.start
        for seat in self.events[0].data["seats"]:
            if seat["hp"] != start:
                raise Mismatch(
                    0, f"seat {seat['seat']} starts at {seat['hp']} HP, not hp.start = {start} (R2)"
                )
        self.preamble()
        for _ in range(1_000_000):
            s = self.state
            top = self.top(s)
            if top.kind is StateKind.FINAL and self.num(s.depth) == 1:
                if self.pos < len(self.events):
                    raise Mismatch(self.pos, "the game is over (S5.1, R21), yet the log goes on")
                return True
            if self.pos >= len(self.events):
                # a log ends with the game, or right after asking for a decision
                raise Mismatch(
                    self.pos,
                    f"the log ends while the model goes on from {top.frame.value}:{top.id}",
                )
            decided: TraceEvent | None = None
            if top.kind is StateKind.DECISION:
                self.expect_asked(s, top)
                if self.pos >= len(self.events):
                    return False
                decided = self.events[self.pos]
                inp, edges = self.read_decided(s, top, decided)
                self.pos += 1
                self.decisions += 1
            else:
                inp = self.input()
                edges = None
            self.take(s, top, inp, edges, decided)
        raise Mismatch(self.pos, "too many steps")

    def preamble(self) -> None:
        """``turn_started``, the turn frame's push and the first phase: the model's start state."""
        s = self.state
        allowed = {"turn_started", "frame_pushed", "phase"}
        group = self.claim(allowed, frozenset())
        missing = allowed - {e.type for e in group}
        if missing:
            raise Mismatch(
                self.pos, f"the game starts with {', '.join(sorted(missing))} (S4.0, S6.1.2)"
            )
        self.check_group(s, self.input(), s, group, None, None)

    def claim(self, allowed: set[str] | frozenset[str], repeat: frozenset[str]) -> list[TraceEvent]:
        """The events from the current position that the current step writes."""
        group: list[TraceEvent] = []
        seen: set[str] = set()
        while self.pos < len(self.events):
            event = self.events[self.pos]
            if event.type not in allowed or (event.type in seen and event.type not in repeat):
                break
            seen.add(event.type)
            group.append(event)
            self.pos += 1
        return group

    def input(self, **fixed: Any) -> Input[Term, Term]:
        """An input with fresh chance variables and the decision's constants ``fixed``."""
        b = self.b
        w = self.cfg.width
        j = self.steps
        fields: dict[str, Any] = {
            "edge": b.num(0),
            "target": b.num(NONE),
            "item": b.num(0),
            "pay": tuple(b.num(0) for _ in range(KINDS)),
            "load": z3.BitVec(f"s{j}.load", w),
            "head_live": z3.Bool(f"s{j}.head_live"),
            "draws": tuple(z3.BitVec(f"s{j}.draw{i}", w) for i in range(self.cfg.draws)),
            "pill_heal": z3.Bool(f"s{j}.pill_heal"),
            "gamble_win": z3.Bool(f"s{j}.gamble_win"),
            "steal": z3.BitVec(f"s{j}.steal", w),
            "shield_keep": z3.Bool(f"s{j}.shield_keep"),
            "limit": z3.Bool(f"s{j}.limit"),
        }
        fields.update(fixed)
        return Input(**fields)

    # --- prompts and decisions -----------------------------------------------------------

    def expect_asked(self, s: State[Term, Term], top: StateCode) -> None:
        """The next event must ask the player the model's decision state asks (S1.4, S6.2.1)."""
        prompt = self.lay.chart(top.frame).prompts[top.id]
        who = self.sem.asked(s)
        event = self.events[self.pos]
        if event.type != "asked":
            seat = self.const(who)
            raise Mismatch(
                self.pos,
                f"the model waits for a {prompt.kind} decision of seat {seat} "
                f"({top.frame.value}:{top.id}); the log has {event.type}",
            )
        d = event.data
        if d["prompt"] != prompt.kind:
            raise Mismatch(
                self.pos,
                f"the model asks for a {prompt.kind} decision ({top.frame.value}:{top.id}), "
                f"the log for {d['prompt']}",
            )
        turn = min(event.turn, self.cfg.turn_cap)
        self.require(
            self.pos,
            [
                (f"the player asked ({prompt.asked})", who, d["player"]),
                ("the turn number", s.turn_no, turn),
            ],
        )
        frame_id = d.get("frame_id")
        seen = self.view.stack[-1].frame_id if self.view.stack else None
        if frame_id is not None and seen is not None and frame_id != seen:
            raise Mismatch(self.pos, f"frame {frame_id} is asked, the top frame is {seen}")
        self.asked_options = [_option_id(text, self.pos) for text in d["options"]]
        if self.check_options:
            self.compare_options(s, top, self.asked_options)
        self.pos += 1

    def read_decided(
        self, s: State[Term, Term], top: StateCode, event: TraceEvent
    ) -> tuple[Input[Term, Term], list[EdgeCode]]:
        """The decision's input (edge and parameters) and its candidate edges."""
        if event.type != "decided":
            raise Mismatch(self.pos, f"a decision is due, the log has {event.type}")
        d = event.data
        try:
            option = parse_option(d["option"])
        except GameError as error:
            raise TraceLogError(f"decided: {error.message}", self.pos) from None
        self.require(self.pos, [("the player deciding", self.sem.asked(s), d["player"])])
        edges = self.decision_edges(top, option.event)
        if not edges:
            offered = sorted({e.edge.event for e in self.decision_edges(top, None)})
            raise Mismatch(
                self.pos,
                f"{option.id}: {top.frame.value}:{top.id} offers only {', '.join(offered)}",
            )
        fixed = self.option_input(option)
        if len(edges) == 1:
            fixed["edge"] = self.b.num(edges[0].code)
        else:
            var = z3.BitVec(f"s{self.steps}.edge", self.cfg.width)
            self.solver.add(z3.Or(*(var == e.code for e in edges)))
            fixed["edge"] = var
        return self.input(**fixed), edges

    def decision_edges(self, top: StateCode, event: str | None) -> list[EdgeCode]:
        """The decision edges of ``top`` (with the event ``event`` when given)."""
        return [
            e
            for e in self.lay.edges
            if e.source == top.code
            and e.edge.trigger.value == "decision"
            and (event is None or e.edge.event == event)
        ]

    def option_input(self, option: Option) -> dict[str, Any]:
        """The input fields an option sets: target, item, the Magician's payment."""
        b = self.b
        params = option.kwargs()
        fixed: dict[str, Any] = {}
        if params.get("target") is not None:
            fixed["target"] = b.num(params["target"])
        if isinstance(params.get("item"), Item):
            fixed["item"] = b.num(item_code(params["item"]))
        if isinstance(params.get("items"), tuple):
            pay = [0] * KINDS
            for item in params["items"]:
                pay[item_code(item)] += 1
            fixed["pay"] = tuple(b.num(v) for v in pay)
        return fixed

    def illegal(self, s: State[Term, Term], edges: list[EdgeCode], inp: Input[Term, Term]) -> str:
        """Why a decision is not legal: the guards that fail, with their clauses."""
        reasons = []
        for edge in edges:
            for guard in edge.edge.guards:
                value = self.const(self.sem.guard(guard.name, s, inp))
                if value is not None and value is not guard.expected:
                    clauses = ", ".join(entry(guard.name).clauses)
                    sign = "" if guard.expected else "not "
                    reasons.append(f"{sign}{guard.name} fails ({clauses})")
        return "; ".join(reasons) or "its chance outcomes are impossible"

    def compare_options(self, s: State[Term, Term], top: StateCode, listed: list[str]) -> None:
        """The asked options must be exactly the decisions the model allows (S4.2.0, S6.2.3)."""
        legal = set()
        for edge in self.decision_edges(top, None):
            for option, fixed in self.candidates(s, top, edge.edge.event):
                # a decision is offered when its guards pass (chance outcomes come later)
                inp = replace(self.probe, edge=self.b.num(edge.code), **fixed)
                fired, _, _ = self.sem.firing(s, inp, frozenset({edge.code}))
                if any(e.code == edge.code and not self.b.known_false(f) for e, f, _ in fired):
                    legal.add(option.id)
        offered = set(listed)
        extra, missing = sorted(offered - legal), sorted(legal - offered)
        if extra or missing:
            parts = []
            if extra:
                parts.append(f"offers {', '.join(extra)}, which the model does not allow")
            if missing:
                parts.append(f"leaves out {', '.join(missing)}, which the model allows")
            raise Mismatch(self.pos, "the prompt " + "; it ".join(parts))

    def candidates(
        self, s: State[Term, Term], top: StateCode, event: str
    ) -> Iterable[tuple[Option, dict[str, Any]]]:
        """Every option of ``event`` worth asking the model about in ``s``."""
        b = self.b
        n = self.n
        if event == "shoot":
            for t in range(n):
                yield Option(event, (("target", t),)), {"target": b.num(t)}
        elif event == "use_item":
            owner = self.num(s.owner)
            for k in range(KINDS):
                if self.const(s.items[owner][k]) == 0:
                    continue
                item = ITEM_KINDS[k]
                if TARGET_OF[k] in (Target.NONE, Target.SELF):
                    yield Option(event, (("item", item),)), {"item": b.num(k)}
                else:
                    for t in range(n):
                        yield (
                            Option(event, (("item", item), ("target", t))),
                            {"item": b.num(k), "target": b.num(t)},
                        )
        elif event in ("use_rescue", "discard_item"):
            who = self.num(self.sem.top_who(s)) if event == "use_rescue" else self.num(s.owner)
            for k in range(KINDS):
                if self.const(s.items[who][k]) != 0:
                    yield Option(event, (("item", ITEM_KINDS[k]),)), {"item": b.num(k)}
        elif event == "flip_shell":
            who = self.num(self.sem.top_cursor(s))
            held = [k for k in range(KINDS) if self.const(s.items[who][k]) != 0]
            for combo in combinations_with_replacement(held, self.rules.magician.cost):
                pay = [combo.count(k) for k in range(KINDS)]
                if any(self.const(s.items[who][k]) < pay[k] for k in held):  # type: ignore[operator]
                    continue
                items = tuple(ITEM_KINDS[k] for k in combo)
                yield Option(event, (("items", items),)), {"pay": tuple(b.num(v) for v in pay)}
        else:
            yield Option(event), {}

    # --- one step ------------------------------------------------------------------------

    def take(
        self,
        s: State[Term, Term],
        top: StateCode,
        inp: Input[Term, Term],
        edges: list[EdgeCode] | None,
        decided: TraceEvent | None,
    ) -> None:
        """Take the model step the next events describe (trying each candidate if several)."""
        only = self.only(s, top, edges)
        candidates = [
            (edge, res)
            for edge, res in self.sem.transitions(s, inp, only)
            if not self.b.known_false(res.ok)
        ]
        if not candidates:
            if decided is not None and edges is not None:
                option = decided.data["option"]
                raise Mismatch(
                    decided.index, f"{option} is not legal: {self.illegal(s, edges, inp)}"
                )
            raise Mismatch(self.pos, f"the model has no step from {top.frame.value}:{top.id}")
        if decided is not None:
            option = parse_option(decided.data["option"]).id
            if self.asked_options is not None and option not in self.asked_options:
                raise Mismatch(decided.index, f"{option} is legal but the prompt did not offer it")
        if len(candidates) == 1:
            self.step(s, inp, *candidates[0], decided)
            return
        failures: list[Mismatch] = []
        for edge, res in candidates:
            saved = (self.view.copy(), self.pos, self.dirty, self.grown, self.solver)
            self.solver.push()
            try:
                self.step(s, inp, edge, res, decided)
                return
            except Mismatch as mismatch:
                self.view, self.pos, self.dirty, self.grown, self.solver = saved
                self.solver.pop()
                failures.append(mismatch)
        raise max(failures, key=lambda m: m.index)

    def only(
        self, s: State[Term, Term], top: StateCode, edges: list[EdgeCode] | None
    ) -> frozenset[int]:
        """The codes of the edges that may fire from ``s``: the top's, or the resume below it."""
        lay = self.lay
        if edges is not None:
            return frozenset(e.code for e in edges)
        if top.kind is StateKind.FINAL:
            below = self.num(self.b.select(s.fstate, self.b.subn(s.depth, 2)))
            event = lay.resume_event(top.frame)
            return frozenset(
                e.code
                for e in lay.edges
                if lay.is_resume(e) and e.source == below and e.edge.event == event
            )
        return frozenset(e.code for e in lay.edges if e.source == top.code and not lay.is_resume(e))

    def step(
        self,
        s: State[Term, Term],
        inp: Input[Term, Term],
        edge: EdgeCode,
        res: StepResult[Term, Term],
        decided: TraceEvent | None,
    ) -> None:
        """Match one model step (``edge`` from ``s``) with the events it writes."""
        t = res.next
        allowed: set[str] = set()
        required: set[str] = set()
        for action in edge.edge.actions:
            may, must = ACTION_EVENTS[action]
            allowed |= may
            required |= must
        if self.lay.is_resume(edge):
            allowed.add("frame_popped")
            required.add("frame_popped")
        before, after = self.phase(s), self.phase(t)
        if after != before and after in PHASES:
            allowed.add("phase")
            required.add("phase")
        first = decided.index if decided is not None else self.pos
        if decided is not None and edge.edge.event == "counter":
            self.view.flips += 1  # the counter flips the shot's shell back, unannounced (R18)
        group = self.claim(allowed, REPEATABLE)
        why = "" if decided is None else f"{decided.data['option']}: "
        self.require(first, [], [(f"{why}the step's chance outcomes are possible", res.ok)])
        missing = required - {e.type for e in group}
        if missing and not group:
            self.fail_missing(edge, missing)
        self.check_group(s, inp, t, group, edge, decided)
        if missing:
            self.fail_missing(edge, missing)
        self.state = self.settle(t)
        self.steps += 1

    def fail_missing(self, edge: EdgeCode, missing: set[str]) -> None:
        """The step must write ``missing`` events but the log goes on with something else."""
        here = self.events[self.pos].type if self.pos < len(self.events) else "its end"
        raise Mismatch(
            self.pos,
            f"the model's step {edge.edge.id} writes {', '.join(sorted(missing))}; "
            f"the log has {here}",
        )

    def check_group(
        self,
        s: State[Term, Term],
        inp: Input[Term, Term],
        t: State[Term, Term],
        group: list[TraceEvent],
        edge: EdgeCode | None,
        decided: TraceEvent | None,
    ) -> None:
        """Constrain the step by its events, each in turn, then by the view's other fields."""
        touched: list[set[Key]] = []
        for event in group:
            keys, problem = self.view.observe(event)
            if problem is not None:
                raise Mismatch(event.index, problem)
            touched.append(keys)
        values = self.view.values()
        last: dict[Key, int] = {}
        for number, keys in enumerate(touched):
            for key in keys:
                last[key] = number
        for number, event in enumerate(group):
            reqs, conds = self.direct(event, s, inp, t, edge, decided)
            for key, owner in last.items():
                if owner == number and key in values:
                    reqs.append((_label(key), _term(t, key), values[key]))
            self.require(event.index, reqs, conds)
        rest = [(_label(key), _term(t, key), v) for key, v in values.items() if key not in last]
        try:
            self.require(self.pos, rest)
        except Mismatch as mismatch:
            raise Mismatch(
                self.pos, f"the log leaves out a change the model makes: {mismatch.reason}"
            ) from None

    def direct(
        self,
        event: TraceEvent,
        s: State[Term, Term],
        inp: Input[Term, Term],
        t: State[Term, Term],
        edge: EdgeCode | None,
        decided: TraceEvent | None,
    ) -> tuple[list[Req], list[Cond]]:
        """What ``event`` says of the step besides the view's fields."""
        b, sem, d = self.b, self.sem, event.data
        reqs: list[Req] = []
        conds: list[Cond] = []
        kind = event.type
        actions = () if edge is None else edge.edge.actions
        if kind == "phase":
            if d["phase"] != self.phase(t):
                raise Mismatch(
                    event.index,
                    f"phase {d['phase']}; the model's turn is in {self.phase(t)} (S4.0)",
                )
            reqs.append(("the owner (S1.1)", t.owner, d["owner"]))
        elif kind == "preview":
            p = b.num(d["player"])
            reqs.append(("the head shell previewed is live", t.head_live, d["shell"] == "live"))
            conds.append(
                (
                    f"seat {d['player']} is a living Dealer with the Prophet skill (S2.3, R11)",
                    b.and_(sem.bseat(t.alive, p), sem.with_role(t, p, DEALER)),
                )
            )
            if "prophet_preview" in actions:
                reqs.append(("the owner previewing (S4.1.2)", t.owner, d["player"]))
        elif kind == "frame_popped":
            depth = d["depth"]
            frame = FrameKind(d["kind"])
            reqs.append(("the depth popped from", s.depth, depth))
            if depth > self.cfg.depth:
                raise Mismatch(
                    event.index, f"depth {depth} exceeds the stack's {self.cfg.depth} slots"
                )
            reqs.append(("the kind of the frame popped", s.fkind[depth - 1], kind_code(frame)))
            try:
                outcome = self.lay.state(frame, d["outcome"]).code
            except KeyError:
                raise Mismatch(
                    event.index, f"{frame.value} has no state {d['outcome']!r}"
                ) from None
            reqs.append(
                (f"the popped frame's final state ({d['outcome']})", s.fstate[depth - 1], outcome)
            )
        elif kind == "shot_declared":
            reqs.append(("the shooter (S4.2.1a)", t.shot_shooter, d["shooter"]))
            reqs.append(("the target (S4.2.1a)", t.shot_target, d["target"]))
        elif kind == "shot_fired":
            live = d["shell"] == "live"
            reqs.append(("the shooter", s.shot_shooter, d["shooter"]))
            reqs.append(("the target", s.shot_target, d["target"]))
            reqs.append(("the fired shell is live (S4.2.1c)", s.shot_live, live))
            r = self.rules
            rage = sem.seat(s.rage, b.num(d["shooter"]))
            boosted = b.gt(rage, b.num(0))
            full = b.ite(
                boosted, b.num(r.shot.live_damage + r.rage.bonus_damage), b.num(r.shot.live_damage)
            )
            reqs.append(("the damage (R3, S3.3)", full if live else b.num(0), d["damage"]))
        elif kind == "shot_blocked":
            reqs.append(("the seat whose shield blocks (S3.4)", s.shot_target, d["player"]))
        elif kind == "item_used":
            if "apply_item" in actions:
                reqs.append(("the seat using the item (S4.2.2)", s.owner, d["player"]))
                reqs.append(("the item used", inp.item, item_of(d["item"])))
                if decided is not None and d["target"] != decided_target(decided):
                    raise Mismatch(event.index, "the item's target differs from the decision's")
            else:
                reqs.append(("the dying seat using the item (S4.3.1)", sem.top_who(s), d["player"]))
                reqs.append(("the rescue item used", inp.item, item_of(d["item"])))
        elif kind in ("peek", "shell_ejected"):
            reqs.append((f"the head shell ({kind}) is live", s.head_live, d["shell"] == "live"))
        elif kind == "item_stolen":
            reqs.append(("the item picked (R23)", inp.steal, item_of(d["item"])))
            reqs.append(("the victim", inp.target, d["victim"]))
            reqs.append(("the thief", s.owner, d["player"]))
        elif kind == "pill_rolled":
            reqs.append(("the pills' roll heals (S3.6)", inp.pill_heal, d["heals"]))
        elif kind == "gambler_rolled":
            reqs.append(("the Gambler's roll wins (S2.1)", inp.gamble_win, d["won"]))
            reqs.append(("the Gambler", s.shot_shooter, d["player"]))
        elif kind == "shell_flipped":
            reqs.append(("the Magician flipping (S2.6)", sem.top_cursor(s), d["by"]))
            pay = [0] * KINDS
            for name in d["items"]:
                pay[item_of(name)] += 1
            reqs.extend(
                (f"the {ITEM_KINDS[k].value} paid (R8)", inp.pay[k], pay[k]) for k in range(KINDS)
            )
        elif kind == "tally":
            reqs.extend(
                (f"seat {p}'s HP in the tally (S4.3.0)", t.hp[p], hp)
                for p, hp in enumerate(d["hp"])
            )
        elif kind in ("eliminated", "converted"):
            reqs.append((f"the seat {kind}", sem.top_who(s), d["player"]))
        elif kind == "discarded":
            reqs.append(("the seat discarding (S4.4.3)", s.owner, d["player"]))
            reqs.append(("the item discarded", inp.item, item_of(d["item"])))
        return reqs, conds


def _option_id(text: str, index: int) -> str:
    """The canonical text of an option; :class:`TraceLogError` when it cannot be read."""
    try:
        return parse_option(text).id
    except GameError as error:
        raise TraceLogError(f"asked: {error.message}", index) from None


def decided_target(event: TraceEvent) -> int | None:
    """The target of a ``decided`` event's option, or None."""
    target = parse_option(event.data["option"]).kwargs().get("target")
    return target if isinstance(target, int) else None


def _read(model: Any, term: Term) -> Value:
    value = model.eval(term, model_completion=True)
    if z3.is_bool(value):
        return bool(z3.is_true(value))
    return int(value.as_long())


def _show(value: Value) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def _term(s: State[Term, Term], key: Key) -> Term:
    name = key[0]
    if name == "items":
        return s.items[key[1]][key[2]]
    if len(key) == 2:
        return getattr(s, name)[key[1]]
    return getattr(s, name)


def _label(key: Key) -> str:
    name = str(key[0])
    if name == "items":
        return f"seat {key[1]}'s {ITEM_KINDS[key[2]].value} count"
    if name in ("fkind", "fwho"):
        what = "kind" if name == "fkind" else "player"
        return f"the {what} of stack frame {key[1] + 1}"
    if len(key) == 2:
        return f"seat {key[1]}'s {name.replace('_', ' ')}"
    return name.replace("_", " ")


__all__ = ["TraceFailure", "TraceLogError", "TraceResult", "validate_log"]
