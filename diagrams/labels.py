"""HTML-like label markup for the Graphviz diagrams: fonts, bold text, line breaks, tables."""

from __future__ import annotations

from collections.abc import Iterable
from html import escape as _escape

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
