"""The game in OpenSpiel and in PettingZoo: load it, step it, read a seat's view, play it out.

    python examples/openspiel_and_pettingzoo.py [--players N] [--seed S]

Loads ``python_buckshot`` in OpenSpiel, shows its first chance node (the ruleset's loads,
each with its exact probability), plays a seeded random game to its end printing the
returns, shows what one seat observes (its view, never the chamber's order) and a state's
serialisation round trip; then plays the PettingZoo environment with random legal actions
from its action masks and prints each agent's reward. See docs/envs.md.
"""

from __future__ import annotations

import argparse
import random

import numpy as np
import pyspiel

import buckshot.envs.openspiel_game  # noqa: F401 - registers python_buckshot with pyspiel
from buckshot.envs.pettingzoo_env import env


def openspiel_game(players: int, seed: int) -> None:
    """A seeded random game of ``python_buckshot``, chance drawn by its probabilities."""
    game = pyspiel.load_game("python_buckshot", {"players": players})
    print(f"{game}: {game.num_distinct_actions()} actions, {game.max_chance_outcomes()} outcomes")
    state = game.new_initial_state()
    print("the first chance node:")
    for outcome, chance in state.chance_outcomes():
        print(f"  {state.action_to_string(pyspiel.PlayerId.CHANCE, outcome)}: {chance:.3f}")
    rng = random.Random(seed)
    shown = False
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, odds = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, odds)[0])
            continue
        player = state.current_player()
        if not shown:
            view = state.observation_string(player)
            print(f"seat {player} observes {len(view)} characters of JSON, its view only")
            print(f"  its tensor has {len(state.observation_tensor(player))} numbers")
            again = game.deserialize_state(state.serialize())
            print(f"  serialised and loaded, the same state: {str(again) == str(state)}")
            shown = True
        action = rng.choice(state.legal_actions())
        state.apply_action(action)
    print(f"OpenSpiel game over after {len(state.history())} actions; returns {state.returns()}")


def pettingzoo_game(players: int, seed: int) -> None:
    """A seeded random game of the AEC environment, each action from the agent's mask."""
    environment = env(players=players)
    environment.reset(seed=seed)
    rng = np.random.default_rng(seed)
    rewards: dict[str, float] = {}
    steps = 0
    for agent in environment.agent_iter():
        observation, reward, terminated, truncated, _ = environment.last()
        if terminated or truncated:
            rewards[agent] = reward
            environment.step(None)
            continue
        environment.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
        steps += 1
    print(f"PettingZoo game over after {steps} steps; rewards {rewards}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    openspiel_game(args.players, args.seed)
    pettingzoo_game(args.players, args.seed)


if __name__ == "__main__":
    main()
