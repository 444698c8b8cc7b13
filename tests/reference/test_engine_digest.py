"""The 200-game digest: 200 seeded games of 2-8 players, played with seeded random decisions,
hashed state by state (every prompt, every state after each decision, the event log and the
final snapshot). The figure was taken from the engine before the plain interpreter replaced
the generated program (issue 32): the same decisions and chance give the same states, byte
for byte."""

from __future__ import annotations

import hashlib
import json
import random

import pytest

from buckshot.reference.chance import SeededChance
from buckshot.reference.game import Game
from buckshot.spec.rulebook import Role

GAMES = 200

DIGEST = "28088d2c7d8654807e0c519d8951a3f5d7505330585dea7c588d614c116dc52e"
"""The sha256 of the 200 games, taken on the generated engine of d4777c7."""


def digest(games: int = GAMES, record: bool = True) -> str:
    """The sha256 of ``games`` seeded games, each state, prompt and (when recorded) event."""
    hasher = hashlib.sha256()
    for seed in range(games):
        rng = random.Random(seed)
        players = 2 + seed % 7
        roles = [rng.choice(list(Role)) for _ in range(players)]
        game = Game.new(roles, chance=SeededChance(seed), record=record)
        while (prompt := game.prompt) is not None:
            hasher.update(repr(prompt.to_json()).encode())
            game.decide(prompt.player, rng.choice(prompt.options))
            hasher.update(json.dumps(game.state.to_json(), sort_keys=True).encode())
        if record:
            hasher.update(json.dumps(game.snapshot(), sort_keys=True).encode())
    return hasher.hexdigest()


@pytest.mark.slow
def test_the_200_game_digest_is_unchanged() -> None:
    assert digest() == DIGEST


def test_the_fast_mode_passes_through_the_same_states() -> None:
    """``record=False`` is hashed without the log: the same decisions, the same states."""
    assert digest(60, record=False) == FAST_DIGEST


FAST_DIGEST = "9e34f3cb86a8f71cf4c11b452e86c0a3c3030e329b1f3ccc977aacab98178911"
"""The sha256 of the first 60 games played with ``record=False``."""
