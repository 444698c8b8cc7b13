"""Where a walk of the model along a log stands: the next event, the view, the model's state.

The log is read by the one log reader (:mod:`buckshot.spec.eventlog`), from JSON-lines text
(``buckshot play --log``), the engine's events or their JSON dicts (:func:`read_log`).

- :class:`View`: the whole table's view of the log so far, folded by the one fold of event
  logs (:class:`buckshot.spec.views.TableView`) and read as the model's fields (8 seat
  slots, item and frame-kind codes). After each step the model's state must agree with the
  view on every field the view knows, and each event names the fields it set, which the
  model step that writes it must set to the view's values. An event that contradicts the
  view's own arithmetic (an ``hp_changed`` whose delta does not lead to its HP, an item
  spent that is not held) is a problem of its own.
- :class:`TraceSolver`: requirements on the symbolic state. Constants fold as terms are
  built (:meth:`TraceSolver.const` reads a folded constant back), so most requirements are
  checked at once; the rest go to one incremental Z3 solver under assumption literals, and
  an unsat core names the requirements no model step can meet (:class:`Mismatch`). After
  each step :meth:`TraceSolver.settle` replaces every field the solver proves to have a
  single value by that value, and from time to time rebuilds the solver from the value
  combinations the open fields may still take, so that later queries stay small.
- :class:`Walk`: shared by the matching of decisions and of automatic steps
  (:mod:`.match`), which read the log from :attr:`Walk.pos`, fold what they read into
  :attr:`Walk.view`, constrain the model through :attr:`Walk.solver` and move
  :attr:`Walk.state` on.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import z3

from buckshot.reference.events import Event
from buckshot.spec.chart_data import StateKind
from buckshot.spec.eventlog import EventLogError, LogEvent, check_records, parse_log
from buckshot.spec.rulebook import FrameKind, Item, Role
from buckshot.spec.ruleset import Ruleset
from buckshot.spec.views import TableView
from buckshot.verification.model.config import Config, make_config
from buckshot.verification.model.layout import (
    DRAWN,
    EMPTY,
    ITEM_KINDS,
    KINDS,
    NONE,
    RUNNING,
    SEATS,
    WON,
    StateCode,
    item_code,
    kind_code,
    layout,
    role_code,
)
from buckshot.verification.model.state import Input, State, flatten, unflatten_state
from buckshot.verification.model.symbolic import Symbols, read_value
from buckshot.verification.model.z3backend import Term, Z3Backend

Key = tuple[Any, ...]
"""A state field the view knows: ``("hp", 2)``, ``("items", 0, 5)``, ``("shells",)``..."""
Value = int | bool


def item_of(name: str) -> int:
    """The model's code of the item called ``name``."""
    return item_code(Item(name))


def _items(p: int, names: Any) -> set[Key]:
    return {("items", p, item_of(name)) for name in names}


class View:
    """The game state as the events so far describe it, in the model's fields."""

    def __init__(self, table: TableView, shield_cap: int, slots: int) -> None:
        self.table = table  # the fold of the log so far
        self.shield_cap = shield_cap
        self.slots = slots

    def copy(self) -> View:
        """An independent copy (for trying one of several model steps)."""
        return View(self.table.copy(), self.shield_cap, self.slots)

    def values(self) -> dict[Key, Value]:
        """Every state field the view knows, with its value."""
        table = self.table
        out: dict[Key, Value] = {}
        for p in range(SEATS):
            seat = table.seats.get(p)
            out["hp", p] = 0 if seat is None or seat.hp is None else seat.hp
            out["alive", p] = seat is not None and seat.alive
            out["traitor", p] = seat is not None and seat.traitor
            out["rage", p] = 0 if seat is None else seat.rage
            out["kills", p] = 0 if seat is None else seat.kills
            shield = 0 if seat is None else seat.shield
            if shield < self.shield_cap:  # above it the model's counter saturates
                out["shield", p] = shield
            for k in range(KINDS):
                out["items", p, k] = 0 if seat is None else seat.items.get(ITEM_KINDS[k], 0)
        out["shells",] = table.shells
        out["live",] = table.live
        out["owner",] = 0 if table.owner is None else table.owner
        out["kill_lock",] = table.kill_lock
        winners = table.winners
        if winners is None:
            out["result",] = RUNNING
        else:
            out["result",] = DRAWN if table.reason == "turn_limit" else WON
        out["winner",] = winners[0] if winners else NONE
        out["depth",] = len(table.stack)
        for i in range(self.slots):
            frame = table.stack[i] if i < len(table.stack) else None
            out["fkind", i] = EMPTY if frame is None else kind_code(FrameKind(frame.kind))
            if frame is not None and frame.player is not None:
                out["fwho", i] = frame.player
        return out

    def observe(self, event: LogEvent) -> tuple[set[Key], str | None]:
        """Fold ``event`` in; the fields it set, and what is wrong with it on its own terms."""
        keys = self._keys(event)
        problem = self.table.observe(event)
        depth = len(self.table.stack)
        if problem is None and event.type == "frame_pushed" and depth > self.slots:
            problem = f"depth {depth} exceeds limits.max_stack_depth = {self.slots} (S6.1.4)"
        return keys, problem

    def _keys(self, event: LogEvent) -> set[Key]:
        """The fields ``event`` sets, read before it is folded in."""
        kind, d = event.type, event.data
        if kind in ("chamber_loaded", "shot_fired", "shell_ejected"):
            return {("shells",), ("live",)}
        if kind in ("items_drawn", "shell_flipped"):
            return _items(d["by" if kind == "shell_flipped" else "player"], d["items"])
        if kind in ("item_used", "discarded"):
            return _items(d["player"], [d["item"]])
        if kind == "item_stolen":
            return _items(d["victim"], [d["item"]]) | _items(d["player"], [d["item"]])
        if kind in _SEAT_FIELD:
            return {(_SEAT_FIELD[kind], d["player"])}
        if kind in ("frame_pushed", "frame_popped"):
            top = len(self.table.stack) - (kind == "frame_popped")
            return {("depth",), ("fkind", max(top, 0)), ("fwho", max(top, 0))}
        if kind == "eliminated":
            p = d["player"]
            keys: set[Key] = {("alive", p), ("shield", p), ("rage", p)}
            keys |= {("items", p, k) for k in range(KINDS)}
            return keys | ({("kills", d["by"])} if d["by"] is not None else set())
        if kind == "turn_ended":
            return {("rage", p) for p in range(SEATS)} | {("kill_lock",)}
        return set(_TABLE_FIELDS.get(kind, ()))


_SEAT_FIELD = {
    "shot_blocked": "shield",
    "shield_gained": "shield",
    "rage_gained": "rage",
    "rage_used": "rage",
    "hp_changed": "hp",
    "converted": "traitor",
}
"""The event types that set one field of the seat ``player``, and the field."""

_TABLE_FIELDS: dict[str, tuple[Key, ...]] = {
    "turn_started": (("owner",),),
    "chamber_inverted": (("live",),),
    "shooting_locked": (("kill_lock",),),
    "game_over": (("result",), ("winner",)),
}
"""The event types that set table fields only, and the fields."""


REBASE_AFTER = 8
"""Solver checks that add constraints before the solver is rebuilt from the open fields."""
REBASE_COMBOS = 32  # most value combinations of the open fields a rebuilt solver lists

Req = tuple[str, Term, Value]  # a requirement: its label, a model term, the value the log gives it
Cond = tuple[str, Term]  # a requirement: its label and a model condition that must hold


class Mismatch(Exception):
    """No model step matches the event at ``index``."""

    def __init__(self, index: int, reason: str) -> None:
        super().__init__(reason)
        self.index = index
        self.reason = reason


class TraceSolver:
    """Checks requirements on the symbolic model state and keeps that state small."""

    def __init__(self, cfg: Config, backend: Z3Backend) -> None:
        self.cfg = cfg
        self.b = backend
        self.solver = z3.SolverFor("QF_BV")
        self.dirty = False  # constraints were added since the last :meth:`settle`
        self.grown = 0  # checks that added constraints since the solver was last rebuilt
        self.checks = 0  # solver checks made so far
        self.literals = 0
        self.rebases = 0
        self.known: dict[int, Value] = {id(backend.num(v)): v for v in range(1 << cfg.width)}
        self.known[id(backend.true())] = True
        self.known[id(backend.false())] = False

    # --- values --------------------------------------------------------------------------

    def const(self, term: Term) -> Value | None:
        """The value of a folded constant term, else None."""
        return self.known.get(id(term))

    def lit(self, value: Value) -> Term:
        """The backend constant for ``value``."""
        if isinstance(value, bool):
            return self.b.boolean(value)
        return self.b.num(value)

    def fresh(self, prefix: str) -> Term:
        """A new boolean literal."""
        self.literals += 1
        return z3.Bool(f"{prefix}{self.literals}")

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

    def assume(self, cond: Term) -> None:
        """Add ``cond`` to the solver as it is, unchecked."""
        self.solver.add(cond)

    # --- trying alternatives -------------------------------------------------------------

    def checkpoint(self) -> tuple[bool, int, Any]:
        """Open a scope to try one alternative in; :meth:`restore` undoes it."""
        saved = (self.dirty, self.grown, self.solver)
        self.solver.push()
        return saved

    def restore(self, saved: tuple[bool, int, Any]) -> None:
        """Back to the :meth:`checkpoint` that gave ``saved``."""
        self.dirty, self.grown, self.solver = saved
        self.solver.pop()

    # --- keeping the state small ---------------------------------------------------------

    def settle(self, s: State[Term, Term], index: int) -> State[Term, Term]:
        """``s`` with every field the solver proves single-valued replaced by its value.

        When the solver has grown, it is then replaced by a fresh one that holds only the
        combinations of values the open fields may still take (new variables stand for
        them): the future depends on the past only through the state, so this projection
        loses nothing and keeps every later query small. ``index`` is the log position a
        solver that gives up is reported at.
        """
        if not self.dirty:
            return s
        self.dirty = False
        values = flatten(self.cfg, s)
        open_ = [i for i, term in enumerate(values) if self.const(term) is None]
        if open_:
            self.checks += 1
            if self.solver.check() != z3.sat:
                raise Mismatch(index, "the solver gave up")
            model = self.solver.model()
            guess = {i: read_value(model, values[i]) for i in open_}
            forced = set(self._forced(values, open_, guess))
            for i in forced:
                values[i] = self.lit(guess[i])
            open_ = [i for i in open_ if i not in forced]
        if self.grown >= REBASE_AFTER or not open_:
            values = self.rebase(values, open_)
        return unflatten_state(self.cfg, values)

    def _forced(self, values: list[Term], open_: list[int], guess: dict[int, Value]) -> list[int]:
        """The fields of ``open_`` that can take no value but their ``guess``."""

        def differs(i: int) -> Term:
            return values[i] != self.lit(guess[i])

        literal = self.fresh("probe")
        self.solver.add(z3.Implies(literal, z3.Or(*(differs(i) for i in open_))))
        self.checks += 1
        if self.solver.check(literal) == z3.unsat:
            return open_
        free = {i for i in open_ if read_value(self.solver.model(), values[i]) != guess[i]}
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
                free |= {j for j in open_ if read_value(model, values[j]) != guess[j]}
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
                combo = [read_value(model, values[i]) for i in open_]
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


def _show(value: Value) -> str:
    """A log or model value as the reasons print it (``true``, ``3``)."""
    return str(value).lower() if isinstance(value, bool) else str(value)


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
