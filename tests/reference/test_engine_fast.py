"""The fast mode (``record=False``: no event objects, no log, no observer) plays the same
rules as the full mode: with the same seed and decisions both are asked the same prompts,
pass through the same states and end with the same winners, for 2-8 players and for
ruleset variants; a clone of a fast game goes on as the full game does."""

from __future__ import annotations

import random

from engine_invariants import variant

from buckshot.reference.chance import SeededChance
from buckshot.reference.game import Game
from buckshot.spec.rulebook import Role
from buckshot.spec.ruleset import Ruleset, load_ruleset

RULESETS: tuple[Ruleset, ...] = (
    load_ruleset(),
    variant(hp=(2, 4)),
    variant(magician_cost=1, hp=(3, 5)),
    variant(max_turns=6),
)

GAMES_PER_TABLE = 12
"""Seeded games for each number of players, 2 to 8."""


def _pair(seed: int, players: int) -> tuple[Game, Game, random.Random]:
    """A full and a fast game of the same random table and seed, and the decisions' source."""
    rng = random.Random(seed)
    roles = [rng.choice(list(Role)) for _ in range(players)]
    rules = RULESETS[seed % len(RULESETS)]
    full = Game.new(roles, rules, SeededChance(seed), record=True)
    fast = Game.new(roles, rules, SeededChance(seed), record=False)
    return full, fast, rng


def _step_together(full: Game, fast: Game, rng: random.Random) -> None:
    """Play both games to their end with the same random decisions, checking each step."""
    while (prompt := full.prompt) is not None:
        assert fast.prompt == prompt
        option = rng.choice(prompt.options)
        full.decide(prompt.player, option)
        fast.decide(prompt.player, option)
        assert fast.state == full.state
    assert fast.prompt is None


def test_fast_and_full_games_pass_through_the_same_states_to_the_same_winners() -> None:
    ended = set()
    for players in range(2, 9):
        for index in range(GAMES_PER_TABLE):
            seed = 100 * players + index
            full, fast, rng = _pair(seed, players)
            assert fast.state == full.state
            _step_together(full, fast, rng)
            assert full.over and fast.over
            assert fast.state.winners == full.state.winners
            assert fast.state.end_reason == full.state.end_reason
            assert fast.events == [] and full.events
            ended.add(full.state.end_reason)
    assert len(ended) > 1, "the games should end in more than one way"


def test_a_fast_clone_goes_on_as_the_full_game() -> None:
    for players in range(2, 9):
        seed = 7 * players
        full, fast, rng = _pair(seed, players)
        for _ in range(rng.randrange(10, 40)):
            prompt = full.prompt
            if prompt is None:
                break
            option = rng.choice(prompt.options)
            full.decide(prompt.player, option)
            fast.decide(prompt.player, option)
        _step_together(full, fast.clone(), rng)
