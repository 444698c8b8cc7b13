"""The balance of several rulesets from the same seeded games, played in chunks as Dask tasks
(game ``i`` of every ruleset has :func:`buckshot.reference.simulate.game_seed`'s seed).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final

from distributed import Client, as_completed

from buckshot.reference.simulate import game_seed, play_one
from buckshot.spec.ruleset import Ruleset, parse_ruleset
from buckshot.workbench.balance import Balance

CHUNK_MOST: Final = 250
"""Most games in one task: small enough that the last tasks of a long run end together."""
CHUNK_LEAST: Final = 10
"""Fewest games in one task, so that the cost of a task stays small beside its games."""
TASKS_PER_WORKER: Final = 8
"""Tasks per worker wanted at least, so that every worker stays busy to the end."""

Tick = Callable[[int], None]


@dataclass(frozen=True)
class Chunk:
    """Games ``start`` .. ``start + count - 1`` of the ruleset numbered ``ruleset``."""

    ruleset: int
    start: int
    count: int


def chunk_size(total_games: int, workers: int) -> int:
    """Games per task for ``total_games`` games on ``workers`` workers."""
    wanted = math.ceil(total_games / max(1, workers * TASKS_PER_WORKER))
    return max(CHUNK_LEAST, min(CHUNK_MOST, wanted))


def chunks(rulesets: int, games: int, size: int) -> list[Chunk]:
    """Every ruleset's games cut into chunks of ``size``, ruleset by ruleset."""
    return [
        Chunk(ruleset, start, min(size, games - start))
        for ruleset in range(rulesets)
        for start in range(0, games, size)
    ]


def play_chunk(
    rules: dict[str, Any], players: int, agent: str, seed: int, start: int, count: int
) -> Balance:
    """The balance of games ``start`` .. ``start + count - 1`` of a run seeded with ``seed``."""
    ruleset = parse_ruleset(rules, source="chunk")
    return Balance.of(
        play_one(ruleset, players, game_seed(seed, index), agent)
        for index in range(start, start + count)
    )


def measure(
    client: Client | None,
    rulesets: Sequence[Ruleset],
    games: int,
    players: int,
    seed: int = 0,
    agent: str = "heuristic",
    tick: Tick | None = None,
) -> list[Balance]:
    """The balance of ``games`` games of each ruleset, as Dask tasks on ``client`` (in this
    process when None); ``tick`` hears of each finished chunk.
    """
    if client is None:
        found = []
        for rules in rulesets:
            found.append(play_chunk(rules.to_dict(), players, agent, seed, 0, games))
            if tick is not None:
                tick(games)
        return found
    workers = max(1, len(client.scheduler_info(n_workers=-1).get("workers", {})))
    size = chunk_size(games * len(rulesets), workers)
    plan = chunks(len(rulesets), games, size)
    data = [rules.to_dict() for rules in rulesets]
    futures = {
        client.submit(
            play_chunk, data[c.ruleset], players, agent, seed, c.start, c.count, pure=False
        ): c
        for c in plan
    }
    balances = [Balance() for _ in rulesets]
    try:
        for future, result in as_completed(futures, with_results=True, loop=client.loop):
            chunk = futures[future]
            balances[chunk.ruleset].merge(result)
            if tick is not None:
                tick(chunk.count)
    finally:
        client.cancel(list(futures))
    return balances
