"""The charts' transition tables, compiled once at import from ``buckshot.spec.chart_data``.

The engine runs from these tables (through the program :mod:`buckshot.reference.compiled`
generates from them) instead of python-statemachine instances (whose ``send()`` costs
about 170 µs); a test proves the tables equal the charts, transition for transition.
Guard and action names are bound here to the engine's implementations.
"""

from __future__ import annotations

from dataclasses import dataclass

from buckshot.reference.effects import ACTIONS, GUARDS, SELECTORS, Action, Guard, Selector
from buckshot.spec.chart_data import StateKind, chart_models
from buckshot.spec.registry import entry
from buckshot.spec.rulebook import FrameKind


@dataclass(frozen=True)
class Edge:
    """One compiled transition: its guards (function, expected value) and its actions."""

    id: str
    event: str
    entry: str
    guards: tuple[tuple[str, Guard, bool], ...]
    actions: tuple[tuple[str, Action], ...]
    static_guards: tuple[tuple[str, Guard, bool], ...]
    """The guards that read no decision parameter (the registry says which read which)."""
    param_guards: tuple[tuple[str, Guard, bool], ...]
    """The guards that read the decision's parameters."""


@dataclass(frozen=True)
class StateRow:
    """One compiled state: its kind, its outgoing edges by event, its prompt and its push."""

    id: str
    parent: str | None
    kind: StateKind
    edges: dict[str, tuple[Edge, ...]]
    """Outgoing edges by event, in priority order."""
    prompt_kind: str | None
    asked: Selector | None
    pushes: FrameKind | None


@dataclass(frozen=True)
class ChartTable:
    """One compiled chart."""

    kind: FrameKind
    initial: str
    resume_event: str | None
    states: dict[str, StateRow]


def compile_tables() -> dict[FrameKind, ChartTable]:
    """Every chart's table compiled from the charts and the registry's current functions
    (:data:`~buckshot.reference.effects.GUARDS`, ``ACTIONS``, ``SELECTORS``).

    :func:`buckshot.reference.seams.recompile` compiles them again after a substitution.
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
                guards = tuple((g.name, GUARDS[g.name], g.expected) for g in edge.guards)
                edges.setdefault(edge.event, []).append(
                    Edge(
                        id=edge.id,
                        event=edge.event,
                        entry=edge.entry,
                        guards=guards,
                        actions=tuple((name, ACTIONS[name]) for name in edge.actions),
                        static_guards=tuple(g for g in guards if not entry(g[0]).params),
                        param_guards=tuple(g for g in guards if entry(g[0]).params),
                    )
                )
            prompt = model.prompts.get(node.id)
            rows[node.id] = StateRow(
                id=node.id,
                parent=node.parent,
                kind=node.kind,
                edges={event: tuple(group) for event, group in edges.items()},
                prompt_kind=prompt.kind if prompt else None,
                asked=SELECTORS[prompt.asked] if prompt else None,
                pushes=pushes.get(node.id),
            )
        tables[model.kind] = ChartTable(model.kind, model.initial, model.resume_event, rows)
    return tables


TABLES: dict[FrameKind, ChartTable] = compile_tables()
"""Every chart's compiled table, by frame kind."""
