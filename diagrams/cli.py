"""The ``buckshot diagrams`` command: write every diagram, or draw one saved event log."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from buckshot.command import check_output_folder, fail

app = typer.Typer(
    help="Flow diagrams generated from the statecharts: DOT, SVG, Mermaid and an HTML page.",
    invoke_without_command=True,
    no_args_is_help=False,
    add_completion=False,
)


def _report(paths: list[Path], out: Path) -> None:
    typer.echo(f"wrote {len(paths)} files to {out}", err=True)


@app.callback(invoke_without_command=True)
def diagrams(
    ctx: typer.Context,
    out: Annotated[
        Path | None,
        typer.Option(
            "--out",
            help="Folder to write into (default: the checkout's diagrams/ folder).",
            file_okay=False,
        ),
    ] = None,
) -> None:
    """Write every chart, the stack and the example traces as DOT, SVG and Mermaid, and
    index.html, a page that shows them all."""
    if ctx.invoked_subcommand is not None:
        return
    from buckshot.diagrams.generate import default_out_dir, write_all
    from buckshot.diagrams.svg import GraphvizError
    from buckshot.diagrams.tracelog import TraceLogError

    target = out if out is not None else default_out_dir()
    if target is None:
        fail("no-checkout", "not running from a source checkout: say where with --out DIR")
    check_output_folder(target, "--out")
    try:
        paths = write_all(target)
    except (TraceLogError, GraphvizError) as error:
        fail("diagrams", str(error))
    _report(paths, target)


@app.command("trace")
def trace(
    log: Annotated[
        Path,
        typer.Argument(help="An event log: one JSON event per line.", dir_okay=False),
    ],
    out: Annotated[
        Path | None,
        typer.Option(
            "--out",
            help="Folder to write into (default: the log's own folder).",
            file_okay=False,
        ),
    ] = None,
) -> None:
    """Draw a saved event log as a timeline: LOG's name with .dot, .svg and .mmd."""
    from buckshot.diagrams.generate import write_trace
    from buckshot.diagrams.svg import GraphvizError
    from buckshot.diagrams.tracelog import TraceLogError

    target = out if out is not None else log.parent
    check_output_folder(target, "--out")
    try:
        paths = write_trace(log, target)
    except TraceLogError as error:
        fail("trace-log", str(error))
    except GraphvizError as error:
        fail("graphviz", str(error))
    _report(paths, target)
