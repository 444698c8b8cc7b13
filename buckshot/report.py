"""Where every HTML page of a report is made: one self-contained file (doctype, title, the
shared inline style, an inline script if any; nothing loaded), its text escaped, its tables.

The pages: ``compare`` and ``sweep --html`` (:mod:`buckshot.workbench.report`), ``conformance
report`` (:mod:`buckshot.conformance.report_page`) and the diagrams' index
(:mod:`buckshot.diagrams.html`). The same reports' tables on the terminal, as CSV or as
Markdown are :mod:`buckshot.tables`'.
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Sequence

STYLE = """
body { font: 14px/1.4 "DejaVu Sans", system-ui, sans-serif; margin: 1.5em; color: #222; }
h1 { font-size: 1.6em; } h2 { font-size: 1.3em; margin-top: 2em; } h3 { font-size: 1.1em; }
table { border-collapse: collapse; margin: 0.5em 0 1.5em; }
th, td { border: 1px solid #ccc; padding: 2px 8px; text-align: left; vertical-align: top; }
th { background: #f2f2f2; }
.note { font-size: 0.9em; color: #555; }
code { background: #f3f3f3; padding: 0 3px; }
"""
"""The style every page shares; a page adds its own after it."""


def escape(text: object) -> str:
    """``text`` as HTML text or an attribute's value: ``&``, ``<``, ``>`` and quotes escaped."""
    return html.escape(str(text), quote=True)


def element(tag: str, inner: str = "", **attributes: object) -> str:
    """``<tag ...>inner</tag>``, ``inner`` markup as given. Each attribute's value is escaped;
    ``class_`` is written ``class`` and ``data_x`` ``data-x``; one that is None is left out."""
    written = "".join(
        f' {name.rstrip("_").replace("_", "-")}="{escape(value)}"'
        for name, value in attributes.items()
        if value is not None
    )
    return f"<{tag}{written}>{inner}</{tag}>"


def cell(text: object, tag: str = "td", **attributes: object) -> str:
    """A table cell holding ``text``, escaped (``tag`` ``th`` for a heading)."""
    return element(tag, escape(text), **attributes)


def table(head: Sequence[str], rows: Iterable[str], **attributes: object) -> str:
    """A table: the headings ``head`` (escaped) in its head, then ``rows``, each a ``<tr>``
    made by :func:`element` of :func:`cell`."""
    heading = element("tr", "".join(cell(text, "th") for text in head))
    return element(
        "table", element("thead", heading) + element("tbody", "".join(rows)), **attributes
    )


def page(title: str, body: str, style: str = "", script: str = "") -> str:
    """The whole page titled ``title`` (escaped), ``body`` its markup, ``style`` added to
    :data:`STYLE`, ``script`` run at its end."""
    ending = f"<script>{script}</script>\n" if script else ""
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{escape(title)}</title>\n<style>{STYLE}{style}</style>\n</head>\n<body>\n"
        f"{body}\n{ending}</body>\n</html>\n"
    )
