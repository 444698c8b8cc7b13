"""The mutation figures: every row of the fault manifest run, its verdict beside the one expected.

    python benchmarks/faults.py [--room ROOM]... [--batch BATCH]... [--only NAME]... [--jobs J]
                                [--update | --results FILE]

The manifest is ``tests/faults/manifest.json`` (one row per deliberate bug; the breakers and
patches are beside it). Each row is run by the checks its room names:

- ``engine`` and ``contract``: the whole conformance suite through the reference adapter with
  the fault (``python tests/faults/adapter.py --fault NAME``); ``cases fail`` when every case
  of the row's ``caught_by`` fails (the number of failing cases in the whole suite is kept:
  the suite's kill rate);
- ``chance``: every chance-mode experiment through that adapter; ``experiments reject`` when
  every experiment of ``caught_by`` fails;
- ``model`` and ``chart`` (the project's faults and the stranger batches): the properties of
  ``caught_by`` proved with the fault's patch at every player count, and a seeded walk for
  evidence (``tests/faults/mutants.py``); ``caught with evidence``, ``cti only`` (a proof
  fails but no path from an initial state shows the bug) or ``escaped``.

``--room`` (repeatable) keeps the rows of those rooms, ``--batch`` those of a stranger batch
(``stranger-1``, ``stranger-2``, ``stranger-3``; ``project`` for the project's own), ``--only``
the rows named. Prints one line per row (its verdict, the one expected, ``ok`` or ``DIFFERS``, what
caught it) and a line per room. A run of every row is kept under ``faults``: ``--update``
stores it in ``benchmarks/results.json`` and rewrites the blocks made from it, ``--results
FILE`` stores it in FILE; without either nothing is written; a run of part of the manifest is
never published as whole. Exit 1 when a verdict differs from the one expected.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import sys
import time
from collections import Counter
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor, ThreadPoolExecutor
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from figures import render  # benchmarks/figures.py
from results import add_arguments, check_arguments, machine, publish  # benchmarks/results.py

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))  # the faults: faults.*

from faults.adapter import command
from faults.manifest import (
    BATCHES,
    CASES_FAIL,
    EXPERIMENTS_REJECT,
    ROOMS,
    Row,
    rows,
)
from faults.mutants import judge_row

from buckshot.conformance import RunOptions, run_suite
from buckshot.conformance.bundled import CASES
from buckshot.conformance.chance_mode import run_chance
from buckshot.conformance.suite import Suite, load_suite
from buckshot.workers import deaf_children, ignore_ctrl_c, terminate

PROJECT = "project"
"""The ``--batch`` of the project's own faults (rows with no batch)."""


def _named(fault: Row, failed: list[str], verdict: str) -> tuple[str, str]:
    """The verdict of a served fault whose run failed ``failed``: ``verdict`` when every check
    the row names is among them, else which of them passed."""
    passed = [ident for ident in fault.caught_by if ident not in failed]
    if not passed:
        return verdict, f"{len(failed)} failing"
    return ("survived" if not failed else "named checks pass"), "passed: " + ", ".join(passed)


def run_served(fault: Row, suite: Suite) -> dict[str, Any]:
    """Run the engine, contract or chance fault through the suite or chance mode."""
    started = time.perf_counter()
    if fault.room == "chance":
        chance = run_chance(command(fault.name))
        failed = [r.experiment.id for r in chance.results if r.status == "failed"]
        verdict, detail = _named(fault, failed, EXPERIMENTS_REJECT)
        what = "experiments"
    else:
        options = RunOptions(adapter=command(fault.name), cases_dir=CASES, timeout=30.0)
        result = run_suite(options, suite=suite)
        failed = [r.case.id for r in result.results if r.status == "failed"]
        verdict, detail = _named(fault, failed, CASES_FAIL)
        what = "cases"
    return {
        "verdict": verdict,
        "detail": f"{detail} {what}" if verdict != "named checks pass" else detail,
        f"failing_{what}": len(failed),
        "seconds": round(time.perf_counter() - started, 1),
    }


def run_model(outcome: tuple[str, str, str, str, float]) -> dict[str, Any]:
    """A model fault's outcome (:func:`faults.mutants.judge_row`) as a row of the figures."""
    _, verdict, by, evidence, seconds = outcome
    detail = evidence or (f"{by} failed, no path shows it" if by else "no proof failed")
    return {"verdict": verdict, "detail": detail, "seconds": round(seconds, 1)}


def chosen(args: argparse.Namespace, parser: argparse.ArgumentParser) -> list[Row]:
    """The rows the arguments keep, in manifest order (an unknown name is a usage error)."""
    every = rows()
    unknown = sorted(set(args.only) - {fault.name for fault in every})
    if unknown:
        parser.error(f"--only: no fault {', '.join(unknown)} in the manifest")
    batches = {"" if batch == PROJECT else batch for batch in args.batch}
    return [
        fault
        for fault in every
        if (not args.room or fault.room in args.room)
        and (not args.batch or fault.batch in batches)
        and (not args.only or fault.name in args.only)
    ]


def summary(measured: dict[str, dict[str, Any]], every: list[Row]) -> dict[str, Any]:
    """Per room (the stranger batches apart): rows run, verdicts as expected, and the count of
    each verdict."""
    groups: dict[str, dict[str, Any]] = {}
    for fault in every:
        if fault.name not in measured:
            continue
        group = fault.batch or fault.room
        entry = groups.setdefault(group, {"rows": 0, "as_expected": 0, "verdicts": Counter()})
        got = measured[fault.name]["verdict"]
        entry["rows"] += 1
        entry["as_expected"] += got == fault.expected
        entry["verdicts"][got] += 1
    return {name: {**g, "verdicts": dict(g["verdicts"])} for name, g in groups.items()}


def main(argv: list[str] | None = None) -> int:
    """Run the rows, print each verdict beside the expected one, keep a whole run."""
    parser = argparse.ArgumentParser(
        prog="python benchmarks/faults.py", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--room", action="append", default=[], choices=ROOMS)
    parser.add_argument(
        "--batch", action="append", default=[], choices=(PROJECT, *BATCHES), help="see above"
    )
    parser.add_argument("--only", action="append", default=[], help="run only this fault")
    parser.add_argument("--jobs", type=int, default=2, help="rows run at once (default 2)")
    add_arguments(parser)
    args = parser.parse_args(argv)
    if args.jobs < 1:
        parser.error("--jobs must be 1 or more")
    check_arguments(parser, args)
    picked = chosen(args, parser)
    whole = len(picked) == len(rows())
    began, host = datetime.now(UTC), machine()
    started = time.perf_counter()
    measured: dict[str, dict[str, Any]] = {}
    served = [fault for fault in picked if fault.served]
    model = [fault for fault in picked if not fault.served]
    suite = load_suite(CASES)

    def report(fault: Row) -> Callable[[Future[Any]], None]:
        def done(future: Future[Any]) -> None:
            outcome = future.result()
            got = outcome if fault.served else run_model(outcome)
            measured[fault.name] = got
            mark = "ok" if got["verdict"] == fault.expected else "DIFFERS"
            print(
                f"{fault.name:44} {fault.batch or fault.room:10} {got['verdict']:20} "
                f"expected {fault.expected:20} {mark:7} {got['detail']} ({got['seconds']} s)",
                flush=True,
            )

        return done

    # each pool keeps --jobs busy: the served faults are subprocesses, the model faults Z3
    context = multiprocessing.get_context("spawn")  # a worker gets this import path
    threads = ThreadPoolExecutor(max_workers=args.jobs)
    processes = ProcessPoolExecutor(
        max_workers=args.jobs, mp_context=context, initializer=ignore_ctrl_c
    )
    try:
        with deaf_children():
            futures = [threads.submit(run_served, fault, suite) for fault in served]
            futures += [processes.submit(judge_row, fault.name) for fault in model]
        for fault, future in zip([*served, *model], futures, strict=True):
            future.add_done_callback(report(fault))
        for future in futures:
            future.result()
    except KeyboardInterrupt:  # the adapters got the Ctrl-C too; the Z3 workers are ended
        terminate(processes)
        threads.shutdown(wait=False, cancel_futures=True)
        print(f"interrupted after {len(measured)} rows; nothing written", file=sys.stderr)
        os._exit(130)  # the threads wait on adapters that are gone: leave without them
    threads.shutdown()
    processes.shutdown()
    wall = time.perf_counter() - started
    groups = summary(measured, picked)
    for name, group in groups.items():
        verdicts = ", ".join(f"{count} {verdict}" for verdict, count in group["verdicts"].items())
        print(f"{name}: {group['as_expected']}/{group['rows']} as expected ({verdicts})")
    differs = [f.name for f in picked if measured[f.name]["verdict"] != f.expected]
    print(f"{len(picked) - len(differs)}/{len(picked)} rows as expected in {wall:.0f} s")
    figures: dict[str, Any] = {
        "date": began.strftime("%Y-%m-%d %H:%M UTC"),
        "machine": host,
        "jobs": args.jobs,
        "cases": len(suite.cases),
        "rows": len(picked),
        "as_expected": len(picked) - len(differs),
        "differs": differs,
        "groups": groups,
        "per_fault": {f.name: {"expected": f.expected, **measured[f.name]} for f in picked},
        "seconds": round(wall, 1),
        "complete": whole,
        "incomplete": "" if whole else "--room, --batch or --only ran part of the manifest",
    }
    if whole:
        print(render("faults", {"faults": figures}))
    publish(args, "faults", figures)
    return 1 if differs else 0


if __name__ == "__main__":
    sys.exit(main())
