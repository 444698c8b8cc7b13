"""The suite's kill rate: every mutant of the catalogue run through the whole conformance suite.

The mutants are the deliberate bugs of the engine and of its contract
(``buckshot.faults.adapter.CATALOGUE``), each served by ``python -m buckshot.faults.adapter
--fault NAME``, and the bugs of free chance (``buckshot.faults.chance.FAULTS``), which no
case can see: each is served by ``python -m buckshot.faults.chance_adapter --fault NAME``
and run through chance mode's experiments instead (a kill is an experiment that fails).

    python benchmarks/conformance_mutants.py [--jobs J] [--only NAME]... [--json FILE]
                                             [--update | --results FILE]

A mutant is killed when at least one case ends ``failed`` (a real divergence from what the
case expects); a run whose cases only error, or pass, does not count as a kill. Prints one
line per mutant (the failing cases, or SURVIVED) and the kill rate; ``--json FILE`` writes
each mutant's failing cases there. The kill rate of a run of the whole catalogue is kept
under ``conformance_mutants``: ``--update`` stores it in ``benchmarks/results.json`` and
rewrites the documents' blocks of it, ``--results FILE`` stores it in FILE; without either
nothing is written. Exit 1 when a mutant survives.
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from figures import render  # benchmarks/figures.py
from results import add_arguments, check_arguments, machine, publish  # benchmarks/results.py

from buckshot.command import write_atomic
from buckshot.conformance import RunOptions, RunResult, run_suite
from buckshot.conformance.bundled import CASES
from buckshot.conformance.chance_mode import run_chance
from buckshot.conformance.suite import load_suite
from buckshot.faults import chance
from buckshot.faults.adapter import CATALOGUE


def failing_cases(run: RunResult) -> list[str]:
    """The IDs of the cases the run failed (errors and passes excluded)."""
    return [result.case.id for result in run.results if result.status == "failed"]


def failing_experiments(name: str) -> list[str]:
    """The chance-mode experiments that the chance fault ``name`` fails."""
    adapter = shlex.join([sys.executable, "-m", "buckshot.faults.chance_adapter", "--fault", name])
    run = run_chance(adapter)
    return [result.experiment.id for result in run.results if result.status == "failed"]


def main(argv: list[str] | None = None) -> int:
    """Run every mutant through the suite; exit 1 if any survives."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=2, help="mutants run at once (default 2)")
    parser.add_argument("--only", action="append", default=[], help="run only these mutants")
    parser.add_argument("--json", type=Path, default=None, help="each mutant's failing cases")
    add_arguments(parser)
    args = parser.parse_args(argv)
    check_arguments(parser, args)
    unknown = sorted(set(args.only) - set(CATALOGUE) - set(chance.FAULTS))
    if unknown:
        parser.error(f"unknown mutants: {', '.join(unknown)}")
    if args.only and (args.update or args.results is not None):
        parser.error("the kill rate kept is that of the whole catalogue: leave out --only")
    date, host = datetime.now(UTC).strftime("%Y-%m-%d"), machine()
    names = [name for name in args.only if name in CATALOGUE] if args.only else list(CATALOGUE)
    chance_names = (
        [n for n in args.only if n in chance.FAULTS] if args.only else list(chance.FAULTS)
    )
    suite = load_suite(CASES)

    def run(name: str) -> tuple[str, list[str], float]:
        if name in chance.FAULTS:
            tick = time.perf_counter()
            return name, failing_experiments(name), time.perf_counter() - tick
        adapter = shlex.join([sys.executable, "-m", "buckshot.faults.adapter", "--fault", name])
        options = RunOptions(adapter=adapter, cases_dir=CASES, timeout=30.0)
        tick = time.perf_counter()
        failed = failing_cases(run_suite(options, suite=suite))
        return name, failed, time.perf_counter() - tick

    started = time.perf_counter()
    rows: list[dict[str, object]] = []
    try:
        with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
            for name, failed, seconds in pool.map(run, [*names, *chance_names]):
                what = "experiments" if name in chance.FAULTS else "cases"
                verdict = f"killed by {len(failed)} {what}" if failed else "SURVIVED"
                print(f"{name}: {verdict} ({seconds:.1f} s)", flush=True)
                rows.append({"mutant": name, "killed": bool(failed), f"failing_{what}": failed})
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    killed = sum(1 for row in rows if row["killed"])
    wall = time.perf_counter() - started
    print(
        f"kill rate: {killed}/{len(rows)} mutants killed ({100 * killed / len(rows):.1f}%) "
        f"by {len(suite.cases)} cases and the chance experiments in {wall:.0f} s"
    )
    if args.json is not None:
        report = {"cases": len(suite.cases), "killed": killed, "mutants": len(rows), "rows": rows}
        write_atomic(args.json, json.dumps(report, indent=2) + "\n")
    figures: dict[str, Any] = {
        "date": date,
        "machine": host,
        "jobs": args.jobs,
        "cases": len(suite.cases),
        "mutants": len(rows),
        "killed": killed,
        "survived": [str(row["mutant"]) for row in rows if not row["killed"]],
        "chance_mutants": len(chance_names),
        "seconds": round(wall, 1),
    }
    print(render("conformance_mutants", {"conformance_mutants": figures}))
    publish(args, "conformance_mutants", figures)
    return 0 if killed == len(rows) else 1


if __name__ == "__main__":
    sys.exit(main())
