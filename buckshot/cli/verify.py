"""``buckshot verify``: the typer sub-application that runs the verification and reports it.

Its options are declared here, light to import; the verification and its report
(:mod:`buckshot.cli.verify_show`) are imported when the command runs."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from buckshot.command import (
    INTERRUPTED,
    RulesOption,
    check_output,
    check_output_folder,
    command_group,
    fail,
    load_rules,
    save,
)
from buckshot.progress import CommandProgress, QuietOption
from buckshot.report import FormatOption, TableFormat, output_console
from buckshot.verdict import conclude

if TYPE_CHECKING:
    from buckshot.spec.ruleset import Ruleset

app = command_group(
    help="Prove the spec's invariants with Z3 for every player count, check them on bounded "
    "paths, show they are not vacuous, and walk the engine in lockstep with the model.",
    no_args_is_help=False,
)


def parse_players(text: str) -> tuple[int, int]:
    """``"2-8"`` or ``"5"`` as a (lo, hi) range within 2..8; ``BadParameter`` otherwise."""
    from buckshot.spec.ruleset import PLAYERS_HIGHEST, PLAYERS_LOWEST

    parts = text.split("-")
    try:
        numbers = [int(part) for part in parts]
    except ValueError:
        raise typer.BadParameter(f"expected N or LO-HI, got {text!r}") from None
    if len(numbers) == 1:
        numbers *= 2
    if len(numbers) != 2 or not PLAYERS_LOWEST <= numbers[0] <= numbers[1] <= PLAYERS_HIGHEST:
        raise typer.BadParameter(
            f"expected a player count or range within {PLAYERS_LOWEST}-{PLAYERS_HIGHEST}, "
            f"got {text!r}"
        )
    return numbers[0], numbers[1]


def chosen_players(text: str | None, ruleset: Ruleset) -> tuple[int, int]:
    """The player counts to verify: ``--players`` (:func:`parse_players`), or, when it is not
    given, every count the ruleset allows (``players.min``-``players.max``, R16). A count the
    ruleset does not allow is refused: no verdict is given for a game that cannot be set up."""
    allowed = (ruleset.players.min, ruleset.players.max)
    if text is None:
        return allowed
    lo, hi = parse_players(text)
    if lo < allowed[0] or hi > allowed[1]:
        fail(
            "usage.players",
            f"--players {text}: the ruleset allows {allowed[0]}-{allowed[1]} players "
            "(players.min, players.max)",
        )
    return lo, hi


@app.callback(invoke_without_command=True)
def main(
    players: Annotated[
        str | None,
        typer.Option(
            "--players",
            help="Player counts: a range LO-HI or a single N (default: every count the "
            "ruleset allows, players.min-players.max).",
        ),
    ] = None,
    rules: RulesOption = None,
    depth: Annotated[
        int, typer.Option("--depth", min=0, help="Bounded model checking depth (0: skip).")
    ] = 12,
    json_out: Annotated[
        Path | None, typer.Option("--json", help="Write the full report as JSON to FILE.")
    ] = None,
    vacuity: Annotated[
        bool, typer.Option("--vacuity/--no-vacuity", help="Show every transition reachable.")
    ] = True,
    timeout: Annotated[
        int,
        typer.Option(
            "--timeout",
            min=1,
            help="Wall-clock safety net per solver query, in seconds. Verdicts are decided by "
            "Z3's resource limit; a query stopped by this net is reported as a timeout.",
        ),
    ] = 600,
    only: Annotated[
        str | None,
        typer.Option("--only", help="Comma-separated property IDs to check (default: all)."),
    ] = None,
    jobs: Annotated[
        int | None,
        typer.Option(
            "--jobs",
            min=0,
            help="Worker processes (0: one per core; default: the cores available, at most 2; "
            "at most one per core).",
        ),
    ] = None,
    walk_steps: Annotated[
        int,
        typer.Option(
            "--walk-steps",
            min=0,
            help="Steps of the reference engine run in lockstep with the model (0: skip).",
        ),
    ] = 10_000,
    cross_check: Annotated[
        bool,
        typer.Option(
            "--cross-check",
            help="Re-check every query of the proofs with a second solver (cvc5); "
            "a disagreement fails the property.",
        ),
    ] = False,
    bmc_all: Annotated[
        bool,
        typer.Option(
            "--bmc-all",
            help="Bounded model checking of every invariant, also those the proofs proved "
            "(a cross-check of the proofs); by default only those they left open.",
        ),
    ] = False,
    counterexamples: Annotated[
        Path,
        typer.Option(
            "--counterexamples",
            help="Folder for each counterexample as JSON, replayable by `buckshot replay`.",
            file_okay=False,
        ),
    ] = Path("artifacts/counterexamples"),
    quiet: QuietOption = False,
    table_format: FormatOption = TableFormat.TABLE,
) -> None:
    """Run the verification; exit 0 when every check passed, 1 when a property fails, 2 when
    a check is undecided (with what would decide it) or the input is refused.

    Ctrl-C stops it at once (the worker processes are ended), says which stages had got how
    far, and exits 130 without writing anything."""
    from buckshot.cli.verify_show import save_counterexamples, show
    from buckshot.verification import run
    from buckshot.verification.model.config import make_config
    from buckshot.verification.proofs.induction import all_properties
    from buckshot.workers import bounded_workers

    ruleset = load_rules(rules)
    check_output(json_out, "--json")
    check_output_folder(counterexamples, "--counterexamples")
    cfg = make_config(ruleset, chosen_players(players, ruleset))
    known = {p.id for p in all_properties()}
    chosen = None if only is None else [part.strip() for part in only.split(",") if part.strip()]
    if chosen == []:
        fail("usage.only", f"--only {only!r}: no property ID (give IDs such as I1,I4)")
    if chosen is not None and not set(chosen) <= known:
        raise typer.BadParameter(f"unknown property IDs: {sorted(set(chosen) - known)}")
    failed: run.RunFailed | None = None
    with CommandProgress("verify", quiet) as progress:
        try:
            report = run.verify(
                cfg,
                depth=depth,
                vacuity=vacuity,
                timeout_ms=timeout * 1000,
                progress=lambda stage, done, total: progress.update(done, total, stage),
                only=chosen,
                jobs=None if jobs is None else bounded_workers(jobs, "--jobs"),
                walk_steps=walk_steps,
                cross_check=cross_check,
                isolate=True,
                bmc_all=bmc_all,
            )
        except KeyboardInterrupt:
            typer.echo(
                f"verify: interrupted (finished: {progress.done_so_far()}); nothing written",
                err=True,
            )
            raise typer.Exit(INTERRUPTED) from None
        except run.RunFailed as failure:
            report, failed = failure.report, failure
    out = output_console()  # a log or a pipe: every column whole
    if failed is not None:  # what finished is shown; no verdict on the whole, nothing written
        show(report, out, finished=False, table_format=table_format)
        fail(
            "verify.failed", f"{failed}; the results above are those that finished, nothing written"
        )
    show(report, out, table_format=table_format)
    saved = save_counterexamples(report, counterexamples)
    for path in saved:
        typer.echo(f"counterexample saved: {path} (replay it: buckshot replay {path})", err=True)
    if json_out is not None:
        save(json_out, json.dumps(report.to_dict(), indent=2) + "\n", "--json", told=True)
    conclude("verify", report.findings())
