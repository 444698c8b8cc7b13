"""The ``conformance`` commands: run the suite through an adapter, diff reports, check the suite.

The program mounts :data:`app` as ``buckshot conformance``.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from buckshot.command import (
    INTERRUPTED,
    InputError,
    check_output,
    check_output_folder,
    command_group,
    fail,
    json_problem,
    read_input,
    save,
)
from buckshot.conformance.bundled import CASES
from buckshot.progress import CommandProgress, QuietOption
from buckshot.report import FormatOption, TableFormat, output_console, print_tables

if TYPE_CHECKING:
    from buckshot.conformance.runner import CaseResult
    from buckshot.conformance.suite import Suite

CasesOption = Annotated[
    Path,
    typer.Option(
        "--cases",
        help="The folder of cases, or a suite folder holding cases/ (an export's root); "
        "default: the shipped suite.",
    ),
]
"""Every command's --cases option."""

app = command_group(
    help="The conformance suite: run it through an implementation's adapter, compare reports.",
    no_args_is_help=True,
)


@app.command("run")
def run_command(
    adapter: Annotated[
        str,
        typer.Option(
            "--adapter",
            help="The adapter command line, e.g. 'node adapter.js'; 'reference' runs the "
            "reference engine's adapter with this interpreter.",
        ),
    ],
    filters: Annotated[
        list[str] | None,
        typer.Option(
            "--filter",
            help="Select cases: an ID pattern (shot.*), clause:S4.2, ruling:R9, "
            "feature:role.magician or area:shot. Repeat to select more.",
        ),
    ] = None,
    report: Annotated[
        Path | None, typer.Option("--report", help="Write the JSON-lines report here.")
    ] = None,
    junit: Annotated[
        Path | None, typer.Option("--junit", help="Write a JUnit XML report here.")
    ] = None,
    known_failures: Annotated[
        Path | None,
        typer.Option("--known-failures", help="Cases expected to fail: one ID a line, a reason."),
    ] = None,
    strict_known_failures: Annotated[
        bool,
        typer.Option("--strict-known-failures", help="Fail the run when a marked case passes."),
    ] = False,
    timeout: Annotated[
        float, typer.Option("--timeout", min=0.1, help="Seconds the adapter has for one case.")
    ] = 10.0,
    cases: CasesOption = CASES,
    tables: Annotated[
        bool, typer.Option("--tables/--no-tables", help="Print counts by clause and feature.")
    ] = True,
    table_format: FormatOption = TableFormat.TABLE,
    explore: Annotated[
        Path | None,
        typer.Option(
            "--explore",
            help="Write an explorer page for every failing case into this folder: the "
            "reference engine's trace beside the adapter's, opened at the first difference.",
        ),
    ] = None,
    exit_first: Annotated[
        bool,
        typer.Option(
            "--exit-first",
            "-x",
            help="Stop at the first unexpected failure or error (mutation runs need no more).",
        ),
    ] = False,
    chance: Annotated[
        bool,
        typer.Option(
            "--chance",
            help="Then run chance mode too (as 'conformance chance' does): the adapter draws "
            "its own chance and every chance kind's distribution is tested.",
        ),
    ] = False,
    chance_report: Annotated[
        Path | None,
        typer.Option(
            "--chance-report",
            help="With --chance: write chance mode's JSON report here (as 'conformance "
            "chance --report'; the cases' report holds no experiment).",
        ),
    ] = None,
    quiet: QuietOption = False,
) -> None:
    """Run the cases through the adapter; exit 1 on any unexpected failure or error.

    Ctrl-C stops the run at once (the adapter is killed), prints the summary of the cases
    run so far and exits 130 without writing the reports."""
    from buckshot.conformance.protocol import AdapterNotStarted
    from buckshot.conformance.report import count_tables, jsonl_text, junit_xml, render_summary
    from buckshot.conformance.runner import (
        KnownFailuresError,
        RunOptions,
        load_known_failures,
        run_suite,
    )
    from buckshot.conformance.suite import select

    check_output(report, "--report")
    check_output(junit, "--junit")
    check_output(chance_report, "--chance-report")
    if chance_report is not None and not chance:
        fail("usage.chance_report", "--chance-report needs --chance")
    if explore is not None:  # refused before the run, as is no ``dot`` to draw the pages
        from buckshot.diagrams.svg import dot_installed, dot_missing

        check_output_folder(explore, "--explore")
        if not dot_installed():
            fail("graphviz", dot_missing("--explore"))
    marked: dict[str, str] = {}
    if known_failures is not None:
        try:
            marked = load_known_failures(known_failures)
        except KnownFailuresError as error:
            fail(error.code, str(error))
    suite = _load_suite(cases)
    total = len(select(suite.cases, list(filters or [])))
    if total == 0:
        fail("usage.filter", f"--filter {' '.join(filters or [])}: no case matches")
    options = RunOptions(
        adapter=adapter,
        cases_dir=cases,
        filters=list(filters or []),
        timeout=timeout,
        known_failures=marked,
        known_failures_source=None if known_failures is None else str(known_failures),
        strict_known_failures=strict_known_failures,
        exit_first=exit_first,
    )
    with CommandProgress("conformance run", quiet) as progress:
        tick = progress.counter(total)
        try:
            run = run_suite(options, suite, on_result=lambda _result: tick(1))
        except ValueError as error:
            fail("adapter.invalid", str(error))
        except AdapterNotStarted as error:
            fail("adapter.start", f"{error}; no case was run")
    if table_format is TableFormat.TABLE:
        sys.stdout.write(render_summary(run, tables))
    else:  # standard output: the tables alone (notes_console), the rest on standard error
        print_tables(count_tables(run) if tables else [], table_format, output_console())
        sys.stderr.write(render_summary(run, tables=False))
    if run.interrupted:
        typer.echo(
            f"conformance run: interrupted after {len(run.results)} of {total} cases; "
            "no report written",
            err=True,
        )
        raise typer.Exit(INTERRUPTED)
    if run.stopped_early:
        typer.echo(
            f"conformance run: stopped at the first failure (--exit-first) after "
            f"{len(run.results)} of {total} cases",
            err=True,
        )
    if report is not None:
        save(report, jsonl_text(run), "--report")
    if junit is not None:
        save(junit, junit_xml(run), "--junit")
    if explore is not None:
        _write_explorer_pages(run.results, explore)
    chance_failed = chance and _run_chance(adapter, None, 60.0, quiet, chance_report)
    if run.unexpected() or chance_failed:
        raise typer.Exit(1)


def _load_suite(cases: Path) -> Suite:
    """The suite under ``cases``, or a one-line error."""
    from buckshot.conformance.suite import SuiteError, load_suite

    try:
        return load_suite(cases)
    except SuiteError as error:
        fail("suite.invalid", "the suite is broken: " + str(error))


def _run_chance(
    adapter: str,
    only: list[str] | None,
    timeout: float,
    quiet: bool,
    report: Path | None,
    report_option: str = "--chance-report",
) -> bool:
    """Chance mode through ``adapter`` (every experiment, or those ``only`` names): its
    verdicts printed, its JSON report written to ``report`` if given; True when a test failed."""
    import json

    from buckshot.conformance.chance_mode import EXPERIMENTS, render_chance, run_chance
    from buckshot.conformance.protocol import AdapterNotStarted

    known = {experiment.id: experiment for experiment in EXPERIMENTS}
    unknown = [ident for ident in only or [] if ident not in known]
    if unknown:
        fail("usage.only", f"--only {unknown[0]}: no such experiment (known: {', '.join(known)})")
    chosen = tuple(known[ident] for ident in only) if only else EXPERIMENTS
    with CommandProgress("conformance chance", quiet) as progress:
        tick = progress.counter(len(chosen))
        try:
            run = run_chance(adapter, chosen, timeout, on_result=lambda _result: tick(1))
        except ValueError as error:
            fail("adapter.invalid", str(error))
        except AdapterNotStarted as error:
            fail("adapter.start", f"{error}; no experiment was run")
        except KeyboardInterrupt:
            fail(
                "interrupted",
                "stopped by Ctrl-C in chance mode; no chance report written",
                INTERRUPTED,
            )
    sys.stdout.write(render_chance(run))
    if report is not None:
        save(report, json.dumps(run.to_json(), indent=1) + "\n", report_option)
    return bool(run.failed())


def _write_explorer_pages(results: list[CaseResult], folder: Path) -> None:
    from buckshot.conformance.report_page import explorable, write_failure_pages

    failed = sum(1 for result in results if result.status in ("failed", "xfail", "errored"))
    try:
        written, unreadable = write_failure_pages(results, folder)
    except OSError as error:
        fail("output.unwritable", f"cannot write the explorer pages into {folder}: {error}")
    without = failed - len(explorable(results))
    note = f"; {without} errored without a trace to show" if without else ""
    if unreadable:
        note += f"; {len(unreadable)} trace(s) not an event log, the first: {unreadable[0]}"
    typer.echo(f"explorer: {len(written)} page(s) in {folder}{note}", err=True)


@app.command("diff")
def diff_command(
    before: Annotated[Path, typer.Argument(help="The earlier JSON-lines report.")],
    after: Annotated[Path, typer.Argument(help="The later JSON-lines report.")],
) -> None:
    """Compare two reports by case ID; exit 1 when a case that passed no longer does."""
    from buckshot.conformance.report import ReportError, diff_reports, read_jsonl, render_diff

    try:
        old, new = read_jsonl(before), read_jsonl(after)
    except ReportError as error:
        fail(error.code, str(error))
    changes = diff_reports(old, new)
    sys.stdout.write(render_diff(changes, str(before), str(after)))
    if any(change.regression for change in changes):
        raise typer.Exit(1)


@app.command("check")
def check_command(
    cases: CasesOption = CASES,
) -> None:
    """Check every case against the schemas and registries, without running anything."""
    suite = _load_suite(cases)
    generated = sum(1 for case in suite.cases if case.generated)
    typer.echo(
        f"{len(suite.cases)} cases ({len(suite.cases) - generated} hand-written, "
        f"{generated} generated), {len(suite.fixtures)} fixtures, "
        f"{len(suite.features)} features: OK"
    )


@app.command("coverage")
def coverage_command(
    cases: CasesOption = CASES,
    quiet: QuietOption = False,
) -> None:
    """Replay every case on the executable spec; print which chart transitions the suite
    takes and which guard outcomes it shows; exit 1 when one is not covered."""
    from buckshot.conformance.coverage import render, suite_coverage

    suite = _load_suite(cases)
    total = len(suite.cases)
    try:
        with CommandProgress("conformance coverage", quiet) as progress:
            found = suite_coverage(suite.cases, lambda done: progress.update(done, total))
    except KeyboardInterrupt:
        fail("interrupted", "stopped by Ctrl-C; no coverage reported", INTERRUPTED)
    sys.stdout.write(render(found))
    if found.gaps():
        raise typer.Exit(1)


@app.command("chance")
def chance_command(
    adapter: Annotated[
        str,
        typer.Option(
            "--adapter",
            help="The adapter command line; 'reference' runs the reference engine's adapter.",
        ),
    ],
    report: Annotated[
        Path | None, typer.Option("--report", help="Write the JSON report of every test here.")
    ] = None,
    only: Annotated[
        list[str] | None,
        typer.Option("--only", help="Run only this experiment (an ID); repeat for more."),
    ] = None,
    timeout: Annotated[
        float,
        typer.Option("--timeout", min=0.1, help="Seconds the adapter has for one experiment."),
    ] = 60.0,
    quiet: QuietOption = False,
) -> None:
    """Chance mode: the adapter draws its own chance, seeded by the suite, and every chance
    kind's distribution is tested (INTERPRETING.md 2.5); exit 1 when a test fails."""
    check_output(report, "--report")
    if _run_chance(adapter, only, timeout, quiet, report, "--report"):
        raise typer.Exit(1)


@app.command("export")
def export_command(
    folder: Annotated[Path, typer.Argument(help="The folder to write (empty, or an export).")],
    cases: CasesOption = CASES,
) -> None:
    """Write a copy of the suite to vendor: cases, fixtures, schemas, INTERPRETING.md, the
    chance experiments and a manifest (versions, counts, the SHA-256 of every file)."""
    from buckshot.conformance.export import ExportError, check_export_folder, write_export
    from buckshot.conformance.suite import SuiteError, load_suite

    check_output_folder(folder, "FOLDER")
    try:
        check_export_folder(folder)
        suite = load_suite(cases)
        manifest = write_export(suite, folder)
    except ExportError as error:
        fail("output.unwritable", str(error))
    except SuiteError as error:
        fail("suite.invalid", "the suite is broken:\n" + str(error))
    except OSError as error:
        fail("output.unwritable", f"cannot write the export into {folder}: {error}")
    counts = manifest["counts"]
    typer.echo(
        f"exported {counts['cases']} cases, {counts['schemas']} schemas and "
        f"{counts['files']} files in all to {folder} (manifest.json)"
    )


@app.command("report")
def report_command(
    reports: Annotated[
        list[Path], typer.Argument(help="JSON-lines reports of conformance run, one a column.")
    ],
    out: Annotated[Path, typer.Option("--out", help="The HTML page to write.")],
    title: Annotated[
        str, typer.Option("--title", help="The page's title.")
    ] = "Conformance reports compared",
    chance: Annotated[
        list[Path] | None,
        typer.Option(
            "--chance", help="A JSON report of conformance chance, shown too; repeat for more."
        ),
    ] = None,
) -> None:
    """Write one HTML page comparing the reports side by side, case by case and by area
    (and chance mode's tests, with --chance)."""
    from buckshot.conformance.report import ReportError, read_jsonl
    from buckshot.conformance.report_page import comparison_html

    check_output(out, "--out")
    try:
        read = [read_jsonl(path) for path in reports]
    except ReportError as error:
        fail(error.code, str(error))
    chance_reports = [_read_chance_report(path) for path in chance or []]
    save(out, comparison_html(read, title, chance_reports), "--out")
    typer.echo(f"wrote {out}: {len(read)} reports compared")


def _read_chance_report(path: Path) -> dict[str, Any]:
    """A chance-mode report (``conformance chance --report``), or a one-line error."""
    import json

    from buckshot.conformance.protocol import CHANCE_FORMAT
    from buckshot.conformance.report_page import chance_report_problem

    try:
        report = json.loads(read_input(path, f"{CHANCE_FORMAT} report", "report"))
    except InputError as error:
        fail(error.code, str(error))
    except ValueError as error:
        fail("report.invalid", f"{path}: {json_problem(error)}, not a {CHANCE_FORMAT} report")
    if not isinstance(report, dict) or report.get("format") != CHANCE_FORMAT:
        fail("report.invalid", f"{path}: not a {CHANCE_FORMAT} report")
    if (problem := chance_report_problem(report)) is not None:
        fail("report.invalid", f"{path}: {problem}")
    return report
