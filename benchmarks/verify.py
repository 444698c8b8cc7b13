"""Time the verification: each proof, BMC per depth, vacuity, engine walks, the full run.

Run with ``python benchmarks/verify.py [--depth K] [--players LO-HI] [--jobs J] [--only I1,I6]
[--cross-check] [--bmc-all] [--update | --results FILE]``.

Stage times are the time their tasks ran, added up over the worker processes; the full run
is wall-clock time. A proof's time is its term building and solver queries (all chunks).
It prints the figures; ``--update`` stores them, with the date and the machine, under the
key ``"verify"`` of ``benchmarks/results.json`` and rewrites the documents' blocks of them
(``results.py``), ``--results FILE`` stores them in FILE; without either nothing is written.
A ``--bmc-all`` run (the main job's) is kept beside the default run's figures, under
``"bmc_all"`` of the same key, so that each run updates its own figures and keeps the other's.
"""

from __future__ import annotations

import argparse
import datetime
import sys
import time
from typing import Any

from figures import render  # benchmarks/figures.py
from results import (  # benchmarks/results.py
    RESULTS,
    add_arguments,
    check_arguments,
    load,
    machine,
    publish,
)

from buckshot.cli.verify import parse_players
from buckshot.progress import CommandProgress
from buckshot.spec.ruleset import load_ruleset
from buckshot.verdict import Verdict
from buckshot.verification.model.config import Config, make_config
from buckshot.verification.report import Report
from buckshot.verification.run import verify


def figures(
    report: Report, total: float, started: datetime.datetime, host: dict[str, Any]
) -> dict[str, Any]:
    """What one run measured, as the results file keeps it; ``host`` is :func:`machine`
    read when the run began (its load average is the one at the start)."""
    return {
        "date": started.strftime("%Y-%m-%d %H:%M UTC"),
        "machine": host,
        "players": [report.cfg.players_lo, report.cfg.players_hi],
        "bit_width": report.cfg.width,
        "jobs": report.jobs,
        "bmc": {
            "status": report.bmc_status,
            "depth": report.bmc_depth,
            "properties": list(report.bmc_checked),
        },
        "wall_seconds": round(total, 1),
        "failed": report.verdict is not Verdict.PASSED,
        "proofs": {p.id: round(p.seconds, 2) for p in report.proofs},
        "stages": {k: round(v, 1) for k, v in report.seconds.items() if k != "total"},
        "cpu": {k: round(v, 1) for k, v in report.cpu_seconds.items()},
    }


def stored_run(args: argparse.Namespace) -> dict[str, Any] | None:
    """The ``verify`` entry already kept where this run's figures would go, if any."""
    path = args.results if args.results is not None and args.results.exists() else RESULTS
    try:
        stored = load(path).get("verify")
    except (OSError, ValueError):
        return None
    return stored if isinstance(stored, dict) else None


def kept(args: argparse.Namespace, measured: dict[str, Any]) -> dict[str, Any]:
    """What to store under ``"verify"``: a default run's figures with the last ``--bmc-all``
    run's kept under ``"bmc_all"``, or a ``--bmc-all`` run's under ``"bmc_all"`` of the last
    default run's (a ``--bmc-all`` run with no default run kept is refused before the work,
    so that it is never shown as the default run)."""
    stored = stored_run(args)
    if stored is None:
        return measured
    if args.bmc_all:
        default = {k: v for k, v in stored.items() if k != "bmc_all"}
        return {**default, "bmc_all": measured}
    if "bmc_all" in stored:
        return {**measured, "bmc_all": stored["bmc_all"]}
    return measured


def run(cfg: Config, args: argparse.Namespace, progress: CommandProgress) -> Report:
    """The verification as the arguments ask, in worker processes (Ctrl-C ends them at
    once), its stages reported to ``progress``."""
    return verify(
        cfg,
        depth=args.depth,
        vacuity=not args.no_vacuity,
        timeout_ms=args.timeout * 1000,
        jobs=args.jobs,
        walk_steps=args.walk_steps,
        only=args.only.split(",") if args.only else None,
        cross_check=args.cross_check,
        bmc_all=args.bmc_all,
        progress=lambda stage, done, total: progress.update(done, total, stage),
        isolate=True,
    )


def main() -> None:
    """Print the time of each stage and of the whole run."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--depth", type=int, default=12)
    parser.add_argument("--players", default="2-8")
    parser.add_argument("--timeout", type=int, default=600, help="wall-clock safety net (s)")
    parser.add_argument("--jobs", type=int, default=None, help="processes (default: up to 2)")
    parser.add_argument("--no-vacuity", action="store_true")
    parser.add_argument("--walk-steps", type=int, default=10_000, help="engine walks (0: skip)")
    parser.add_argument("--only", default=None, help="comma-separated property IDs")
    parser.add_argument("--cross-check", action="store_true", help="re-check with cvc5")
    parser.add_argument("--bmc-all", action="store_true", help="BMC of proved invariants too")
    add_arguments(parser)
    args = parser.parse_args()
    check_arguments(parser, args)
    if args.bmc_all and (args.update or args.results is not None) and stored_run(args) is None:
        parser.error(
            "--bmc-all: no default run is kept yet, beside which this one is stored: "
            "run benchmarks/verify.py without --bmc-all first"
        )
    begun = datetime.datetime.now(datetime.UTC)
    host = machine()
    cfg = make_config(load_ruleset(), parse_players(args.players))
    started = time.perf_counter()
    with CommandProgress("verify benchmark") as progress:
        report = run(cfg, args, progress)
    total = time.perf_counter() - started
    print(f"bit width {cfg.width}, players {cfg.players_lo}..{cfg.players_hi}, jobs {report.jobs}")
    for proof in report.proofs:
        print(
            f"proof {proof.id:4} {proof.players:8} {proof.verdict:9} {proof.seconds:7.2f} s"
            f"  ({proof.queries} queries)"
        )
    print(f"all proofs: {report.seconds.get('proofs', 0.0):.2f} s")
    checked = report.cross_check_figures()
    if report.cross_check is not None and checked is not None:
        for pid, checks in report.cross_check.items():
            seconds = sum(c.seconds for c in checks)
            cpu = sum(c.cpu_seconds for c in checks)
            print(
                f"cross-check {pid:4} {len(checks):3} queries {seconds:7.2f} s, "
                f"processor {cpu:7.2f} s"
            )
            for check in checks:
                if check.agree is not True:
                    print(f"  {pid}: {check.explanation}")
        print(f"cross-check: {checked.text()}")
    for step in report.bmc_times:
        print(f"bmc depth {step.depth:2}: {step.seconds:7.2f} s")
    bmc = report.seconds.get("bmc", 0.0)
    if report.bmc_depth:
        checked = ",".join(report.bmc_checked)
        print(f"bmc of {checked} to depth {report.bmc_depth}: {bmc:.2f} s ({report.bmc_status})")
    else:
        print(f"bmc: {report.bmc_status}")
    for verdict in report.bmc_per_n:
        status = f"{verdict.status} to depth {verdict.depth}"
        print(f"bmc N={verdict.n}: {status} {verdict.seconds:.2f} s")
    for stage, seconds in report.vacuity_times.items():
        print(f"vacuity {stage}: {seconds:.2f} s")
    if report.walks is not None:
        walks = report.walks
        print(
            f"engine walks: {walks.steps} steps, {walks.seconds:.2f} s "
            f"({walks.steps / max(walks.seconds, 1e-9):.0f} steps/s, agreed={walks.agreed})"
        )
    for stage, seconds in report.seconds.items():
        if stage != "total":
            cpu = report.cpu_seconds.get(stage, 0.0)
            print(
                f"stage {stage}: {seconds:.2f} s, processor {cpu:.2f} s (over {report.jobs} jobs)"
            )
    print(f"full run: {total:.2f} s wall clock ({report.verdict.upper()})")
    measured = figures(report, total, begun, host)
    if not args.bmc_all:
        print(render("verify", {"verify": measured}))
    publish(args, "verify", kept(args, measured))


if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:
        print("interrupted; nothing written", file=sys.stderr)
        sys.exit(130)
