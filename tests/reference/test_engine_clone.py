"""``Game.clone()`` is an independent game in the same state: the same pending prompt and
log, its own chance source drawing what the original's would. Played on with the same
decisions it writes the same events byte for byte; played otherwise, neither game sees
what the other does."""

from __future__ import annotations

import json
import random
from dataclasses import fields, is_dataclass
from typing import Any

import pytest
from engine_invariants import variant

from buckshot.reference.chance import ScriptedChance, SeededChance, clone_chance
from buckshot.reference.events import Event, to_jsonl
from buckshot.reference.game import Game
from buckshot.reference.observe import GameObserver
from buckshot.spec.rulebook import Item, Role, Shell
from buckshot.spec.ruleset import Load, Ruleset, load_ruleset

RULESETS: tuple[Ruleset, ...] = (
    load_ruleset(),
    variant(hp=(2, 4)),
    variant(magician_cost=1, hp=(3, 5)),
    variant(max_turns=6),
)


def _new(seed: int, record: bool = True) -> Game:
    """A game of 2-8 seats with random roles, its ruleset and table drawn from ``seed``."""
    rng = random.Random(seed)
    players = 2 + seed % 7
    roles = [rng.choice(list(Role)) for _ in range(players)]
    return Game.new(roles, RULESETS[seed % len(RULESETS)], SeededChance(seed), record=record)


def _play(game: Game, rng: random.Random, decisions: int | None = None) -> None:
    """Answer ``decisions`` prompts (all of them when None) with ``rng``'s random choices."""
    while (prompt := game.prompt) is not None and decisions != 0:
        game.decide(prompt.player, rng.choice(prompt.options))
        decisions = None if decisions is None else decisions - 1


def _bytes(game: Game) -> bytes:
    """The whole game, log included, as bytes."""
    return json.dumps(game.snapshot(), sort_keys=True).encode()


def _mutable_parts(value: Any, found: dict[int, Any]) -> None:
    """Every list, dict, set and record reachable from ``value``, by identity."""
    if isinstance(value, list | dict | set) or (is_dataclass(value) and not _frozen(value)):
        if id(value) in found:
            return
        found[id(value)] = value
    if isinstance(value, list | tuple | set):
        for item in value:
            _mutable_parts(item, found)
    elif isinstance(value, dict):
        for key, item in value.items():
            _mutable_parts(key, found)
            _mutable_parts(item, found)
    elif is_dataclass(value) and not isinstance(value, type):
        for field in fields(value):
            _mutable_parts(getattr(value, field.name), found)


def _frozen(record: Any) -> bool:
    return bool(record.__dataclass_params__.frozen)


@pytest.mark.parametrize("record", [True, False])
def test_a_clone_played_with_the_same_decisions_writes_the_same_events(record: bool) -> None:
    for seed in range(28):
        game = _new(seed, record)
        rng = random.Random(1000 + seed)
        _play(game, rng, decisions=rng.randrange(40))
        clone = game.clone()
        assert clone.prompt == game.prompt
        assert _bytes(clone) == _bytes(game)
        state = rng.getstate()
        _play(game, rng)
        rng.setstate(state)
        _play(clone, rng)
        assert clone.over and game.over
        assert to_jsonl(clone.events) == to_jsonl(game.events)
        assert _bytes(clone) == _bytes(game)
        assert clone.deepest_stack == game.deepest_stack


def test_a_clone_and_its_original_diverge_independently() -> None:
    for seed in range(28):
        game = _new(seed)
        rng = random.Random(2000 + seed)
        _play(game, rng, decisions=rng.randrange(30))
        if game.over:
            continue
        before = _bytes(game)
        clone = game.clone()
        _play(clone, random.Random(seed))  # other decisions, other chance draws
        assert _bytes(game) == before, "playing the clone changed the original"
        branch = game.clone()
        state = rng.getstate()
        _play(game, rng)
        rng.setstate(state)
        _play(branch, rng)
        # the original, played on, is what its untouched twin becomes
        assert to_jsonl(game.events) == to_jsonl(branch.events)


def test_a_clone_shares_no_mutable_part_of_the_state() -> None:
    for seed in range(14):
        game = _new(seed)
        _play(game, random.Random(seed), decisions=8 + seed)
        ours: dict[int, Any] = {}
        theirs: dict[int, Any] = {}
        _mutable_parts(game.state, ours)
        _mutable_parts(game.clone().state, theirs)
        assert ours.keys().isdisjoint(theirs.keys())
        assert len(ours) == len(theirs)


def test_the_state_copy_equals_the_state() -> None:
    for seed in range(14):
        game = _new(seed)
        _play(game, random.Random(seed), decisions=5 + seed)
        assert game.state.copy() == game.state
        assert game.state.copy().to_json() == game.state.to_json()


def test_a_cloned_chance_source_draws_what_the_original_would() -> None:
    seeded = SeededChance(7)
    seeded.order(3, 2)
    twin = clone_chance(seeded)
    assert twin.snapshot() == seeded.snapshot()
    draws = [twin.order(4, 4), twin.pick([Item.AMULET, Item.MILK_TEA, Item.INVERTER])]
    assert seeded.snapshot() != twin.snapshot()
    assert [seeded.order(4, 4), seeded.pick([Item.AMULET, Item.MILK_TEA, Item.INVERTER])] == draws

    seeded.item([(Item.AMULET, 1), (Item.INVERTER, 3)])  # drawn from after a clone
    again = clone_chance(seeded)
    assert again.snapshot() == seeded.snapshot()
    assert again.order(5, 3) == seeded.order(5, 3)

    scripted = ScriptedChance(
        [{"kind": "load", "value": [1, 1]}, {"kind": "order", "value": ["blank", "live"]}]
    )
    scripted.load([Load(1, 1)])
    copy = clone_chance(scripted)
    assert copy.order(1, 1) == (Shell.BLANK, Shell.LIVE)
    assert scripted.snapshot()["cursor"] == 1, "drawing from the copy moved the original"


def test_a_finished_game_clones_finished() -> None:
    game = _new(3)
    _play(game, random.Random(3))
    clone = game.clone()
    assert clone.over and clone.prompt is None
    assert clone.state.winners == game.state.winners
    assert _bytes(clone) == _bytes(game)


class _Log(GameObserver):
    def __init__(self) -> None:
        self.events: list[Event] = []

    def emitted(self, game: Game, event: Event) -> None:
        self.events.append(event)


def test_a_clone_tells_its_own_observer_of_what_follows_and_the_original_none() -> None:
    game = _new(5)
    _play(game, random.Random(5), decisions=6)
    seen = len(game.events)
    log = _Log()
    clone = game.clone(observer=log)
    _play(clone, random.Random(6))
    assert log.events == clone.events[seen:]
    assert len(game.events) == seen


def test_a_clone_without_events_of_a_recording_game_plays_the_same() -> None:
    for seed in range(14):
        game = _new(seed)
        rng = random.Random(3000 + seed)
        _play(game, rng, decisions=rng.randrange(30))
        bare = game.clone(record=False)
        assert bare.events == [] and bare.prompt == game.prompt
        state = rng.getstate()
        _play(game, rng)
        rng.setstate(state)
        _play(bare, rng)
        assert bare.events == []
        assert bare.state == game.state


def test_a_clone_given_a_chance_source_draws_from_it() -> None:
    game = _new(4)
    _play(game, random.Random(4), decisions=3)
    source = SeededChance(99)
    clone = game.clone(chance=source)
    assert clone.chance is source
    assert game.chance is not source
