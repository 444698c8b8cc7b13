"""The stack overview as a Graphviz DOT digraph: frames, their pushes and their resume points."""

from __future__ import annotations

import graphviz

from buckshot.diagrams import labels
from buckshot.diagrams.describe import action_text, citation, guard_text
from buckshot.diagrams.stack_model import StackLink, StackModel, final_states
from buckshot.diagrams.style import EDGE_STYLES, PUSH_COLOR, STATE_STYLES
from buckshot.spec.chart_data import ChartModel, StateKind
from buckshot.spec.charts import Trigger

_HEADER = "#e3e3e3"


def _asks(model: ChartModel) -> str:
    seen = dict.fromkeys(f"{prompt.asked} ({prompt.kind})" for prompt in model.prompts.values())
    return ", ".join(seen) if seen else "nobody"


def _row(port: str | None, markup: str, fill: str | None = None) -> str:
    attrs = ' ALIGN="LEFT" BALIGN="LEFT"'
    if port is not None:
        attrs += f' PORT="{port}"'
    if fill is not None:
        attrs += f' BGCOLOR="{fill}"'
    return f"<TR><TD{attrs}>{markup}</TD></TR>"


def _frame_node(
    graph: graphviz.Digraph, stack: StackModel, model: ChartModel, depth: int | None
) -> None:
    where = "bottom of the stack, depth 0" if depth == 0 else f"pushed, least depth {depth}"
    about = labels.font(f"{where} · asks {_asks(model)}", 9)
    rows = []
    for link in stack.links_from(model.kind):
        text = [
            labels.bold(link.state),
            labels.font(f"pushes {link.pushed.value}; on {link.resume_event} → {link.targets}", 9),
        ]
        rows.append(_row(link.state, labels.lines(text), STATE_STYLES[StateKind.SUSPENDED].fill))
    label = _frame_table(model, model.title, about, rows, "rounded")
    tooltip = f"{model.kind.value}: {model.title}"
    graph.node(model.kind.value, label=label, tooltip=tooltip, id=f"frame-{model.kind.value}")


def _nested_node(graph: graphviz.Digraph, stack: StackModel, link: StackLink, depth: int) -> None:
    model = stack.chart(link.pushed)
    deepest = stack.max_depth - 1
    levels = f"depth {depth}" if depth >= deepest else f"depth {depth} to {deepest}"
    text = (
        f"the same chart again, {levels}; it pushes once more only while the "
        f"stack holds fewer than {stack.depth_key} = {stack.max_depth} frames"
    )
    about = labels.lines(labels.font(line, 9) for line in labels.wrap(text, 48))
    label = _frame_table(model, "nested in itself", about, [], "rounded,dashed")
    tooltip = f"{model.kind.value} pushed on a {model.kind.value} frame"
    graph.node(link.node, label=label, tooltip=tooltip, id=f"frame-{link.node}")


def _frame_table(
    model: ChartModel, heading: str, about: str, suspensions: list[str], style: str
) -> str:
    """A frame's box: its kind and ``heading``, ``about``, its start, ``suspensions``, its end."""
    ends = ", ".join(final_states(model))
    sends = f"popped, sends {model.resume_event}" if model.resume_event else "the game ends"
    rows = [
        _row(None, labels.bold(model.kind.value) + labels.escape(f"  {heading}"), _HEADER),
        _row(None, about),
        _row("in", labels.escape(f"▶ starts in {model.initial}")),
        *suspensions,
        _row(
            "out", labels.escape(f"■ ends in {ends}: {sends}"), STATE_STYLES[StateKind.FINAL].fill
        ),
    ]
    return labels.html(
        f'<TABLE BORDER="1" CELLBORDER="0" CELLSPACING="0" CELLPADDING="5" STYLE="{style}" '
        f'COLOR="#777777" BGCOLOR="#ffffff">{"".join(rows)}</TABLE>'
    )


def _port(node: str, port: str, compass: str) -> str:
    """An edge end at ``port`` of the record-like node ``node``, on its ``compass`` side."""
    return f"{node}:{port}:{compass}"


def _push_edge(graph: graphviz.Digraph, link: StackLink) -> None:
    rows = [labels.bold("push")]
    for edge in link.pushers:
        rows.append(labels.escape(f"{edge.event} {guard_text(edge.guards)}".strip()))
        if edge.actions:
            rows.append(labels.escape(action_text(edge.actions)))
        rows.append(labels.font(f"from {edge.source}", 8))
    values = {
        "id": f"push-{link.frame.value}-{link.state}",
        "label": labels.html(labels.lines(rows)),
        "color": PUSH_COLOR,
        "fontcolor": PUSH_COLOR,
        "penwidth": "1.8",
        "tooltip": f"{link.frame.value}.{link.state} pushes {link.pushed.value}",
    }
    graph.edge(_port(link.frame.value, link.state, "e"), _port(link.node, "in", "w"), **values)


def _pop_edge(graph: graphviz.Digraph, link: StackLink) -> None:
    style = EDGE_STYLES[Trigger.RESUME]
    actions = action_text(tuple(a for e in link.resumes for a in e.actions))
    rows = [
        labels.bold(f"pop: {link.resume_event}"),
        labels.escape(f"→ {link.targets} {actions}".strip()),
    ]
    values = {
        "id": f"pop-{link.pushed.value}-{link.frame.value}-{link.state}",
        "label": labels.html(labels.lines(rows)),
        "color": style.color,
        "fontcolor": style.color,
        "penwidth": style.width,
        "style": "dashed",
        "tooltip": f"{link.pushed.value} popped: {link.resume_event} resumes {link.state}",
    }
    graph.edge(_port(link.node, "out", "w"), _port(link.frame.value, link.state, "e"), **values)


def _heading(stack: StackModel) -> list[str]:
    chain = " → ".join(kind.value for kind in stack.deepest_chain())
    text = (
        "The turn is the bottom frame. Entering a suspension state (awaiting_*) pushes a frame; "
        "the frame on top is the only one that runs. A frame that reaches a final state is "
        "popped and sends its resume event to the state that pushed it, which goes on from "
        "there."
    )
    return [
        labels.font("The stack: pushes and resume points", 18),
        labels.lines(labels.escape(line) for line in labels.wrap(text, 110)),
        labels.bold(
            f"At most {stack.depth_key} = {stack.max_depth} frames, the turn included; "
            f"deepest chain: {chain}"
        ),
        labels.font(citation(stack.clauses, stack.rulings), 9, labels.MUTED),
    ]


def stack_dot(stack: StackModel) -> str:
    """The DOT source of the stack overview; the same text for the same spec on every run."""
    depth = stack.least_depth()
    out = labels.digraph(
        "stack",
        "stack",
        _heading(stack),
        {"shape": "plain"},
        rankdir="LR",
        nodesep="0.35",
        ranksep="1.1",
    )
    for model in stack.charts:
        _frame_node(out, stack, model, depth.get(model.kind))
    levels: dict[int, list[str]] = {}
    for model in stack.charts:
        if model.kind in depth:
            levels.setdefault(depth[model.kind], []).append(model.kind.value)
    for link in stack.links:
        if link.nested and link.frame in depth:
            nested_depth = depth[link.frame] + 1
            _nested_node(out, stack, link, nested_depth)
            levels.setdefault(nested_depth, []).append(link.node)
    for _, members in sorted(levels.items()):
        with out.subgraph() as level:
            level.attr(rank="same")
            for member in members:
                level.node(member)
    for link in stack.links:
        _push_edge(out, link)
        _pop_edge(out, link)
    source: str = out.source  # the package types its properties loosely
    return source
