"""The ``buckshot diagrams`` command: write every diagram, or draw one saved event log."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from buckshot.command import INTERRUPTED, check_output_folder, command_group, fail
from buckshot.progress import CommandProgress, QuietOption

app = command_group(
    help="Flow diagrams generated from the statecharts: DOT, SVG, Mermaid and an HTML page.",
    invoke_without_command=True,
    no_args_is_help=False,
)


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
    from buckshot.diagrams.svg import GraphvizError
    from buckshot.diagrams.write import default_out_dir, write_all
    from buckshot.spec.eventlog import EventLogError

    target = out if out is not None else default_out_dir()
    if target is None:
        fail("no-checkout", "not running from a source checkout: say where with --out DIR")
    check_output_folder(target, "--out")
    try:
        paths = write_all(target)
    except KeyboardInterrupt:
        fail("interrupted", "stopped by Ctrl-C; the diagrams written so far are whole", INTERRUPTED)
    except (EventLogError, GraphvizError) as error:
        fail("diagrams", str(error))
    typer.echo(f"wrote {len(paths)} files to {target}", err=True)


@app.command("trace")
def trace(
    log: Annotated[
        Path,
        typer.Argument(help="An event log: one JSON event per line."),
    ],
    out: Annotated[
        Path | None,
        typer.Option(
            "--out",
            help="Folder to write into (default: the log's own folder).",
            file_okay=False,
        ),
    ] = None,
    first: Annotated[
        int | None,
        typer.Option(
            "--first",
            min=1,
            help="Draw only the log's first N events (at most as many as a timeline draws), "
            "titled so; the rest of the log is not read.",
        ),
    ] = None,
    quiet: QuietOption = False,
) -> None:
    """Draw a saved event log as a timeline: LOG's name with .dot, .svg and .mmd.

    The log is read by the one log reader (refused with exit 2 at its first bad line); a log
    longer than a timeline draws is refused unless --first says how many to draw.
    """
    from buckshot.diagrams.svg import GraphvizError
    from buckshot.diagrams.write import MAX_TIMELINE_EVENTS, TimelineTooLong, write_trace
    from buckshot.spec.eventlog import EventLogError

    if first is not None and first > MAX_TIMELINE_EVENTS:
        fail("usage.first", f"--first {first}: a timeline draws at most {MAX_TIMELINE_EVENTS:,}")
    target = out if out is not None else log.parent
    check_output_folder(target, "--out")
    try:
        with CommandProgress("diagrams trace", quiet, every=5.0) as progress:
            paths = write_trace(
                log, target, first=first, stage=lambda done: progress.update(done, 3, "steps")
            )
    except KeyboardInterrupt:
        fail("interrupted", "stopped by Ctrl-C; nothing was written", INTERRUPTED)
    except EventLogError as error:
        fail(error.code, error.message)
    except TimelineTooLong as error:
        fail("trace.too-long", str(error))
    except GraphvizError as error:
        fail("graphviz", str(error))
    typer.echo(f"wrote {len(paths)} files to {target}", err=True)
