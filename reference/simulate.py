"""Many bot games at once: win rates per role with confidence intervals, and game figures."""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
from typing import Any

from buckshot.reference.agents import AGENTS as AGENTS  # the bots by name, re-exported
from buckshot.reference.agents import Agent, ViewFn, play_out, records_events
from buckshot.reference.chance import SeededChance
from buckshot.reference.game import Game, Prompt
from buckshot.reference.options import Option
from buckshot.spec.rulebook import Role
from buckshot.spec.ruleset import Ruleset
from buckshot.workers import available_cores as available_cores  # re-exported
from buckshot.workers import deaf_children, ignore_ctrl_c, terminate

ITEM_DECISIONS: frozenset[str] = frozenset({"use_item", "use_rescue"})
"""The decisions that use up one held item, named by their ``item`` parameter."""


@dataclass
class GameRecord:
    """What one simulated game contributes to the figures."""

    roles: list[str]
    winners: list[int]
    reason: str
    traitor_won: bool
    turns: int
    decisions: int
    deepest_stack: int
    items_used: dict[str, int] = field(default_factory=dict)
    """How many items of each kind the players used (by :data:`ITEM_DECISIONS`)."""
    seat_items: list[dict[str, int]] = field(default_factory=list)
    """By seat: how many items of each kind that seat used."""


class _CountingAgent:
    """An agent that counts, in ``used`` and in its seat's ``mine``, the items its choices use."""

    def __init__(self, agent: Agent, used: dict[str, int], mine: dict[str, int]) -> None:
        self._agent = agent
        self._used = used
        self._mine = mine

    def choose(self, prompt: Prompt, view: ViewFn) -> Option:
        """The wrapped agent's choice, counted when it uses an item."""
        option = self._agent.choose(prompt, view)
        if option.event in ITEM_DECISIONS:
            item = option.kwargs()["item"]
            kind = str(getattr(item, "value", item))
            self._used[kind] = self._used.get(kind, 0) + 1
            self._mine[kind] = self._mine.get(kind, 0) + 1
        return option


def game_seed(seed: int, index: int) -> int:
    """The seed of the ``index``-th game of a run seeded with ``seed``."""
    return seed * 1_000_003 + index


@dataclass
class Summary:
    """The figures over many games."""

    games: int = 0
    appearances: dict[str, int] = field(default_factory=dict)
    wins: dict[str, int] = field(default_factory=dict)
    traitor_wins: int = 0
    draws: int = 0
    turns: int = 0
    decisions: int = 0
    deepest_stack: int = 0
    items_used: dict[str, int] = field(default_factory=dict)

    def add(self, record: GameRecord) -> None:
        """Count one game in."""
        self.games += 1
        for seat, role in enumerate(record.roles):
            self.appearances[role] = self.appearances.get(role, 0) + 1
            if seat in record.winners:
                self.wins[role] = self.wins.get(role, 0) + 1
        self.traitor_wins += record.traitor_won
        self.draws += not record.winners
        self.turns += record.turns
        self.decisions += record.decisions
        self.deepest_stack = max(self.deepest_stack, record.deepest_stack)
        for kind, count in record.items_used.items():
            self.items_used[kind] = self.items_used.get(kind, 0) + count

    def merge(self, other: Summary) -> None:
        """Count the games of ``other`` in, as if added here one by one."""
        self.games += other.games
        for mine, theirs in (
            (self.appearances, other.appearances),
            (self.wins, other.wins),
            (self.items_used, other.items_used),
        ):
            for key, count in theirs.items():
                mine[key] = mine.get(key, 0) + count
        self.traitor_wins += other.traitor_wins
        self.draws += other.draws
        self.turns += other.turns
        self.decisions += other.decisions
        self.deepest_stack = max(self.deepest_stack, other.deepest_stack)

    def to_json(self) -> dict[str, Any]:
        """The summary with derived rates and intervals, JSON-ready."""
        roles = {}
        for role in (r.value for r in Role):
            n = self.appearances.get(role, 0)
            k = self.wins.get(role, 0)
            low, high = wilson_interval(k, n)
            roles[role] = {
                "appearances": n,
                "wins": k,
                "win_rate": k / n if n else None,
                "ci95": [low, high],
            }
        return {
            **asdict(self),
            "roles": roles,
            "traitor_win_share": self.traitor_wins / self.games if self.games else None,
            "mean_turns": self.turns / self.games if self.games else None,
            "mean_decisions": self.decisions / self.games if self.games else None,
        }


def wilson_interval(
    successes: int, trials: int, z: float = 1.959963984540054
) -> tuple[float, float]:
    """The 95% Wilson score interval for a binomial proportion (0, 1 when there are no trials)."""
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    margin = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return max(0.0, centre - margin), min(1.0, centre + margin)


def play_one(rules: Ruleset, players: int, seed: int, agent: str) -> GameRecord:
    """One game from ``seed``: roles, chance and bots all derived from it."""
    rng = random.Random(seed)
    roles = [rng.choice(list(Role)) for _ in range(players)]
    chance = SeededChance(rng.randrange(2**32))
    game = Game.new(roles, rules, chance, record=records_events(agent))
    used: dict[str, int] = {}
    mine: list[dict[str, int]] = [{} for _ in range(players)]
    bots = [
        _CountingAgent(AGENTS[agent](rng.randrange(2**32)), used, mine[seat])
        for seat in range(players)
    ]
    decisions = play_out(game, bots)
    winners = list(game.state.winners or [])
    return GameRecord(
        roles=[r.value for r in roles],
        winners=winners,
        reason=game.state.end_reason or "",
        traitor_won=any(game.state.seats[s].traitor for s in winners),
        turns=game.state.turn,
        decisions=decisions,
        deepest_stack=game.deepest_stack,
        items_used=dict(sorted(used.items())),
        seat_items=[dict(sorted(counts.items())) for counts in mine],
    )


def _play_batch(args: tuple[dict[str, Any], int, list[int], str]) -> list[GameRecord]:
    from buckshot.spec.ruleset import parse_ruleset

    rules_data, players, seeds, agent = args
    rules = parse_ruleset(rules_data, source="simulate")
    return [play_one(rules, players, seed, agent) for seed in seeds]


def simulate(
    rules: Ruleset,
    games: int,
    players: int,
    seed: int = 0,
    agent: str = "heuristic",
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
) -> Summary:
    """Play ``games`` games and sum them up; the same arguments give the same summary.

    With ``jobs`` above 1 the games are played by that many worker processes, in batches
    small enough to keep every worker busy; each game depends only on its own seed, and the
    batches are summed in order, so the summary is the one a single process gives.
    Ctrl-C ends the workers at once and raises :class:`SimulationInterrupted`.
    """
    seeds = [game_seed(seed, i) for i in range(games)]
    batch = max(1, min(50, math.ceil(games / (4 * jobs))))
    batches = [seeds[i : i + batch] for i in range(0, len(seeds), batch)]
    summary = Summary()
    results: Iterable[list[GameRecord]]
    pool: ProcessPoolExecutor | None = None
    try:
        if jobs > 1 and len(batches) > 1:
            pool = ProcessPoolExecutor(max_workers=jobs, initializer=ignore_ctrl_c)
            work = [(rules.to_dict(), players, b, agent) for b in batches]
            with deaf_children():  # submitting starts the workers
                results = pool.map(_play_batch, work)
        else:
            results = (_play_batch((rules.to_dict(), players, b, agent)) for b in batches)
        for records in results:
            for record in records:
                summary.add(record)
            if progress is not None:
                progress(len(records))
    except KeyboardInterrupt:
        if pool is not None:
            terminate(pool)
        raise SimulationInterrupted(summary) from None
    except BaseException:
        if pool is not None:
            terminate(pool)
        raise
    if pool is not None:
        pool.shutdown()
    return summary


class SimulationInterrupted(KeyboardInterrupt):
    """Ctrl-C stopped :func:`simulate`; ``summary`` holds the games finished before it."""

    def __init__(self, summary: Summary) -> None:
        super().__init__(f"interrupted after {summary.games} games")
        self.summary = summary
