"""Time the engine-against-model checks: lockstep random walks and model paths replayed.

Run with ``python benchmarks/lockstep.py [--steps N] [--seed S] [--update | --results FILE]``;
prints steps per second for each player count and in all. ``--update`` stores the figures of
all player counts together, with the date and the machine, under the key ``"lockstep"`` of
``benchmarks/results.json`` and rewrites the documents' blocks of them, ``--results FILE``
stores them in FILE; without either nothing is written.
"""

from __future__ import annotations

import argparse
import random
import time
from datetime import UTC, datetime
from typing import Any

from figures import render  # benchmarks/figures.py
from results import add_arguments, check_arguments, machine, publish  # benchmarks/results.py

from buckshot.spec.ruleset import load_ruleset
from buckshot.verification.engine.counterexample import CounterexamplePath, PathStep, replay
from buckshot.verification.engine.lockstep import random_walks
from buckshot.verification.model.executable import ExecutableSpec
from buckshot.verification.render import action


def main() -> None:
    """Print the walks' and the replays' throughput."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--steps", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=0)
    add_arguments(parser)
    args = parser.parse_args()
    check_arguments(parser, args)
    date = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    host = machine()
    rules = load_ruleset()
    spec = ExecutableSpec(rules)
    print("engine drives, model follows (lockstep walks):")
    for n in range(2, 9):
        result = random_walks(spec, rules, args.steps // 7, seed=args.seed, players=(n,))
        rate = result.steps / result.seconds
        print(
            f"  N={n}: {result.steps:6} steps, {result.decisions:5} decisions, "
            f"{result.seconds:6.2f} s, {rate:7.0f} steps/s, agreed={result.agreed}"
        )
    result = random_walks(spec, rules, args.steps, seed=args.seed)
    walks = {
        "steps": result.steps,
        "games": result.games,
        "seconds": round(result.seconds, 3),
        "transitions": len(result.edges),
        "agreed": result.agreed,
    }
    print(
        f"  all: {result.steps} steps in {result.games} games, {result.seconds:.2f} s "
        f"({result.steps / result.seconds:.0f} steps/s), "
        f"{len(result.edges)} transitions taken, agreed={result.agreed}"
    )
    print("model drives, engine follows (random model paths replayed):")
    started, total = time.perf_counter(), 0
    for seed in range(14):
        steps = spec.random_game(2 + seed % 7, random.Random(args.seed + seed), max_steps=500)
        path = CounterexamplePath(
            "walk",
            "",
            rules,
            spec.cfg,
            steps[0].before,
            tuple(PathStep(s.edge.edge.id, s.input, s.after, action(s)) for s in steps),
        )
        assert replay(path).followed
        total += len(steps)
    seconds = time.perf_counter() - started
    print(f"  {total} steps in {seconds:.2f} s ({total / seconds:.0f} steps/s)")
    figures: dict[str, Any] = {
        "date": date,
        "machine": host,
        "steps": args.steps,
        "seed": args.seed,
        "walks": walks,
        "replays": {"steps": total, "seconds": round(seconds, 3)},
    }
    print(render("lockstep", {"lockstep": figures}))
    publish(args, "lockstep", figures)


if __name__ == "__main__":
    main()
