"""One chart as a Graphviz DOT digraph: states, phases as clusters, transitions and a legend."""

from __future__ import annotations

import itertools

from buckshot.diagrams import dot
from buckshot.diagrams.describe import (
    EventGroup,
    action_text,
    branch_text,
    citation,
    event_groups,
    guard_text,
    state_role,
    state_title,
)
from buckshot.diagrams.legend import legend_entries, legend_table
from buckshot.diagrams.style import EDGE_STYLES, STATE_STYLES
from buckshot.spec.charts import Trigger
from buckshot.spec.model import ChartModel, StateKind, StateNode, TransitionEdge

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


def _state_node(model: ChartModel, state: StateNode) -> str:
    style = STATE_STYLES[state.kind]
    rows = [dot.bold(state.name), dot.font(state_role(model, state), 9)]
    cited = citation(state.clauses, state.rulings)
    if cited:
        rows.append(dot.font(cited, 8, dot.MUTED))
    styles = ["rounded", "filled"] + (["dashed"] if style.dashed else [])
    values = {
        "label": dot.html(dot.table(rows)),
        "fillcolor": style.fill,
        "color": style.stroke,
        "style": ",".join(styles),
        "tooltip": f"{state.id} ({style.name}): {state_role(model, state)}; {cited}",
    }
    if state.kind is StateKind.DECISION:
        values["penwidth"] = "1.6"
    if style.double:
        values["peripheries"] = "2"
    return f"{dot.quote(state.id)}{dot.attrs(values)};"


def _initial_node(node_id: str) -> str:
    values = {"shape": "point", "width": "0.14", "label": "", "tooltip": "initial state"}
    return f"{dot.quote(node_id)}{dot.attrs(values)};"


def _choice_node(group: EventGroup) -> str:
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
    return f"{dot.quote(group.choice_id)}{dot.attrs(values)};"


class _Layout:
    """Where each state sits: its parent compound, and the leaf an edge into it should hit."""

    def __init__(self, model: ChartModel) -> None:
        self.model = model
        self.children: dict[str | None, list[StateNode]] = {}
        for state in model.states:
            self.children.setdefault(state.parent, []).append(state)

    def ancestors(self, state_id: str) -> list[str]:
        chain = []
        parent = self.model.state(state_id).parent
        while parent is not None:
            chain.append(parent)
            parent = self.model.state(parent).parent
        return chain

    def entry_leaf(self, state_id: str) -> str:
        state = self.model.state(state_id)
        while state.kind is StateKind.COMPOUND:
            state = next(c for c in self.children[state.id] if c.initial)
        return state.id

    def head(self, inside: list[str], target: str) -> tuple[str, dict[str, str]]:
        """The node an edge into ``target`` ends at, and its ``lhead``, if any.

        ``inside`` lists the compound states that hold the edge's tail; an edge into a
        compound state ends at its initial leaf, clipped at the cluster's border unless the
        tail is inside that cluster.
        """
        if self.model.state(target).kind is not StateKind.COMPOUND:
            return target, {}
        leaf = self.entry_leaf(target)
        if target in inside:
            return leaf, {}
        return leaf, {"lhead": cluster_id(target)}


def _edge_attrs(trigger: Trigger) -> dict[str, str]:
    style = EDGE_STYLES[trigger]
    values = {"color": style.color, "fontcolor": style.color, "penwidth": style.width}
    if style.dashed:
        values["style"] = "dashed"
    return values


def _caption(event: str, guards: str, actions: str, cited: str) -> str:
    first = dot.bold(event) + (f" {dot.escape(guards)}" if guards else "")
    rows = [first]
    if actions:
        rows.append(dot.escape(actions))
    if cited:
        rows.append(dot.font(cited, 8, dot.MUTED))
    return dot.html(dot.lines(rows))


def _plain_edge(layout: _Layout, edge: TransitionEdge) -> str:
    head, extra = layout.head(layout.ancestors(edge.source), edge.target)
    cited = citation(edge.clauses, edge.rulings)
    values = {
        "id": edge_id(edge.id),
        "label": _caption(edge.event, guard_text(edge.guards), action_text(edge.actions), cited),
        "tooltip": f"{edge.id}: {edge.source} -> {edge.target}; {cited}",
        **_edge_attrs(edge.trigger),
        **extra,
    }
    return f"{dot.quote(edge.source)} -> {dot.quote(head)}{dot.attrs(values)};"


def _choice_edges(layout: _Layout, group: EventGroup) -> list[str]:
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
    out = [f"{dot.quote(group.source)} -> {dot.quote(group.choice_id)}{dot.attrs(into)};"]
    for edge in group.edges:
        head, extra = layout.head(layout.ancestors(edge.source), edge.target)
        values = {
            "id": edge_id(edge.id),
            "label": dot.html(dot.escape(branch_text(edge))),
            "tooltip": f"{edge.id}: {edge.source} -> {edge.target}; {cited}",
            **_edge_attrs(edge.trigger),
            **extra,
        }
        out.append(f"{dot.quote(group.choice_id)} -> {dot.quote(head)}{dot.attrs(values)};")
    return out


def _cluster(
    model: ChartModel, layout: _Layout, state: StateNode, choices: list[EventGroup], indent: str
) -> list[str]:
    style = STATE_STYLES[StateKind.COMPOUND]
    rows = [f"<B>{dot.font(state_title(state), 12)}</B>"]
    cited = citation(state.clauses, state.rulings)
    if cited:
        rows.append(dot.font(cited, 8, dot.MUTED))
    label = "".join(f'<TR><TD ALIGN="LEFT">{row}</TD></TR>' for row in rows)
    values = {
        "id": cluster_id(state.id),
        "label": dot.html(
            f'<TABLE BORDER="0" CELLBORDER="0" CELLSPACING="0" CELLPADDING="1">{label}</TABLE>'
        ),
        "style": "rounded,filled",
        "fillcolor": style.fill,
        "color": style.stroke,
        "labeljust": "l",
        "tooltip": f"{state.id} (phase): {cited}",
    }
    out = [f"{indent}subgraph {dot.quote(cluster_id(state.id))} {{"]
    out.extend(f"{indent}    {line}" for line in dot.assignments(values))
    out.append(f"{indent}    {_initial_node(initial_id(state.id))}")
    out.extend(_members(model, layout, state.id, choices, indent + "    "))
    out.append(f"{indent}}}")
    return out


def _members(
    model: ChartModel,
    layout: _Layout,
    parent: str | None,
    choices: list[EventGroup],
    indent: str,
) -> list[str]:
    out: list[str] = []
    for state in layout.children.get(parent, []):
        if state.kind is StateKind.COMPOUND:
            out.extend(_cluster(model, layout, state, choices, indent))
        else:
            out.append(indent + _state_node(model, state))
            out.extend(indent + _choice_node(g) for g in choices if g.source == state.id)
    return out


def _leaves(layout: _Layout, state_id: str) -> list[str]:
    leaves = []
    for child in layout.children.get(state_id, []):
        if child.kind is StateKind.COMPOUND:
            leaves.extend(_leaves(layout, child.id))
        else:
            leaves.append(child.id)
    return leaves


def _phase_order(layout: _Layout) -> list[str]:
    """Invisible edges that stack the top-level compound states in declaration order."""
    phases = [s.id for s in layout.children.get(None, []) if s.kind is StateKind.COMPOUND]
    out = []
    for upper, lower in itertools.pairwise(phases):
        for leaf in _leaves(layout, upper):
            out.append(f"{dot.quote(leaf)} -> {dot.quote(initial_id(lower))} [style=invis];")
    return out


def _graph_label(model: ChartModel, choices: bool) -> str:
    kinds = [state.kind for state in model.states]
    triggers = [edge.trigger for edge in model.transitions]
    doc = dot.lines(dot.escape(line) for line in dot.wrap(model.doc.replace("``", ""), 110))
    subtitle = f"chart {model.class_name}, frame kind {model.kind.value}"
    rows = [
        f"<TR><TD>{dot.font(model.title, 18)}</TD></TR>",
        f"<TR><TD>{dot.font(subtitle, 10, dot.MUTED)}</TD></TR>",
        f"<TR><TD>{doc}</TD></TR>",
        f"<TR><TD>{legend_table(legend_entries(kinds, triggers, choices))}</TD></TR>",
    ]
    return dot.html(
        '<TABLE BORDER="0" CELLBORDER="0" CELLSPACING="2" CELLPADDING="2">'
        + "".join(rows)
        + "</TABLE>"
    )


def chart_dot(model: ChartModel) -> str:
    """The DOT source of ``model``'s diagram; the same text for the same chart on every run."""
    layout = _Layout(model)
    groups = event_groups(model)
    choices = [g for g in groups if g.is_choice]
    graph = {
        "id": f"chart-{model.kind.value}",
        "label": _graph_label(model, bool(choices)),
        "labelloc": "t",
        "fontname": dot.FONT,
        "fontsize": "11",
        "rankdir": "TB",
        "compound": "true",
        "newrank": "true",
        "nodesep": "0.6",
        "ranksep": "0.5",
        "pad": "0.3",
    }
    node = {"fontname": dot.FONT, "fontsize": "11", "shape": "box", "margin": "0.12,0.06"}
    edge = {"fontname": dot.FONT, "fontsize": "9", "arrowsize": "0.8"}
    out = [f"digraph {dot.quote(model.kind.value)} {{"]
    out.append(f"    graph{dot.attrs(graph)};")
    out.append(f"    node{dot.attrs(node)};")
    out.append(f"    edge{dot.attrs(edge)};")
    out.extend(_members(model, layout, None, choices, "    "))
    top = next(s for s in layout.children[None] if s.initial)
    if top.kind is not StateKind.COMPOUND:
        # a compound initial state shows the chart's start with its own initial marker
        out.append(f"    {_initial_node(START)}")
        out.append(f"    {dot.quote(START)} -> {dot.quote(top.id)};")
    for state in model.states:
        if state.kind is StateKind.COMPOUND:
            child = next(c for c in layout.children[state.id] if c.initial)
            inside = [state.id, *layout.ancestors(state.id)]
            inner, inner_extra = layout.head(inside, child.id)
            out.append(
                f"    {dot.quote(initial_id(state.id))} -> {dot.quote(inner)}"
                f"{dot.attrs(inner_extra)};"
            )
    out.extend("    " + line for line in _phase_order(layout))
    for group in groups:
        if group.is_choice:
            out.extend("    " + line for line in _choice_edges(layout, group))
        else:
            out.append("    " + _plain_edge(layout, group.edges[0]))
    out.append("}")
    return "\n".join(out) + "\n"
