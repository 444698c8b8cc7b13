"""The one event-log reader (spec/eventlog.py): what it accepts (every log the engine writes,
read back as the same events), and what it refuses, naming the file and the line."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from buckshot.reference.agents import RandomAgent, play_out
from buckshot.reference.chance import SeededChance
from buckshot.reference.events import Event, from_jsonl, to_jsonl
from buckshot.reference.game import Game
from buckshot.spec.eventlog import (
    EMPTY,
    INVALID,
    MAX_LINE_BYTES,
    UNREADABLE,
    EventLogError,
    parse_log,
    read_log,
    stream_log,
)
from buckshot.spec.events import EVENT_FIELDS
from buckshot.spec.rulebook import Role


def _game(seed: int) -> list[Event]:
    rng = random.Random(seed)
    players = 2 + seed % 7
    roles = [rng.choice(list(Role)) for _ in range(players)]
    game = Game.new(roles, chance=SeededChance(seed))
    play_out(game, [RandomAgent(seed * 10 + seat) for seat in range(players)])
    return list(game.events)


GAMES = {seed: _game(seed) for seed in range(6)}
"""Finished games of 2 to 7 seats, played by random bots."""


def _lines(seed: int = 1) -> list[dict[str, Any]]:
    return [json.loads(line) for line in to_jsonl(GAMES[seed]).splitlines()]


def _text(lines: list[dict[str, Any]]) -> str:
    return "".join(json.dumps(line) + "\n" for line in lines)


def _refused(text: str, code: str = INVALID) -> str:
    with pytest.raises(EventLogError) as caught:
        parse_log(text, "game.jsonl")
    assert caught.value.code == code
    assert "\n" not in caught.value.message
    return caught.value.message


# --- what it accepts ---------------------------------------------------------------------


@pytest.mark.parametrize("seed", sorted(GAMES))
def test_every_engine_log_reads_back_as_the_same_events(seed: int) -> None:
    events = GAMES[seed]
    assert from_jsonl(to_jsonl(events)) == events
    read = parse_log(to_jsonl(events))
    assert [(e.index, e.line, e.seq, e.type) for e in read] == [
        (i, i + 1, event.seq, event.type.value) for i, event in enumerate(events)
    ]


def test_blank_lines_extra_keys_and_a_missing_seq_are_accepted() -> None:
    lines = _lines()
    lines[1]["comment"] = "kept"
    lines[1]["data"]["extra"] = [1, 2]
    for line in lines:
        del line["seq"]
    text = "\n" + _text(lines).replace("\n", "\n\n", 3)
    events = parse_log(text)
    assert [e.seq for e in events] == list(range(1, len(lines) + 1))  # numbered by position
    assert events[1].data["extra"] == [1, 2]
    assert events[1].line == 4  # the file's line, blank lines counted


def test_a_log_is_read_as_a_stream(tmp_path: Path) -> None:
    lines = _lines()
    path = tmp_path / "game.jsonl"
    path.write_text(_text(lines[:3]) + "{not json\n", encoding="utf-8")
    stream = stream_log(path)
    assert next(stream).type == "game_started"  # read before the bad line is reached
    with pytest.raises(EventLogError, match="line 4: not JSON"):
        list(stream)


# --- what it refuses ---------------------------------------------------------------------


def _every_field() -> list[tuple[int, str, str]]:
    """(line index, event type, field) for the first event of each type in the games."""
    seen: dict[str, tuple[int, int]] = {}
    for seed, events in GAMES.items():
        for index, event in enumerate(events):
            seen.setdefault(event.type.value, (seed, index))
    assert len(seen) >= 20, sorted(set(EVENT_FIELDS) - set(seen))
    return [
        (seed * 100_000 + index, kind, name)
        for kind, (seed, index) in sorted(seen.items())
        for name in EVENT_FIELDS[kind]
    ]


@pytest.mark.parametrize(("where", "kind", "name"), _every_field())
def test_every_declared_field_is_required_and_typed(where: int, kind: str, name: str) -> None:
    seed, index = divmod(where, 100_000)
    lines = _lines(seed)
    assert lines[index]["type"] == kind
    lines[index]["data"][name] = {"no kind": "is an object"}
    message = _refused(_text(lines))
    assert message.startswith(f"game.jsonl, line {index + 1}: {kind}: data.{name}: ")
    del lines[index]["data"][name]
    message = _refused(_text(lines))
    assert f"line {index + 1}: {kind}: data.{name}: '{name}' is a required property" in message


def _first(lines: list[dict[str, Any]], kind: str) -> dict[str, Any]:
    return next(line for line in lines if line["type"] == kind)


@pytest.mark.parametrize(
    ("kind", "change", "message"),
    [
        ("hp_changed", {"hp": "three"}, "data.hp: 'three' is not of type 'integer'"),
        ("hp_changed", {"hp": 3.0}, "data.hp: 3.0 is not of type 'integer'"),
        ("hp_changed", {"hp": True}, "data.hp: True is not of type 'integer'"),
        ("hp_changed", {"hp": -1}, "data.hp: -1 is less than the minimum of 0"),
        ("chamber_loaded", {"live": -2}, "data.live: -2 is less than the minimum of 0"),
        ("frame_pushed", {"depth": 0}, "data.depth: 0 is less than the minimum of 1"),
        ("frame_pushed", {"kind": "party"}, "data.kind: 'party' is not one of"),
        ("phase", {"phase": "lunch"}, "data.phase: 'lunch' is not one of"),
        ("asked", {"prompt": "riddle"}, "data.prompt: 'riddle' is not one of"),
        ("asked", {"options": ["shoot", 3]}, "data.options.1: 3 is not of type 'string'"),
        ("items_drawn", {"items": ["beer"]}, "data.items.0: 'beer' is not one of"),
        ("shot_fired", {"shell": "dud"}, "data.shell: 'dud' is not one of"),
        ("game_over", {"reason": "boredom"}, "data.reason: 'boredom' is not one of"),
        ("turn_started", {"owner": 9}, "data.owner: seat 9 is not one of the 3 seats"),
        ("game_over", {"winners": [0, 7]}, "data.winners: seat 7 is not one of the 3 seats"),
        ("tally", {"hp": [1, 2]}, "tally: data.hp lists 2 HP for 3"),
    ],
)
def test_wrong_values_are_refused_naming_the_field(
    kind: str, change: dict[str, Any], message: str
) -> None:
    lines = _lines(1)  # a game of 3 seats
    assert len(lines[0]["data"]["seats"]) == 3
    line = _first(lines, kind)
    line["data"].update(change)
    number = lines.index(line) + 1
    assert f"game.jsonl, line {number}: " in _refused(_text(lines))
    assert message in _refused(_text(lines))


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda ls: ls[1].update(type="teleport"), "line 2: unknown event type 'teleport'"),
        (lambda ls: ls[1].pop("type"), "line 2: unknown event type None"),
        (lambda ls: ls[1].update(turn=0), "line 2: turn_started: turn: 0 is less than"),
        (lambda ls: ls[1].update(turn=None), "turn: None is not of type 'integer'"),
        (lambda ls: ls[1].pop("visibility"), "'visibility' is a required property"),
        (lambda ls: ls[1].update(visibility=[5]), "visibility: seat 5 is not one of the 3"),
        (lambda ls: ls[1].update(visibility="team"), "line 2: turn_started: visibility: "),
        (lambda ls: ls[1].update(seq=0), "seq: 0 is less than the minimum of 1"),
        (lambda ls: ls[1].update(data=[]), "data: [] is not of type 'object'"),
        (lambda ls: ls.pop(0), "line 1: a log starts with game_started, not turn_started"),
        (lambda ls: ls.insert(3, ls[0]), "line 4: game_started again"),
        (
            lambda ls: ls[0]["data"]["seats"][1].update(seat=2),
            "line 1: game_started: seat 1 is numbered 2",
        ),
        (
            lambda ls: ls[0]["data"]["seats"][1].update(role="jester"),
            "data.seats.1.role: 'jester' is not one of",
        ),
        (lambda ls: ls[0]["data"]["seats"][0].pop("hp"), "'hp' is a required property"),
    ],
)
def test_broken_records_are_refused_naming_the_line(change: Any, message: str) -> None:
    lines = _lines(1)
    assert lines[1]["type"] == "turn_started"
    change(lines)
    assert message in _refused(_text(lines))


@pytest.mark.parametrize(
    ("text", "message", "code"),
    [
        ("", "game.jsonl: the log holds no event", EMPTY),
        ("\n  \n\t\n", "game.jsonl: the log holds no event", EMPTY),
        ("[1, 2]\n", "line 1: an event is a JSON object, not list", INVALID),
        ('{"type": "game_started"\n', "line 1: not JSON", INVALID),
        ('{"turn": NaN}\n', "line 1: not JSON (NaN is not a JSON number)", INVALID),
        ("\0\0\0\n", "line 1: binary data (a NUL byte)", INVALID),
    ],
)
def test_texts_that_are_no_log_are_refused(text: str, message: str, code: str) -> None:
    assert message in _refused(text, code)


def test_files_that_are_no_log_are_refused(tmp_path: Path) -> None:
    def refused(path: Path, code: str = INVALID) -> str:
        with pytest.raises(EventLogError) as caught:
            read_log(path)
        assert caught.value.code == code
        return caught.value.message

    good = _text(_lines())
    assert refused(tmp_path, UNREADABLE) == f"{tmp_path} is a folder, not a log file"
    assert refused(tmp_path / "none.jsonl", UNREADABLE) == f"{tmp_path}/none.jsonl: no such file"
    latin = tmp_path / "latin.jsonl"
    latin.write_bytes(good.encode("utf-8") + '{"type": "caf\xe9"}\n'.encode("latin-1"))
    count = good.count("\n")
    assert refused(latin) == f"{latin}, line {count + 1}: not UTF-8 text (byte 14 of the line)"
    huge = tmp_path / "huge.jsonl"
    huge.write_bytes(good.encode("utf-8") + b"x" * (MAX_LINE_BYTES + 1))  # no newline at all
    assert f"line {count + 1}: longer than {MAX_LINE_BYTES} bytes" in refused(huge)
    truncated = tmp_path / "truncated.jsonl"
    truncated.write_text(good[: good.index("\n", 200) + 30], encoding="utf-8")
    assert "not JSON" in refused(truncated)
