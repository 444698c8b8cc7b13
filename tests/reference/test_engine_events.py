"""The engine writes each event as its values alone and pairs them with the event type's
fields (``reference/events.py``'s FIELDS) only when the log is read: every event read back
carries the vocabulary's fields for its type (``spec/events.py``), in one order per type, and
a writer giving the wrong number of values is caught when the log is read."""

from __future__ import annotations

import random

import pytest
from engine_invariants import variant

from buckshot.reference.chance import SeededChance
from buckshot.reference.events import FIELDS, EventType
from buckshot.reference.game import Game
from buckshot.spec.events import EVENT_FIELDS
from buckshot.spec.rulebook import Role
from buckshot.spec.ruleset import load_ruleset


def _random_game(seed: int) -> Game:
    rng = random.Random(seed)
    rules = (load_ruleset(), variant(hp=(2, 3)), variant(magician_cost=1))[seed % 3]
    game = Game.new(
        [rng.choice(list(Role)) for _ in range(2 + seed % 7)], rules, SeededChance(seed)
    )
    while (prompt := game.prompt) is not None:
        game.decide(prompt.player, rng.choice(prompt.options))
    return game


def test_every_event_read_back_has_its_types_fields_in_one_order() -> None:
    seen: set[EventType] = set()
    for seed in range(30):
        for event in _random_game(seed).events:
            seen.add(event.type)
            assert tuple(event.data) == FIELDS[event.type]
            assert EVENT_FIELDS[event.type.value].keys() <= event.data.keys()
    assert {EventType.ASKED, EventType.DECIDED, EventType.SHOT_FIRED, EventType.TALLY} <= seen


def test_values_are_paired_with_the_fields_in_order() -> None:
    game = Game.new([Role.MEDIC, Role.DEALER], chance=SeededChance(1))
    written = len(game.events)
    game.write(EventType.HP_CHANGED, 1, 2, -1, "shot")
    game.write(EventType.PEEK, 0, "live", visibility=(0,))
    hp, peek = game.events[written:]
    assert hp.data == {"player": 1, "hp": 2, "delta": -1, "cause": "shot"}
    assert hp.visibility is None and hp.seq == written + 1
    assert peek.data == {"player": 0, "shell": "live"} and peek.visibility == (0,)


def test_a_writer_giving_too_few_values_is_caught_when_the_log_is_read() -> None:
    game = Game.new([Role.MEDIC, Role.DEALER], chance=SeededChance(1))
    game.write(EventType.SHOT_FIRED, 0, 1, "live")  # no damage
    with pytest.raises(ValueError):
        game.events  # noqa: B018 (the read builds the events)


def test_data_written_by_name_is_kept_as_given() -> None:
    game = Game.new([Role.MEDIC, Role.DEALER], chance=SeededChance(1))
    game.emit(EventType.ITEMS_DRAWN, player=0, items=[], cause="turn")
    assert game.events[-1].data == {"player": 0, "items": [], "cause": "turn"}


def test_a_game_without_a_log_ignores_what_is_written() -> None:
    game = Game.new([Role.MEDIC, Role.DEALER], chance=SeededChance(1), record=False)
    game.write(EventType.SHOT_FIRED, 0, 1, "live")
    assert game.events == []
