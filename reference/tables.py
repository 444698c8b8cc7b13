"""The charts' transition tables, built once at import from ``buckshot.spec.chart_data``.

The engine's step loop (:meth:`buckshot.reference.game.Game._advance`) reads these tables
instead of running python-statemachine instances (whose ``send()`` costs about 170 µs); a
test proves the tables equal the charts, transition for transition. Guard and action names
are bound here to the engine's implementations (:mod:`buckshot.reference.effects`), and
each state carries what the loop needs of it, worked out once: an automatic state's edges,
a decision state's candidate lister per event, a turn state's phase.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace

from buckshot.reference.effects import (
    ACTIONS,
    GUARDS,
    SELECTORS,
    Action,
    Board,
    Guard,
    Params,
    Selector,
)
from buckshot.reference.options import Enumerate, enumerator
from buckshot.spec.chart_data import StateKind, TransitionEdge, chart_models
from buckshot.spec.registry import entry
from buckshot.spec.rulebook import FrameKind, Phase

PHASE_IDS = frozenset(phase.value for phase in Phase)
"""The turn chart's compound states that are S4's phases, announced when entered."""

_TURN_PHASES = {
    node.id: node.parent or node.id
    for model in chart_models()
    if model.kind is FrameKind.TURN
    for node in model.states
}
"""The phase each state of the turn chart lies in: its parent, or itself at the top."""


Test = Callable[[Board, Params], bool]
"""Whether a transition's guards (some of them) pass for a game and a decision's parameters."""


def test(guards: tuple[tuple[str, Guard, bool], ...]) -> Test | None:
    """One function testing ``guards`` in order, each against its expected value: None when
    there are none (nothing to test), the guard itself when it is one guard expected True."""
    if not guards:
        return None
    if len(guards) == 1 and guards[0][2] is True:
        return guards[0][1]

    def passes(game: Board, params: Params) -> bool:
        for _, guard, expected in guards:  # noqa: SIM110 - each guard's result is compared
            if guard(game, params) is not expected:
                return False
        return True

    return passes


@dataclass(frozen=True)
class Edge:
    """One transition of the ``chart`` chart: its guards (name, function, expected value) and
    its actions; what the step loop needs besides is worked out from them."""

    id: str
    event: str
    chart: FrameKind
    entry: str
    guards: tuple[tuple[str, Guard, bool], ...]
    actions: tuple[tuple[str, Action], ...]
    static_guards: tuple[tuple[str, Guard, bool], ...] = field(init=False)
    """The guards that read no decision parameter (the registry says which read which)."""
    param_guards: tuple[tuple[str, Guard, bool], ...] = field(init=False)
    """The guards that read the decision's parameters."""
    phase: str | None = field(init=False)
    """The turn's phase its entry lies in, for an edge of the turn chart; None otherwise."""
    passes: Test | None = field(init=False)
    """:func:`test` of its guards: whether the edge may be taken (None: always)."""
    static_passes: Test | None = field(init=False)
    """:func:`test` of its static guards: whether the edge is open to some option."""
    param_passes: Test | None = field(init=False)
    """:func:`test` of its parameter guards: whether an option of an open edge passes."""

    def __post_init__(self) -> None:
        static = tuple(g for g in self.guards if not entry(g[0]).params)
        params = tuple(g for g in self.guards if g not in static)
        object.__setattr__(self, "static_guards", static)
        object.__setattr__(self, "param_guards", params)
        object.__setattr__(self, "passes", test(self.guards))
        object.__setattr__(self, "static_passes", test(static))
        object.__setattr__(self, "param_passes", test(params))
        turn = self.chart is FrameKind.TURN
        object.__setattr__(self, "phase", _TURN_PHASES[self.entry] if turn else None)


@dataclass(frozen=True)
class StateRow:
    """One state: its kind, its outgoing edges by event, its prompt and its push."""

    id: str
    parent: str | None
    kind: StateKind
    edges: dict[str, tuple[Edge, ...]]
    """Outgoing edges by event, in priority order."""
    prompt_kind: str | None
    asked: Selector | None
    pushes: FrameKind | None
    phase: str
    """The turn's phase while a turn frame is in this state: its parent, or itself."""
    final: bool = field(init=False)
    automatic: tuple[Edge, ...] = field(init=False)
    """An automatic state's edges (of its one event) in priority order; () otherwise."""
    choices: tuple[tuple[str, Enumerate, tuple[Edge, ...]], ...] = field(init=False)
    """A decision state's events, each with its candidate lister and its edges; () otherwise."""

    def __post_init__(self) -> None:
        automatic: tuple[Edge, ...] = ()
        if self.kind is StateKind.AUTO:
            ((_, automatic),) = self.edges.items()
        choices = tuple(
            (event, enumerator(event), edges)
            for event, edges in self.edges.items()
            if self.kind is StateKind.DECISION
        )
        object.__setattr__(self, "final", self.kind is StateKind.FINAL)
        object.__setattr__(self, "automatic", automatic)
        object.__setattr__(self, "choices", choices)

    def with_edges(self, event: str, edges: tuple[Edge, ...]) -> StateRow:
        """This row with ``edges`` for ``event`` (its derived fields worked out again)."""
        return replace(self, edges={**self.edges, event: edges})


@dataclass(frozen=True)
class ChartTable:
    """One chart."""

    kind: FrameKind
    initial: str
    resume_event: str | None
    states: dict[str, StateRow]


def _edge(kind: FrameKind, edge: TransitionEdge) -> Edge:
    """The chart's ``edge`` with its guards and actions bound to the engine's functions."""
    guards = tuple((g.name, GUARDS[g.name], g.expected) for g in edge.guards)
    actions = tuple((name, ACTIONS[name]) for name in edge.actions)
    return Edge(edge.id, edge.event, kind, edge.entry, guards, actions)


def build_tables() -> dict[FrameKind, ChartTable]:
    """Every chart's table, built from the charts and the registry's current functions
    (:data:`~buckshot.reference.effects.GUARDS`, ``ACTIONS``, ``SELECTORS``).

    The deliberate bugs' substitutions (``tests/faults/seams.py``) build them again.
    """
    tables: dict[FrameKind, ChartTable] = {}
    for model in chart_models():
        pushes = {push.state: push.frame for push in model.pushes}
        rows: dict[str, StateRow] = {}
        for node in model.states:
            if node.kind is StateKind.COMPOUND:
                continue
            edges: dict[str, list[Edge]] = {}
            for edge in sorted(model.outgoing(node.id), key=lambda e: e.priority):
                edges.setdefault(edge.event, []).append(_edge(model.kind, edge))
            prompt = model.prompts.get(node.id)
            rows[node.id] = StateRow(
                id=node.id,
                parent=node.parent,
                kind=node.kind,
                edges={event: tuple(group) for event, group in edges.items()},
                prompt_kind=prompt.kind if prompt else None,
                asked=SELECTORS[prompt.asked] if prompt else None,
                pushes=pushes.get(node.id),
                phase=node.parent or node.id,
            )
        tables[model.kind] = ChartTable(model.kind, model.initial, model.resume_event, rows)
    return tables


TABLES: dict[FrameKind, ChartTable] = build_tables()
"""Every chart's table, by frame kind."""
