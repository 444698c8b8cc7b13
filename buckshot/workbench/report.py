"""A report of ``compare`` or ``sweep``: titled sections, each a table for the terminal, data for
``--json`` and a fragment for the ``--html`` page (the :class:`Section` protocol).
"""

from __future__ import annotations

import html
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from rich.console import Console
from rich.table import Table
from rich.text import Text

from buckshot.tables import TableFormat, print_tables


class Section(Protocol):
    """One part of a report."""

    @property
    def title(self) -> str:
        """The section's heading."""
        ...

    def columns(self) -> Sequence[str]:
        """The headings of the section's table."""
        ...

    def rows(self) -> Sequence[Sequence[str]]:
        """The rows of the section's table, one text per column."""
        ...

    def to_json(self) -> dict[str, Any]:
        """The section's data for ``--json``."""
        ...

    def html(self) -> str:
        """The section as an HTML fragment (inline SVG for plots; nothing loaded)."""
        ...


def table_html(columns: Sequence[str], rows: Sequence[Sequence[str]], marked: str = "") -> str:
    """A table as HTML; a cell that ends with ``marked`` (when given) gets class ``marked``."""
    head = "".join(f"<th>{html.escape(c)}</th>" for c in columns)
    body = "".join(
        "<tr>"
        + "".join(
            f'<td class="marked">{html.escape(cell)}</td>'
            if marked and cell.endswith(marked)
            else f"<td>{html.escape(cell)}</td>"
            for cell in row
        )
        + "</tr>"
        for row in rows
    )
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


@dataclass(frozen=True)
class TableSection:
    """A section made of a table, a note under it, its JSON data and plots (SVG text)."""

    title: str
    headings: tuple[str, ...]
    cells: tuple[tuple[str, ...], ...]
    data: dict[str, Any]
    note: str = ""
    plots: tuple[str, ...] = field(default=())
    marked: str = ""
    """A cell ending with this text is highlighted in the page (a significant difference)."""

    def columns(self) -> Sequence[str]:
        """The table's headings."""
        return self.headings

    def rows(self) -> Sequence[Sequence[str]]:
        """The table's rows."""
        return self.cells

    def to_json(self) -> dict[str, Any]:
        """The data given."""
        return self.data

    def html(self) -> str:
        """The table, the note and the plots."""
        note = f'<p class="note">{html.escape(self.note)}</p>' if self.note else ""
        plots = "".join(f'<figure class="plot">{svg}</figure>' for svg in self.plots)
        return table_html(self.headings, self.cells, self.marked) + note + plots


@dataclass(frozen=True)
class Report:
    """A titled list of sections, and what the run was (games, players, seed, ...)."""

    title: str
    run: dict[str, Any]
    sections: tuple[Section, ...]

    def to_json(self) -> dict[str, Any]:
        """The whole report as JSON-ready data, one entry per section by title."""
        return {
            "title": self.title,
            "run": self.run,
            "sections": {section.title: section.to_json() for section in self.sections},
        }

    def json_text(self) -> str:
        """:meth:`to_json` as indented JSON text."""
        return json.dumps(self.to_json(), indent=2) + "\n"


def section_table(section: Section) -> Table:
    """One section's table, its cells as plain text (never read as markup)."""
    table = Table(title=section.title, title_justify="left")
    for heading in section.columns():
        table.add_column(heading, overflow="fold", min_width=min(len(heading), 9))
    for row in section.rows():
        table.add_row(*(Text(cell) for cell in row))
    return table


def print_report(
    report: Report, console: Console, table_format: TableFormat = TableFormat.TABLE
) -> None:
    """Every section of ``report`` as a table on ``console``, in ``table_format``."""
    tables = [section_table(section) for section in report.sections]
    if table_format is not TableFormat.TABLE:
        print_tables(tables, table_format, console)
        return
    console.print(f"[bold]{report.title}[/bold]")
    for section, table in zip(report.sections, tables, strict=True):
        print_tables([table], table_format, console)
        note = getattr(section, "note", "")
        if note:
            console.print(Text(note))
