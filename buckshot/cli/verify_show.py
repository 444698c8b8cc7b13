"""The report of ``buckshot verify`` on the console: the table of the proofs, the findings,
the times and the verdict; and the counterexamples it saves, each replayable by
``buckshot replay``."""

from __future__ import annotations

import json
from pathlib import Path

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from buckshot.command import save
from buckshot.report import TableFormat, notes_console, print_tables
from buckshot.verdict import Verdict
from buckshot.verification.engine.counterexample import induction_document, to_document
from buckshot.verification.model.config import saturations
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
