"""``buckshot verify``: the typer sub-application that runs the verification and reports it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

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
from buckshot.report import (
    FormatOption,
    TableFormat,
    notes_console,
    output_console,
    print_tables,
)
from buckshot.spec.ruleset import PLAYERS_HIGHEST, PLAYERS_LOWEST, Ruleset
from buckshot.verdict import Verdict, conclude
from buckshot.verification.engine.counterexample import induction_document, to_document
from buckshot.verification.model.config import make_config, saturations
from buckshot.verification.model.executable import ExecutableSpec
from buckshot.verification.proofs.bmc import NOT_NEEDED
from buckshot.verification.proofs.crosscheck import DISAGREED, ERROR
from buckshot.verification.proofs.induction import PROVED, UNKNOWN, VIOLATED, all_properties
from buckshot.verification.proofs.vacuity import (
    NOT_SHOWN,
    REACHED_BMC,
    REACHED_VARIANT,
    REACHED_WALK,
)
from buckshot.verification.render import trace
from buckshot.verification.report import Report, cex_text
from buckshot.verification.run import RunFailed, verify
from buckshot.workers import bounded_workers

app = command_group(
    help="Prove the spec's invariants with Z3 for every player count, check them on bounded "
    "paths, show they are not vacuous, and walk the engine in lockstep with the model.",
    no_args_is_help=False,
)


def parse_players(text: str) -> tuple[int, int]:
    """``"2-8"`` or ``"5"`` as a (lo, hi) range within 2..8; ``BadParameter`` otherwise."""
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
    failed: RunFailed | None = None
    with CommandProgress("verify", quiet) as progress:
        try:
            report = verify(
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
        except RunFailed as failure:
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


HEADLINE = {
    Verdict.PASSED: "[bold green]all checks passed[/]",
    Verdict.FAILED: "[bold red]FAILED: a property fails[/]",
    Verdict.UNDECIDED: "[bold yellow]UNDECIDED: no property fails, but not every check could "
    "be decided[/]",
}
STYLE = {PROVED: "green", VIOLATED: "bold red", UNKNOWN: "yellow", DISAGREED: "bold red"}


def cell(verdict: str, seconds: float, note: str = "") -> str:
    """A table cell: the verdict (styled); a violation or unknown with its part and time.

    A proved cell's time is its row's (one query proves every N), in the seconds column.
    """
    if verdict == PROVED:
        return f"[{STYLE[PROVED]}]{verdict}[/]"
    label = f"{verdict} ({note})" if note else verdict
    return f"[{STYLE.get(verdict, '')}]{label}[/]\n{seconds:.2f}s"


def save_counterexamples(report: Report, folder: Path) -> list[Path]:
    """Write every counterexample of the run (BMC paths, counterexamples to induction, one per
    violated N) as a replayable document in ``folder``, read by the model the run checked
    (``report.patch``); the paths written."""
    cfg = report.cfg
    spec = ExecutableSpec(cfg.ruleset, config=cfg, patch=report.patch)
    meta = {p.id: p for p in all_properties()}
    documents: list[tuple[str, dict[str, object]]] = []
    for violation in report.violations:
        statement = meta[violation.property_id].statement
        name = f"{violation.property_id}-bmc-N{violation.n}.json"
        documents.append((name, to_document(spec, violation, statement)))
    for proof in report.proofs:
        for verdict in proof.per_n:
            cex = verdict.counterexample
            if cex is None or not cex.confirmed:
                continue
            statement = meta[proof.id].statement
            doc = induction_document(spec, proof.id, cex.before, cex.input, cex.after, statement)
            documents.append((f"{proof.id}-induction-N{verdict.n}.json", doc))
    written = []
    for name, doc in documents:
        path = folder / name
        save(path, json.dumps(doc, indent=1) + "\n", "--counterexamples")
        written.append(path)
    return written


def show_walks(report: Report, console: Console) -> None:
    """Print the engine's lockstep walks: steps, games, transitions taken, disagreements."""
    walks = report.walks
    if walks is None:
        return
    counts = ", ".join(f"N={n}: {k}" for n, k in sorted(walks.steps_by_players.items()))
    verdict = "[green]agreed[/]" if walks.agreed else "[bold red]DISAGREED[/]"
    console.print(
        f"Engine against the model: {walks.steps} steps ({walks.decisions} decisions) in "
        f"{walks.games} random games, {verdict}; {len(walks.edges)} transitions taken "
        f"({counts}), {walks.seconds:.1f}s"
    )
    for disagreement in walks.disagreements[:3]:
        console.print(disagreement.text(), markup=False)


def show_cross_check(report: Report, console: Console) -> None:
    """Print what the re-checks by cvc5 came to, and each one that did not agree."""
    figures = report.cross_check_figures()
    if report.cross_check is None or figures is None:
        return
    style = "green" if figures.disagreements == figures.errors == 0 else "bold red"
    console.print(f"[{style}]Cross-check: {figures.text()}[/]")
    for pid, checks in report.cross_check.items():
        for check in checks:
            if check.agree is not True:
                mark = "bold red" if check.disagrees or check.cvc5 == ERROR else "yellow"
                console.print(f"  [{mark}]{pid}: {escape(check.explanation)}[/]")


def show(
    report: Report,
    console: Console,
    finished: bool = True,
    table_format: TableFormat = TableFormat.TABLE,
) -> None:
    """Print the table (property x player count, with times) in
    ``table_format`` on ``console``, and every counterexample and finding: beside the tables
    when they are drawn, on standard error when they are CSV or Markdown (so that standard
    output is the tables alone, :func:`notes_console`). With ``finished`` False (a run some of
    whose tasks failed), no verdict on the whole run."""
    notes = notes_console(table_format, console)
    print_tables([proof_table(report)], table_format, console)
    show_findings(report, notes)
    show_ending(report, notes, finished)


def proof_table(report: Report) -> Table:
    """The table of the proofs: property x player count, each cell its verdict (with its
    part and time when not proved), and the bounded model checking's row."""
    meta = {p.id: p for p in all_properties()}
    counts = report.counts()
    label = report.proofs[0].players if report.proofs else ""
    table = Table(
        title=f"Inductive proofs ({label.replace('N=', 'all N in ')}, one query for all N)",
        show_lines=True,
    )
    table.add_column("ID")
    table.add_column("clauses")
    for n in counts:
        table.add_column(f"N={n}")
    table.add_column("seconds", justify="right")
    for proof in report.proofs:
        cells = []
        for n in counts:
            verdict = proof.at(n)
            if verdict is None:
                cells.append("-")
                continue
            note = verdict.part if verdict.verdict != PROVED else ""
            cells.append(cell(verdict.verdict, verdict.seconds, note))
        table.add_row(proof.id, " ".join(meta[proof.id].clauses), *cells, f"{proof.seconds:.2f}")
    if report.bmc_per_n:
        row = []
        for n in counts:
            bmc = next((v for v in report.bmc_per_n if v.n == n), None)
            if bmc is None:
                row.append("-")
                continue
            kind = {"ok": PROVED, "violated": VIOLATED}.get(bmc.status, UNKNOWN)
            row.append(f"[{STYLE[kind]}]{bmc.status} d{bmc.depth}[/]\n{bmc.seconds:.1f}s")
        bmc_seconds = f"{report.seconds.get('bmc', 0.0):.2f}"
        table.add_row(f"BMC<={report.bmc_depth}", "invariants", *row, bmc_seconds)
    return table


def show_findings(report: Report, console: Console) -> None:
    """Print what the proofs' table does not hold: assumptions, saturations, counterexamples,
    the cross-check, the bounded model checking, vacuity and the engine's walks."""
    if report.assumed:
        console.print(
            "[yellow]assumed by every proof above but not proved in this run (--only): "
            f"{', '.join(report.assumed)}[/]"
        )
    for finding in saturations(report.cfg):
        console.print(f"[yellow]saturation: {finding}[/]")
    for proof in report.proofs:
        shown = [v for v in proof.per_n if v.counterexample is not None]
        if proof.counterexample is not None and not shown:
            console.print(f"[bold red]{proof.id} counterexample to induction[/]")
            console.print(cex_text(proof.counterexample), markup=False)
        for verdict in shown[:1]:
            others = ", ".join(str(v.n) for v in shown[1:])
            more = f" (also violated for N={others}; all in the JSON report)" if others else ""
            console.print(
                f"[bold red]{proof.id} counterexample to induction, N={verdict.n}{more}[/]"
            )
            assert verdict.counterexample is not None
            console.print(cex_text(verdict.counterexample), markup=False)
    show_cross_check(report, console)
    if report.bmc_status == NOT_NEEDED:
        console.print(
            "Bounded model checking: not needed; every property, lemmas included, was proved "
            "by induction for every N, which covers paths of every length (--bmc-all runs it "
            "anyway, as a cross-check of the proofs)"
        )
    if report.bmc_depth:
        per_depth = " ".join(f"{t.depth}:{t.seconds:.1f}s" for t in report.bmc_times)
        console.print(
            f"Bounded model checking of {', '.join(report.bmc_checked)} to depth "
            f"{report.bmc_depth}: {report.bmc_status}  ({per_depth})"
        )
        for violation in report.violations:
            console.print(
                f"[bold red]{violation.property_id} violated at depth {violation.depth}, "
                f"N={violation.n}[/]"
            )
            console.print(
                trace(list(violation.witness.steps), violation.witness.start), markup=False
            )
    if report.vacuity:
        tally: dict[str, int] = {}
        for target in report.vacuity:
            tally[target.status] = tally.get(target.status, 0) + 1
        console.print("Vacuity: " + ", ".join(f"{n} {status}" for status, n in tally.items()))
        reached = (REACHED_BMC, REACHED_WALK, REACHED_VARIANT)
        for target in report.vacuity:
            if target.status not in reached:
                note = f" ({target.note})" if target.note else ""
                style = "bold red" if target.status == NOT_SHOWN else "yellow"
                console.print(f"  [{style}]{target.label}: {target.status}{note}[/]")
    show_walks(report, console)


def show_ending(report: Report, console: Console, finished: bool = True) -> None:
    """Print the times, every failure, and (when ``finished``) the verdict on the whole run."""
    stages = ", ".join(f"{k} {v:.1f}s" for k, v in report.seconds.items() if k != "total")
    console.print(
        f"times: {stages} (added up over {report.jobs} process"
        f"{'es' if report.jobs > 1 else ''}); wall clock {report.seconds.get('total', 0):.1f}s"
    )
    for finding in report.findings():
        style = "bold red" if finding.verdict is Verdict.FAILED else "yellow"
        console.print(f"[{style}]{escape(finding.line())}[/]")
    if finished:
        console.print(HEADLINE[report.verdict])
