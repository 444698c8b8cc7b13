"""What the Graphviz diagrams share: their digraph and its HTML-like label markup (fonts, bold
text, line breaks, tables)."""

from __future__ import annotations

from collections.abc import Iterable
from html import escape as _escape

import graphviz

FONT = "DejaVu Sans"
"""The font every diagram names: Debian always has it, so the SVGs stay the same bytes."""

MUTED = "#555555"


def escape(text: str) -> str:
    """``text`` escaped for use inside an HTML-like label (``&``, ``<``, ``>`` and ``"``)."""
    return _escape(text, quote=False).replace('"', "&quot;")


def html(markup: str) -> str:
    """An HTML-like label value (``<...>``) holding ``markup``, which must be escaped already."""
    return f"<{markup}>"


def font(text: str, size: int | None = None, color: str | None = None) -> str:
    """Escaped ``text`` wrapped in a ``<FONT>`` element (or bare when no size or colour)."""
    face = []
    if size is not None:
        face.append(f'POINT-SIZE="{size}"')
    if color is not None:
        face.append(f'COLOR="{color}"')
    if not face:
        return escape(text)
    return f"<FONT {' '.join(face)}>{escape(text)}</FONT>"


def bold(text: str) -> str:
    """Escaped ``text`` in bold."""
    return f"<B>{escape(text)}</B>"


def lines(rows: Iterable[str]) -> str:
    """Markup rows (already escaped) joined by line breaks."""
    return "<BR/>".join(rows)


def table(rows: Iterable[str], spacing: int = 0, padding: int = 1) -> str:
    """A borderless one-column HTML-like table, one markup row (already escaped) per cell."""
    body = "".join(f"<TR><TD>{row}</TD></TR>" for row in rows)
    return (
        f'<TABLE BORDER="0" CELLBORDER="0" CELLSPACING="{spacing}" CELLPADDING="{padding}">'
        f"{body}</TABLE>"
    )


def wrap(text: str, width: int) -> list[str]:
    """``text`` broken into lines of at most ``width`` characters, at spaces."""
    out: list[str] = []
    current = ""
    for word in text.split():
        if current and len(current) + 1 + len(word) > width:
            out.append(current)
            current = word
        else:
            current = f"{current} {word}" if current else word
    if current:
        out.append(current)
    return out


def digraph(
    name: str, graph_id: str, heading: Iterable[str], node: dict[str, str], **layout: str
) -> graphviz.Digraph:
    """A diagram's digraph in :data:`FONT`, titled by the markup rows ``heading``, laid out by
    ``layout`` (``rankdir`` first), its nodes drawn as ``node`` says (``shape`` first) and
    its edge labels small."""
    graph = {"id": graph_id, "label": html(table(heading, 2, 2)), "labelloc": "t"}
    graph |= {"fontname": FONT, "fontsize": "11", **layout, "pad": "0.3"}
    node_attr = {"fontname": FONT, "fontsize": "11", **node}
    edge_attr = {"fontname": FONT, "fontsize": "9", "arrowsize": "0.8"}
    out: graphviz.Digraph = graphviz.Digraph(
        name, graph_attr=graph, node_attr=node_attr, edge_attr=edge_attr
    )  # the package types its constructor loosely
    return out
