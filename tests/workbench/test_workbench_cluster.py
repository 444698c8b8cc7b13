"""Games played as Dask tasks give exactly the figures of one process for the same seeds, the
figures agree with ``simulate``'s, and a long sweep is cut into enough chunks for every worker."""

from __future__ import annotations

import pytest

from buckshot.reference.simulate import simulate
from buckshot.spec.ruleset import load_ruleset
from buckshot.workbench.cluster import dask_client
from buckshot.workbench.measure import (
    CHUNK_LEAST,
    CHUNK_MOST,
    chunk_size,
    chunks,
    measure,
)
from buckshot.workbench.overrides import with_values


@pytest.mark.slow
def test_a_two_worker_cluster_gives_the_figures_of_one_process() -> None:
    rules = [load_ruleset(), with_values(load_ruleset(), [("magician.cost", 1)])]
    here = measure(None, rules, 45, 3, seed=11, agent="random")
    ticks: list[int] = []
    with dask_client(None, 2, processes=False) as client:
        assert len(client.scheduler_info(n_workers=-1)["workers"]) == 2
        there = measure(client, rules, 45, 3, seed=11, agent="random", tick=ticks.append)
    assert there == here
    assert [b.to_json() for b in there] == [b.to_json() for b in here]
    assert sum(ticks) == 90
    # the two rulesets did play different games
    assert here[0] != here[1]


@pytest.mark.slow
def test_the_balance_counts_what_simulate_counts_on_the_same_seeds() -> None:
    rules = load_ruleset()
    (balance,) = measure(None, [rules], 30, 4, seed=5)
    summary = simulate(rules, 30, 4, seed=5)
    assert balance.summary == summary
    assert balance.games == 30
    assert sum(turns * n for turns, n in balance.lengths.items()) == summary.turns
    used = {kind: sum(k * n for k, n in h.items()) for kind, h in balance.items.items()}
    assert {k: v for k, v in used.items() if v} == summary.items_used
    # every game is counted once for every item kind
    assert all(sum(h.values()) == 30 for h in balance.items.values())


def test_a_100000_game_sweep_keeps_every_worker_busy() -> None:
    for workers in (2, 8, 64):
        size = chunk_size(100_000, workers)
        assert CHUNK_LEAST <= size <= CHUNK_MOST
        plan = chunks(5, 20_000, size)
        assert len(plan) >= 8 * workers or size == CHUNK_LEAST
        # every game of every ruleset exactly once
        for ruleset in range(5):
            starts = sorted((c.start, c.count) for c in plan if c.ruleset == ruleset)
            covered = [g for start, count in starts for g in range(start, start + count)]
            assert covered == list(range(20_000))
