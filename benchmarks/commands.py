"""Time the two commands on a fresh clone: the test command as CI runs it, and the main job.

    python benchmarks/commands.py [--only test|main] [--update | --results FILE]

Each command runs in a fresh clone of the checkout's HEAD (uncommitted changes are left
out) in a temporary folder, with ``CI=true``, so that its time includes the set-up it does
the first time (the virtual environment, the package and its tools from the package index,
Debian packages where the system lacks them):

- ``bash .ci/run``, the test command (ruff, mypy and the whole pytest suite): its wall
  clock, and the tests pytest passed and the time pytest reports;
- ``bash scripts/main.sh``, the main job: its wall clock, and the wall clock its
  ``buckshot verify --bmc-all`` reports.

It prints the figures; ``--update`` stores them, with the date, the commit and the machine,
under the key ``"commands"`` of ``benchmarks/results.json`` and rewrites the documents'
blocks of them, ``--results FILE`` stores them in FILE; without either nothing is written.
Both commands take a quarter of an hour on 2 cores; ``--only`` runs one of them (nothing
is then stored). Exit 1 when a command fails.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from figures import render  # benchmarks/figures.py
from results import ROOT, add_arguments, check_arguments, machine, publish

COMMANDS = {"test": ["bash", ".ci/run"], "main": ["bash", "scripts/main.sh"]}
PYTEST_SUMMARY = re.compile(r"^=+ (?P<counts>.*) in (?P<seconds>[\d.]+)s\b.*=+$", re.M)
PASSED = re.compile(r"(\d+) passed")
VERIFY_WALL = re.compile(r"wall clock (?P<seconds>[\d.]+)\s?s\b")


def run_fresh(name: str, folder: Path) -> tuple[int, float, str]:
    """Clone HEAD into ``folder`` and run the command ``name`` there: exit code, wall-clock
    seconds and everything it printed."""
    clone = folder / name
    subprocess.run(["git", "clone", "--quiet", str(ROOT), str(clone)], check=True)
    started = time.perf_counter()
    done = subprocess.run(
        COMMANDS[name],
        cwd=clone,
        env=dict(os.environ, CI="true"),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    return done.returncode, time.perf_counter() - started, done.stdout


def test_figures(code: int, seconds: float, output: str) -> dict[str, Any]:
    """What the test command's run and output say."""
    summary = list(PYTEST_SUMMARY.finditer(output))
    counts = summary[-1].group("counts") if summary else ""
    passed = PASSED.search(counts)
    return {
        "exit_code": code,
        "seconds": round(seconds, 1),
        "passed": int(passed.group(1)) if passed else 0,
        "pytest_seconds": float(summary[-1].group("seconds")) if summary else None,
    }


def main_figures(code: int, seconds: float, output: str) -> dict[str, Any]:
    """What the main job's run and output say."""
    verified = list(VERIFY_WALL.finditer(output))
    return {
        "exit_code": code,
        "seconds": round(seconds, 1),
        "verify_seconds": float(verified[-1].group("seconds")) if verified else None,
    }


def main(argv: list[str] | None = None) -> int:
    """Run the commands, print and keep the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=sorted(COMMANDS), default=None)
    add_arguments(parser)
    args = parser.parse_args(argv)
    check_arguments(parser, args)
    if args.only and (args.update or args.results is not None):
        parser.error("the figures kept are those of both commands: leave out --only")
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True
    ).stdout.strip()
    figures: dict[str, Any] = {
        "date": datetime.now(UTC).strftime("%Y-%m-%d"),
        "commit": commit,
        "machine": machine(),
        "measured_with": "`benchmarks/commands.py`",
    }
    failed = False
    with tempfile.TemporaryDirectory() as folder:
        for name in [args.only] if args.only else list(COMMANDS):
            print(
                f"{name}: {' '.join(COMMANDS[name])} on a fresh clone of {commit} ...", flush=True
            )
            code, seconds, output = run_fresh(name, Path(folder))
            read = test_figures if name == "test" else main_figures
            figures[name] = read(code, seconds, output)
            print(f"{name}: {figures[name]}", flush=True)
            if code != 0:
                failed = True
                print("\n".join(output.splitlines()[-30:]), file=sys.stderr)
    if not args.only:
        print(render("commands", {"commands": figures}))
        publish(args, "commands", figures)
    return 1 if failed else 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        print("interrupted; nothing written", file=sys.stderr)
        sys.exit(130)
