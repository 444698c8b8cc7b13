"""Time the verification: each proof, BMC per depth, vacuity, engine walks, the full run.

Run with ``python benchmarks/verify.py [--depth K] [--players LO-HI] [--mutants] [--jobs J]
[--only I1,I6] [--cross-check]``.

Stage times are the time their tasks ran, added up over the worker processes; the full run
is wall-clock time. A proof's time is its term building and solver queries (all chunks).
"""

from __future__ import annotations

import argparse
import time

from buckshot.spec.ruleset import load_ruleset
from buckshot.verification.cli import parse_players
from buckshot.verification.model.config import make_config
from buckshot.verification.run import verify


def main() -> None:
    """Print the time of each stage and of the whole run."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--depth", type=int, default=12)
    parser.add_argument("--players", default="2-8")
    parser.add_argument("--mutants", action="store_true")
    parser.add_argument("--timeout", type=int, default=60)
    parser.add_argument("--jobs", type=int, default=None, help="processes (default: up to 2)")
    parser.add_argument("--no-vacuity", action="store_true")
    parser.add_argument("--walk-steps", type=int, default=10_000, help="engine walks (0: skip)")
    parser.add_argument("--only", default=None, help="comma-separated property IDs")
    parser.add_argument("--cross-check", action="store_true", help="re-check with cvc5")
    args = parser.parse_args()
    cfg = make_config(load_ruleset(), parse_players(args.players))
    started = time.perf_counter()
    report = verify(
        cfg,
        depth=args.depth,
        vacuity=not args.no_vacuity,
        mutants=args.mutants,
        timeout_ms=args.timeout * 1000,
        jobs=args.jobs,
        walk_steps=args.walk_steps,
        only=args.only.split(",") if args.only else None,
        cross_check=args.cross_check,
    )
    total = time.perf_counter() - started
    print(f"bit width {cfg.width}, players {cfg.players_lo}..{cfg.players_hi}, jobs {report.jobs}")
    for proof in report.proofs:
        print(
            f"proof {proof.id:4} {proof.players:8} {proof.verdict:9} {proof.seconds:7.2f} s"
            f"  ({proof.queries} queries)"
        )
    print(f"all proofs: {report.seconds.get('proofs', 0.0):.2f} s")
    figures = report.cross_check_figures()
    if report.cross_check is not None and figures is not None:
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
        print(f"cross-check: {figures.text()}")
    for step in report.bmc_times:
        print(f"bmc depth {step.depth:2}: {step.seconds:7.2f} s")
    bmc = report.seconds.get("bmc", 0.0)
    print(f"bmc to depth {report.bmc_depth}: {bmc:.2f} s ({report.bmc_status})")
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
        by = result.caught_by or "ESCAPED"
        print(f"mutant {result.mutant.name:24} caught by {by:7} {result.seconds:6.2f} s")
    for stage, seconds in report.seconds.items():
        if stage != "total":
            cpu = report.cpu_seconds.get(stage, 0.0)
            print(
                f"stage {stage}: {seconds:.2f} s, processor {cpu:.2f} s (over {report.jobs} jobs)"
            )
    print(f"full run: {total:.2f} s wall clock ({'FAILED' if report.failed else 'ok'})")


if __name__ == "__main__":
    main()
