"""The ``buckshot`` command-line program and its subcommands."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from buckshot import __version__
from buckshot.cli.conformance import app as conformance_app
from buckshot.cli.regen import regen_command
from buckshot.cli.verify import app as verify_app
from buckshot.cli.workbench import (
    AgentOption,
    PlayersOption,
    SeedOption,
    check_agent,
    compare_command,
    sweep_command,
)
from buckshot.command import (
    INTERRUPTED,
    MAX_GAMES,
    InputError,
    RulesOption,
    check_output,
    check_output_folder,
    command_group,
    fail,
    json_problem,
    load_rules,
    output_problem,
    read_input,
    save,
)
from buckshot.progress import CommandProgress, QuietOption
from buckshot.reference.agents import AGENTS
from buckshot.report import FormatOption, TableFormat, output_console, print_tables

if TYPE_CHECKING:
    from buckshot.reference.simulate import Summary

# diagrams, explore and verify-trace: defined here, registered below in the order --help lists
diagrams_app = command_group(
    help="Flow diagrams generated from the statecharts: DOT, SVG, Mermaid and an HTML page.",
    invoke_without_command=True,
    no_args_is_help=False,
)


@diagrams_app.callback(invoke_without_command=True)
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


@diagrams_app.command("trace")
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


EXAMPLE = "s6_3_example"
"""The example game played when no log is given (S6.3's worked example)."""


def _check_out(target: Path, given: Path | None, logs: list[Path]) -> None:
    """Refuse a page ``target`` that cannot be written or is a log read; ``given`` is --out
    (None: ``target`` is the default, and the message says how to choose another)."""
    if given is not None:
        check_output(given, "--out")
    elif (problem := output_problem(target)) is not None:
        fail(
            "output.unwritable",
            f"the page's default path {target}: {problem}; choose another with --out FILE",
        )
    if any(target.resolve() == log.resolve() for log in logs):
        fail("usage.out", f"the page {target} is a log given: choose another with --out FILE")


def explore_command(
    log: Annotated[
        Path | None,
        typer.Argument(
            help="An event log (JSON lines): saved by play --log, a conformance adapter's "
            "trace, or another implementation's; none plays the S6.3 worked example.",
        ),
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option(
            "--out",
            help=f"The page to write (default: the log's name with .html, or {EXAMPLE}.html here).",
        ),
    ] = None,
    expected: Annotated[
        Path | None,
        typer.Option(
            "--expected",
            help="Another log of the same game, expected (e.g. the reference engine's): "
            "both are shown side by side, opened at their first difference.",
        ),
    ] = None,
) -> None:
    """Write one self-contained HTML page that steps through an event log on the charts.

    With --expected: both logs side by side, opened at their first difference.
    """
    try:
        from buckshot.diagrams.svg import GraphvizError, dot_installed, dot_missing
        from buckshot.spec.eventlog import EventLogError, parse_log, read_log, refuse_a_folder

        if expected is not None and log is None:
            fail("usage.log", "--expected needs a LOG to compare it with")
        for given in (log, expected):
            if given is not None:
                try:
                    refuse_a_folder(given)
                except EventLogError as error:
                    fail(error.code, error.message)
        target = out or (log.with_suffix(".html") if log else Path(f"{EXAMPLE}.html"))
        _check_out(target, out, [p for p in (log, expected) if p is not None])
        if not dot_installed():
            fail("graphviz", dot_missing("the explorer"))
        try:
            if log is None:
                from buckshot.reference.events import to_jsonl
                from buckshot.reference.examples import EXAMPLES

                events = parse_log(to_jsonl(EXAMPLES[EXAMPLE]()), EXAMPLE)
                title = f"{EXAMPLE} (S6.3 worked example)"
            else:
                events = read_log(log)
                title = log.name
            traces = [(log.name if log else EXAMPLE, events)]
            if expected is not None:
                traces.insert(0, (f"expected: {expected.name}", read_log(expected)))
                title = f"{log.name if log else EXAMPLE} against {expected.name}"
        except EventLogError as error:
            fail(error.code, error.message)
        from buckshot.diagrams.explore_page import chart_svgs, explore_html

        try:
            page = explore_html(traces, title, chart_svgs())
        except GraphvizError as error:
            fail("graphviz", str(error))
        save(target, page, "--out" if out is not None else "the page")
        typer.echo(f"wrote {target} ({len(events)} events)", err=True)
    except KeyboardInterrupt:  # Graphviz, in this process group, is stopped by it too
        fail("interrupted", "stopped by Ctrl-C; nothing was written", INTERRUPTED)


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
    import z3

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


app = command_group(
    help="The game's formal specification, its reference engine and its verification.",
    no_args_is_help=True,
)
spec_app = command_group(
    help="The specification: export it, trace clauses to what cites them, render the rulings.",
    no_args_is_help=True,
)
app.add_typer(spec_app, name="spec")
app.add_typer(diagrams_app, name="diagrams")
app.command("explore")(explore_command)
app.add_typer(conformance_app, name="conformance")
app.add_typer(verify_app, name="verify")
app.command("verify-trace")(verify_trace_command)
app.command("compare")(compare_command)
app.command("sweep")(sweep_command)
app.command("regen")(regen_command)


def _write(text: str, out: Path | None, option: str) -> None:
    if out is None:
        sys.stdout.write(text)
        return
    save(out, text, option, told=True)


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

    check_output(json_out, "--json")
    _write(export_json(load_rules(rules)), json_out, "--json")


@spec_app.command("traceability")
def spec_traceability(
    as_json: Annotated[bool, typer.Option("--json", help="Print the matrix as JSON.")] = False,
    markdown: Annotated[
        Path | None,
        typer.Option(
            "--markdown",
            help="Write which properties and cases check each rule as Markdown to this file "
            "(docs/traceability.md).",
        ),
    ] = None,
) -> None:
    """Print the traceability matrix; exit 1 when a normative clause is cited by nothing."""
    from buckshot.traceability import build_matrix, render_markdown, render_table

    check_output(markdown, "--markdown")
    matrix = build_matrix()
    if markdown is not None:
        _write(render_markdown(matrix), markdown, "--markdown")
    elif as_json:
        sys.stdout.write(json.dumps(matrix.to_dict(), indent=2) + "\n")
    else:
        sys.stdout.write(render_table(matrix))
    if matrix.uncovered():
        raise typer.Exit(1)


spec_app.command("trace", hidden=True, help="The former name of `spec traceability`.")(
    spec_traceability
)


@spec_app.command("rulings")
def spec_rulings(
    out: Annotated[
        Path | None,
        typer.Option("--out", help="Write the Markdown to this file (spec/RULINGS.md)."),
    ] = None,
) -> None:
    """Render the rulings as Markdown, the text committed as spec/RULINGS.md."""
    from buckshot.spec.rulings import render_markdown

    check_output(out, "--out")
    _write(render_markdown(), out, "--out")


@spec_app.command("schema")
def spec_schema(
    out: Annotated[
        Path | None,
        typer.Option(
            "--out", help="Write the schema to this file (spec/schemas/ruleset.schema.json)."
        ),
    ] = None,
) -> None:
    """Write the ruleset's JSON Schema, derived from the declared keys, as committed in spec/."""
    from buckshot.spec.ruleset import ruleset_schema_json

    check_output(out, "--out")
    _write(ruleset_schema_json(), out, "--out")


@app.command("simulate")
def simulate_command(
    games: Annotated[
        int, typer.Option("--games", min=1, max=MAX_GAMES, help="How many games to play.")
    ] = 1000,
    players: PlayersOption = 4,
    seed: SeedOption = 0,
    rules: RulesOption = None,
    agent: AgentOption = "heuristic",
    jobs: Annotated[
        int,
        typer.Option(
            "--jobs", min=0, help="Worker processes (0: one per core; at most one per core)."
        ),
    ] = 0,
    json_out: Annotated[
        Path | None, typer.Option("--json", help="Also write the figures as JSON to this file.")
    ] = None,
    quiet: QuietOption = False,
    table_format: FormatOption = TableFormat.TABLE,
) -> None:
    """Play many bot games; print win rates per role with 95% intervals and game figures.

    Ctrl-C stops at once: the figures of the games finished so far are printed, --json is
    not written, and the exit status is 130."""
    from buckshot.reference.simulate import SimulationInterrupted, simulate
    from buckshot.workers import bounded_workers

    check_agent(agent)
    check_output(json_out, "--json")
    ruleset = load_rules(rules)
    if not ruleset.players.min <= players <= ruleset.players.max:
        fail(
            "usage.players",
            f"the ruleset allows {ruleset.players.min}..{ruleset.players.max} players",
        )
    workers = min(bounded_workers(jobs, "--jobs"), games)
    started = time.perf_counter()
    with CommandProgress("simulate", quiet) as progress:
        try:
            summary = simulate(
                ruleset, games, players, seed, agent, workers, progress.counter(games)
            )
        except SimulationInterrupted as stop:
            summary = stop.summary
    seconds = time.perf_counter() - started
    interrupted = summary.games < games
    title = f"{games} games, {players} players, {agent} bots, seed {seed}"
    if interrupted:
        title = f"{summary.games} of {title} (interrupted)"
    _print_simulation(summary, title, workers, seconds, table_format)
    if interrupted:
        typer.echo(
            f"simulate: interrupted after {summary.games} of {games} games; figures above are "
            "for those" + ("; --json not written" if json_out is not None else ""),
            err=True,
        )
        raise typer.Exit(INTERRUPTED)
    if json_out is not None:
        save(json_out, json.dumps(summary.to_json(), indent=2, sort_keys=True) + "\n", "--json")


def _print_simulation(
    summary: Summary, title: str, workers: int, seconds: float, table_format: TableFormat
) -> None:
    """Print a simulation's figures: the table of roles, then the game figures (as lines of
    text under a drawn table, as a second table in CSV or Markdown)."""
    from rich.table import Table

    data = summary.to_json()
    games = summary.games
    table = Table(title=title)
    for column in ("role", "seats", "wins", "win rate", "95% CI"):
        table.add_column(column, justify="right")
    for role, row in data["roles"].items():
        rate = "-" if row["win_rate"] is None else f"{row['win_rate']:.3f}"
        low, high = row["ci95"]
        table.add_row(
            role, str(row["appearances"]), str(row["wins"]), rate, f"{low:.3f}-{high:.3f}"
        )
    rate = f"{games / seconds:,.1f}" if games else ""
    run = f"{games} games in {seconds:.2f} s, {workers} process{'es' if workers > 1 else ''}"
    figures = [
        ("mean game length", f"{data.get('mean_turns', 0):.1f} turns, "
         f"{data.get('mean_decisions', 0):.1f} decisions"),
        ("games won by a traitor", f"{data.get('traitor_win_share', 0):.3f}"),
        ("draws (turn limit)", str(summary.draws)),
        ("deepest stack reached", f"{summary.deepest_stack} frames"),
        ("games/s", f"{rate} ({run})"),
    ] if games else []  # fmt: skip
    out = output_console()
    if table_format is not TableFormat.TABLE:
        listed = Table(title="game figures")
        listed.add_column("figure")
        listed.add_column("value")
        for name, value in figures:
            listed.add_row(name, value)
        print_tables([table, listed] if figures else [table], table_format, out)
        return
    print_tables([table], table_format, out)
    for name, value in figures[:-1]:
        out.print(f"{name}: {value}", highlight=False)
    if figures:
        out.print(f"{rate} games/s ({run})", highlight=False)


@app.command("play")
def play_command(
    players: Annotated[
        int | None, typer.Option("--players", help="Seats at the table (default 4).")
    ] = None,
    seat: Annotated[
        int | None, typer.Option("--seat", help="Your seat (default 0, who plays first).")
    ] = None,
    hotseat: Annotated[
        bool, typer.Option("--hotseat", help="Every seat is a person at this terminal.")
    ] = False,
    seed: Annotated[int, typer.Option("--seed", help="Seed of roles, chance and bots.")] = 0,
    rules: RulesOption = None,
    roles: Annotated[
        str | None,
        typer.Option("--roles", help="Roles by seat, comma-separated (default: drawn by seed)."),
    ] = None,
    log: Annotated[
        Path | None,
        typer.Option("--log", help="Write the event log (JSON lines) here as the game goes."),
    ] = None,
    ask_always: Annotated[
        bool,
        typer.Option("--ask-always", help="Ask even when a prompt has a single possible answer."),
    ] = False,
    agent: Annotated[
        str | None,
        typer.Option(
            "--agent",
            help=f"The bots at the other seats: {' or '.join(AGENTS)} (default heuristic).",
        ),
    ] = None,
    watch: Annotated[
        bool,
        typer.Option(
            "--watch", help="Once you are out, tell every event to the end (not a summary)."
        ),
    ] = False,
) -> None:
    """Play at the terminal against bots, or hot-seat; you see only what your seat may know.

    Type help or ? at a prompt for the goal, the roles, the traitor and the items."""
    from buckshot.play.run import run_play

    run_play(players, seat, hotseat, seed, rules, roles, log, ask_always, agent, watch)


@app.command("replay")
def replay_command(
    log: Annotated[
        Path,
        typer.Argument(
            help="An event log (JSON lines) to tell, or a counterexample (JSON) to replay.",
        ),
    ],
    seat: Annotated[
        int | None, typer.Option("--seat", help="Tell only what this seat could see.")
    ] = None,
    json_out: Annotated[
        Path | None,
        typer.Option("--json", help="Write a counterexample replay's result as JSON to FILE."),
    ] = None,
) -> None:
    """Print a saved event log as a readable narrative, or replay a counterexample.

    An event log is read by the one log reader (:mod:`buckshot.spec.eventlog`): a file that is
    not one, or a --seat not at its table, is refused with exit 2. A counterexample
    (``buckshot-counterexample/1``, written by ``buckshot verify``: a JSON object over several
    lines, or on one line with a ``format``) is checked against its schema, then played in the
    reference engine step by step; exit 0 when the engine follows it (the bug is in the
    spec), 1 when it departs (the bug is in the model or the engine there) or when it follows
    an enabledness property's path to where the model refused a choice (the model's bug).
    """
    check_output(json_out, "--json")
    if _is_document(log):
        if seat is not None:
            fail("usage.seat", f"--seat {seat}: {log} is a counterexample, replayed whole")
        _replay_counterexample(log, json_out)
        return
    from itertools import chain

    from buckshot.play.narrate import narrate
    from buckshot.reference.events import Event
    from buckshot.spec.eventlog import EventLogError, stream_log

    stream = stream_log(log)  # read as narrated: only the lines told are held
    try:
        first = next(stream)
        seats = len(first.data["seats"])  # the first event is game_started
        if seat is not None and not 0 <= seat < seats:
            fail("usage.seat", f"--seat {seat}: {log} is a game of {seats} seats (0..{seats - 1})")
        events = (Event.from_log(event) for event in chain([first], stream))
        lines = narrate(e for e in events if seat is None or e.visible_to(seat))
    except EventLogError as error:
        fail(error.code, error.message)
    for line in lines:
        typer.echo(line)


def _is_document(path: Path) -> bool:
    """The file is a JSON document, not an event log: its first non-blank line is an object
    with a ``format``, or ``{`` alone with more lines after it (a pretty-printed object). False
    when it cannot be read (the log reader then says why)."""
    from buckshot.spec.eventlog import MAX_LINE_BYTES

    first: str | None = None
    try:
        with path.open("rb") as stream:
            while line := stream.readline(MAX_LINE_BYTES + 1):
                text = line.decode("utf-8", errors="replace").strip()
                if not text:
                    continue
                if first is not None:
                    return True  # "{" alone, then more
                if text != "{":
                    try:
                        data = json.loads(text) if '"format"' in text else None
                    except json.JSONDecodeError:
                        return False
                    return isinstance(data, dict) and "format" in data
                first = text
    except OSError:
        return False
    return False


def _replay_counterexample(path: Path, json_out: Path | None) -> None:
    from buckshot.verification.engine.counterexample import (
        CounterexampleError,
        load_document,
        replay,
    )

    try:
        data = json.loads(read_input(path, "counterexample", "counterexample"))
    except InputError as error:
        fail(error.code, str(error))
    except ValueError as error:
        fail(CounterexampleError.code, f"{path}: {json_problem(error)}, not a counterexample")
    try:
        cex = load_document(data)
    except CounterexampleError as error:
        fail(error.code, f"{path}: {error}")
    result = replay(cex)
    for line in result.lines():
        typer.echo(line)
    if json_out is not None:
        save(json_out, json.dumps(result.to_dict(), indent=2) + "\n", "--json")
    if not result.spec_at_fault:
        raise typer.Exit(1)
