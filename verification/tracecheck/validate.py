"""Trace validation: Z3 finds model steps that match a saved event log, or the first event none can
(docs/verification.md, "Trace validation").

The log's first event, ``game_started``, fixes the start state exactly (seats, roles, HP).
From there the model is stepped along the log, one chart transition at a time, its state
kept symbolic (:class:`.walk.TraceSolver`): each step gets fresh input variables for its
chance outcomes (the load drawn, the head shell's type, the kinds drawn, pill and Gambler
rolls, the pickpocket's pick), while the decision's edge and parameters are the constants
the ``decided`` event names; what the log does not reveal (chiefly the type of a shell not
yet fired, ejected or peeked) stays a Z3 term until some event pins it down. Each step is
constrained by the events it writes (:mod:`.match`), and the first event no model step can
meet is reported, with the reason. This module holds the verdict (:func:`validate_log`,
:class:`TraceResult`) and the walk along the log.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from buckshot.spec.chart_data import StateKind
from buckshot.spec.eventlog import LogEvent
from buckshot.spec.ruleset import Ruleset, load_ruleset
from buckshot.verification.tracecheck.match import DecisionMatcher, StepMatcher
from buckshot.verification.tracecheck.walk import LogInput, Mismatch, Walk, read_log

MAX_STEPS = 1_000_000  # model steps after which a walk gives up (no game is this long)


@dataclass(frozen=True)
class TraceFailure:
    """The first event no model step can match, and why."""

    index: int
    """Position of the event in the log (from 0); the log's length when the log ends early."""
    seq: int | None
    type: str | None
    """The event's type; None when the log ended where the model needs another event."""
    reason: str


@dataclass(frozen=True)
class TraceResult:
    """The verdict on one log."""

    matched: bool  # every event is matched by model steps
    complete: bool  # the log reaches the end of the game (otherwise it stops at some decision)
    events: int
    events_matched: int  # events matched before the first failing one (all of them when matched)
    steps: int  # model steps (chart transitions) matched
    decisions: int
    solver_checks: int
    seconds: float
    failure: TraceFailure | None

    def to_json(self) -> dict[str, Any]:
        """The result as JSON-ready data."""
        return {**asdict(self), "seconds": round(self.seconds, 3)}

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
        what = f"event #{f.index} {f.type}" if f.type else f"the end of the log (#{f.index})"
        seq = "" if f.seq is None else f" (seq {f.seq})"
        return f"mismatch at {what}{seq}: {f.reason}\n{counts}"


def validate_log(
    log: LogInput | Sequence[LogEvent],
    ruleset: Ruleset | None = None,
    check_options: bool = True,
    progress: Callable[[int, int], None] | None = None,
) -> TraceResult:
    """Check a saved event log against the model: matched, or the first event no step can match.

    ``log`` is JSON-lines text, a list of engine events or of their JSON dicts (or events
    already read by :func:`.walk.read_log`); ``ruleset`` the rules the game was played
    by (the default ruleset when None). With ``check_options`` each ``asked`` event's option
    list must be exactly the decisions the model allows there. Raises
    :class:`~buckshot.spec.eventlog.EventLogError` when the log is not a
    well-formed event log. ``progress`` is told, as the walk goes, how many of the log's
    events it has reached and how many there are.
    """
    started = time.perf_counter()
    if isinstance(log, list) and log and isinstance(log[0], LogEvent):
        events: list[LogEvent] = list(log)
    else:
        events = read_log(log)  # type: ignore[arg-type]
    rules = ruleset if ruleset is not None else load_ruleset()
    walk = Walk(events, rules)
    decisions = DecisionMatcher(walk, check_options)
    steps = StepMatcher(walk)
    failure: TraceFailure | None = None
    complete = False
    try:
        complete = _run(walk, decisions, steps, progress or (lambda done, total: None))
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
        steps=walk.steps,
        decisions=walk.decisions,
        solver_checks=walk.solver.checks,
        seconds=time.perf_counter() - started,
        failure=failure,
    )


def _run(
    walk: Walk,
    decisions: DecisionMatcher,
    steps: StepMatcher,
    progress: Callable[[int, int], None],
) -> bool:
    """Match every event, telling ``progress`` how far the walk has got; True when the log
    reaches the end of the game."""
    progress(0, len(walk.events))
    rules, n = walk.rules, walk.n
    if not rules.players.min <= n <= rules.players.max:
        raise Mismatch(0, f"{n} seats; the ruleset allows {rules.players.min}..{rules.players.max}")
    start = rules.hp.start
    for seat in walk.events[0].data["seats"]:
        if seat["hp"] != start:
            raise Mismatch(
                0, f"seat {seat['seat']} starts at {seat['hp']} HP, not hp.start = {start} (R2)"
            )
    steps.match_start()
    for _ in range(MAX_STEPS):
        progress(walk.pos, len(walk.events))
        s = walk.state
        top = walk.top(s)
        if top.kind is StateKind.FINAL and walk.num(s.depth) == 1:
            if walk.pos < len(walk.events):
                raise Mismatch(walk.pos, "the game is over (S5.1, R21), yet the log goes on")
            return True
        if walk.pos >= len(walk.events):
            # a log ends with the game, or right after asking for a decision
            raise Mismatch(
                walk.pos,
                f"the log ends while the model goes on from {top.frame.value}:{top.id}",
            )
        decided: LogEvent | None = None
        if top.kind is StateKind.DECISION:
            decisions.expect_asked(s, top)
            if walk.pos >= len(walk.events):
                progress(walk.pos, len(walk.events))
                return False
            decided = walk.events[walk.pos]
            inp, edges = decisions.read_decided(s, top, decided)
            walk.pos += 1
            walk.decisions += 1
            candidates = steps.candidates(s, top, inp, edges)
            decisions.confirm(s, inp, edges, decided, bool(candidates))
        else:
            inp = walk.input()
            candidates = steps.candidates(s, top, inp, None)
        steps.take(s, top, inp, candidates, decided)
    raise Mismatch(walk.pos, "too many steps")
