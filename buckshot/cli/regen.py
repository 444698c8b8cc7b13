"""``buckshot regen``: rewrite the checkout's files derived from the spec, or name the stale ones.

The targets and their generators are the checkout's build step, :mod:`buckshot.regen`, which
the wheel leaves out: an installed copy has no checkout to rewrite, and says so.
"""

from __future__ import annotations

from typing import Annotated

import typer

from buckshot.command import INTERRUPTED, fail
from buckshot.paths import checkout_root


def regen_command(
    check: Annotated[
        bool,
        typer.Option("--check", help="Change nothing; name each stale file and exit 1."),
    ] = False,
    only: Annotated[
        list[str] | None,
        typer.Option(
            "--only",
            help="Only this target (repeat for more); an unknown name is refused with the list "
            "of targets.",
        ),
    ] = None,
) -> None:
    """Rewrite every derived file of the checkout (schemas, rulings, the spec export, the
    conformance cases, the traceability page, the diagrams), or with --check name the stale
    ones."""
    root = checkout_root()
    if root is None:
        fail("regen.checkout", "buckshot regen rewrites a source checkout; this copy is installed")
    from buckshot.regen.targets import TARGETS, RegenError, rewrite, stale, target_names

    unknown = sorted(set(only or ()) - set(target_names()))
    if unknown:
        fail("usage.only", f"--only: unknown target(s) {unknown}; known: {target_names()}")
    targets = [t for t in TARGETS if not only or t.name in only]
    try:
        if check:
            found = stale(root, targets)
            for line in found:
                typer.echo(line)
            if found:
                typer.echo(f"{len(found)} derived file(s) stale: run buckshot regen", err=True)
                raise typer.Exit(1)
            typer.echo(f"every derived file is up to date ({len(targets)} targets)", err=True)
            return
        done = rewrite(root, targets, told=lambda line: typer.echo(line, err=True))
    except RegenError as error:
        fail("regen.failed", str(error))
    except KeyboardInterrupt:  # every file is written whole (atomically) or not at all
        fail("interrupted", "stopped by Ctrl-C; the files written so far are whole", INTERRUPTED)
    typer.echo(f"{len(done)} file(s) written or removed", err=True)
