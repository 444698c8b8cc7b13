"""One chart as a Graphviz DOT digraph: states, phases as clusters, transitions and a legend of
the kinds of state and transition it uses."""

from __future__ import annotations

import itertools
from collections.abc import Iterable

import graphviz

from buckshot.diagrams import labels
from buckshot.diagrams.describe import (
    EventGroup,
    action_text,
    branch_text,
    children,
    citation,
    event_groups,
    guard_text,
    state_role,
    state_title,
)
from buckshot.diagrams.style import CHOICE_LEGEND, EDGE_STYLES, STATE_STYLES
from buckshot.spec.chart_data import ChartModel, StateKind, StateNode, TransitionEdge
from buckshot.spec.charts import Trigger

START = "__start"
"""Node ID of the chart's top-level initial pseudo-state."""


def cluster_id(state_id: str) -> str:
    """The DOT subgraph name of a compound state's cluster."""
    return f"cluster_{state_id}"


def initial_id(state_id: str) -> str:
    """Node ID of the initial pseudo-state inside a compound state."""
    return f"{START}_{state_id}"


def edge_id(transition_id: str) -> str:
    """The DOT (and SVG) ``id`` of a transition's edge: its model ID with ``:`` as ``-``."""
    return transition_id.replace(":", "-")


def _state_node(graph: graphviz.Digraph, model: ChartModel, state: StateNode) -> None:
    style = STATE_STYLES[state.kind]
    rows = [labels.bold(state.name), labels.font(state_role(model, state), 9)]
    cited = citation(state.clauses, state.rulings)
    if cited:
        rows.append(labels.font(cited, 8, labels.MUTED))
    styles = ["rounded", "filled"] + (["dashed"] if style.dashed else [])
    values = {
        "id": f"state-{model.kind.value}-{state.id}",
        "label": labels.html(labels.table(rows)),
        "fillcolor": style.fill,
        "color": style.stroke,
        "style": ",".join(styles),
        "tooltip": f"{state.id} ({style.name}): {state_role(model, state)}; {cited}",
    }
    if state.kind is StateKind.DECISION:
        values["penwidth"] = "1.6"
    if style.double:
        values["peripheries"] = "2"
    graph.node(state.id, **values)


def _initial_node(graph: graphviz.Digraph, node_id: str) -> None:
    graph.node(node_id, shape="point", width="0.14", label="", tooltip="initial state")


def _choice_node(graph: graphviz.Digraph, group: EventGroup) -> None:
    values = {
        "shape": "diamond",
        "width": "0.3",
        "height": "0.3",
        "fixedsize": "true",
        "label": "",
        "style": "filled",
        "fillcolor": "#ffffff",
        "tooltip": f"choice: {group.event} from {group.source}, {len(group.edges)} branches",
    }
    graph.node(group.choice_id, **values)


def _ancestors(model: ChartModel, state_id: str) -> list[str]:
    """The compound states holding ``state_id``, innermost first."""
    chain = []
    parent = model.state(state_id).parent
    while parent is not None:
        chain.append(parent)
        parent = model.state(parent).parent
    return chain


def _head(model: ChartModel, tail: str, target: str) -> tuple[str, dict[str, str]]:
    """The node an edge from the state ``tail`` into ``target`` ends at, and its ``lhead``, if
    any: a compound target is entered at its initial leaf."""
    if model.state(target).kind is not StateKind.COMPOUND:
        return target, {}
    lhead = {} if target in _ancestors(model, tail) else {"lhead": cluster_id(target)}
    return model.leaves[target], lhead


def _edge_attrs(trigger: Trigger) -> dict[str, str]:
    style = EDGE_STYLES[trigger]
    values = {"color": style.color, "fontcolor": style.color, "penwidth": style.width}
    if style.dashed:
        values["style"] = "dashed"
    return values


def _caption(event: str, guards: str, actions: str, cited: str) -> str:
    first = labels.bold(event) + (f" {labels.escape(guards)}" if guards else "")
    rows = [first]
    if actions:
        rows.append(labels.escape(actions))
    if cited:
        rows.append(labels.font(cited, 8, labels.MUTED))
    return labels.html(labels.lines(rows))


def _edge(
    graph: graphviz.Digraph, model: ChartModel, tail: str, edge: TransitionEdge, label: str
) -> None:
    """The edge of transition ``edge`` from ``tail`` (its source, or its choice point)."""
    head, extra = _head(model, edge.source, edge.target)
    cited = citation(edge.clauses, edge.rulings)
    values = {
        "id": edge_id(edge.id),
        "label": label,
        "tooltip": f"{edge.id}: {edge.source} -> {edge.target}; {cited}",
        **_edge_attrs(edge.trigger),
        **extra,
    }
    graph.edge(tail, head, **values)


def _choice_edges(graph: graphviz.Digraph, model: ChartModel, group: EventGroup) -> None:
    first = group.edges[0]
    cited = citation(first.clauses, first.rulings)
    into = {
        "id": edge_id(f"{first.id.rsplit(':', 1)[0]}:choice"),
        "label": _caption(group.event, "", "", cited),
        "tooltip": f"{group.event} from {group.source}: {len(group.edges)} branches; {cited}",
        "arrowhead": "none",
        "weight": "8",
        **_edge_attrs(first.trigger),
    }
    graph.edge(group.source, group.choice_id, **into)
    for edge in group.edges:
        _edge(graph, model, group.choice_id, edge, labels.html(labels.escape(branch_text(edge))))


def _cluster(
    graph: graphviz.Digraph,
    model: ChartModel,
    state: StateNode,
    choices: list[EventGroup],
) -> None:
    style = STATE_STYLES[StateKind.COMPOUND]
    rows = [f"<B>{labels.font(state_title(state), 12)}</B>"]
    cited = citation(state.clauses, state.rulings)
    if cited:
        rows.append(labels.font(cited, 8, labels.MUTED))
    label = "".join(f'<TR><TD ALIGN="LEFT">{row}</TD></TR>' for row in rows)
    with graph.subgraph(name=cluster_id(state.id)) as cluster:
        cluster.attr(
            id=cluster_id(state.id),
            label=labels.html(
                f'<TABLE BORDER="0" CELLBORDER="0" CELLSPACING="0" CELLPADDING="1">{label}</TABLE>'
            ),
            style="rounded,filled",
            fillcolor=style.fill,
            color=style.stroke,
            labeljust="l",
            tooltip=f"{state.id} (phase): {cited}",
        )
        _initial_node(cluster, initial_id(state.id))
        _members(cluster, model, state.id, choices)


def _members(
    graph: graphviz.Digraph,
    model: ChartModel,
    parent: str | None,
    choices: list[EventGroup],
) -> None:
    for state in children(model, parent):
        if state.kind is StateKind.COMPOUND:
            _cluster(graph, model, state, choices)
        else:
            _state_node(graph, model, state)
            for group in choices:
                if group.source == state.id:
                    _choice_node(graph, group)


def _phase_order(graph: graphviz.Digraph, model: ChartModel) -> None:
    """Invisible edges that stack the top-level compound states in declaration order."""
    phases = [s.id for s in children(model, None) if s.kind is StateKind.COMPOUND]
    leaves = [s.id for s in model.states if s.kind is not StateKind.COMPOUND]
    for upper, lower in itertools.pairwise(phases):
        for leaf in (leaf for leaf in leaves if upper in _ancestors(model, leaf)):
            graph.edge(leaf, initial_id(lower), style="invis")


_COLUMNS = 3


def _state_swatch(kind: StateKind) -> str:
    style = STATE_STYLES[kind]
    border = "2" if style.double else "1"
    return (
        f'<TD BGCOLOR="{style.fill}" COLOR="{style.stroke}" BORDER="{border}" STYLE="rounded">'
        f"{labels.font(style.name, 9)}</TD>"
    )


def _edge_swatch(trigger: Trigger) -> str:
    style = EDGE_STYLES[trigger]
    stroke = "- - - -&gt;" if style.dashed else "——&gt;"
    weight = f"<B>{stroke}</B>" if trigger is Trigger.DECISION else stroke
    return f'<TD><FONT COLOR="{style.color}">{weight}</FONT></TD>'


def _text(text: str) -> str:
    return f'<TD ALIGN="LEFT">{labels.font(text, 9)}</TD>'


def legend(kinds: Iterable[StateKind], triggers: Iterable[Trigger], choice: bool) -> str:
    """A table of ``<TD>swatch</TD><TD>text</TD>`` pairs, three a row, one per kind of element
    a diagram shows."""
    shown_kinds = set(kinds)
    shown_triggers = set(triggers)
    entries = [
        _state_swatch(kind) + _text(STATE_STYLES[kind].legend)
        for kind in STATE_STYLES
        if kind in shown_kinds
    ]
    entries.append(f"<TD>{labels.font('●', 12)}</TD>" + _text("initial state"))
    if choice:
        entries.append(f"<TD>{labels.font('◇', 12)}</TD>" + _text("choice: " + CHOICE_LEGEND))
    entries.extend(
        _edge_swatch(trigger) + _text(f"{EDGE_STYLES[trigger].name}: {EDGE_STYLES[trigger].legend}")
        for trigger in EDGE_STYLES
        if trigger in shown_triggers
    )
    rows = "".join(
        "<TR>" + "".join(entries[start : start + _COLUMNS]) + "</TR>"
        for start in range(0, len(entries), _COLUMNS)
    )
    return f'<TABLE BORDER="0" CELLBORDER="0" CELLSPACING="3" CELLPADDING="2">{rows}</TABLE>'


def _heading(model: ChartModel, choices: bool) -> list[str]:
    kinds = [state.kind for state in model.states]
    triggers = [edge.trigger for edge in model.transitions]
    doc = labels.lines(
        labels.escape(line) for line in labels.wrap(model.doc.replace("``", ""), 110)
    )
    subtitle = f"chart {model.class_name}, frame kind {model.kind.value}"
    return [
        labels.font(model.title, 18),
        labels.font(subtitle, 10, labels.MUTED),
        doc,
        legend(kinds, triggers, choices),
    ]


def chart_dot(model: ChartModel) -> str:
    """The DOT source of ``model``'s diagram; the same text for the same chart on every run."""
    groups = event_groups(model)
    choices = [g for g in groups if g.is_choice]
    out = labels.digraph(
        model.kind.value,
        f"chart-{model.kind.value}",
        _heading(model, bool(choices)),
        {"shape": "box", "margin": "0.12,0.06"},
        rankdir="TB",
        compound="true",
        newrank="true",
        nodesep="0.6",
        ranksep="0.5",
    )
    _members(out, model, None, choices)
    top = next(s for s in children(model, None) if s.initial)
    if top.kind is not StateKind.COMPOUND:
        # a compound initial state shows the chart's start with its own initial marker
        _initial_node(out, START)
        out.edge(START, top.id)
    for state in model.states:
        if state.kind is StateKind.COMPOUND:
            child = next(c for c in children(model, state.id) if c.initial)
            inner, inner_extra = _head(model, child.id, child.id)
            out.edge(initial_id(state.id), inner, **inner_extra)
    _phase_order(out, model)
    for group in groups:
        if group.is_choice:
            _choice_edges(out, model, group)
        else:
            one = group.edges[0]
            cited = citation(one.clauses, one.rulings)
            guards, actions = guard_text(one.guards), action_text(one.actions)
            _edge(out, model, one.source, one, _caption(one.event, guards, actions, cited))
    source: str = out.source  # the package types its properties loosely
    return source
