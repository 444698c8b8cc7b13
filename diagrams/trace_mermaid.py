"""A timeline as a Mermaid ``sequenceDiagram``: the game and the seats, frames as nested rects."""

from __future__ import annotations

from buckshot.diagrams.style import band_color
from buckshot.diagrams.timeline import Band, Step, StepKind, Timeline

_GAME = "G"
_INDENT = "    "


def _text(text: str) -> str:
    """Text safe in a Mermaid message or note (``#id`` written ``frame id``)."""
    return (
        text.replace(";", ",")
        .replace(" #", " frame ")
        .replace("#", "No. ")
        .replace("<", "(")
        .replace(">", ")")
        .replace("\n", " ")
    )


def _who(seat: int) -> str:
    return f"P{seat}"


def _step(timeline: Timeline, step: Step, pad: str) -> list[str]:
    seq = step.span
    private = f" ({timeline.private(step)})" if step.private_to is not None else ""
    if step.kind is StepKind.ASK and step.actor is not None:
        options = " | ".join(step.options)
        out = [f"{pad}{_GAME}->>{_who(step.actor)}: {seq} {_text(step.text)} [{_text(options)}]"]
        if step.chosen is not None:
            out.append(f"{pad}{_who(step.actor)}->>{_GAME}: {_text(step.chosen)}{private}")
        elif step.detail:
            out.append(f"{pad}Note over {_who(step.actor)}: {_text(step.detail)}")
        return out
    if step.kind is StepKind.TURN:
        everyone = [_GAME, *(_who(seat) for seat in timeline.actors())]
        return [f"{pad}Note over {everyone[0]},{everyone[-1]}: {_text(step.text)}"]
    where = _who(step.actor) if step.actor is not None else _GAME
    text = step.text if step.kind is not StepKind.POINT else f"• {step.text}"
    detail = f": {step.detail}" if step.detail and step.kind is StepKind.POINT else ""
    suffix = f" ({step.detail})" if step.detail and step.kind is not StepKind.POINT else ""
    return [f"{pad}Note over {where}: {seq} {_text(text + detail + suffix)}{private}"]


def _band(timeline: Timeline, band: Band, depth: int) -> list[str]:
    pad = _INDENT * depth
    out: list[str] = []
    for item in band.items:
        if isinstance(item, Band):
            color = band_color(item.depth)
            red, green, blue = (int(color[i : i + 2], 16) for i in (1, 3, 5))
            out.append(f"{pad}rect rgb({red}, {green}, {blue})")
            out.append(f"{pad}{_INDENT}Note over {_GAME}: {_text(item.label)}")
            out.extend(_band(timeline, item, depth + 1))
            out.append(f"{pad}end")
        else:
            out.extend(_step(timeline, item, pad))
    return out


def trace_mermaid(timeline: Timeline, title: str) -> str:
    """The Mermaid source of ``timeline``'s diagram, titled ``title``."""
    out = [
        "---",
        f"title: Trace {_text(title)}",
        "---",
        "sequenceDiagram",
        f"{_INDENT}%% Generated from an event log; do not edit by hand.",
        f"{_INDENT}participant {_GAME} as Game",
    ]
    for seat in timeline.actors():
        known = next((s for s in timeline.seats if s.seat == seat), None)
        role = f" ({known.role})" if known is not None and known.role else ""
        out.append(f"{_INDENT}participant {_who(seat)} as {_text(timeline.name(seat) + role)}")
    out.extend(_band(timeline, timeline.root, 1))
    return "\n".join(out) + "\n"
