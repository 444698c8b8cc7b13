"""A report of ``compare`` or ``sweep``: titled sections, each a table for the terminal, data for
``--json`` and a part of the ``--html`` page (made by :mod:`buckshot.report`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from buckshot.report import TableFormat, cell, element, escape, page, print_tables, table


@dataclass(frozen=True)
class TableSection:
    """One part of a report: a table, a note under it, its JSON data and plots (SVG text)."""

    title: str
    headings: tuple[str, ...]
    cells: tuple[tuple[str, ...], ...]
    data: dict[str, Any]
    note: str = ""
    plots: tuple[str, ...] = ()
    marked: str = ""
    """A cell ending with this text is highlighted in the page (a significant difference)."""

    def html(self) -> str:
        """The table, the note and the plots (inline SVG; nothing loaded) in the page."""
        rows = (
            element(
                "tr",
                "".join(
                    cell(
                        text,
                        class_="marked" if self.marked and text.endswith(self.marked) else None,
                    )
                    for text in row
                ),
            )
            for row in self.cells
        )
        note = element("p", escape(self.note), class_="note") if self.note else ""
        plots = "".join(element("figure", svg, class_="plot") for svg in self.plots)
        return table(self.headings, rows) + note + plots

    def terminal_table(self) -> Table:
        """The table for the terminal, its cells as plain text (never read as markup)."""
        drawn = Table(title=self.title, title_justify="left")
        for heading in self.headings:
            drawn.add_column(heading, overflow="fold", min_width=min(len(heading), 9))
        for row in self.cells:
            drawn.add_row(*(Text(text) for text in row))
        return drawn


@dataclass(frozen=True)
class Report:
    """A titled list of sections, and what the run was (games, players, seed, ...)."""

    title: str
    run: dict[str, Any]
    sections: tuple[TableSection, ...]

    def json_text(self) -> str:
        """The whole report as indented JSON, one entry per section by title."""
        sections = {section.title: section.data for section in self.sections}
        data = {"title": self.title, "run": self.run, "sections": sections}
        return json.dumps(data, indent=2) + "\n"


def print_report(
    report: Report, console: Console, table_format: TableFormat = TableFormat.TABLE
) -> None:
    """Every section of ``report`` as a table on ``console``, in ``table_format``; drawn, the
    report's title first and each note under its table."""
    tables = [section.terminal_table() for section in report.sections]
    if table_format is not TableFormat.TABLE:
        print_tables(tables, table_format, console)
        return
    console.print(f"[bold]{report.title}[/bold]")
    for section, drawn in zip(report.sections, tables, strict=True):
        print_tables([drawn], table_format, console)
        if section.note:
            console.print(Text(section.note))


_STYLE = """
body { max-width: 70em; }
td.marked { background: #fff3c4; font-weight: bold; }
figure.plot { margin: 1em 0; } figure.plot svg { max-width: 100%; height: auto; }
dl.run { display: grid; grid-template-columns: max-content auto; gap: 0.1em 1em; }
dt { font-weight: bold; }
"""


def render_page(report: Report) -> str:
    """The HTML page of ``report``: what the run was, then each section under its title."""
    run = "".join(
        cell(key, "dt") + cell(value if isinstance(value, str) else json.dumps(value), "dd")
        for key, value in report.run.items()
    )
    sections = "".join(
        element(
            "section",
            cell(s.title, "h2") + s.html(),
            id="".join(c if c.isalnum() else "-" for c in s.title.lower()),
        )
        for s in report.sections
    )
    body = cell(report.title, "h1") + element("dl", run, class_="run") + sections
    return page(report.title, body, _STYLE)
