"""One chart as a Mermaid ``stateDiagram-v2``: the same states, phases and transitions as DOT."""

from __future__ import annotations

from buckshot.diagrams.describe import (
    EventGroup,
    branch_text,
    children,
    citation,
    event_groups,
    state_role,
    state_title,
    transition_text,
)
from buckshot.diagrams.style import STATE_STYLES
from buckshot.spec.chart_data import ChartModel, StateKind, StateNode

_INDENT = "    "


def _text(text: str) -> str:
    """Text safe inside a Mermaid label: no characters that end a statement or open markup."""
    return text.replace(";", ",").replace("#", "No.").replace("<", "(").replace(">", ")")


def _class_defs() -> list[str]:
    out = []
    for kind, style in STATE_STYLES.items():
        if kind is StateKind.COMPOUND:
            continue
        line = f"classDef {style.name} fill:{style.fill},stroke:{style.stroke}"
        if style.dashed:
            line += ",stroke-dasharray:5 3"
        if style.double:
            line += ",stroke-width:3px"
        out.append(line)
    return out


def _state(model: ChartModel, state: StateNode, depth: int) -> list[str]:
    pad = _INDENT * depth
    out = [f'{pad}state "{_text(state.name)}" as {state.id}']
    out.append(f"{pad}{state.id} : {_text(state_role(model, state))}")
    cited = citation(state.clauses, state.rulings)
    if cited:
        out.append(f"{pad}{state.id} : {cited}")
    return out


def _block(
    model: ChartModel,
    parent: str | None,
    groups: tuple[EventGroup, ...],
    depth: int,
) -> list[str]:
    pad = _INDENT * depth
    out: list[str] = []
    members = children(model, parent)
    initial = next((s for s in members if s.initial), None)
    if initial is not None:
        out.append(f"{pad}[*] --> {initial.id}")
    for state in members:
        if state.kind is StateKind.COMPOUND:
            title = state_title(state)
            cited = citation(state.clauses, state.rulings)
            name = f"{title} ({cited})" if cited else title
            out.append(f'{pad}state "{_text(name)}" as {state.id} {{')
            out.extend(_block(model, state.id, groups, depth + 1))
            out.append(f"{pad}}}")
        else:
            out.extend(_state(model, state, depth))
            out.extend(
                f"{pad}state {g.choice_id} <<choice>>"
                for g in groups
                if g.is_choice and g.source == state.id
            )
    return out


def _transitions(groups: tuple[EventGroup, ...]) -> list[str]:
    out = []
    for group in groups:
        first = group.edges[0]
        cited = citation(first.clauses, first.rulings)
        if not group.is_choice:
            out.append(
                f"{_INDENT}{first.source} --> {first.target} : "
                f"{_text(transition_text(first))} ({cited})"
            )
            continue
        out.append(f"{_INDENT}{group.source} --> {group.choice_id} : {group.event} ({cited})")
        out.extend(
            f"{_INDENT}{group.choice_id} --> {edge.target} : {_text(branch_text(edge))}"
            for edge in group.edges
        )
    return out


def chart_mermaid(model: ChartModel) -> str:
    """The Mermaid source of ``model``'s diagram; the same text for the same chart every run."""
    groups = event_groups(model)
    out = [
        "---",
        f"title: {_text(model.title)}",
        "---",
        "stateDiagram-v2",
        f"{_INDENT}%% Generated from {model.class_name} (buckshot.spec); do not edit by hand.",
        f"{_INDENT}direction TB",
    ]
    out.extend(_INDENT + line for line in _class_defs())
    out.extend(_block(model, None, groups, 1))
    out.extend(_transitions(groups))
    out.extend(f"{_INDENT}{s.id} --> [*]" for s in model.states if s.kind is StateKind.FINAL)
    by_kind: dict[str, list[str]] = {}
    for state in model.states:
        if state.kind is not StateKind.COMPOUND:
            by_kind.setdefault(STATE_STYLES[state.kind].name, []).append(state.id)
    out.extend(f"{_INDENT}class {','.join(ids)} {name}" for name, ids in by_kind.items())
    return "\n".join(out) + "\n"
