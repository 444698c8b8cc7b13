"""Tables never lose columns (issue 26, part 5): off a terminal every column is printed whole,
and ``--format csv|markdown`` gives the same cells as data."""

from __future__ import annotations

import csv
import io
import sys
from types import SimpleNamespace
from unittest.mock import patch

import pytest
from rich.console import Console
from rich.table import Table
from rich.text import Text
from typer.testing import CliRunner

from buckshot.cli import verify_show
from buckshot.cli.main import app
from buckshot.report import TableFormat, as_csv, as_markdown, cells, output_console, print_tables
from buckshot.verdict import Verdict
from buckshot.workbench.report import Report, TableSection, print_report

HEADINGS = tuple(f"column number {n} with a long heading" for n in range(12))
ROW = tuple(f"value {n}, [with brackets] | and a pipe" for n in range(12))


def _wide() -> Table:
    table = Table(title="wide")
    for heading in HEADINGS:
        table.add_column(heading, overflow="fold")
    table.add_row(*(Text(cell) for cell in ROW))  # text, not markup
    return table


def test_off_a_terminal_a_wide_table_keeps_every_cell_on_one_line() -> None:
    stream = io.StringIO()
    console = output_console(stream)
    assert not console.is_terminal
    print_tables([_wide()], TableFormat.TABLE, console)
    text = stream.getvalue()
    lines = text.splitlines()
    assert len(lines) == 5 + 1  # title, top, heading, rule, the row, bottom
    for heading in HEADINGS:
        assert heading in lines[2]
    assert max(len(line) for line in lines) > 12 * len(HEADINGS[0])  # far past 80 columns


def test_a_terminal_console_of_80_columns_would_have_cropped_it() -> None:
    """The failure the unbounded console prevents: rich folds the cells to fit 80."""
    stream = io.StringIO()
    Console(file=stream, width=80).print(_wide())
    assert HEADINGS[0] not in stream.getvalue()


def test_csv_gives_the_cells_back_exactly() -> None:
    text = as_csv([_wide(), _wide()])
    blocks = text.split("\n\n")
    assert len(blocks) == 2
    for block in blocks:
        title, *rest = block.splitlines()
        assert title == "# wide"
        rows = list(csv.reader(io.StringIO("\n".join(rest))))
        assert rows == [list(HEADINGS), list(ROW)]


def test_markdown_is_one_pipe_row_per_row_with_pipes_escaped() -> None:
    lines = as_markdown([_wide()]).splitlines()
    assert lines[0] == "**wide**"
    table = [line for line in lines if line.startswith("|")]
    assert len(table) == 3  # headings, rule, one row
    assert all(line.count(" | ") == len(HEADINGS) - 1 for line in (table[0], table[2]))
    assert "\\|" in table[2]


def test_a_cell_written_with_markup_is_given_as_its_text() -> None:
    table = Table("verdict")
    table.add_row("[green]proved[/green]")
    assert cells(table) == (["verdict"], [["proved"]])


def test_the_workbench_report_prints_every_column_off_a_terminal_and_as_csv() -> None:
    section = TableSection("Sweep", HEADINGS, (ROW,), {})
    report = Report("sweep", {}, (section,))
    stream = io.StringIO()
    print_report(report, output_console(stream))
    assert all(heading in stream.getvalue() for heading in HEADINGS)
    stream = io.StringIO()
    print_report(report, output_console(stream), TableFormat.CSV)
    assert list(csv.reader(io.StringIO(stream.getvalue().split("\n", 1)[1]))) == [
        list(HEADINGS),
        list(ROW),
    ]


def test_simulate_prints_its_tables_as_csv_and_markdown() -> None:
    args = ["simulate", "--games", "2", "--jobs", "1", "--quiet", "--players", "2"]
    data = CliRunner().invoke(app, [*args, "--format", "csv"])
    assert data.exit_code == 0, data.output
    roles, figures = data.stdout.split("\n\n")
    rows = list(csv.reader(io.StringIO(roles.split("\n", 1)[1])))
    assert rows[0] == ["role", "seats", "wins", "win rate", "95% CI"]
    assert sum(int(row[1]) for row in rows[1:]) == 2 * 2  # every seat of the two games
    assert figures.startswith("# game figures\nfigure,value\n")
    markdown = CliRunner().invoke(app, [*args, "--format", "markdown"])
    assert (
        markdown.exit_code == 0 and "| role | seats | wins | win rate | 95% CI |" in markdown.stdout
    )
    refused = CliRunner().invoke(app, [*args, "--format", "html"])
    assert refused.exit_code == 2 and refused.stderr.startswith("error [usage]")


def csv_document(text: str) -> dict[str, list[list[str]]]:
    """A command's standard output under ``--format csv``, read with the csv module as one
    document: tables alone, each a ``# title`` row, its headings and rows as long as the
    headings, one empty row between two; each table's rows by its title."""
    tables: dict[str, list[list[str]]] = {}
    block: list[list[str]] = []
    for row in [*csv.reader(io.StringIO(text)), []]:
        if row:
            block.append(row)
            continue
        assert block, "two empty rows in a row, or one at the start"
        (title, *more), headings, *rows = block
        assert title.startswith("# ") and not more, title
        assert all(len(row) == len(headings) for row in rows), block
        tables[title[2:]] = [headings, *rows]
        block = []
    return tables


def markdown_document(text: str) -> list[str]:
    """A command's standard output under ``--format markdown``: tables alone, each its title
    in bold, a blank line and its pipe rows; the titles."""
    titles = []
    for block in text.rstrip("\n").split("\n\n"):
        lines = block.splitlines()
        if lines[0].startswith("**"):
            titles.append(lines[0].strip("*"))
            continue
        assert all(line.startswith("| ") or line.startswith("|---") for line in lines), block
    return titles


def test_a_csv_document_is_read_table_by_table() -> None:
    tables = csv_document(as_csv([_wide(), Table("one", title="two")]))
    assert tables == {"wide": [list(HEADINGS), list(ROW)], "two": [["one"]]}


def test_verify_with_a_table_format_prints_the_tables_alone() -> None:
    """Issue 26: with --format csv the notes (vacuity, times, the verdict...) stood among the
    tables; now standard output is the tables alone, the notes on standard error."""
    proofs = Table("ID", "N=2", title="Inductive proofs")
    proofs.add_row("I1", "[green]proved[/]")
    report = SimpleNamespace(
        assumed=["I2"], cfg=None, proofs=[], bmc_status="", bmc_depth=0, vacuity=[], walks=None,
        cross_check=None, cross_check_figures=lambda: None, seconds={"total": 1.0}, jobs=1,
        findings=lambda: [], verdict=Verdict.PASSED,
    )  # fmt: skip
    for fmt in TableFormat:
        out, err = io.StringIO(), io.StringIO()
        with (
            patch.object(verify_show, "proof_table", return_value=proofs),
            patch.object(verify_show, "saturations", return_value=["a saturation"]),
            patch.object(sys, "stderr", err),
        ):
            verify_show.show(report, output_console(out), table_format=fmt)  # type: ignore[arg-type]
        notes = out.getvalue() if fmt is TableFormat.TABLE else err.getvalue()
        for line in ("assumed by every proof", "saturation", "times:", "all checks passed"):
            assert line in notes, fmt
        if fmt is TableFormat.CSV:
            assert csv_document(out.getvalue()) == {
                "Inductive proofs": [["ID", "N=2"], ["I1", "proved"]]
            }
        if fmt is TableFormat.MARKDOWN:
            assert markdown_document(out.getvalue()) == ["Inductive proofs"]
        if fmt is TableFormat.TABLE:
            assert err.getvalue() == "" and "│ I1 │ proved │" in out.getvalue()


@pytest.mark.slow
def test_verify_prints_its_proof_table_as_csv() -> None:
    args = ["verify", "--players", "2", "--depth", "0", "--no-vacuity", "--only", "I1", "--quiet"]
    # a short lockstep walk: its note goes to standard error too (the walks' own tests are in
    # tests/verification/test_verification_engine.py)
    result = CliRunner().invoke(app, [*args, "--walk-steps", "100", "--format", "csv"])
    assert result.exit_code == 0, result.output
    tables = csv_document(result.stdout)
    [(title, rows)] = tables.items()
    assert title.startswith("Inductive proofs")
    assert rows[0] == ["ID", "clauses", "N=2", "seconds"]
    assert rows[1][0] == "I1" and rows[1][2] == "proved"
    assert "all checks passed" in result.stderr
    assert "Engine against the model: " in result.stderr


@pytest.mark.slow
def test_conformance_run_prints_its_counts_as_csv_that_add_up() -> None:
    # two cases (the first turn, the five phases) give each table rows, one row of two cases:
    # the format is under test, not the suite
    args = ["conformance", "run", "--adapter", "reference", "--filter", "turn.f*", "--quiet"]
    result = CliRunner().invoke(app, [*args, "--format", "csv"])
    assert result.exit_code == 0, result.output
    tables = csv_document(result.stdout)
    assert list(tables) == ["cases by clause", "cases by ruling", "cases by feature"]
    for rows in tables.values():
        assert rows[0][1:] == ["cases", "passed", "failed", "errored", "skipped", "xfail", "xpass"]
        assert all(int(row[1]) == sum(int(n) for n in row[2:]) for row in rows[1:])
    assert result.stderr.startswith("OK: ")  # the totals, off standard output
    markdown = CliRunner().invoke(app, [*args, "--format", "markdown"])
    assert markdown.exit_code == 0, markdown.output
    assert markdown_document(markdown.stdout) == list(tables)
