"""Throughput of the reference engine, beside the ``buckshot-roulette`` package from PyPI.

Usage::

    .venv/bin/python benchmarks/engine.py [--games N] [--seconds S] [--seed K]
                                          [--update | --results FILE]

For random 4-player and 8-player games of the reference engine (random roles, seeded
chance, random legal decisions among each prompt's options), in both of its modes (the
full one, with the typed event log, and the fast one, ``record=False``, without it), it prints
decisions per second and games per second; a decision is any answer to a prompt,
shot-window passes and flips, rescues, conversions and discards included. It also prints
the turn owner's main-phase actions (shots, item uses, end_main) per second, which is the
unit that compares with a "move" of the two-player ``buckshot-roulette`` engine (version
0.1.1): a shot or an item.

It also clones mid-game positions of each configuration (``Game.clone()``, what a search
copies a game with) and prints clones per second and what one clone costs in decisions of
the same configuration (issue 27's target: at most 10).

In the same run it plays random games of that package (``random.choice(board.moves())``
until ``board.winner()``), prints its moves per second, and the ratios, each of
the two engines' rates per CPU-second (what each process ran, whatever else shares the
machine). If the package cannot be imported the script says so and prints the engine's
figures alone; it is a development dependency (``pip install buckshot-roulette==0.1.1``).

Each configuration plays ``--games`` games, stopping early when ``--seconds`` have passed
(after one game at least), and going on past ``--games`` until ``--min-seconds`` have
passed, so that the package's very short games are timed over a measurable span. Timings
include creating each game and picking the random decisions, as a client would; the
process's CPU time is recorded beside the wall-clock time, since the machine may be shared.
Nothing here asserts on time. It says which engine ran, the plain Python or the one
``scripts/build_engine.py`` compiles (not split by cProfile: it sees one call).

The figures, with the date, the machine and its load, are printed; ``--update`` stores them
under the key ``"engine"`` of ``benchmarks/results.json`` (other keys are kept) and rewrites
the documents' blocks of them, ``--results FILE`` stores them in FILE; without either
nothing is written.
"""

from __future__ import annotations

import argparse
import cProfile
import datetime
import pstats
import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from figures import (  # benchmarks/figures.py
    CLONE_TARGET,
    PACKAGE,
    PACKAGE_VERSION,
    target_verdicts,
)
from results import add_arguments, check_arguments, machine, publish  # benchmarks/results.py

from buckshot.reference import engine as engine_build
from buckshot.reference.chance import SeededChance
from buckshot.reference.game import Game
from buckshot.spec.rulebook import FrameKind, Role
from buckshot.spec.ruleset import Ruleset, load_ruleset

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
    cpu_seconds: float = 0.0
    cut_off: int = 0
    failed: int = 0
    note: str = ""

    def per_second(self, count: int) -> float:
        """``count`` divided by the time taken."""
        return count / self.seconds if self.seconds > 0 else float("nan")

    def to_json(self) -> dict[str, Any]:
        """The counts and the rates, JSON-ready (rates rounded to whole units per second)."""
        return {
            "label": self.label,
            "games": self.games,
            "decisions": self.decisions,
            "actions": self.actions,
            "seconds": round(self.seconds, 6),
            "cpu_seconds": round(self.cpu_seconds, 6),
            "decisions_per_s": round(self.per_second(self.decisions)),
            "decisions_per_cpu_s": round(self.decisions / self.cpu_seconds)
            if self.cpu_seconds > 0
            else None,
            "actions_per_s": round(self.per_second(self.actions)),
            "games_per_s": round(self.per_second(self.games), 1),
            "cut_off": self.cut_off,
            "failed": self.failed,
        }


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
    cpu = time.process_time()
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
    figures.cpu_seconds = time.process_time() - cpu
    return figures


def bench_engine(
    players: int, budget: Budget, seed: int, record: bool, rules: Ruleset | None = None
) -> Figures:
    """Random ``players``-seat games of the reference engine (default ruleset unless given)."""
    rules = rules or load_ruleset()
    roles = tuple(Role)

    def play_one(index: int, figures: Figures) -> None:
        game_seed = seed * 1_000_003 + index
        rng = random.Random(game_seed)
        game = Game.new(
            [rng.choice(roles) for _ in range(players)],
            rules=rules,
            chance=SeededChance(game_seed),
            record=record,
        )
        # counted in locals, as the package's loop counts its moves: the loop's own bookkeeping
        # (an attribute's increment, an enum member read through its class) is no engine cost
        decisions = actions = 0
        turn = FrameKind.TURN
        while (prompt := game.prompt) is not None:
            game.decide(prompt.player, rng.choice(prompt.options))
            decisions += 1
            actions += prompt.frame is turn
        figures.decisions += decisions
        figures.actions += actions
        if game.state.end_reason == "turn_limit":
            figures.cut_off += 1

    return _run(f"reference engine, {players} players, {ENGINE_MODES[record]}", budget, play_one)


CLONE_POSITIONS = 24
"""Games of each configuration, each stopped at a random decision, that the clone benchmark
copies in turn."""

BUILDS = {
    "plain": "plain Python",
    "compiled": "built with mypyc by scripts/build_engine.py; BUCKSHOT_ENGINE=plain for the other",
}
"""Which engine runs (:func:`buckshot.reference.engine`), as the figures say it."""

ENGINE_MODES = {True: "full", False: "record=False"}
"""The engine's modes by ``record``, as the figures name them: ``record=False`` is the fast
mode (no event objects, no log)."""


@dataclass
class CloneFigures:
    """How many clones of mid-game positions one configuration made in how long."""

    label: str
    players: int
    mode: str
    clones: int = 0
    seconds: float = 0.0
    cpu_seconds: float = 0.0
    decisions_per_cpu_s: float = float("nan")
    """The same configuration's decisions per CPU-second in this run, to price a clone."""

    def per_second(self) -> float:
        """Clones per second."""
        return self.clones / self.seconds if self.seconds > 0 else float("nan")

    def in_decisions(self) -> float:
        """What one clone costs, in decisions of the same configuration (CPU time of each)."""
        return self.decisions_per_cpu_s * self.cpu_seconds / max(self.clones, 1)

    def to_json(self) -> dict[str, Any]:
        """The counts and the rates, JSON-ready."""
        return {
            "label": self.label,
            "players": self.players,
            "mode": self.mode,
            "clones": self.clones,
            "seconds": round(self.seconds, 6),
            "cpu_seconds": round(self.cpu_seconds, 6),
            "clones_per_s": round(self.per_second()),
            "clones_per_cpu_s": round(self.clones / self.cpu_seconds)
            if self.cpu_seconds > 0
            else None,
            "decisions_per_clone": round(self.in_decisions(), 2),
        }


def clone_positions(players: int, seed: int, record: bool, rules: Ruleset) -> list[Game]:
    """Random ``players``-seat games, each stopped at a random decision (or at its end)."""
    roles = tuple(Role)
    positions = []
    for index in range(CLONE_POSITIONS):
        rng = random.Random(seed * 1_000_003 + index)
        game = Game.new(
            [rng.choice(roles) for _ in range(players)],
            rules=rules,
            chance=SeededChance(index),
            record=record,
        )
        for _ in range(rng.randrange(200)):
            prompt = game.prompt
            if prompt is None:
                break
            game.decide(prompt.player, rng.choice(prompt.options))
        positions.append(game)
    return positions


def bench_clones(
    players: int, budget: Budget, seed: int, record: bool, rules: Ruleset | None = None
) -> CloneFigures:
    """``Game.clone()`` of mid-game positions, round after round over them: at least
    ``budget.games`` rounds and ``budget.min_seconds``, within ``budget.seconds``."""
    positions = clone_positions(players, seed, record, rules or load_ruleset())
    figures = CloneFigures(
        f"{players} players, {ENGINE_MODES[record]}", players, ENGINE_MODES[record]
    )
    rounds = 0
    cpu = time.process_time()
    start = time.perf_counter()
    while True:
        elapsed = time.perf_counter() - start
        if rounds and elapsed >= budget.seconds:
            break
        if rounds >= budget.games and elapsed >= budget.min_seconds:
            break
        for game in positions:
            game.clone()
        rounds += 1
    figures.seconds = time.perf_counter() - start
    figures.cpu_seconds = time.process_time() - cpu
    figures.clones = rounds * len(positions)
    return figures


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
        f"({figures.actions} main-phase actions) in {figures.seconds:.2f} s "
        f"({figures.cpu_seconds:.2f} s of CPU)"
    )
    print(f"  decisions/s     {figures.per_second(figures.decisions):>12,.0f}")
    print(f"  actions/s       {figures.per_second(figures.actions):>12,.0f}")
    print(f"  games/s         {figures.per_second(figures.games):>12,.1f}")
    print(f"  decisions/game  {figures.decisions / max(figures.games, 1):>12,.1f}")
    if figures.cut_off:
        print(f"  ({figures.cut_off} games ended by the turn limit)")


PROFILE_PARTS = (
    ("guards and actions (reference/effects.py)", "/reference/effects.py"),
    ("candidate options and prompts (reference/options.py)", "/reference/options.py"),
    (
        "the step loop, decide, events (reference/game.py, tables.py, events.py)",
        "/reference/game.py",
    ),
    (
        "the step loop, decide, events (reference/game.py, tables.py, events.py)",
        "/reference/tables.py",
    ),
    (
        "the step loop, decide, events (reference/game.py, tables.py, events.py)",
        "/reference/events.py",
    ),
    ("chance draws (reference/chance.py, random)", "/reference/chance.py"),
    ("chance draws (reference/chance.py, random)", "/random.py"),
    ("state helpers (reference/state.py, spec/)", "/reference/state.py"),
    ("state helpers (reference/state.py, spec/)", "/spec/"),
    ("this benchmark's loop", "/benchmarks/engine.py"),
)


def profile(players: int, games: int, seed: int, record: bool) -> dict[str, float]:
    """Where the time of ``games`` random games goes: share of the profiled time by part.

    Built-in functions count towards the part that calls them; the shares are of the
    profiler's total, which the profiler itself inflates evenly per call.
    """
    rules = load_ruleset()
    bench_engine(players, Budget(1, float("inf"), 0.0), seed, record, rules)  # warm up
    profiler = cProfile.Profile()
    budget = Budget(games, float("inf"), 0.0)
    profiler.runcall(bench_engine, players, budget, seed, record, rules)
    stats = pstats.Stats(profiler)
    shares: dict[str, float] = {}
    total = 0.0
    for (filename, _, _), row in stats.stats.items():  # type: ignore[attr-defined]
        own = row[2]
        total += own
        if filename == "~":  # a built-in: charge its callers
            callers = row[4]
            weight = sum(caller[2] for caller in callers.values()) or 1.0
            for (caller_file, _, _), caller in callers.items():
                part = _part(caller_file)
                shares[part] = shares.get(part, 0.0) + own * caller[2] / weight
            continue
        part = _part(filename)
        shares[part] = shares.get(part, 0.0) + own
    return {
        part: round(100 * t / total, 1) for part, t in sorted(shares.items(), key=lambda x: -x[1])
    }


def _part(filename: str) -> str:
    return next((part for part, mark in PROFILE_PARTS if mark in filename), "other")


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark, print the figures and write them to the results file."""
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
    parser.add_argument(
        "--profile-games",
        type=int,
        default=40,
        help="4-player games of each mode profiled for where the time goes (0: none)",
    )
    add_arguments(parser)
    args = parser.parse_args(argv)
    if args.games < 1 or args.seconds <= 0 or args.min_seconds < 0:
        parser.error("--games must be at least 1, --seconds positive, --min-seconds >= 0")
    check_arguments(parser, args)
    budget = Budget(args.games, args.seconds, min(args.min_seconds, args.seconds))

    started = datetime.datetime.now(datetime.UTC)
    host = machine()
    print(f"Python {host['python']} on {host['system']}, {host['cores']} cores of {host['cpu']}")
    print(f"load average at the start: {host['load_average']}")
    build = engine_build()
    print(f"engine: {build} ({BUILDS[build]})")
    print(
        f"{args.games} games per configuration (at least {budget.min_seconds:g} s, "
        f"at most {args.seconds:g} s), seed {args.seed}"
    )
    print()
    engine = [
        bench_engine(players, budget, args.seed, record)
        for players in (4, 8)
        for record in (True, False)
    ]
    for figures in engine:
        _print_engine(figures)
    print()
    clones = []
    for figures in engine:
        players, record = int(figures.label.split()[2]), figures.label.endswith(", full")
        cloned = bench_clones(players, budget, args.seed, record)
        cloned.decisions_per_cpu_s = figures.decisions / max(figures.cpu_seconds, 1e-9)
        clones.append(cloned)
    print(f"Game.clone() of {CLONE_POSITIONS} mid-game positions, round after round:")
    for cloned in clones:
        print(
            f"  {cloned.label}: {cloned.per_second():>10,.0f} clones/s, "
            f"one clone costs {cloned.in_decisions():.2f} decisions "
            f"(target at most {CLONE_TARGET:g}: "
            f"{'met' if cloned.in_decisions() <= CLONE_TARGET else 'not met'})"
        )
    print()

    results: dict[str, Any] = {
        "date": started.strftime("%Y-%m-%d %H:%M UTC"),
        "machine": host,
        "engine": build,
        "arguments": {"games": args.games, "seconds": args.seconds, "seed": args.seed},
        "configurations": [figures.to_json() for figures in engine],
        "clones": [cloned.to_json() for cloned in clones],
        "package": None,
        "ratios": {},
    }
    board_class, found = load_package()
    if board_class is None:
        print(f"{PACKAGE}: {found}; showing the reference engine's figures alone.")
        print(f"(install it with: pip install {PACKAGE}=={PACKAGE_VERSION})")
    else:
        if found != PACKAGE_VERSION:
            print(
                f"note: {PACKAGE} {found} is installed; "
                f"these figures were meant for {PACKAGE_VERSION}"
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
        print(
            "ratios (package / engine, per CPU-second of each; above 1 means the package "
            "is faster):"
        )
        moves_per_cpu_second = package.decisions / max(package.cpu_seconds, 1e-9)
        for figures in engine:
            cpu_seconds = max(figures.cpu_seconds, 1e-9)
            per_decision = moves_per_cpu_second * cpu_seconds / figures.decisions
            per_action = moves_per_cpu_second * cpu_seconds / max(figures.actions, 1)
            print(
                f"  {figures.label}: {per_decision:.2f}x per decision, "
                f"{per_action:.2f}x per main-phase action"
            )
            results["ratios"][figures.label] = round(per_decision, 2)
        for verdict in target_verdicts(results["ratios"], []):  # the clone's is printed above
            print(f"  target: {verdict}")
        results["package"] = {"version": found, **package.to_json()}

    if args.profile_games > 0 and build == "compiled":
        print("\nwhere the time goes: not split for the compiled engine (cProfile sees one call)")
    elif args.profile_games > 0:
        results["profile"] = {}
        for record, mode in ENGINE_MODES.items():
            shares = profile(4, args.profile_games, args.seed, record)
            results["profile"][mode] = shares
            print(f"\nwhere the time goes, {mode}, {args.profile_games} 4-player games (cProfile):")
            for part, share in shares.items():
                print(f"  {share:5.1f}%  {part}")

    print()
    publish(args, "engine", results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
