"""The charts' control flow compiled into specialised Python, generated from the tables.

:func:`generate` writes one function per state and per (state, event) of
:data:`~buckshot.reference.tables.TABLES`: the branches in priority order with their guards
and actions called directly, the candidate options of each decision enumerated by the
decision's own enumerator and filtered by exactly the guards of the branches they may take.
:func:`program` executes that source and returns the functions by frame kind and state.

A guard or selector whose body is one returned expression, and an action of one simple
statement, is written in place of its call (:mod:`buckshot.reference.inline`, from the
function's own source); a decision whose one
parameter guard has a lister (:data:`~buckshot.reference.effects.PASSING`) takes its options
from the lister instead of trying each candidate.

The tables stay the source: the program is rebuilt whenever they change (a fault of
``tests/faults/`` edits them through :mod:`.seams`), and a test checks that the program takes the
branches and offers the options the tables give. A *hooked* program takes each transition and asks
each prompt through the game, which tells its observer
(:class:`~buckshot.reference.observe.GameObserver`); the plain program, which a game
without an observer runs, runs the actions inline and calls no hook.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from operator import is_
from typing import TYPE_CHECKING, Any

from buckshot.reference import effects
from buckshot.reference.effects import NEEDS, PASSING, READS
from buckshot.reference.events import FIELDS, EventType
from buckshot.reference.inline import MODULE_NAME, inline_action, inline_call
from buckshot.reference.options import (
    PARAMS_OF,
    OptionsByValues,
    Prompt,
    enumerator,
    enumerator_reads,
    sole_option,
)
from buckshot.reference.tables import TABLES, Edge, StateRow
from buckshot.spec.chart_data import StateKind
from buckshot.spec.rulebook import FrameKind, Phase

if TYPE_CHECKING:
    from buckshot.reference.game import Game
    from buckshot.reference.state import Frame

Step = Callable[["Game", "Frame"], bool]
"""Runs the top frame's state once; True when a prompt is now pending."""
Take = Callable[["Game", "Frame", dict[str, Any]], bool]
"""Takes the first passing branch of one event from one state; True when a prompt is due."""
Ask = Callable[["Game", "Frame"], Prompt]
"""Builds a decision state's prompt: who is asked and every legal option."""

PHASE_IDS = frozenset(phase.value for phase in Phase)

_enumerators = {event: enumerator(event) for event in PARAMS_OF}
"""Each decision event's candidate enumerator, which the programs call by name."""

_enumerator_reads = {event: enumerator_reads(event) for event in PARAMS_OF}
"""What each enumerator reads: with its guards' reads, the key of a memo of legal options."""

_by_values = {event: OptionsByValues(event) for event in PARAMS_OF}
"""Each decision event's options by their parameter values, for the guards of
:data:`~buckshot.reference.effects.PASSING`."""

MEMO_LIMIT = 1 << 12
"""The most option lists one memo keeps; a full memo starts afresh."""


def _remember(memo: dict[Any, Any], key: Any, value: Any) -> Any:
    """Keep ``value`` under ``key`` in ``memo`` (emptied first when full) and return it."""
    if len(memo) >= MEMO_LIMIT:
        memo.clear()
    memo[key] = value
    return value


@dataclass(frozen=True)
class Program:
    """The compiled charts: per frame kind and state, its step, its takes and its prompt."""

    steps: dict[FrameKind, dict[str, Step]]
    takes: dict[FrameKind, dict[str, dict[str, Take]]]
    prompts: dict[FrameKind, dict[str, Ask]]
    source: str


class _Writer:
    """Collects the generated source and the objects it names."""

    def __init__(self, hooked: bool) -> None:
        self.hooked = hooked
        self.lines: list[str] = []
        self.names: dict[str, Any] = {
            "Prompt": Prompt,
            "new_tuple": tuple.__new__,
            "FRAME_POPPED": EventType.FRAME_POPPED,
            "PHASE": EventType.PHASE,
            "ASKED": EventType.ASKED,
            "remember": _remember,
            MODULE_NAME: effects,
            "NO_PARAMS": {},
        }

    def bind(self, name: str, value: Any) -> str:
        """Name ``value`` in the program; one name stands for one object."""
        if name in self.names and self.names[name] is not value:
            raise ValueError(f"{name} is bound to two different objects")
        self.names[name] = value
        return name

    def line(self, indent: int, text: str) -> None:
        self.lines.append("    " * indent + text)


def _function(kind: FrameKind, state: str, what: str) -> str:
    return f"{what}__{kind.value}__{state}"


def _call(w: _Writer, name: str, fn: Any, arguments: tuple[str, ...]) -> str:
    """The expression calling ``fn`` (bound as ``name``) with ``arguments``: its returned
    expression written in place when :func:`~buckshot.reference.inline.inline_call` gives one."""
    inlined = inline_call(fn, arguments)
    return inlined if inlined is not None else f"{w.bind(name, fn)}({', '.join(arguments)})"


def _conditions(w: _Writer, guards: tuple[tuple[str, Any, bool], ...], params: str) -> str:
    tests = [
        f"{_call(w, 'G_' + name, fn, ('g', params))} is {expected}" for name, fn, expected in guards
    ]
    return " and ".join(tests) or "True"


def _write_event(event: EventType, values: dict[str, str]) -> str:
    """The line appending an event of type ``event`` (a name the program binds) to the log,
    its values the expressions given for its fields, in the fields' order
    (:data:`FIELDS`); what :meth:`Game.write` does, written in place."""
    fields = FIELDS[event]
    if set(values) != set(fields):
        raise AssertionError(f"{event.value} has the fields {fields}, not {sorted(values)}")
    written = "".join(values[field] + ", " for field in fields)
    return f"g._pending.append((g.state.turn, {event.name}, None, ({written})))"


def _take_edge(w: _Writer, indent: int, kind: FrameKind, edge: Edge, index: str) -> None:
    """The lines taking ``edge`` from ``frame`` with parameters ``p``, then returning.

    The plain program goes straight on into the state entered (unless it waits for a
    pushed frame, or the game is over): True when that reaches a prompt.
    """
    if w.hooked:
        w.line(indent, f"g._take_observed(frame, {w.bind(index, edge)}, p)")
        w.line(indent, "return False")
        return
    for name, fn in edge.actions:
        inlined = inline_action(fn, ("g", "p"))
        w.line(indent, inlined if inlined is not None else f"{w.bind('A_' + name, fn)}(g, p)")
    w.line(indent, f"frame.state = {edge.entry!r}")
    if kind is FrameKind.TURN:
        phase = TABLES[FrameKind.TURN].states[edge.entry].parent or edge.entry
        w.line(indent, f"if g._phase_of_turn != {phase!r}:")
        w.line(indent + 1, f"g._phase_of_turn = {phase!r}")
        if phase in PHASE_IDS:  # what Game._enter_phase does, written in place
            w.line(indent + 1, "if g.record:")
            w.line(
                indent + 2,
                _write_event(EventType.PHASE, {"owner": "g.state.owner", "phase": repr(phase)}),
            )
    if TABLES[kind].states[edge.entry].kind is not StateKind.SUSPENDED:
        w.line(indent, "if g.state.winners is None:")
        _run_state(w, indent + 1, kind, TABLES[kind].states[edge.entry])
    w.line(indent, "return False")


def _run_state(w: _Writer, indent: int, kind: FrameKind, row: StateRow) -> None:
    """The lines returning what ``row``'s step returns, with an automatic state's take and a
    decision state's asking written in place (the plain program's shortcut)."""
    if row.kind is StateKind.AUTO:
        ((event, _),) = row.edges.items()
        w.line(indent, f"return {_function(kind, row.id, 'take__' + event)}(g, frame, NO_PARAMS)")
    elif row.kind is StateKind.DECISION:
        w.line(indent, f"g.prompt = prompt = {_function(kind, row.id, 'ask')}(g, frame)")
        w.line(indent, "if g.record:")  # what Game._note_asked does, written in place
        w.line(indent + 1, "g._pending.append((g.state.turn, ASKED, None, prompt))")
        w.line(indent, "return True")
    else:
        w.line(indent, f"return {_function(kind, row.id, 'step')}(g, frame)")


def _branches(w: _Writer, indent: int, kind: FrameKind, row: StateRow, event: str) -> None:
    """The lines trying each branch of ``event`` in priority order (``p`` the parameters)."""
    for rank, edge in enumerate(row.edges[event]):
        w.line(indent, f"if {_conditions(w, edge.guards, 'p')}:")
        _take_edge(w, indent + 1, kind, edge, f"E__{kind.value}__{row.id}__{event}__{rank}")
    w.line(indent, f"raise AssertionError('no branch of {event} passes')")


def _write_take(w: _Writer, kind: FrameKind, row: StateRow, event: str) -> None:
    w.line(0, f"def {_function(kind, row.id, 'take__' + event)}(g, frame, p):")
    _branches(w, 1, kind, row, event)
    w.line(0, "")


def _write_step(w: _Writer, kind: FrameKind, row: StateRow, resume: dict[FrameKind, str]) -> None:
    name = _function(kind, row.id, "step")
    w.line(0, f"def {name}(g, frame):")
    if row.kind is StateKind.AUTO and w.hooked:
        ((event, _),) = row.edges.items()
        w.line(1, f"return {_function(kind, row.id, 'take__' + event)}(g, frame, {{}})")
    elif row.kind in (StateKind.AUTO, StateKind.DECISION) and not w.hooked:
        _run_state(w, 1, kind, row)
    elif row.kind is StateKind.FINAL and kind not in resume:
        w.line(1, f"raise AssertionError('{kind.value} finished, but it resumes no frame')")
    elif row.kind is StateKind.FINAL:
        w.line(1, "stack = g.state.stack")
        w.line(1, "stack.pop()")
        w.line(1, "if g.record:")
        popped = _write_event(
            EventType.FRAME_POPPED,
            {
                "frame_id": "frame.id",
                "kind": repr(kind.value),
                "depth": "len(stack) + 1",
                "outcome": repr(row.id),
            },
        )
        w.line(2, popped)
        w.line(1, "below = stack[-1]")
        w.line(1, f"return RESUME[below.kind][below.state][{resume[kind]!r}](g, below, {{}})")
    elif row.kind is StateKind.DECISION:
        ask = "g._ask_observed" if w.hooked else "g._ask"
        w.line(1, f"{ask}({_function(kind, row.id, 'ask')}(g, frame))")
        w.line(1, "return True")
    else:
        w.line(
            1,
            f"raise AssertionError('{kind.value} frame on top in {row.kind} state {row.id}')",
        )
    w.line(0, "")


def _write_ask(w: _Writer, kind: FrameKind, row: StateRow) -> None:
    """The prompt of a decision state: each event's candidates filtered by its branches."""
    assert row.asked is not None
    w.line(0, f"def {_function(kind, row.id, 'ask')}(g, frame):")
    w.line(1, f"player = {_call(w, f'ASKED__{kind.value}__{row.id}', row.asked, ('g',))}")
    w.line(1, "seats = g.state.seats")
    w.line(1, "hand = seats[player]")
    w.line(1, "options = []")
    static = [g[0] for edges in row.edges.values() for edge in edges for g in edge.static_guards]
    known: set[str] = set()
    for event, edges in row.edges.items():
        enumerate_ = w.bind(f"C__{event}", _enumerators[event])
        cost = "g.rules.magician.cost" if PARAMS_OF[event] == ("items",) else "0"
        found = f"{enumerate_}(seats, hand, {cost})"
        if len(edges) == 1:
            (edge,) = edges
            tests = [_static_conditions(w, edge.static_guards, static, known)]
            tests += [
                _call(w, "N_" + name, NEEDS[fn], ("g",))
                for name, fn, expected in edge.param_guards
                if expected is True and fn in NEEDS
            ]
            w.line(1, f"if {' and '.join(t for t in tests if t != 'True') or 'True'}:")
            sole = sole_option(event)
            if not edge.param_guards and sole is not None:
                w.line(2, f"options.append({w.bind('O__' + event, sole)})")
                continue
            if not edge.param_guards:
                w.line(2, f"options.extend({found})")
                continue
            if _passing(edge) is not None:
                _write_passing(w, event, edge)
                continue
            if all(fn in READS for _, fn, _ in edge.param_guards):
                _write_memo(w, kind, row, event, edge, cost)
                continue
            w.line(2, f"for o in {found}:")
            w.line(3, f"if {_conditions(w, edge.param_guards, 'o._kwargs')}:")
            w.line(4, "options.append(o)")
            continue
        opened = []
        for rank, edge in enumerate(edges):
            w.line(1, f"open{rank} = {_conditions(w, edge.static_guards, 'NO_PARAMS')}")
            opened.append(f"open{rank}")
        w.line(1, f"if {' or '.join(opened)}:")
        w.line(2, f"for o in {found}:")
        legal = " or ".join(
            f"({flag} and {_conditions(w, edge.param_guards, 'o._kwargs')})"
            for flag, edge in zip(opened, edges, strict=True)
        )
        w.line(3, f"if {legal}:")
        w.line(4, "options.append(o)")
    w.line(
        1,
        f"return new_tuple(Prompt, (player, frame.id, {w.bind('K__' + kind.value, kind)}, "
        f"{row.id!r}, {row.prompt_kind!r}, tuple(options)))",
    )
    w.line(0, "")


def _passing(edge: Edge) -> Any:
    """The lister of :data:`~buckshot.reference.effects.PASSING` of ``edge``'s one parameter
    guard, expected True; None when it has none such."""
    if len(edge.param_guards) != 1:
        return None
    ((_, fn, expected),) = edge.param_guards
    return PASSING.get(fn) if expected is True else None


def _write_passing(w: _Writer, event: str, edge: Edge) -> None:
    """An ask's legal options of ``event`` listed by its one parameter guard's lister
    (:data:`~buckshot.reference.effects.PASSING`) instead of tried candidate by candidate."""
    ((name, _, _),) = edge.param_guards
    lister = w.bind("P_" + name, _passing(edge))
    by_values = w.bind("V__" + event, _by_values[event])
    w.line(2, f"for values in {lister}(g):")
    w.line(3, f"options.append({by_values}[values])")


def _write_memo(
    w: _Writer, kind: FrameKind, row: StateRow, event: str, edge: Edge, cost: str
) -> None:
    """An ask's legal options of ``event`` (one edge, with parameter guards), kept in a memo
    by what the enumerator and the guards read (:data:`~buckshot.reference.effects.READS`):
    the candidates are tried again only when that changes."""
    memo = w.bind(f"M__{kind.value}__{row.id}__{event}", {})
    parts = [f"{w.bind('CR__' + event, _enumerator_reads[event])}(seats, hand, {cost})"]
    parts += [f"{w.bind('R_' + name, READS[fn])}(g)" for name, fn, _ in edge.param_guards]
    w.line(2, f"key = ({', '.join(parts)})")
    w.line(2, f"found = {memo}.get(key)")
    w.line(2, "if found is None:")
    candidates = f"{w.bind(f'C__{event}', _enumerators[event])}(seats, hand, {cost})"
    legal = _conditions(w, edge.param_guards, "o._kwargs")
    w.line(3, f"found = remember({memo}, key, tuple([o for o in {candidates} if {legal}]))")
    w.line(2, "options.extend(found)")


def _static_conditions(
    w: _Writer, guards: tuple[tuple[str, Any, bool], ...], static: list[str], known: set[str]
) -> str:
    """An ask's test of an event's static guards; a guard tested first that another event
    tests too, or whose expression is written in place, is evaluated once into a local
    (``s_<name>``), since a test's first guard is always called."""
    if not guards:
        return "True"
    (name, fn, expected), rest = guards[0], guards[1:]
    inlined = inline_call(fn, ("g", "NO_PARAMS")) is not None
    if name not in known and (static.count(name) > 1 or inlined):
        w.line(1, f"s_{name} = {_call(w, 'G_' + name, fn, ('g', 'NO_PARAMS'))}")
        known.add(name)
    first = f"s_{name} is {expected}" if name in known else _conditions(w, guards[:1], "NO_PARAMS")
    return " and ".join([first, _conditions(w, rest, "NO_PARAMS")] if rest else [first])


def generate(hooked: bool = False) -> tuple[str, dict[str, Any]]:
    """The program's source for the current tables, and the objects its names stand for."""
    w = _Writer(hooked)
    resume = {kind: table.resume_event for kind, table in TABLES.items() if table.resume_event}
    tables: list[str] = []
    for kind, table in TABLES.items():
        for row in table.states.values():
            for event in row.edges:
                _write_take(w, kind, row, event)
            if row.kind is StateKind.DECISION:
                _write_ask(w, kind, row)
            _write_step(w, kind, row, resume)
        k = w.bind("K__" + kind.value, kind)
        tables.append(
            f"STEPS[{k}] = {{"
            + ", ".join(f"{s!r}: {_function(kind, s, 'step')}" for s in table.states)
            + "}"
        )
        tables.append(
            f"RESUME[{k}] = {{"
            + ", ".join(
                f"{s!r}: {{"
                + ", ".join(
                    f"{e!r}: {_function(kind, s, 'take__' + e)}" for e in table.states[s].edges
                )
                + "}"
                for s in table.states
            )
            + "}"
        )
        tables.append(
            f"ASKS[{k}] = {{"
            + ", ".join(
                f"{s!r}: {_function(kind, s, 'ask')}"
                for s, row in table.states.items()
                if row.kind is StateKind.DECISION
            )
            + "}"
        )
    w.line(0, "STEPS = {}")
    w.line(0, "RESUME = {}")
    w.line(0, "ASKS = {}")
    w.lines.extend(tables)
    return "\n".join(w.lines) + "\n", w.names


def build(hooked: bool = False) -> Program:
    """Generate and execute the program for the current tables."""
    source, names = generate(hooked)
    namespace = dict(names)
    exec(compile(source, f"<compiled charts, hooked={hooked}>", "exec"), namespace)
    return Program(namespace["STEPS"], namespace["RESUME"], namespace["ASKS"], source)


def _fingerprint() -> list[object]:
    """Every object of the tables a program is generated from (compared by identity)."""
    parts: list[object] = []
    for table in TABLES.values():
        parts.append(table)
        for row in table.states.values():
            parts.extend(row.edges.values())
    return parts


_built: dict[bool, tuple[list[object], Program]] = {}


def program(hooked: bool = False) -> Program:
    """The program for the tables as they are now, rebuilt only when they have changed."""
    current = _fingerprint()
    cached = _built.get(hooked)
    if cached is not None:
        seen, built = cached
        if len(seen) == len(current) and all(map(is_, seen, current)):
            return built
    built = build(hooked)
    _built[hooked] = (current, built)
    return built
