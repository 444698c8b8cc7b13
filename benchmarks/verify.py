"""Time the verification: each proof, BMC per depth, vacuity, engine walks, the full run.

Run with ``python benchmarks/verify.py [--depth K] [--players LO-HI] [--mutants] [--jobs J]
[--only I1,I6] [--cross-check] [--bmc-all] [--results FILE] [--update-readme]``.

Stage times are the time their tasks ran, added up over the worker processes; the full run
is wall-clock time. A proof's time is its term building and solver queries (all chunks).
The figures, with the date and the machine, go to ``benchmarks/results.json`` under the key
``"verify"``; ``--update-readme`` rewrites the README's block of verification figures.
"""

from __future__ import annotations

import argparse
import datetime
import sys
import time
from pathlib import Path
from typing import Any

from results import (
    README,
    RESULTS,
    machine,
    replace_block,
    results_problem,
    store,
)  # benchmarks/results.py

from buckshot.progress import CommandProgress
from buckshot.spec.ruleset import load_ruleset
from buckshot.verification.cli import parse_players
from buckshot.verification.model.config import Config, make_config
from buckshot.verification.proofs.bmc import NOT_NEEDED
from buckshot.verification.report import Report
from buckshot.verification.run import verify

README_BEGIN = "<!-- verification figures: written by benchmarks/verify.py --update-readme -->"
README_END = "<!-- end of verification figures -->"
STAGES = ("proofs", "bmc", "vacuity", "engine", "mutants")
"""The order the README names the stages in (the results file keeps its keys sorted)."""


def figures(report: Report, total: float, started: datetime.datetime) -> dict[str, Any]:
    """What one run measured, as the results file keeps it."""
    return {
        "date": started.strftime("%Y-%m-%d %H:%M UTC"),
        "machine": machine(),
        "players": [report.cfg.players_lo, report.cfg.players_hi],
        "bit_width": report.cfg.width,
        "jobs": report.jobs,
        "bmc": {
            "status": report.bmc_status,
            "depth": report.bmc_depth,
            "properties": list(report.bmc_checked),
        },
        "wall_seconds": round(total, 1),
        "failed": report.failed,
        "proofs": {p.id: round(p.seconds, 2) for p in report.proofs},
        "stages": {k: round(v, 1) for k, v in report.seconds.items() if k != "total"},
        "cpu": {k: round(v, 1) for k, v in report.cpu_seconds.items()},
        "mutants": {
            m.mutant.name: {"verdict": m.verdict, "seconds": round(m.seconds, 1)}
            for m in report.mutants
        },
    }


def markdown(verify_figures: dict[str, Any]) -> str:
    """The README's lines of verification figures, from the ``"verify"`` entry."""
    f = verify_figures
    m = f["machine"]
    proofs = f["proofs"]
    costly = sorted(proofs.items(), key=lambda kv: -kv[1])[:4]
    order = [k for k in STAGES if k in f["stages"]] + sorted(set(f["stages"]) - set(STAGES))
    stages = ", ".join(f"{k} {f['stages'][k]:.0f} s" for k in order)
    lines = [
        f"Measured on {f['date']} with `benchmarks/verify.py` ({m['cores']} cores of an "
        f"{m['cpu']}, load average {m['load_average']} at the start, {f['jobs']} jobs): the "
        f"full run takes {f['wall_seconds']:.0f} s wall clock "
        f"({'FAILED' if f['failed'] else 'every check passed'}); stage times added up over "
        f"the processes: {stages}; {bmc_text(f.get('bmc'))}. The costliest proofs: "
        + ", ".join(f"{pid} {s:.1f} s" for pid, s in costly)
        + f"; the other {len(proofs) - len(costly)} properties "
        f"{sum(proofs.values()) - sum(s for _, s in costly):.1f} s together.",
    ]
    if f["mutants"]:
        caught = sum(1 for v in f["mutants"].values() if v["verdict"] == "caught")
        lines.append(
            f"With `--mutants`: {caught} of {len(f['mutants'])} deliberate bugs caught with "
            "reachable evidence."
        )
    return "\n".join(lines)


def bmc_text(bmc: dict[str, Any] | None) -> str:
    """What the run's bounded model checking did, for the README."""
    if bmc is None:
        return "bounded model checking of every invariant"
    if bmc["status"] == NOT_NEEDED:
        return "bounded model checking not needed (every property proved by induction)"
    if not bmc["depth"]:
        return f"bounded model checking {bmc['status']}"
    return (
        f"bounded model checking of {len(bmc['properties'])} invariants to depth "
        f"{bmc['depth']}: {bmc['status']}"
    )


def run(cfg: Config, args: argparse.Namespace, progress: CommandProgress) -> Report:
    """The verification as the arguments ask, in worker processes (Ctrl-C ends them at
    once), its stages reported to ``progress``."""
    return verify(
        cfg,
        depth=args.depth,
        vacuity=not args.no_vacuity,
        mutants=args.mutants,
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
    parser.add_argument("--mutants", action="store_true")
    parser.add_argument("--timeout", type=int, default=600, help="wall-clock safety net (s)")
    parser.add_argument("--jobs", type=int, default=None, help="processes (default: up to 2)")
    parser.add_argument("--no-vacuity", action="store_true")
    parser.add_argument("--walk-steps", type=int, default=10_000, help="engine walks (0: skip)")
    parser.add_argument("--results", type=Path, default=RESULTS, help="JSON file of figures")
    parser.add_argument("--update-readme", action="store_true", help="rewrite README figures")
    parser.add_argument("--only", default=None, help="comma-separated property IDs")
    parser.add_argument("--cross-check", action="store_true", help="re-check with cvc5")
    parser.add_argument("--bmc-all", action="store_true", help="BMC of proved invariants too")
    args = parser.parse_args()
    if problem := results_problem(args.results):
        parser.error(f"--results: {problem}")
    begun = datetime.datetime.now(datetime.UTC)
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
    for result in report.mutants:
        by = result.caught_by if result.caught else result.verdict.upper()
        evidence = result.evidence.text() if result.evidence is not None else "no evidence"
        print(f"mutant {result.mutant.name:24} {by:9} {result.seconds:6.2f} s  {evidence}")
    for stage, seconds in report.seconds.items():
        if stage != "total":
            cpu = report.cpu_seconds.get(stage, 0.0)
            print(
                f"stage {stage}: {seconds:.2f} s, processor {cpu:.2f} s (over {report.jobs} jobs)"
            )
    print(f"full run: {total:.2f} s wall clock ({'FAILED' if report.failed else 'ok'})")
    measured = figures(report, total, begun)
    store(args.results, "verify", measured)
    print(f"figures written to {args.results}")
    if args.update_readme:
        replace_block(README, README_BEGIN, README_END, markdown(measured))
        print(f"README figures rewritten in {README}")


if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:
        print("interrupted; nothing written", file=sys.stderr)
        sys.exit(130)
