"""A resampled state lies in the seat's information set, and OpenSpiel's IS-MCTS runs with it.

From R14: a seat cannot tell apart two games that differ only in the order of the current
load's unspent shells, unless it saw the next one (a peek, S3.1; a Dealer's preview,
S2.3). So a resampled state must look the same to the seat (its information state, its
observation, its options), keep the shells already spent and what the seat saw, while the
other seats' previews follow the new order.
"""

from __future__ import annotations

import random
from importlib.resources import files
from pathlib import Path

import numpy as np
import pyspiel
import pytest
from envs_helpers import random_move
from open_spiel.python.algorithms import ismcts, mcts

import buckshot.envs.openspiel_game  # noqa: F401 - registers python_buckshot
from buckshot.envs.observation import known_shell
from buckshot.envs.openspiel_game import SHORT_NAME
from buckshot.envs.resample import resample, resampler


def _chamber(state: pyspiel.State) -> tuple[str, ...]:
    return tuple(shell.value for shell in state.table.game.state.shells)


@pytest.mark.slow
def test_a_resampled_state_looks_the_same_to_the_seat() -> None:
    game = pyspiel.load_game(SHORT_NAME, {"players": 3, "roles": "dealer,gambler,dealer"})
    rng = random.Random(3)
    state = game.new_initial_state()
    varied = decisions = 0
    while not state.is_terminal() and decisions < 60:
        if state.is_chance_node():
            state.apply_action(random_move(state, rng))
            continue
        decisions += 1
        seat = state.current_player()
        orders = set()
        for _ in range(4):
            world = resample(state, seat, rng)
            assert world.information_state_string(seat) == state.information_state_string(seat)
            assert np.array_equal(world.observation_tensor(seat), state.observation_tensor(seat))
            assert world.legal_actions() == state.legal_actions()
            chamber = _chamber(world)
            assert sorted(chamber) == sorted(_chamber(state))  # the counts are public
            orders.add(chamber)
            for other in range(3):  # whoever knows the next shell knows the new world's
                knows = known_shell(world.table.settled.trail.known(other), other)
                assert knows == "unknown" or knows == chamber[0]
        varied += len(orders) > 1
        state.apply_action(random_move(state, rng))
    assert varied > 0, "no resample ever changed the hidden order"


def test_the_next_shell_is_drawn_with_its_share() -> None:
    game = pyspiel.load_game(SHORT_NAME, {"players": 2, "roles": "gambler,medic"})
    rng = random.Random(1)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(random_move(state, rng))
    chamber = _chamber(state)
    live = chamber.count("live") / len(chamber)
    firsts = [_chamber(resample(state, 0, rng))[0] for _ in range(400)]
    # R1: every order equally likely, so the next shell is live with the live shells' share
    assert abs(firsts.count("live") / 400 - live) < 0.1


def test_a_state_loaded_from_its_serialisation_resamples_too() -> None:
    game = pyspiel.load_game(SHORT_NAME, {"players": 2})
    rng = random.Random(2)
    state = game.new_initial_state()
    for _ in range(40):
        state.apply_action(random_move(state, rng))
    while state.is_chance_node():
        state.apply_action(random_move(state, rng))
    loaded = game.deserialize_state(state.serialize())
    seat = loaded.current_player()
    world = resample(loaded, seat, rng)
    assert world.information_state_string(seat) == state.information_state_string(seat)


def test_openspiel_is_mcts_plays_with_the_resampler() -> None:
    game = pyspiel.load_game(SHORT_NAME, {"players": 2})
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(0))
    bot = ismcts.ISMCTSBot(game, evaluator, 2.0, 10, random_state=np.random.RandomState(1))
    bot.set_resampler(resampler(5))
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    assert bot.step(state) in state.legal_actions()


@pytest.mark.parametrize("options", ["[[2, 0]]", "[[1, 1], [2, 0]]"])
def test_a_load_of_one_type_resamples_as_it_is(options: str, tmp_path: Path) -> None:
    """A ruleset may load shells of one type only (R1: live at least 1, blank at least 0):
    such a load has one order, which every seat can tell, so it resamples as itself; a table
    whose loads are shuffled only sometimes resamples the loads that are."""
    text = (files("buckshot.spec") / "rulesets/default.toml").read_text(encoding="utf-8")
    first = "options = [[1, 1], [1, 2], [2, 2], [2, 3], [3, 3]]"
    assert text.count(first) == 1
    path = tmp_path / "loads.toml"
    path.write_text(text.replace(first, f"options = {options}"), encoding="utf-8")
    game = pyspiel.load_game(SHORT_NAME, {"players": 2, "ruleset": str(path)})
    rng = random.Random(2)
    resampled = 0
    for _ in range(3):
        state = game.new_initial_state()
        while not state.is_terminal():
            if not state.is_chance_node():
                seat = state.current_player()
                world = resample(state, seat, rng)
                assert world.information_state_string(seat) == state.information_state_string(seat)
                assert sorted(_chamber(world)) == sorted(_chamber(state))
                resampled += 1
            state.apply_action(random_move(state, rng))
    assert resampled > 0


def test_a_state_loaded_in_the_middle_of_a_shuffle_resamples() -> None:
    """A state serialised between two shells of a load's shuffle and loaded again holds that
    load's first draws in its history; its worlds must still be of its seat's information set."""
    game = pyspiel.load_game(SHORT_NAME, {"players": 4})
    shell = game.setup.codes.base("shell")
    rng = random.Random(4)
    loaded = 0
    for _ in range(4):
        state = game.new_initial_state()
        while not state.is_terminal():
            drawn = [o for o in state.table.given if shell <= o < shell + 2]
            if state.is_chance_node() and state.table.draw.kind == "shell" and drawn:
                state = game.deserialize_state(state.serialize())
                while state.is_chance_node():
                    state.apply_action(random_move(state, rng))
                seat = state.current_player()
                world = resample(state, seat, rng)
                assert world.information_state_string(seat) == state.information_state_string(seat)
                assert sorted(_chamber(world)) == sorted(_chamber(state))
                loaded += 1
                break
            state.apply_action(random_move(state, rng))
    assert loaded > 0
