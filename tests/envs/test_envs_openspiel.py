"""The OpenSpiel game passes OpenSpiel's own checks, for 2-8 players and a ruleset variant.

``pyspiel.random_sim_test`` plays random games through the C++ side checking the API's
consistency at every state (legal actions, chance outcomes summing to 1, observation and
information-state strings and tensors of each player, returns within the utilities,
serialisation and its round trip). The tests below add the Python observation API against
the state's, the serialisation round trip at every state, and the returns (S1.x's end by
the rules: the winners share the stakes).
"""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pyspiel
import pytest
from envs_helpers import random_move, write_variant
from open_spiel.python.observation import make_observation

import buckshot.envs.openspiel_game  # noqa: F401 - registers python_buckshot
from buckshot.envs.openspiel_game import SHORT_NAME
from buckshot.spec.rulebook import Role

SLOW_PLAYERS = {7, 8}
"""Tables whose random simulation takes more than 5 s on 2 cores."""


@pytest.mark.parametrize(
    "players",
    [pytest.param(n, marks=[pytest.mark.slow] if n in SLOW_PLAYERS else []) for n in range(2, 9)],
)
@pytest.mark.slow
def test_random_sim_test_passes(players: int) -> None:
    game = pyspiel.load_game(SHORT_NAME, {"players": players})
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


@pytest.mark.slow
def test_random_sim_test_passes_for_a_ruleset_variant(tmp_path: Path) -> None:
    path, rules = write_variant(tmp_path)
    game = pyspiel.load_game(SHORT_NAME, {"players": 3, "ruleset": str(path)})
    assert game.setup.rules.to_dict() == rules.to_dict()
    # the variant's Magicians pay 3 items: every multiset of 3 of the 8 kinds is an action
    flips = [text for text in game.setup.actions.ids if text.startswith("flip_shell:")]
    assert len(flips) == 120
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


def _play(players: int, seed: int, **params: object) -> list[pyspiel.State]:
    """Every state of one seeded random game, the first to the terminal."""
    game = pyspiel.load_game(SHORT_NAME, {"players": players, **params})
    rng = random.Random(seed)
    state = game.new_initial_state()
    states = [state.clone()]
    while not state.is_terminal():
        state.apply_action(random_move(state, rng))
        states.append(state.clone())
    return states


def test_observation_api_matches_the_states_own() -> None:
    states = _play(3, seed=5)
    game = states[0].get_game()
    plain = make_observation(game)
    recall = make_observation(game, pyspiel.IIGObservationType(perfect_recall=True))
    for state in states[:: max(1, len(states) // 40)]:
        for player in range(3):
            plain.set_from(state, player)
            recall.set_from(state, player)
            assert plain.string_from(state, player) == state.observation_string(player)
            assert recall.string_from(state, player) == state.information_state_string(player)
            np.testing.assert_array_equal(plain.tensor, state.observation_tensor(player))
            np.testing.assert_array_equal(recall.tensor, state.information_state_tensor(player))


@pytest.mark.slow
def test_every_state_survives_serialisation() -> None:
    states = _play(4, seed=11)
    game = states[0].get_game()
    for state in states:
        again = game.deserialize_state(state.serialize())
        assert again.history() == state.history()
        assert str(again) == str(state)
        assert again.current_player() == state.current_player()
        if state.is_chance_node():
            assert again.chance_outcomes() == state.chance_outcomes()
        elif not state.is_terminal():
            assert again.legal_actions() == state.legal_actions()
        for player in range(4):
            assert again.information_state_string(player) == state.information_state_string(player)


@pytest.mark.parametrize("seed", range(6))
def test_returns_follow_the_winners(seed: int, tmp_path: Path) -> None:
    path, _ = write_variant(tmp_path)  # its short turn limit makes draws too (R21)
    final = _play(3, seed, roles="gambler,magician,dealer", ruleset=str(path))[-1]
    state = final.table.game.state
    # each seat stakes 1; the winners share the pot of 3: the last one standing or a traitor
    # with its kills (S5.1, R7), else, at the turn limit, the living (R21)
    sharing = state.winners or [seat.seat for seat in state.seats if seat.alive]
    returns = final.returns()
    assert sum(returns) == pytest.approx(0.0)
    for seat in range(3):
        assert returns[seat] == pytest.approx(3 / len(sharing) - 1 if seat in sharing else -1)


def test_a_game_is_at_most_max_game_length_long() -> None:
    states = _play(2, seed=3)
    assert len(states) - 1 <= states[0].get_game().max_game_length()


@pytest.mark.parametrize("roles", ["magician+dealer+medic", "magician,dealer,medic"])
def test_a_game_with_roles_loads_again_from_its_string(roles: str) -> None:
    """OpenSpiel writes a game as ``name(key=value,...)`` and reads it back (as a serialised
    game and state carries it): the roles must survive that, whichever separator was given."""
    game = pyspiel.load_game(SHORT_NAME, {"players": 3, "roles": roles})
    again = pyspiel.load_game(str(game))
    assert again.setup.roles == game.setup.roles == (Role.MAGICIAN, Role.DEALER, Role.MEDIC)
    state = game.new_initial_state()
    state.apply_action(state.chance_outcomes()[0][0])
    _, loaded = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
    assert loaded.history() == state.history()
