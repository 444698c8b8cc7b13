"""Throughput of the reference engine, beside the ``buckshot-roulette`` package from PyPI.

Usage::

    .venv/bin/python benchmarks/engine.py [--games N] [--seconds S] [--seed K]

For random 4-player and 8-player games of the reference engine (random roles, seeded
chance, random legal decisions among each prompt's options) it prints decisions per second
and games per second; a decision is any answer to a prompt, shot-window passes and flips,
rescues, conversions and discards included. It also prints the turn owner's main-phase
actions (shots, item uses, end_main) per second, which is the unit that compares with a
"move" of the two-player ``buckshot-roulette`` engine (version 0.1.1): a shot or an item.

In the same run it plays random games of that package (``random.choice(board.moves())``
until ``board.winner()``), prints its moves per second, and the ratios. If the package
cannot be imported the script says so and prints the engine's figures alone. Install it
with ``pip install buckshot-roulette==0.1.1``; it is not a dependency of the project.

Each configuration plays ``--games`` games, stopping early when ``--seconds`` have passed
(after one game at least), and going on past ``--games`` until ``--min-seconds`` have
passed, so that the package's very short games are timed over a measurable span. Timings
include creating each game and picking the random decisions, as a client would. Nothing
here asserts on time.
"""

from __future__ import annotations

import argparse
import platform
import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from buckshot.reference.chance import SeededChance
from buckshot.reference.game import Game
from buckshot.spec.rulebook import FrameKind, Role
from buckshot.spec.ruleset import Ruleset, load_ruleset

PACKAGE = "buckshot-roulette"
PACKAGE_VERSION = "0.1.1"
PACKAGE_MOVE_LIMIT = 100_000
"""A package game still running after this many moves is cut off (and counted as such)."""


@dataclass
class Figures:
    """What one configuration did in how long."""

    label: str
    games: int = 0
    decisions: int = 0
    actions: int = 0
    seconds: float = 0.0
    cut_off: int = 0
    failed: int = 0
    note: str = ""

    def per_second(self, count: int) -> float:
        """``count`` divided by the time taken."""
        return count / self.seconds if self.seconds > 0 else float("nan")


@dataclass(frozen=True)
class Budget:
    """How long one configuration plays: ``games`` games, within ``seconds`` seconds.

    A configuration whose ``games`` games take less than ``min_seconds`` plays on until
    then (still within ``seconds``), so that very short games are timed over a span long
    enough to measure.
    """

    games: int
    seconds: float
    min_seconds: float


def _run(label: str, budget: Budget, play_one: Callable[[int, Figures], None]) -> Figures:
    figures = Figures(label)
    start = time.perf_counter()
    while True:
        elapsed = time.perf_counter() - start
        if figures.games and elapsed >= budget.seconds:
            break
        if figures.games >= budget.games and elapsed >= budget.min_seconds:
            break
        play_one(figures.games, figures)
        figures.games += 1
    figures.seconds = time.perf_counter() - start
    return figures


def bench_engine(players: int, budget: Budget, seed: int) -> Figures:
    """Random ``players``-seat games of the reference engine under the default ruleset."""
    rules: Ruleset = load_ruleset()
    roles = tuple(Role)

    def play_one(index: int, figures: Figures) -> None:
        game_seed = seed * 1_000_003 + index
        rng = random.Random(game_seed)
        game = Game.new(
            [rng.choice(roles) for _ in range(players)], rules=rules, chance=SeededChance(game_seed)
        )
        while (prompt := game.prompt) is not None:
            game.decide(prompt.player, rng.choice(prompt.options))
            figures.decisions += 1
            figures.actions += prompt.frame is FrameKind.TURN
        if game.state.end_reason == "turn_limit":
            figures.cut_off += 1

    return _run(f"reference engine, {players} players", budget, play_one)


def load_package() -> tuple[Any, str]:
    """The package's board class and version, or (None, the reason it cannot be used)."""
    try:
        from importlib.metadata import PackageNotFoundError, version

        from buckshot_roulette import (  # type: ignore[import-untyped,import-not-found,unused-ignore]
            BuckshotRoulette,
        )
    except ImportError as error:
        return None, f"cannot import buckshot_roulette ({error})"
    try:
        found = version(PACKAGE)
    except PackageNotFoundError:
        found = "unknown"
    return BuckshotRoulette, found


def bench_package(board_class: Any, budget: Budget, seed: int) -> Figures:
    """Random two-player games of the ``buckshot-roulette`` package.

    The package draws from the global ``random`` module, so each game seeds it.
    """

    def play_one(index: int, figures: Figures) -> None:
        random.seed(seed * 1_000_003 + index)
        board = board_class()
        moves = 0
        try:
            while board.winner() is None:
                if moves >= PACKAGE_MOVE_LIMIT:
                    figures.cut_off += 1
                    break
                board.make_move(random.choice(board.moves()))
                moves += 1
        except Exception:  # the package is a beta; count its failures, do not stop
            figures.failed += 1
        figures.decisions += moves
        figures.actions += moves

    return _run(f"{PACKAGE} {PACKAGE_VERSION}, 2 players", budget, play_one)


def _print_engine(figures: Figures) -> None:
    print(f"{figures.label}:")
    print(
        f"  {figures.games} games, {figures.decisions} decisions "
        f"({figures.actions} main-phase actions) in {figures.seconds:.2f} s"
    )
    print(f"  decisions/s     {figures.per_second(figures.decisions):>12,.0f}")
    print(f"  actions/s       {figures.per_second(figures.actions):>12,.0f}")
    print(f"  games/s         {figures.per_second(figures.games):>12,.1f}")
    print(f"  decisions/game  {figures.decisions / max(figures.games, 1):>12,.1f}")
    if figures.cut_off:
        print(f"  ({figures.cut_off} games ended by the turn limit)")


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200, help="games per configuration")
    parser.add_argument("--seconds", type=float, default=10.0, help="time budget per configuration")
    parser.add_argument(
        "--min-seconds",
        type=float,
        default=1.0,
        help="keep playing short games until this long (within --seconds)",
    )
    parser.add_argument("--seed", type=int, default=0, help="base seed of every game")
    args = parser.parse_args(argv)
    if args.games < 1 or args.seconds <= 0 or args.min_seconds < 0:
        parser.error("--games must be at least 1, --seconds positive, --min-seconds >= 0")
    budget = Budget(args.games, args.seconds, min(args.min_seconds, args.seconds))

    print(f"Python {platform.python_version()} on {platform.machine()}, {platform.system()}")
    print(
        f"{args.games} games per configuration (at least {budget.min_seconds:g} s, "
        f"at most {args.seconds:g} s), seed {args.seed}"
    )
    print()
    engine = [bench_engine(n, budget, args.seed) for n in (4, 8)]
    for figures in engine:
        _print_engine(figures)
    print()

    board_class, found = load_package()
    if board_class is None:
        print(f"{PACKAGE}: {found}; showing the reference engine's figures alone.")
        print(f"(install it with: pip install {PACKAGE}=={PACKAGE_VERSION})")
        return 0
    if found != PACKAGE_VERSION:
        print(
            f"note: {PACKAGE} {found} is installed; these figures were meant for {PACKAGE_VERSION}"
        )
    package = bench_package(board_class, budget, args.seed)
    moves_per_second = package.per_second(package.decisions)
    print(f"{package.label}:")
    print(f"  {package.games} games, {package.decisions} moves in {package.seconds:.2f} s")
    print(f"  moves/s         {moves_per_second:>12,.0f}")
    print(f"  games/s         {package.per_second(package.games):>12,.1f}")
    print(f"  moves/game      {package.decisions / max(package.games, 1):>12,.1f}")
    if package.failed or package.cut_off:
        print(f"  ({package.failed} games raised, {package.cut_off} cut off)")
    print()
    print("ratios (package / engine; above 1 means the package is faster):")
    for figures in engine:
        per_decision = moves_per_second / figures.per_second(figures.decisions)
        per_action = moves_per_second / figures.per_second(figures.actions)
        print(
            f"  {figures.label}: {per_decision:.1f}x per decision, "
            f"{per_action:.1f}x per main-phase action"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
