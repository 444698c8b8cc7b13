"""Helpers of the explorer's tests: a seeded bot game with the engine's state at each prompt."""

from __future__ import annotations

from functools import partial
from typing import Any

from buckshot.diagrams.explore_page import Moment
from buckshot.reference.agents import HeuristicAgent
from buckshot.reference.chance import SeededChance
from buckshot.reference.game import Game
from buckshot.spec.rulebook import Role


def engine_view(game: Game) -> dict[str, Any]:
    """The engine's stack (kind, state), polls (order, cursor) and seats, as plain data."""
    state = game.state
    return {
        "stack": [(f.kind.value, f.state) for f in state.stack],
        "polls": [(f.order, f.cursor) for f in state.stack if f.order and f.cursor < len(f.order)],
        "seats": [
            (s.hp, s.alive, s.traitor, s.shield, s.rage, {i.value: n for i, n in s.items.items()})
            for s in state.seats
        ],
    }


def explorer_view(moment: Moment) -> dict[str, Any]:
    """The explorer's view in the shape of :func:`engine_view`."""
    return {
        "stack": [(frame.kind, frame.state) for frame in moment.stack],
        "polls": [(f.order, f.cursor) for f in moment.stack if f.order],
        "seats": [
            (s["hp"], s["alive"], s["traitor"], s["shield"], s["rage"], s["items"])
            for s in moment.seats
        ],
    }


def played_game(seed: int, players: int = 5) -> tuple[Game, dict[int, dict[str, Any]]]:
    """A seeded bot game, and the engine's view at each prompt, by the number of events."""
    roles = [list(Role)[(seed + n) % len(Role)] for n in range(players)]
    game = Game.new(roles, chance=SeededChance(seed))
    agents = [HeuristicAgent(seed * 10 + n) for n in range(players)]
    seen = {len(game.events): engine_view(game)}
    while not game.over:
        prompt = game.prompt
        assert prompt is not None
        view = partial(game.view, prompt.player)
        game.decide(prompt.player, agents[prompt.player].choose(prompt, view))
        seen[len(game.events)] = engine_view(game)
    return game, seen
