"""``buckshot verify-trace LOG``: check a saved event log against the formal model with Z3
(its exit statuses: docs/commands.md)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from buckshot.progress import CommandProgress, QuietOption


def verify_trace_command(
    log: Annotated[Path, typer.Argument(help="An event log (JSON lines) to check.")],
    rules: Annotated[
        Path | None,
        typer.Option("--rules", help="The ruleset the game was played by (TOML)."),
    ] = None,
    json_out: Annotated[
        Path | None, typer.Option("--json", help="Also write the result as JSON to this file.")
    ] = None,
    skip_options: Annotated[
        bool,
        typer.Option(
            "--skip-options", help="Do not compare each prompt's options with the model's."
        ),
    ] = False,
    quiet: QuietOption = False,
) -> None:
    """Check that model steps match a saved event log, or name the first event none can."""
    import z3  # type: ignore[import-untyped]

    from buckshot.command import INTERRUPTED, check_output, fail, load_rules, save
    from buckshot.spec.eventlog import EventLogError, read_log
    from buckshot.verification.tracecheck.validate import validate_log

    ruleset = load_rules(rules)
    check_output(json_out, "--json")
    try:
        events = read_log(log)
    except EventLogError as error:
        fail(error.code, error.message)
    # Z3 otherwise takes Ctrl-C for itself during a query: it cancels the query, which
    # returns unknown, and the check would report a mismatch Ctrl-C made up
    z3.set_param("ctrl_c", False)
    try:
        with CommandProgress("verify-trace", quiet) as progress:
            result = validate_log(
                events,
                ruleset,
                check_options=not skip_options,
                progress=lambda done, total: progress.update(done, total, "events"),
            )
    except EventLogError as error:
        fail(error.code, f"{log}, {error.message}")
    except KeyboardInterrupt:
        fail("interrupted", "stopped by Ctrl-C; nothing was written", INTERRUPTED)
    typer.echo(result.summary())
    if json_out is not None:
        data = {"log": str(log), **result.to_json()}
        save(json_out, json.dumps(data, indent=2) + "\n", "--json", told=True)
    raise typer.Exit(0 if result.matched else 1)
