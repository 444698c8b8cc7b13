"""Every form of a report: its tables on the console, as CSV or as Markdown, and its
self-contained HTML page (docs/architecture.md, "Where reports are made")."""

from __future__ import annotations

import csv
import html
import io
import sys
from collections.abc import Iterable, Sequence
from enum import StrEnum
from typing import IO, TYPE_CHECKING, Annotated

import typer

if TYPE_CHECKING:  # rich is imported when a table is printed, not by every command's options
    from rich.console import Console, RenderableType
    from rich.table import Table

UNBOUNDED_WIDTH = 10_000
"""The console's width off a terminal: wider than any table, so none is cropped or folded."""


class TableFormat(StrEnum):
    """How a command prints its tables."""

    TABLE = "table"
    CSV = "csv"
    MARKDOWN = "markdown"


FormatOption = Annotated[
    TableFormat,
    typer.Option(
        "--format",
        help="How tables are printed: table (drawn; whole, never cropped, off a terminal), "
        "csv or markdown.",
        case_sensitive=False,
    ),
]
"""The ``--format`` option of every command that prints tables."""


def output_console(file: IO[str] | None = None) -> Console:
    """A console for a command's tables on ``file`` (stdout if None), unbounded off a terminal."""
    from rich.console import Console

    console = Console(file=file)
    if console.is_terminal:
        return console
    return Console(file=file, width=UNBOUNDED_WIDTH)


def notes_console(fmt: TableFormat, tables: Console) -> Console:
    """Where a command prints its other lines: beside the tables, or standard error for CSV
    and Markdown, so that standard output is the tables alone.
    """
    if fmt is TableFormat.TABLE:
        return tables
    return output_console(sys.stderr)


def plain(cell: RenderableType) -> str:
    """A cell's text without its styles: a :class:`Text`'s characters, a string's markup read."""
    from rich.text import Text

    if isinstance(cell, Text):
        return cell.plain
    if isinstance(cell, str):
        return Text.from_markup(cell).plain
    return str(cell)


def cells(table: Table) -> tuple[list[str], list[list[str]]]:
    """A table's headings and its rows, as plain text."""
    headings = [plain(column.header) for column in table.columns]
    columns = [[plain(cell) for cell in column.cells] for column in table.columns]
    return headings, [list(row) for row in zip(*columns, strict=True)]


def _title(table: Table) -> str:
    return plain(table.title) if table.title is not None else ""


def as_csv(tables: Sequence[Table]) -> str:
    """The tables as one CSV document: each its ``# title`` row, headings and rows."""
    blocks = []
    for table in tables:
        stream = io.StringIO()
        writer = csv.writer(stream, lineterminator="\n")
        if _title(table):
            writer.writerow([f"# {_title(table)}"])
        headings, rows = cells(table)
        writer.writerow(headings)
        writer.writerows(rows)
        blocks.append(stream.getvalue())
    return "\n".join(blocks)


def _markdown_cell(text: str) -> str:
    return " ".join(text.replace("|", "\\|").split()) or " "


def as_markdown(tables: Sequence[Table]) -> str:
    """The tables as Markdown: each its title in bold, then a pipe table."""
    blocks = []
    for table in tables:
        headings, rows = cells(table)
        lines = [f"**{_title(table)}**", ""] if _title(table) else []
        lines.append("| " + " | ".join(_markdown_cell(h) for h in headings) + " |")
        lines.append("|" + "|".join("---" for _ in headings) + "|")
        lines += ["| " + " | ".join(_markdown_cell(c) for c in row) + " |" for row in rows]
        blocks.append("\n".join(lines) + "\n")
    return "\n".join(blocks)


def print_tables(
    tables: Sequence[Table], fmt: TableFormat = TableFormat.TABLE, console: Console | None = None
) -> None:
    """Print ``tables`` in ``fmt`` on ``console`` (:func:`output_console` when None)."""
    out = console if console is not None else output_console()
    if fmt is TableFormat.TABLE:
        for table in tables:
            out.print(table)
        return
    text = as_csv(tables) if fmt is TableFormat.CSV else as_markdown(tables)
    out.file.write(text)
    out.file.flush()


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
