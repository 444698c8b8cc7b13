"""The stack overview: which transitions push which frame and where each frame resumes, as
data (:func:`stack_model`), as a Graphviz DOT digraph (:func:`stack_dot`) and as a Mermaid
flowchart (:func:`stack_mermaid`)."""

from __future__ import annotations

from dataclasses import dataclass

import graphviz

from buckshot.diagrams import labels
from buckshot.diagrams.describe import action_text, citation, guard_text, transition_text
from buckshot.diagrams.style import EDGE_STYLES, PUSH_COLOR, STATE_STYLES
from buckshot.spec.chart_data import ChartModel, StateKind, TransitionEdge, chart_models
from buckshot.spec.charts import Trigger
from buckshot.spec.rulebook import STACK, FrameKind


@dataclass(frozen=True)
class StackLink:
    """One suspension point: ``frame`` waits in ``state`` while a ``pushed`` frame runs."""

    frame: FrameKind
    state: str
    pushed: FrameKind
    pushers: tuple[TransitionEdge, ...]
    """The transitions that enter ``state``, and so push the frame."""
    resume_event: str
    resumes: tuple[TransitionEdge, ...]
    """The transitions ``resume_event`` takes from ``state`` once the frame is popped."""

    @property
    def nested(self) -> bool:
        """The pushed frame is of the pushing frame's own kind, drawn as a copy of it."""
        return self.pushed is self.frame

    @property
    def node(self) -> str:
        """The ID of the node (DOT) or subgraph (Mermaid) the pushed frame is drawn as."""
        return f"{self.frame.value}__nested" if self.nested else self.pushed.value

    @property
    def targets(self) -> str:
        """The states the resume event leads to, each once, comma-separated."""
        return ", ".join(dict.fromkeys(e.target for e in self.resumes))


@dataclass(frozen=True)
class StackModel:
    """Every frame kind, every suspension point, and the bound on the stack's depth."""

    charts: tuple[ChartModel, ...]
    links: tuple[StackLink, ...]
    max_depth: int
    """The most frames the stack holds, the bottom one included (``STACK.depth_bound``)."""

    def chart(self, kind: FrameKind) -> ChartModel:
        """The chart of frame kind ``kind``."""
        return next(model for model in self.charts if model.kind is kind)

    def links_from(self, kind: FrameKind) -> tuple[StackLink, ...]:
        """The suspension points of the chart of ``kind``, in declaration order."""
        return tuple(link for link in self.links if link.frame is kind)

    def least_depth(self) -> dict[FrameKind, int]:
        """The least stack depth (the bottom is 0) at which each reachable frame kind runs."""
        depth = {STACK.bottom: 0}
        frontier = [STACK.bottom]
        while frontier:
            kind = frontier.pop(0)
            for link in self.links_from(kind):
                if link.pushed not in depth:
                    depth[link.pushed] = depth[kind] + 1
                    frontier.append(link.pushed)
        return depth

    def deepest_chain(self) -> tuple[FrameKind, ...]:
        """A longest chain of frames from the bottom that the bound allows, the first in order."""
        best: tuple[FrameKind, ...] = (STACK.bottom,)
        stack: list[tuple[FrameKind, ...]] = [(STACK.bottom,)]
        while stack:
            chain = stack.pop(0)
            if len(chain) > len(best):
                best = chain
            if len(chain) < self.max_depth:
                stack.extend((*chain, link.pushed) for link in self.links_from(chain[-1]))
        return best


def _ending(model: ChartModel) -> str:
    """How a frame of ``model`` ends: its final states, and what its pop does."""
    ends = ", ".join(state.id for state in model.states if state.kind is StateKind.FINAL)
    sends = f"popped, sends {model.resume_event}" if model.resume_event else "the game ends"
    return f"ends in {ends}: {sends}"


def stack_model(max_depth: int) -> StackModel:
    """The stack of the spec's charts, bounded by ``max_depth`` frames."""
    charts = chart_models()
    links = []
    for model in charts:
        for push in model.pushes:
            links.append(
                StackLink(
                    frame=model.kind,
                    state=push.state,
                    pushed=push.frame,
                    pushers=tuple(e for e in model.transitions if e.id in push.pushed_by),
                    resume_event=push.resume_event,
                    resumes=tuple(
                        e
                        for e in model.transitions
                        if e.source == push.state and e.event == push.resume_event
                    ),
                )
            )
    return StackModel(charts, tuple(links), max_depth)


# --- DOT --------------------------------------------------------------------------------

_HEADER = "#e3e3e3"


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
    asks = dict.fromkeys(f"{prompt.asked} ({prompt.kind})" for prompt in model.prompts.values())
    about = labels.font(f"{where} · asks {', '.join(asks) or 'nobody'}", 9)
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
        f"stack holds fewer than {STACK.depth_bound} = {stack.max_depth} frames"
    )
    about = labels.lines(labels.font(line, 9) for line in labels.wrap(text, 48))
    label = _frame_table(model, "nested in itself", about, [], "rounded,dashed")
    tooltip = f"{model.kind.value} pushed on a {model.kind.value} frame"
    graph.node(link.node, label=label, tooltip=tooltip, id=f"frame-{link.node}")


def _frame_table(
    model: ChartModel, heading: str, about: str, suspensions: list[str], style: str
) -> str:
    """A frame's box: its kind and ``heading``, ``about``, its start, ``suspensions``, its end."""
    rows = [
        _row(None, labels.bold(model.kind.value) + labels.escape(f"  {heading}"), _HEADER),
        _row(None, about),
        _row("in", labels.escape(f"▶ starts in {model.initial}")),
        *suspensions,
        _row("out", labels.escape(f"■ {_ending(model)}"), STATE_STYLES[StateKind.FINAL].fill),
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
            f"At most {STACK.depth_bound} = {stack.max_depth} frames, the turn included; "
            f"deepest chain: {chain}"
        ),
        labels.font(citation(STACK.clauses, STACK.rulings), 9, labels.MUTED),
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


# --- Mermaid --------------------------------------------------------------------------------

_INDENT = "    "


def _quoted(text: str) -> str:
    """Text safe in a quoted Mermaid label."""
    return text.replace('"', "'").replace("#", "No.").replace("<", "(").replace(">", ")")


def _subgraph(stack: StackModel, model: ChartModel, name: str, title: str, depth: str) -> list[str]:
    pad = _INDENT * 2
    out = [f'{_INDENT}subgraph {name}["{_quoted(title)} · {depth}"]']
    out.append(f"{pad}direction TB")
    out.append(f'{pad}{name}__in(["starts in {model.initial}"])')
    if not name.endswith("__nested"):
        for link in stack.links_from(model.kind):
            out.append(
                f'{pad}{name}__{link.state}["{link.state}<br/>pushes {link.pushed.value}; '
                f'on {link.resume_event} to {link.targets}"]:::suspended'
            )
    out.append(f'{pad}{name}__out(["{_ending(model)}"]):::final')
    out.append(f"{_INDENT}end")
    return out


def stack_mermaid(stack: StackModel) -> str:
    """The Mermaid source of the stack overview; the same text for the same spec every run."""
    depth = stack.least_depth()
    chain = " to ".join(kind.value for kind in stack.deepest_chain())
    suspended = STATE_STYLES[StateKind.SUSPENDED]
    final = STATE_STYLES[StateKind.FINAL]
    out = [
        "---",
        f"title: The stack, at most {STACK.depth_bound} = {stack.max_depth} frames "
        f"(deepest chain {chain})",
        "---",
        "flowchart LR",
        f"{_INDENT}%% Generated from the charts of buckshot.spec; do not edit by hand.",
        f"{_INDENT}classDef suspended fill:{suspended.fill},stroke:{suspended.stroke}",
        f"{_INDENT}classDef final fill:{final.fill},stroke:{final.stroke}",
    ]
    for model in stack.charts:
        level = depth.get(model.kind)
        where = "bottom, depth 0" if level == 0 else f"least depth {level}"
        out.extend(
            _subgraph(stack, model, model.kind.value, f"{model.kind.value}: {model.title}", where)
        )
    for link in stack.links:
        if link.nested and link.frame in depth:
            model = stack.chart(link.pushed)
            where = f"depth {depth[link.frame] + 1} up to {stack.max_depth - 1}"
            out.extend(_subgraph(stack, model, link.node, f"{model.kind.value} nested", where))
    edges = 0
    styles = []
    resume = EDGE_STYLES[Trigger.RESUME]
    for link in stack.links:
        pushers = "; ".join(transition_text(e) for e in link.pushers)
        source = f"{link.frame.value}__{link.state}"
        frame = link.node
        out.append(f'{_INDENT}{source} -->|"push: {_quoted(pushers)}"| {frame}__in')
        styles.append(f"{_INDENT}linkStyle {edges} stroke:{PUSH_COLOR},stroke-width:2px")
        edges += 1
        out.append(
            f'{_INDENT}{frame}__out -.->|"pop: {link.resume_event} to {link.targets}"| {source}'
        )
        styles.append(f"{_INDENT}linkStyle {edges} stroke:{resume.color}")
        edges += 1
    out.extend(styles)
    return "\n".join(out) + "\n"
