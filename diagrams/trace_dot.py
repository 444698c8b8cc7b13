"""A timeline as a Graphviz DOT digraph: one row per step, frames as nested bands."""

from __future__ import annotations

from buckshot.diagrams import dot
from buckshot.diagrams.style import band_color, seat_color
from buckshot.diagrams.timeline import Band, Step, StepKind, Timeline

_SEQ_WIDTH = 52
_WHO_WIDTH = 70
_TEXT_WIDTH = 360
_BORDER = "#bbbbbb"
_WRAP = 58
"""Characters per line of a step's text before it wraps."""


def option_name(option: str) -> str:
    """The option's event name: the part before its first ``:`` parameter list."""
    return option.split(":", 1)[0]


def _seqs(step: Step) -> str:
    return "-".join(str(seq) for seq in step.seqs)


def _private(timeline: Timeline, step: Step) -> str:
    if step.private_to is None:
        return ""
    return "private to " + ", ".join(timeline.name(seat) for seat in step.private_to)


def _ask_rows(step: Step) -> list[str]:
    chosen = option_name(step.chosen) if step.chosen is not None else None
    shown = [
        dot.bold(option) if option_name(option) == chosen else dot.escape(option)
        for option in step.options
    ]
    rows = [dot.font("options:", 9) + "&#160;" + "&#160;| ".join(shown)] if shown else []
    if step.chosen is not None:
        rows.append(dot.bold(f"→ {step.chosen}"))
    return rows


def _row_label(timeline: Timeline, step: Step) -> str:
    text = dot.wrap(step.text, _WRAP)
    rows = [dot.bold(line) if step.kind is StepKind.ASK else dot.escape(line) for line in text]
    if step.kind is StepKind.ASK:
        rows.extend(_ask_rows(step))
    rows.extend(dot.font(line, 9, dot.MUTED) for line in dot.wrap(step.detail, _WRAP + 10))
    private = _private(timeline, step)
    if private:
        rows.append(dot.font(private, 9, "#a00000"))
    who = timeline.name(step.actor) if step.actor is not None else ""
    fill = f' BGCOLOR="{seat_color(step.actor)}"' if step.actor is not None else ""
    text_fill = ' BGCOLOR="#ffffff"'
    if step.kind is StepKind.POINT:
        rows[0] = "• " + f"<I>{rows[0]}</I>"
        text_fill = ' BGCOLOR="#f3f3f3"'
    return dot.html(
        f'<TABLE BORDER="0" CELLBORDER="1" CELLSPACING="0" CELLPADDING="4" COLOR="{_BORDER}">'
        f'<TR><TD WIDTH="{_SEQ_WIDTH}" ALIGN="RIGHT" BGCOLOR="#ffffff">'
        f"{dot.font(_seqs(step), 9, dot.MUTED)}</TD>"
        f'<TD WIDTH="{_WHO_WIDTH}"{fill}>{dot.bold(who) if who else " "}</TD>'
        f'<TD WIDTH="{_TEXT_WIDTH}" ALIGN="LEFT" BALIGN="LEFT"{text_fill}>'
        f"{dot.lines(rows)}</TD></TR></TABLE>"
    )


def _marker_label(step: Step) -> str:
    if step.kind is StepKind.TURN:
        return dot.html(dot.font(step.text, 14))
    arrow = "▼" if step.kind is StepKind.PUSH else "▲"
    text = f"{arrow} {step.text}" + (f" ({step.detail})" if step.detail else "")
    return dot.html(f"{dot.font(_seqs(step), 9, dot.MUTED)}  <B>{dot.escape(text)}</B>")


def _node(timeline: Timeline, node_id: str, step: Step) -> str:
    marker = step.kind in (StepKind.PUSH, StepKind.POP, StepKind.TURN)
    values = {
        "id": f"step-{_seqs(step)}",
        "label": _marker_label(step) if marker else _row_label(timeline, step),
        "tooltip": f"seq {_seqs(step)}: {step.type}",
    }
    return f"{dot.quote(node_id)}{dot.attrs(values)};"


class _Writer:
    def __init__(self, timeline: Timeline) -> None:
        self.timeline = timeline
        self.order: list[str] = []
        self.bands = 0

    def band(self, band: Band, indent: str) -> list[str]:
        out: list[str] = []
        for item in band.items:
            if isinstance(item, Band):
                self.bands += 1
                values = {
                    "id": f"band-{self.bands}",
                    "label": dot.html(dot.bold(item.label)),
                    "style": "rounded,filled",
                    "fillcolor": band_color(item.depth),
                    "color": "#8899aa",
                    "labeljust": "l",
                    "margin": "10",
                }
                out.append(f"{indent}subgraph {dot.quote(f'cluster_band_{self.bands}')} {{")
                out.extend(f"{indent}    {line}" for line in dot.assignments(values))
                out.extend(self.band(item, indent + "    "))
                out.append(f"{indent}}}")
            else:
                node_id = f"s{len(self.order)}"
                self.order.append(node_id)
                out.append(indent + _node(self.timeline, node_id, item))
        return out


def _seats_table(timeline: Timeline) -> str:
    cells = []
    for seat in timeline.actors():
        known = next((s for s in timeline.seats if s.seat == seat), None)
        role = f" · {known.role}" if known is not None and known.role else ""
        cells.append(
            f'<TD BGCOLOR="{seat_color(seat)}" BORDER="1" COLOR="{_BORDER}">'
            f"{dot.bold(timeline.name(seat))}<BR/>{dot.font(f'seat {seat}{role}', 9)}</TD>"
        )
    if not cells:
        return ""
    return (
        '<TABLE BORDER="0" CELLBORDER="0" CELLSPACING="4" CELLPADDING="4"><TR>'
        + "".join(cells)
        + "</TR></TABLE>"
    )


def trace_dot(timeline: Timeline, title: str) -> str:
    """The DOT source of ``timeline``'s diagram, titled ``title``."""
    writer = _Writer(timeline)
    body = writer.band(timeline.root, "    ")
    span = (
        f"seq {timeline.first_seq}-{timeline.last_seq}"
        if timeline.first_seq is not None
        else "an empty log"
    )
    note = (
        "Rows are the log's events in order; each band is a frame on the stack, from its "
        "push (▼) to its pop (▲). An asked row shows who was asked, the options (the one "
        "taken in bold) and the choice."
    )
    rows = [
        dot.font(f"Trace: {title}", 18),
        dot.font(span, 10, dot.MUTED),
        dot.lines(dot.escape(line) for line in dot.wrap(note, 90)),
    ]
    seats = _seats_table(timeline)
    if seats:
        rows.append(seats)
    label = dot.html(
        '<TABLE BORDER="0" CELLBORDER="0" CELLSPACING="2" CELLPADDING="2">'
        + "".join(f"<TR><TD>{row}</TD></TR>" for row in rows)
        + "</TABLE>"
    )
    graph = {
        "id": "trace",
        "label": label,
        "labelloc": "t",
        "fontname": dot.FONT,
        "fontsize": "11",
        "rankdir": "TB",
        "nodesep": "0.2",
        "ranksep": "0.12",
        "pad": "0.3",
    }
    node = {"fontname": dot.FONT, "fontsize": "11", "shape": "plain"}
    out = ["digraph trace {", f"    graph{dot.attrs(graph)};", f"    node{dot.attrs(node)};"]
    out.extend(body)
    for tail, head in zip(writer.order, writer.order[1:], strict=False):
        out.append(f"    {dot.quote(tail)} -> {dot.quote(head)} [style=invis, weight=20];")
    out.append("}")
    return "\n".join(out) + "\n"
