"""Time the whole conformance suite through an adapter (the reference one by default).

    python benchmarks/conformance.py [--adapter COMMAND] [--repeat N] [--filter F]...
                                     [--update | --results FILE]

Prints, for each repetition and for the best one, the wall time of the run (adapter start
included), the per-case mean, the processor time of the runner and the adapter (which a
loaded machine does not inflate), and the time to load and check the suite. The figures of
a run of the whole suite through the reference adapter are kept under ``conformance``:
``--update`` stores them in ``benchmarks/results.json`` and rewrites the documents' blocks
of them, ``--results FILE`` stores them in FILE; without either nothing is written.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from figures import render  # benchmarks/figures.py
from results import add_arguments, check_arguments, machine, publish  # benchmarks/results.py

from buckshot.conformance import RunOptions, run_suite
from buckshot.conformance.bundled import CASES
from buckshot.conformance.suite import load_suite

REFERENCE = f"{sys.executable} -m buckshot.reference.adapter"


def _cpu_seconds() -> float:
    """Processor time of this process and its finished children (the adapters), in seconds."""
    own, children = (
        resource.getrusage(resource.RUSAGE_SELF),
        resource.getrusage(resource.RUSAGE_CHILDREN),
    )
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark; exit 1 if any case did not pass."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--adapter", default=REFERENCE)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--filter", action="append", default=[])
    parser.add_argument("--cases", type=Path, default=CASES)
    add_arguments(parser)
    args = parser.parse_args(argv)
    check_arguments(parser, args)
    whole = args.adapter == REFERENCE and not args.filter and args.cases == CASES
    if (args.update or args.results is not None) and not whole:
        parser.error(
            "the figures kept are those of the whole shipped suite through the reference adapter"
        )
    started = machine()

    tick = time.perf_counter()
    suite = load_suite(args.cases)
    loading = time.perf_counter() - tick
    print(f"suite: {len(suite.cases)} cases loaded and checked in {loading:.2f} s")
    walls: list[float] = []
    cpus: list[float] = []
    ok = True
    for number in range(1, args.repeat + 1):
        options = RunOptions(adapter=args.adapter, cases_dir=args.cases, filters=args.filter)
        tick, cpu_before = time.perf_counter(), _cpu_seconds()
        run = run_suite(options, suite=suite)
        wall = time.perf_counter() - tick
        cpu = _cpu_seconds() - cpu_before
        walls.append(wall)
        cpus.append(cpu)
        cases = len(run.results)
        mean = wall / cases * 1000 if cases else 0.0
        counts = ", ".join(f"{n} {status}" for status, n in run.counts().items() if n)
        print(
            f"run {number}: {cases} cases in {wall:.2f} s, {mean:.2f} ms per case ({counts}); "
            f"processor time {cpu:.2f} s (runner and adapter)"
        )
        ok = ok and not run.unexpected()
    best = min(walls)
    print(
        f"best of {len(walls)}: {best:.2f} s, {best / max(1, len(run.results)) * 1000:.2f} ms "
        f"per case; median {statistics.median(walls):.2f} s; with loading {best + loading:.2f} s"
    )
    if ok and whole:
        figures: dict[str, Any] = {
            "date": time.strftime("%Y-%m-%d", time.gmtime()),
            "machine": started,
            "cases": len(run.results),
            "repeat": len(walls),
            "best_seconds": round(best, 3),
            "median_seconds": round(statistics.median(walls), 3),
            "best_cpu_seconds": round(cpus[walls.index(best)], 3),
            "load_seconds": round(loading, 3),
        }
        print(render("conformance", {"conformance": figures}))
        publish(args, "conformance", figures)
    return 0 if ok else 1


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        sys.exit(130)
