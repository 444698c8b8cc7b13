"""The event vocabulary (spec/events.py) is the one list of event types and their fields: the
engine's EventType and what it writes are checked against it."""

from __future__ import annotations

import pytest

from buckshot.reference import events as engine_events
from buckshot.reference.chance import SeededChance
from buckshot.reference.game import Game
from buckshot.spec import events as vocabulary
from buckshot.spec.rulebook import Role


def test_an_engine_event_type_unknown_to_the_vocabulary_fails_the_check(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    engine_events.check_vocabulary()  # as shipped: the same types
    fewer = dict(vocabulary.EVENT_FIELDS)
    del fewer["peek"]
    monkeypatch.setattr(engine_events, "EVENT_FIELDS", fewer)
    with pytest.raises(ValueError, match="peek"):
        engine_events.check_vocabulary()


def test_what_each_action_writes_names_registry_actions_and_known_events(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    vocabulary._check()
    table = dict(vocabulary.ACTION_EVENTS)
    table["load_chambre"] = table.pop("load_chamber")
    monkeypatch.setattr(vocabulary, "ACTION_EVENTS", table)
    with pytest.raises(ValueError, match="load_chambre"):
        vocabulary._check()


def test_every_event_of_random_games_carries_its_declared_fields() -> None:
    seen: set[str] = set()
    for seed in range(12):
        roles = [list(Role)[(seed + i) % len(Role)] for i in range(2 + seed % 7)]
        game = Game.new(roles, chance=SeededChance(seed))
        for _ in range(3000):
            prompt = game.prompt
            if prompt is None:
                break
            game.decide(prompt.player, prompt.options[seed % len(prompt.options)])
        for event in game.events:
            fields = vocabulary.EVENT_FIELDS[event.type.value]
            assert set(fields) <= set(event.data), (event.type, sorted(event.data))
            seen.add(event.type.value)
    assert len(seen) >= 20, sorted(set(vocabulary.EVENT_FIELDS) - seen)


def test_the_conformance_event_schema_lists_the_vocabulary() -> None:
    """The shipped event schema (INTERPRETING.md's events) has exactly the vocabulary's types,
    and requires of each at least the fields the vocabulary declares."""
    import json

    from buckshot.conformance.bundled import suite_path

    schema = json.loads((suite_path("schemas") / "event.schema.json").read_text(encoding="utf-8"))
    per_type = schema["$defs"]["data"]
    assert set(per_type) == set(vocabulary.EVENT_FIELDS)
    for kind, fields in vocabulary.EVENT_FIELDS.items():
        required = set(per_type[kind].get("required", ()))
        assert set(fields) <= required, (kind, sorted(set(fields) - required))
