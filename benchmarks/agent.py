"""The search agent against the heuristic bots, and what one game of search agents costs.

Usage::

    .venv/bin/python benchmarks/agent.py [--games N] [--players K] [--seed S]
                                         [--iterations N] [--timing-games N]
                                         [--balance-games N]
                                         [--workers N] [--scheduler ADDR]
                                         [--update | --results FILE]

Game *i* (the seed ``buckshot simulate`` gives it) seats one search agent
(``reference/search.py``, ``--iterations`` futures per decision, its default unless given)
at seat *i* mod K and heuristic bots at the others; the games run as Dask tasks on the
workbench's cluster (``buckshot/workbench/cluster.py``: a local one of ``--workers``
processes, or the scheduler at ``--scheduler``). It prints the search seat's win rate
with its 95% Wilson interval beside the fair share 1/K, the one-sided exact binomial
p-value of winning no more than that share, and the items of each kind the search seats
and the heuristic seats used.

Then, as ``buckshot compare --agent search`` would, it measures the workbench's balance of
``--balance-games`` games of the default ruleset with the search agent at every seat on the
same cluster, and prints its items-per-role rows over all seats: the share of seats that
used each item kind, and the win rates of those that did and did not.

It then plays ``--timing-games`` games of K search agents (every seat) in this process
and prints the CPU seconds of each (issue 27: a 4-player game at the default budget
within 10 s on one core); CPU time is what this process ran, whatever else shares the
machine. Nothing here asserts on time.

The figures, with the date, the machine and its load, are printed; ``--update`` stores them
under the key ``"agent"`` of ``benchmarks/results.json`` and rewrites the documents' blocks,
``--results FILE`` stores them in FILE; without either nothing is written.
"""

from __future__ import annotations

import argparse
import datetime
import random
import sys
import time
from typing import Any

from results import add_arguments, check_arguments, machine, publish  # benchmarks/results.py
from scipy import stats

from buckshot.reference.agents import HeuristicAgent, play_out
from buckshot.reference.chance import SeededChance
from buckshot.reference.game import Game
from buckshot.reference.search import DEFAULT_ITERATIONS, SearchAgent
from buckshot.reference.simulate import game_seed, wilson_interval
from buckshot.spec.rulebook import Item, Role
from buckshot.spec.ruleset import load_ruleset
from buckshot.workbench.balance import ALL_ROLES, ITEMS
from buckshot.workbench.cluster import ClusterError, dask_client
from buckshot.workbench.measure import measure

ITEM_EVENTS = frozenset({"use_item", "use_rescue"})
"""The decisions that use up one held item (as the simulation counts them)."""


class Counting:
    """An agent that counts the items its choices use, by kind."""

    def __init__(self, agent: Any, used: dict[str, int]) -> None:
        self.agent = agent
        self.used = used

    def choose(self, prompt: Any, view: Any) -> Any:
        """The wrapped agent's choice, counted when it uses an item."""
        option = self.agent.choose(prompt, view)
        if option.event in ITEM_EVENTS:
            kind = option.kwargs()["item"].value
            self.used[kind] = self.used.get(kind, 0) + 1
        return option


def mixed_game(players: int, seed: int, index: int, iterations: int) -> dict[str, Any]:
    """Game ``index`` of a run seeded ``seed``: one search seat (``index`` mod ``players``),
    heuristic bots elsewhere; who won and the items each side used."""
    rng = random.Random(game_seed(seed, index))
    roles = [rng.choice(list(Role)) for _ in range(players)]
    game = Game.new(roles, load_ruleset(), SeededChance(rng.randrange(2**32)))
    mine = index % players
    search_used: dict[str, int] = {}
    heuristic_used: dict[str, int] = {}
    agents = [
        Counting(SearchAgent(rng.randrange(2**32), iterations=iterations), search_used)
        if seat == mine
        else Counting(HeuristicAgent(rng.randrange(2**32)), heuristic_used)
        for seat in range(players)
    ]
    play_out(game, agents)
    winners = game.state.winners or []
    return {
        "won": mine in winners,
        "draw": not winners,
        "role": roles[mine].value,
        "search_items": search_used,
        "heuristic_items": heuristic_used,
    }


def play_chunk(players: int, seed: int, indices: list[int], iterations: int) -> list[Any]:
    """The mixed games of ``indices`` (one Dask task)."""
    return [mixed_game(players, seed, index, iterations) for index in indices]


def all_search_seconds(players: int, seed: int, games: int) -> list[float]:
    """CPU seconds of each of ``games`` games with a default search agent at every seat."""
    seconds = []
    for index in range(games):
        rng = random.Random(game_seed(seed + 1, index))
        roles = [rng.choice(list(Role)) for _ in range(players)]
        game = Game.new(roles, load_ruleset(), SeededChance(rng.randrange(2**32)))
        agents = [SearchAgent(rng.randrange(2**32)) for _ in range(players)]
        started = time.process_time()
        play_out(game, agents)
        seconds.append(time.process_time() - started)
    return seconds


def _totals(games: list[dict[str, Any]], key: str) -> dict[str, int]:
    totals = {item.value: 0 for item in Item}
    for game in games:
        for kind, count in game[key].items():
            totals[kind] += count
    return totals


def main() -> int:
    """Measure, print, and keep the figures as asked."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="mixed games (default 200)")
    parser.add_argument("--players", type=int, default=4, help="seats per game (default 4)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the run (default 0)")
    parser.add_argument(
        "--iterations",
        type=int,
        default=DEFAULT_ITERATIONS,
        help=f"the search seat's futures per decision (default {DEFAULT_ITERATIONS})",
    )
    parser.add_argument(
        "--timing-games", type=int, default=5, help="all-search games timed (default 5)"
    )
    parser.add_argument(
        "--balance-games",
        type=int,
        default=100,
        help="games of search agents at every seat for the balance (default 100; 0: none)",
    )
    parser.add_argument("--workers", type=int, default=0, help="local workers (0: per core)")
    parser.add_argument("--scheduler", default=None, help="a running Dask scheduler's address")
    add_arguments(parser)
    args = parser.parse_args()
    if args.games < 1 or min(args.timing_games, args.balance_games) < 0:
        parser.error("--games must be at least 1, --timing-games and --balance-games at least 0")
    if not 2 <= args.players <= 8:
        parser.error("--players must be 2-8")
    check_arguments(parser, args)
    started = time.perf_counter()
    found: list[dict[str, Any]] = []
    size = 5
    chunks = [list(range(i, min(i + size, args.games))) for i in range(0, args.games, size)]
    try:
        with dask_client(args.scheduler, args.workers) as client:
            workers = len(client.scheduler_info(n_workers=-1).get("workers", {}))
            futures = [
                client.submit(play_chunk, args.players, args.seed, c, args.iterations, pure=False)
                for c in chunks
            ]
            for future in futures:
                found.extend(future.result())
            wall = time.perf_counter() - started
            balance = None
            if args.balance_games:
                rules = [load_ruleset()]
                (balance,) = measure(
                    client, rules, args.balance_games, args.players, args.seed, "search"
                )
    except ClusterError as error:
        print(f"error [cluster.unreachable]: {error}", file=sys.stderr)
        return 2
    wins = sum(g["won"] for g in found)
    share = 1 / args.players
    low, high = wilson_interval(wins, len(found))
    p = float(stats.binomtest(wins, len(found), share, alternative="greater").pvalue)
    search_items = _totals(found, "search_items")
    heuristic_items = _totals(found, "heuristic_items")
    timing = all_search_seconds(args.players, args.seed, args.timing_games)
    figures = {
        "date": datetime.date.today().isoformat(),
        "machine": machine(),
        "games": len(found),
        "players": args.players,
        "seed": args.seed,
        "iterations": args.iterations,
        "workers": workers,
        "wall_seconds": round(wall, 1),
        "wins": wins,
        "draws": sum(g["draw"] for g in found),
        "win_rate": wins / len(found),
        "ci95": [low, high],
        "fair_share": share,
        "p_greater": p,
        "search_items": search_items,
        "heuristic_items": heuristic_items,
        "all_search_cpu_seconds": [round(s, 2) for s in timing],
        "balance_games": args.balance_games,
        "balance_items": {}
        if balance is None
        else {kind: balance.item(ALL_ROLES, kind).to_json() for kind in ITEMS},
    }
    print(
        f"{len(found)} games of {args.players} seats, one search agent ({args.iterations} "
        f"futures per decision) against heuristic bots, {workers} Dask workers, {wall:.0f} s"
    )
    print(
        f"search seat won {wins} ({wins / len(found):.3f}, 95% [{low:.3f}, {high:.3f}]) "
        f"against a fair share of {share:.3f}; one-sided binomial p = {p:.3g}"
    )
    print("items used    search  heuristic")
    for kind in search_items:
        print(f"  {kind:<14} {search_items[kind]:>6} {heuristic_items[kind]:>10}")
    if balance is not None:
        print(f"balance of {args.balance_games} games of search agents, items over all seats:")
        print("  item            used by  win if used  win if not")
        for kind in ITEMS:
            use = balance.item(ALL_ROLES, kind)
            used, won, lost = use.usage.value, use.win_if_used.value, use.win_if_not.value
            print(f"  {kind:<14} {used or 0:>8.3f} {won or 0:>12.3f} {lost or 0:>11.3f}")
    if timing:
        print(
            f"{len(timing)} games of {args.players} search agents: CPU seconds "
            + ", ".join(f"{s:.1f}" for s in timing)
            + f" (mean {sum(timing) / len(timing):.1f}, most {max(timing):.1f})"
        )
    publish(args, "agent", figures)
    return 0


if __name__ == "__main__":
    sys.exit(main())
