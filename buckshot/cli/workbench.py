"""``buckshot compare`` and ``buckshot sweep``: every input checked before the work, the games
played as Dask tasks, the report printed and written as ``--json`` and ``--html``."""

from __future__ import annotations

import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from buckshot.command import INTERRUPTED, MAX_GAMES, check_output, fail, load_rules, save
from buckshot.extras import WORKBENCH, require
from buckshot.progress import CommandProgress, QuietOption
from buckshot.reference.agents import AGENTS
from buckshot.report import FormatOption, TableFormat, output_console

if TYPE_CHECKING:
    from buckshot.spec.ruleset import Ruleset

GamesOption = Annotated[
    int,
    typer.Option(
        "--games", min=1, max=MAX_GAMES, help="Games per ruleset (the same seeds for each)."
    ),
]
PlayersOption = Annotated[int, typer.Option("--players", min=2, max=8, help="Seats per game.")]
SeedOption = Annotated[int, typer.Option("--seed", help="Seed of the whole run.")]
AgentOption = Annotated[str, typer.Option("--agent", help=f"The bots: {' or '.join(AGENTS)}.")]
SchedulerOption = Annotated[
    str | None,
    typer.Option(
        "--scheduler",
        help="Address of a running Dask scheduler (tcp://HOST:8786); default: a local cluster.",
    ),
]
WorkersOption = Annotated[
    int, typer.Option("--workers", min=0, help="Local cluster workers (0: one per core given).")
]
HtmlOption = Annotated[
    Path | None, typer.Option("--html", help="Write the report as an HTML page.")
]
JsonOption = Annotated[Path | None, typer.Option("--json", help="Write the report's data as JSON.")]


def _ruleset(name: str) -> Ruleset:
    """The ruleset named on the command line: ``default`` or a TOML file."""
    return load_rules(None if name == "default" else Path(name))


def check_agent(agent: str) -> None:
    """Refuse (exit 2) an ``--agent`` that names no bot."""
    if agent not in AGENTS:
        fail("usage.agent", f"unknown agent {agent!r}; choose from {sorted(AGENTS)}")


def _check_run(rulesets: Sequence[Ruleset], players: int, agent: str) -> None:
    check_agent(agent)
    for rules in rulesets:
        if not rules.players.min <= players <= rules.players.max:
            fail(
                "usage.players",
                f"--players {players}: a ruleset allows {rules.players.min}..{rules.players.max}",
            )


def _measure(
    rulesets: Sequence[Ruleset],
    games: int,
    players: int,
    seed: int,
    agent: str,
    scheduler: str | None,
    workers: int,
    command: str,
    quiet: bool,
) -> tuple[list[Any], dict[str, Any]]:
    """The balances of ``rulesets`` and what the run was; refused in one line when the
    scheduler cannot be reached, stopped cleanly by Ctrl-C."""
    from buckshot.workbench.cluster import ClusterError, dask_client
    from buckshot.workbench.measure import measure

    started = time.perf_counter()
    total = games * len(rulesets)
    try:
        with CommandProgress(command, quiet) as progress:
            where = scheduler or "a local Dask cluster"
            progress.say(f"{total:,} games of {len(rulesets)} rulesets; starting {where}")
            with dask_client(scheduler, workers) as client:
                count = len(client.scheduler_info(n_workers=-1).get("workers", {}))
                tick = progress.counter(total, "games")
                tick(0)
                balances = measure(client, rulesets, games, players, seed, agent, tick)
    except ClusterError as error:
        fail("cluster.unreachable", str(error))
    except KeyboardInterrupt:
        fail("interrupted", "stopped by Ctrl-C; nothing was written", INTERRUPTED)
    except Exception as error:  # a worker lost or a task failed: one line, no traceback
        reason = " ".join(str(error).split()) or "no message"
        fail("simulation.failed", f"a game failed in a worker: {reason}", 1)
    seconds = time.perf_counter() - started
    run = {
        "games per ruleset": games,
        "players": players,
        "seed": seed,
        "agent": agent,
        "scheduler": scheduler or f"local cluster, {count} workers",
        "simulation seconds": round(seconds, 1),
    }
    return balances, run


def _emit(
    report: Any, html_out: Path | None, json_out: Path | None, table_format: TableFormat
) -> None:
    from buckshot.workbench.report import print_report, render_page

    print_report(report, output_console(), table_format)
    if json_out is not None:
        save(json_out, report.json_text(), told=True)
    if html_out is not None:
        save(html_out, render_page(report), told=True)


def compare_command(
    old: Annotated[str, typer.Argument(help="The old ruleset: a TOML file, or 'default'.")],
    new: Annotated[str, typer.Argument(help="The new ruleset: a TOML file, or 'default'.")],
    games: GamesOption = 2000,
    players: PlayersOption = 4,
    seed: SeedOption = 0,
    agent: AgentOption = "heuristic",
    scheduler: SchedulerOption = None,
    workers: WorkersOption = 0,
    html_out: HtmlOption = None,
    json_out: JsonOption = None,
    quiet: QuietOption = False,
    table_format: FormatOption = TableFormat.TABLE,
    verify: Annotated[
        bool,
        typer.Option(
            "--verify/--no-verify",
            help="Also verify both rulesets: every property per player count, and what is "
            "reachable under each, with the reasons for what is lost.",
        ),
    ] = True,
) -> None:
    """Compare two rulesets: their parameter differences, their verification side by side
    (with --verify, the default) and their balance from the same seeded games, with the
    significant differences and the changed verdicts marked."""
    require(WORKBENCH, "buckshot compare")
    from buckshot.spec.ruleset_diff import differences
    from buckshot.workbench.report import Report
    from buckshot.workbench.sections import (
        balance_comparison_section,
        item_section,
        parameter_section,
        verification_section,
    )
    from buckshot.workbench.significance import compare_balances

    check_output(html_out)
    check_output(json_out)
    rulesets = (_ruleset(old), _ruleset(new))
    _check_run(rulesets, players, agent)
    names = (old, new) if Path(old).name == Path(new).name else (Path(old).name, Path(new).name)
    balances, run = _measure(
        rulesets, games, players, seed, agent, scheduler, workers, "compare", quiet
    )
    checked = (verification_section(names, _verified([rulesets], quiet)[0]),) if verify else ()
    (comparisons,) = compare_balances([(balances[0], balances[1])])
    sections = (
        parameter_section(differences(*rulesets)),
        *checked,
        balance_comparison_section(names, (balances[0], balances[1]), comparisons),
        *(item_section(name, balance) for name, balance in zip(names, balances, strict=True)),
    )
    _emit(Report(f"compare {old} {new}", run, sections), html_out, json_out, table_format)


def _verified(pairs: Sequence[tuple[Ruleset, Ruleset]], quiet: bool) -> list[Any]:
    """Each pair of rulesets verified side by side (:func:`compare_verification`), its steps
    told on standard error unless ``quiet``; Ctrl-C stops it in one line."""
    from buckshot.verification.comparison import compare_verification

    found = []
    try:
        with CommandProgress("verification", quiet) as progress:
            for number, (old, new) in enumerate(pairs, start=1):
                which = f"{number}/{len(pairs)} " if len(pairs) > 1 else ""

                def say(message: str, which: str = which) -> None:
                    progress.say(which + message)

                found.append(compare_verification(old, new, progress=say))
    except KeyboardInterrupt:
        fail("interrupted", "stopped by Ctrl-C; nothing was written", INTERRUPTED)
    return found


def sweep_command(
    param: Annotated[
        list[str],
        typer.Option(
            "--param",
            help="KEY=V1,V2,... or KEY=LO..HI:N (N evenly spaced values); repeat for a grid.",
        ),
    ],
    rules: Annotated[
        Path | None,
        typer.Option("--rules", help="The reference ruleset (default: default)."),
    ] = None,
    games: GamesOption = 1000,
    players: PlayersOption = 4,
    seed: SeedOption = 0,
    agent: AgentOption = "heuristic",
    scheduler: SchedulerOption = None,
    workers: WorkersOption = 0,
    html_out: HtmlOption = None,
    json_out: JsonOption = None,
    quiet: QuietOption = False,
    table_format: FormatOption = TableFormat.TABLE,
    verify: Annotated[
        bool,
        typer.Option(
            "--verify",
            help="Also verify every variant against the reference ruleset (as compare does): "
            "the verdicts that change, with their reasons. A few minutes per variant.",
        ),
    ] = False,
) -> None:
    """Simulate every combination of the --param values, beside the reference ruleset, in
    one table; each figure that differs significantly from the reference is marked. With
    --verify, each variant is also verified against the reference."""
    require(WORKBENCH, "buckshot sweep")
    from buckshot.spec.ruleset import RulesetError
    from buckshot.workbench.overrides import ParamError, parse_param, variants
    from buckshot.workbench.report import Report
    from buckshot.workbench.sections import (
        item_section,
        sweep_section,
        sweep_verification_section,
    )
    from buckshot.workbench.significance import compare_balances

    check_output(html_out)
    check_output(json_out)
    base = load_rules(rules)
    try:
        params = [parse_param(text) for text in param]
        grid = variants(base, params)
    except ParamError as error:
        fail("usage.param", str(error))
    except RulesetError as error:
        fail(error.code, str(error))
    _check_run([v.rules for v in grid], players, agent)
    if games * len(grid) > MAX_GAMES:
        fail(
            "usage.param",
            f"{len(grid) - 1} variants and the reference, {games} games each: "
            f"{games * len(grid):,} games, more than the {MAX_GAMES:,} a run plays",
        )
    balances, run = _measure(
        [v.rules for v in grid], games, players, seed, agent, scheduler, workers, "sweep", quiet
    )
    comparisons = compare_balances([(balances[0], other) for other in balances[1:]])
    run["reference"] = str(rules) if rules is not None else "default"
    run["variants"] = len(grid) - 1
    sections: tuple[Any, ...] = (
        sweep_section(grid, balances, comparisons, params),
        item_section(grid[0].label, balances[0]),
    )
    if verify:
        found = _verified([(grid[0].rules, variant.rules) for variant in grid[1:]], quiet)
        sections += (sweep_verification_section(grid[1:], found),)
    _emit(
        Report("sweep " + " ".join(f"--param {p}" for p in param), run, sections),
        html_out,
        json_out,
        table_format,
    )
