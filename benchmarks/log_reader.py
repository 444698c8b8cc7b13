"""Time and peak memory of the commands that read an event log, on a large log.

Usage::

    .venv/bin/python benchmarks/log_reader.py [--megabytes M] [--seed K] [--update | --results FILE]

Builds a log of about ``--megabytes`` MB (25 by default): a six-seat heuristic-bot game's
``game_started`` followed by the rest of its events repeated, renumbered, until the size is
reached. It is a log the reader accepts (every record is an event of the vocabulary at that
table), not one game the rules allow. Then, each in its own process, it runs
``buckshot diagrams trace`` (refused: more events than a timeline draws),
``buckshot diagrams trace --first 5000`` (the largest drawing allowed) and ``buckshot replay``
(the whole log read, checked and told), and prints each one's exit code, wall-clock seconds
and peak resident memory (the process and the Graphviz it waits for, as ``/usr/bin/time``
counts it). The figures, with the date and the machine and its load, are printed;
``--update`` stores them under the key ``"log_reader"`` of ``benchmarks/results.json`` and
rewrites the documents' blocks of them, ``--results FILE`` stores them in FILE; without
either nothing is written. Nothing here asserts on time or memory.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from figures import render  # benchmarks/figures.py
from results import add_arguments, check_arguments, machine, publish  # benchmarks/results.py

from buckshot.reference.agents import HeuristicAgent, play_out
from buckshot.reference.chance import SeededChance
from buckshot.reference.events import to_jsonl
from buckshot.reference.game import Game
from buckshot.spec.rulebook import Role

PROGRAM = [sys.executable, "-m", "buckshot"]


def write_log(path: Path, megabytes: float, seed: int) -> int:
    """Write a log of about ``megabytes`` MB to ``path`` (see the module's text); its events."""
    rng = random.Random(seed)
    game = Game.new(rng.sample(list(Role), 6), chance=SeededChance(seed))
    play_out(game, [HeuristicAgent(seed + seat) for seat in range(6)])
    first, *rest = (json.loads(line) for line in to_jsonl(game.events).splitlines())
    target = int(megabytes * 1024 * 1024)
    with path.open("w", encoding="utf-8") as out:
        size = out.write(json.dumps(first, separators=(",", ":")) + "\n")
        seq = 1
        while size < target:
            for event in rest:
                seq += 1
                size += out.write(json.dumps({**event, "seq": seq}, separators=(",", ":")) + "\n")
    return seq


def measure(args: list[str]) -> dict[str, Any]:
    """Run the program with ``args``; its exit code, wall-clock seconds and peak memory."""
    started = time.perf_counter()
    process = subprocess.Popen(
        [*PROGRAM, *args], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
    )
    assert process.stderr is not None
    error = process.stderr.read()
    _, status, usage = os.wait4(process.pid, 0)
    seconds = time.perf_counter() - started
    return {
        "args": args,
        "exit_code": os.waitstatus_to_exitcode(status),
        "seconds": round(seconds, 2),
        "peak_mb": round(usage.ru_maxrss / 1024, 1),
        "stderr": error.strip().splitlines()[-1:] if error.strip() else [],
    }


def main(argv: list[str] | None = None) -> int:
    """Build the log, run the commands, print and store the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--megabytes", type=float, default=25.0)
    parser.add_argument("--seed", type=int, default=29)
    add_arguments(parser)
    args = parser.parse_args(argv)
    check_arguments(parser, args)
    with tempfile.TemporaryDirectory() as folder:
        log = Path(folder) / "large.jsonl"
        events = write_log(log, args.megabytes, args.seed)
        size = log.stat().st_size / 1024 / 1024
        print(f"log: {size:.1f} MB, {events:,} events")
        runs = {
            "trace": measure(["diagrams", "trace", str(log), "--out", folder]),
            "trace_first_5000": measure(
                ["diagrams", "trace", str(log), "--out", folder, "--first", "5000"]
            ),
            "replay": measure(["replay", str(log)]),
        }
    for name, run in runs.items():
        run["args"] = [arg.replace(folder, "TMP") for arg in run["args"]]
        run["stderr"] = [line.replace(folder, "TMP") for line in run["stderr"]]
        print(f"{name}: exit {run['exit_code']}, {run['seconds']} s, {run['peak_mb']} MB peak")
    figures: dict[str, Any] = {
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": machine(),
        "log_mb": round(size, 1),
        "log_events": events,
        "runs": runs,
    }
    print(render("log_reader", {"log_reader": figures}))
    publish(args, "log_reader", figures)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
