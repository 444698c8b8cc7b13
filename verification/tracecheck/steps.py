"""Matching a log's events with the model steps that write them.

The events between two decisions are split among the model's steps with the log format's
table of which events each action writes (:data:`buckshot.spec.events.ACTION_EVENTS`), plus
``frame_popped`` for a pop and ``phase`` when the turn enters another phase (S4.0). Each
step's state is then constrained by what its events observe: per event, its own facts
(:func:`.facts.event_facts`) and the fields of the folded view it set; after the step,
every other field the view knows must be unchanged in the model.
"""

from __future__ import annotations

from buckshot.spec.chart_data import StateKind
from buckshot.spec.eventlog import LogEvent
from buckshot.spec.events import ACTION_EVENTS, REPEATABLE
from buckshot.spec.rulebook import Phase
from buckshot.verification.model.layout import ITEM_KINDS, EdgeCode, StateCode
from buckshot.verification.model.semantics import StepResult
from buckshot.verification.model.state import Input, State
from buckshot.verification.model.z3backend import Term
from buckshot.verification.tracecheck.facts import event_facts
from buckshot.verification.tracecheck.solver import Mismatch
from buckshot.verification.tracecheck.view import Key
from buckshot.verification.tracecheck.walk import Walk

PHASES = frozenset(phase.value for phase in Phase)

Candidate = tuple[EdgeCode, StepResult[Term, Term]]
"""A model step that may match: its edge and its result."""


class StepMatcher:
    """Matches the events after a decision, or between automatic steps, with model steps."""

    def __init__(self, walk: Walk) -> None:
        self.walk = walk

    def match_start(self) -> None:
        """``turn_started``, the turn frame's push and the first phase: the model's start state."""
        walk = self.walk
        s = walk.state
        allowed = {"turn_started", "frame_pushed", "phase"}
        group = self.claim(allowed, frozenset())
        missing = allowed - {e.type for e in group}
        if missing:
            raise Mismatch(
                walk.pos, f"the game starts with {', '.join(sorted(missing))} (S4.0, S6.1.2)"
            )
        self.check_group(s, walk.input(), s, group, None, None)

    def candidates(
        self,
        s: State[Term, Term],
        top: StateCode,
        inp: Input[Term, Term],
        edges: list[EdgeCode] | None,
    ) -> list[Candidate]:
        """The model steps from ``s`` by ``inp`` that are not known to be impossible.

        ``edges`` are a decision's edges; None for an automatic step or a pop.
        """
        firable = self.firable_edges(s, top, edges)
        return [
            (edge, res)
            for edge, res in self.walk.sem.transitions(s, inp, firable)
            if not self.walk.b.known_false(res.ok)
        ]

    def firable_edges(
        self, s: State[Term, Term], top: StateCode, edges: list[EdgeCode] | None
    ) -> frozenset[int]:
        """The codes of the edges that may fire from ``s``: the top's, or the resume below it."""
        walk = self.walk
        lay = walk.lay
        if edges is not None:
            return frozenset(e.code for e in edges)
        if top.kind is StateKind.FINAL:
            below = walk.num(walk.b.select(s.fstate, walk.b.subn(s.depth, 2)))
            event = lay.resume_event(top.frame)
            return frozenset(
                e.code
                for e in lay.edges
                if lay.is_resume(e) and e.source == below and e.edge.event == event
            )
        return frozenset(e.code for e in lay.edges if e.source == top.code and not lay.is_resume(e))

    def take(
        self,
        s: State[Term, Term],
        top: StateCode,
        inp: Input[Term, Term],
        candidates: list[Candidate],
        decided: LogEvent | None,
    ) -> None:
        """Take the model step the next events describe (trying each candidate if several).

        When none matches, the failure reported is the one that got furthest in the log.
        """
        walk = self.walk
        if not candidates:
            raise Mismatch(walk.pos, f"the model has no step from {top.frame.value}:{top.id}")
        if len(candidates) == 1:
            self.match_step(s, inp, *candidates[0], decided)
            return
        failures: list[Mismatch] = []
        for edge, res in candidates:
            view, pos = walk.view.copy(), walk.pos
            saved = walk.solver.checkpoint()
            try:
                self.match_step(s, inp, edge, res, decided)
                return
            except Mismatch as mismatch:
                walk.view, walk.pos = view, pos
                walk.solver.restore(saved)
                failures.append(mismatch)
        raise max(failures, key=lambda m: m.index)

    def match_step(
        self,
        s: State[Term, Term],
        inp: Input[Term, Term],
        edge: EdgeCode,
        res: StepResult[Term, Term],
        decided: LogEvent | None,
    ) -> None:
        """Match one model step (``edge`` from ``s``) with the events it writes."""
        walk = self.walk
        t = res.next
        allowed: set[str] = set()
        required: set[str] = set()
        for action in edge.edge.actions:
            may, must = ACTION_EVENTS[action]
            allowed |= may
            required |= must
        if walk.lay.is_resume(edge):
            allowed.add("frame_popped")
            required.add("frame_popped")
        before, after = walk.phase(s), walk.phase(t)
        if after != before and after in PHASES:
            allowed.add("phase")
            required.add("phase")
        first = decided.index if decided is not None else walk.pos
        if decided is not None and edge.edge.event == "counter":
            walk.view.table.flips += 1  # the counter flips the shot's shell back, unannounced (R18)
        group = self.claim(allowed, REPEATABLE)
        why = "" if decided is None else f"{decided.data['option']}: "
        walk.solver.require(first, [], [(f"{why}the step's chance outcomes are possible", res.ok)])
        missing = required - {e.type for e in group}
        if missing and not group:
            self.fail_missing(edge, missing)
        self.check_group(s, inp, t, group, edge, decided)
        if missing:
            self.fail_missing(edge, missing)
        walk.state = walk.solver.settle(t, walk.pos)
        walk.steps += 1

    def claim(self, allowed: set[str] | frozenset[str], repeat: frozenset[str]) -> list[LogEvent]:
        """The events from the current position that the current step writes.

        Each type in ``allowed`` may appear once, those in ``repeat`` more often.
        """
        walk = self.walk
        group: list[LogEvent] = []
        seen: set[str] = set()
        while walk.pos < len(walk.events):
            event = walk.events[walk.pos]
            if event.type not in allowed or (event.type in seen and event.type not in repeat):
                break
            seen.add(event.type)
            group.append(event)
            walk.pos += 1
        return group

    def fail_missing(self, edge: EdgeCode, missing: set[str]) -> None:
        """The step must write ``missing`` events but the log goes on with something else."""
        walk = self.walk
        here = walk.events[walk.pos].type if walk.pos < len(walk.events) else "its end"
        raise Mismatch(
            walk.pos,
            f"the model's step {edge.edge.id} writes {', '.join(sorted(missing))}; "
            f"the log has {here}",
        )

    def check_group(
        self,
        s: State[Term, Term],
        inp: Input[Term, Term],
        t: State[Term, Term],
        group: list[LogEvent],
        edge: EdgeCode | None,
        decided: LogEvent | None,
    ) -> None:
        """Constrain the step by its events, each in turn, then by the view's other fields."""
        walk = self.walk
        touched: list[set[Key]] = []
        for event in group:
            keys, problem = walk.view.observe(event)
            if problem is not None:
                raise Mismatch(event.index, problem)
            touched.append(keys)
        values = walk.view.values()
        last: dict[Key, int] = {}
        for number, keys in enumerate(touched):
            for key in sorted(keys, key=repr):  # a set: sorted, so a report names the same field
                last[key] = number
        for number, event in enumerate(group):
            reqs, conds = event_facts(walk, event, s, inp, t, edge, decided)
            for key, owner in last.items():
                if owner == number and key in values:
                    reqs.append((_label(key), _term(t, key), values[key]))
            walk.solver.require(event.index, reqs, conds)
        rest = [(_label(key), _term(t, key), v) for key, v in values.items() if key not in last]
        try:
            walk.solver.require(walk.pos, rest)
        except Mismatch as mismatch:
            raise Mismatch(
                walk.pos, f"the log leaves out a change the model makes: {mismatch.reason}"
            ) from None


def _term(s: State[Term, Term], key: Key) -> Term:
    """The model's term for the view's field ``key``."""
    term = getattr(s, key[0])
    for index in key[1:]:
        term = term[index]
    return term


def _label(key: Key) -> str:
    """The view's field ``key`` as the reasons name it."""
    name = str(key[0])
    if name == "items":
        return f"seat {key[1]}'s {ITEM_KINDS[key[2]].value} count"
    if name in ("fkind", "fwho"):
        what = "kind" if name == "fkind" else "player"
        return f"the {what} of stack frame {key[1] + 1}"
    if len(key) == 2:
        return f"seat {key[1]}'s {name.replace('_', ' ')}"
    return name.replace("_", " ")
