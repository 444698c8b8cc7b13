"""Where a walk of the model along a log stands: the next event and the model's state.

The log is read by the one log reader (:mod:`buckshot.spec.eventlog`), from JSON-lines text
(``buckshot play --log``), the engine's events or their JSON dicts (:func:`read_log`).

A :class:`Walk` is shared by the parts of trace validation: the matching of prompts and
decisions (:mod:`.decisions`) and of automatic steps (:mod:`.steps`) both read
the log from :attr:`Walk.pos`, fold what they read into :attr:`Walk.view`, constrain the
model through :attr:`Walk.solver` and move :attr:`Walk.state` on.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import z3  # type: ignore[import-untyped]

from buckshot.reference.events import Event
from buckshot.spec.chart_data import StateKind
from buckshot.spec.eventlog import EventLogError, LogEvent, check_records, parse_log
from buckshot.spec.rulebook import FrameKind, Role
from buckshot.spec.ruleset import Ruleset
from buckshot.spec.views import TableView
from buckshot.verification.model.config import make_config
from buckshot.verification.model.layout import KINDS, NONE, SEATS, StateCode, layout, role_code
from buckshot.verification.model.state import Input, State
from buckshot.verification.model.symbolic import Symbols
from buckshot.verification.model.z3backend import Term
from buckshot.verification.tracecheck.solver import Mismatch, TraceSolver
from buckshot.verification.tracecheck.view import View

LogInput = str | Iterable[Event | Mapping[str, Any]]
"""What :func:`read_log` accepts: JSON-lines text, or events, or their JSON dicts."""


def read_log(log: LogInput) -> list[LogEvent]:
    """The log's events, checked by the one reader (a list's items numbered as its lines)."""
    if isinstance(log, str):
        return parse_log(log)
    records = (
        (number, item.to_json() if isinstance(item, Event) else item)
        for number, item in enumerate(log, start=1)
    )
    return list(check_records(records, "<events>"))


def unreadable_event(event: LogEvent, message: str) -> EventLogError:
    """The error for an event whose content trace validation cannot read (an option's text),
    naming its line as the reader names a bad record's."""
    return EventLogError(f"line {event.line}: {message}")


class Walk:
    """The log, the position reached in it, and the model state matched so far."""

    def __init__(self, events: list[LogEvent], rules: Ruleset) -> None:
        self.events = events
        self.rules = rules
        seats = events[0].data["seats"]
        self.n = len(seats)
        lo = min(max(self.n, 2), 8)
        self.cfg = make_config(rules, (lo, lo))
        sym = Symbols(self.cfg)
        self.b = sym.backend
        self.sem = sym.sem
        self.lay = layout()
        self.solver = TraceSolver(self.cfg, self.b)
        self.pos = 1  # the index of the next event to match
        self.steps = 0  # model steps (chart transitions) matched
        self.decisions = 0  # decisions matched
        roles = [role_code(Role(seat["role"])) for seat in seats] + [0] * (SEATS - self.n)
        self.state: State[Term, Term] = self.sem.initial(
            self.b.num(self.n), tuple(self.b.num(r) for r in roles[:SEATS])
        )
        table = TableView()
        table.observe(events[0])  # game_started: the seats with their HP
        self.view = View(table, self.cfg.shield_cap, self.cfg.depth)
        turn = self.lay.chart(FrameKind.TURN)
        self.phase_of = {
            self.lay.state(FrameKind.TURN, node.id).code: node.parent or node.id
            for node in turn.states
            if node.kind is not StateKind.COMPOUND
        }
        """The turn's phase (S4.0) for each code of a turn chart state."""

    def num(self, term: Term) -> int:
        """The value of a term that must be a constant integer here."""
        value = self.solver.const(term)
        if value is None or isinstance(value, bool):
            raise Mismatch(self.pos, "the model's control state is not determined by the log here")
        return value

    def top(self, s: State[Term, Term]) -> StateCode:
        """The top frame's chart state (it must be determined)."""
        code = self.num(self.sem.top_state(s))
        state = self.lay.by_code(code)
        if state is None:
            raise Mismatch(self.pos, f"the model's stack holds no state (code {code})")
        return state

    def phase(self, s: State[Term, Term]) -> str | None:
        """The turn's phase in ``s`` (the compound state of the bottom frame's state, S4.0)."""
        value = self.solver.const(s.fstate[0])
        return None if value is None else self.phase_of.get(int(value))

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
        }
        fields.update(fixed)
        return Input(**fields)
