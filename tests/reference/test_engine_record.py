"""A game that records no events makes the same decisions, draws the same chances and ends
in the same state as one that records them all: the final snapshots are equal byte for
byte but for the event log, which is empty."""

from __future__ import annotations

import json
import random

from engine_invariants import variant

from buckshot.reference.chance import SeededChance
from buckshot.reference.events import EventType
from buckshot.reference.game import Game
from buckshot.spec.rulebook import Role
from buckshot.spec.ruleset import Ruleset, load_ruleset

RULESETS: tuple[Ruleset, ...] = (
    load_ruleset(),
    variant(hp=(2, 4)),
    variant(magician_cost=1, hp=(3, 5)),
    variant(max_turns=6),
)


def _play(rules: Ruleset, players: int, seed: int, record: bool) -> tuple[Game, list[list[str]]]:
    """A game with random roles and decisions from ``seed``, and the options of each prompt."""
    rng = random.Random(seed)
    roles = [rng.choice(list(Role)) for _ in range(players)]
    game = Game.new(roles, rules, SeededChance(seed), record=record)
    offered = []
    while (prompt := game.prompt) is not None:
        offered.append([prompt.kind, str(prompt.player), *prompt.option_ids()])
        game.decide(prompt.player, rng.choice(prompt.options))
    return game, offered


def test_without_events_a_game_decides_draws_and_ends_the_same() -> None:
    for seed in range(24):
        rules, players = RULESETS[seed % len(RULESETS)], 2 + seed % 7
        full, full_offered = _play(rules, players, seed, record=True)
        bare, bare_offered = _play(rules, players, seed, record=False)
        assert bare_offered == full_offered
        assert full.events and bare.events == []
        full_snapshot, bare_snapshot = full.snapshot(), bare.snapshot()
        assert bare_snapshot.pop("events") == []
        assert len(full_snapshot.pop("events")) == len(full.events)
        assert json.dumps(bare_snapshot).encode() == json.dumps(full_snapshot).encode()
        deepest = max(e.data["depth"] for e in full.events if e.type is EventType.FRAME_PUSHED)
        assert bare.deepest_stack == full.deepest_stack == deepest
