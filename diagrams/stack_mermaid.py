"""The stack overview as a Mermaid flowchart: each frame, its entry, suspension points, end."""

from __future__ import annotations

from buckshot.diagrams.describe import transition_text
from buckshot.diagrams.stack_model import StackModel, final_states
from buckshot.diagrams.style import EDGE_STYLES, PUSH_COLOR, STATE_STYLES
from buckshot.spec.chart_data import ChartModel, StateKind
from buckshot.spec.charts import Trigger

_INDENT = "    "


def _text(text: str) -> str:
    """Text safe in a quoted Mermaid label."""
    return text.replace('"', "'").replace("#", "No.").replace("<", "(").replace(">", ")")


def _frame(stack: StackModel, model: ChartModel, name: str, title: str, depth: str) -> list[str]:
    pad = _INDENT * 2
    ends = ", ".join(final_states(model))
    sends = f"popped, sends {model.resume_event}" if model.resume_event else "the game ends"
    out = [f'{_INDENT}subgraph {name}["{_text(title)} · {depth}"]']
    out.append(f"{pad}direction TB")
    out.append(f'{pad}{name}__in(["starts in {model.initial}"])')
    if not name.endswith("__nested"):
        for link in stack.links_from(model.kind):
            out.append(
                f'{pad}{name}__{link.state}["{link.state}<br/>pushes {link.pushed.value}; '
                f'on {link.resume_event} to {link.targets}"]:::suspended'
            )
    out.append(f'{pad}{name}__out(["ends in {ends}: {sends}"]):::final')
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
        f"title: The stack, at most {stack.depth_key} = {stack.max_depth} frames "
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
            _frame(stack, model, model.kind.value, f"{model.kind.value}: {model.title}", where)
        )
    for link in stack.links:
        if link.nested and link.frame in depth:
            model = stack.chart(link.pushed)
            where = f"depth {depth[link.frame] + 1} up to {stack.max_depth - 1}"
            out.extend(_frame(stack, model, link.node, f"{model.kind.value} nested", where))
    edges = 0
    styles = []
    resume = EDGE_STYLES[Trigger.RESUME]
    for link in stack.links:
        pushers = "; ".join(transition_text(e) for e in link.pushers)
        source = f"{link.frame.value}__{link.state}"
        frame = link.node
        out.append(f'{_INDENT}{source} -->|"push: {_text(pushers)}"| {frame}__in')
        styles.append(f"{_INDENT}linkStyle {edges} stroke:{PUSH_COLOR},stroke-width:2px")
        edges += 1
        out.append(
            f'{_INDENT}{frame}__out -.->|"pop: {link.resume_event} to {link.targets}"| {source}'
        )
        styles.append(f"{_INDENT}linkStyle {edges} stroke:{resume.color}")
        edges += 1
    out.extend(styles)
    return "\n".join(out) + "\n"
