"""The ``buckshot`` command-line program and its subcommands."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, NoReturn

import typer

from buckshot import __version__

app = typer.Typer(
    help="The game's formal specification, its reference engine and its verification.",
    no_args_is_help=True,
    add_completion=False,
)
spec_app = typer.Typer(
    help="The specification: export it, trace clauses to what cites them, render the rulings.",
    no_args_is_help=True,
)
app.add_typer(spec_app, name="spec")

RulesOption = Annotated[
    Path | None,
    typer.Option(
        "--rules",
        help="A ruleset variant (TOML) to use instead of the default one.",
        dir_okay=False,
    ),
]


def fail(code: str, message: str, exit_code: int = 2) -> NoReturn:
    """Print ``error [code]: message`` on standard error and exit with ``exit_code``."""
    typer.echo(f"error [{code}]: {message}", err=True)
    raise typer.Exit(exit_code)


def _write(text: str, out: Path | None) -> None:
    if out is None:
        sys.stdout.write(text)
        return
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(text, encoding="utf-8")
    typer.echo(f"wrote {out}", err=True)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"buckshot {__version__}")
        raise typer.Exit()


@app.callback()
def main(
    version: Annotated[
        bool,
        typer.Option("--version", callback=_version, is_eager=True, help="Print the version."),
    ] = False,
) -> None:
    """The game's formal specification, its reference engine and its verification."""


@spec_app.command("export")
def spec_export(
    json_out: Annotated[
        Path | None,
        typer.Option("--json", help="Write the document to this file instead of stdout."),
    ] = None,
    rules: RulesOption = None,
) -> None:
    """Write the whole spec (charts, rulebook, ruleset, rulings, registry) as one JSON document."""
    from buckshot.spec.export import export_json
    from buckshot.spec.ruleset import RulesetError, load_ruleset

    try:
        ruleset = load_ruleset(rules)
    except RulesetError as error:
        fail(error.code, str(error))
    _write(export_json(ruleset), json_out)


@spec_app.command("trace")
def spec_trace(
    as_json: Annotated[bool, typer.Option("--json", help="Print the matrix as JSON.")] = False,
) -> None:
    """Print the traceability matrix; exit 1 when a normative clause is cited by nothing."""
    from buckshot.spec.trace import build_matrix, render_table

    matrix = build_matrix()
    if as_json:
        sys.stdout.write(json.dumps(matrix.to_dict(), indent=2) + "\n")
    else:
        sys.stdout.write(render_table(matrix))
    if matrix.uncovered():
        raise typer.Exit(1)


@spec_app.command("rulings")
def spec_rulings(
    out: Annotated[
        Path | None,
        typer.Option("--out", help="Write the Markdown to this file (spec/RULINGS.md)."),
    ] = None,
) -> None:
    """Render the rulings as Markdown, the text committed as spec/RULINGS.md."""
    from buckshot.spec.rulings import render_markdown

    _write(render_markdown(), out)
