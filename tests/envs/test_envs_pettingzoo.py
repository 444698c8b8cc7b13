"""The PettingZoo environment passes PettingZoo's own API test and seed test, for 2-8 players."""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import pytest
from envs_helpers import write_variant
from pettingzoo.test import api_test, seed_test

from buckshot.envs.pettingzoo_env import BuckshotEnv, env

PLAYERS = range(2, 9)


@pytest.mark.parametrize("players", PLAYERS)
def test_api_test_passes(players: int) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # its advice (e.g. a mask of all zeros) is no failure
        api_test(env(players=players), num_cycles=400)


@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.slow
def test_seed_test_passes(players: int) -> None:
    seed_test(lambda: env(players=players), num_cycles=400)


def _play(environment: BuckshotEnv, seed: int) -> dict[str, float]:
    """Play a seeded game with random legal actions; each agent's reward at its end."""
    environment.reset(seed=seed)
    rng = np.random.default_rng(seed)
    final: dict[str, float] = {}
    for agent in environment.agent_iter():
        observation, reward, terminated, truncated, _ = environment.last()
        if terminated or truncated:
            final[agent] = reward
            environment.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        environment.step(int(rng.choice(legal)))
    return final


@pytest.mark.parametrize("seed", range(3))
def test_rewards_are_the_payoff_at_the_end(seed: int, tmp_path: Path) -> None:
    _, rules = write_variant(tmp_path)  # a short turn limit: draws too (R21)
    environment = env(players=3, rules=rules)
    final = _play(environment, seed)
    assert environment.game is not None
    state = environment.game.state
    sharing = state.winners or [seat.seat for seat in state.seats if seat.alive]
    assert set(final) == {"seat_0", "seat_1", "seat_2"}  # every seat, out or not, to the end
    for seat in range(3):
        expected = 3 / len(sharing) - 1 if seat in sharing else -1.0
        assert final[f"seat_{seat}"] == pytest.approx(expected)


def test_the_mask_is_the_prompts_options_and_only_the_asked_seats() -> None:
    environment = env(players=4)
    environment.reset(seed=7)
    game = environment.game
    assert game is not None and game.prompt is not None
    for seat, agent in enumerate(environment.possible_agents):
        mask = environment.observe(agent)["action_mask"]
        offered = {environment.setup.actions.option(int(a)) for a in np.flatnonzero(mask)}
        expected = set(game.prompt.option_ids()) if seat == game.prompt.player else set()
        assert offered == expected


def test_an_illegal_action_is_refused() -> None:
    environment = env(players=2)
    environment.reset(seed=1)
    mask = environment.observe(environment.agent_selection)["action_mask"]
    with pytest.raises(ValueError, match="not legal"):
        environment.step(int(np.flatnonzero(mask == 0)[0]))


@pytest.mark.parametrize("players", [0, 1, 9])
def test_a_table_the_ruleset_does_not_seat_is_refused_when_made(players: int) -> None:
    """The default ruleset seats 2 to 8 players (players.min, players.max): another count is
    refused by the constructor, as pyspiel.load_game refuses it, not at the first reset."""
    with pytest.raises(ValueError, match="players"):
        env(players=players)
