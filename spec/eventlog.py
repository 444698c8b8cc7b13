"""The one reader of event logs: JSON lines, each one event, checked against the event schema
derived from the vocabulary (:mod:`buckshot.spec.events`); what it accepts and refuses, and
with which codes: docs/commands.md, "Event logs".
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, Final

from jsonschema import Draft202012Validator, validators

from buckshot.spec.events import (
    BOOL,
    COUNT,
    COUNTS,
    DEPTH,
    EVENT_FIELDS,
    FRAME,
    INT,
    ITEM,
    ITEMS,
    PHASE,
    PROMPT,
    REASON,
    REASONS,
    SEAT,
    SEAT_OR_NONE,
    SEATS,
    SHELL,
    STR,
    STRS,
    TABLE,
)
from buckshot.spec.rulebook import FrameKind, Item, Phase, Role, Shell
from buckshot.spec.schema_registry import MESSAGE_CHARS, first_problem

# The error codes: a record that is no event, a log of none, a file that cannot be read.
INVALID: Final = "log.invalid"
EMPTY: Final = "log.empty"
UNREADABLE: Final = "log.unreadable"

MAX_LINE_BYTES: Final = 1 << 20
"""The longest line a log may have (1 MiB); one event is a few hundred bytes."""


class EventLogError(ValueError):
    """A file that is not a well-formed event log; ``message`` names the file and the line."""

    def __init__(self, message: str, code: str = INVALID) -> None:
        super().__init__(message)
        self.message = message
        self.code = code


@dataclass(frozen=True)
class LogEvent:
    """One event of a log, as read: its place in the log and its envelope and data."""

    index: int
    """Its position among the log's events, from 0."""
    line: int
    """Its line in the file, from 1."""
    seq: int
    """Its sequence number; its position from 1 when the log leaves it out."""
    turn: int
    type: str
    visibility: tuple[int, ...] | None
    """The seats that see the event; None when it is public."""
    data: Mapping[str, Any] = field(default_factory=dict)

    def int_of(self, key: str) -> int | None:
        """``data[key]`` when it is an integer (not a bool), else None."""
        value = self.data.get(key)
        return value if _is_int(value) else None

    def str_of(self, key: str) -> str | None:
        """``data[key]`` when it is a string, else None."""
        value = self.data.get(key)
        return value if isinstance(value, str) else None

    def strs_of(self, key: str) -> tuple[str, ...]:
        """``data[key]`` as a tuple of strings when it is a list, each item shown as text."""
        value = self.data.get(key)
        if not isinstance(value, list):
            return ()
        return tuple(item if isinstance(item, str) else json.dumps(item) for item in value)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


_Strict = validators.extend(  # type: ignore[no-untyped-call]
    Draft202012Validator,
    type_checker=Draft202012Validator.TYPE_CHECKER.redefine(
        "integer", lambda _checker, value: _is_int(value)
    ),
)


def _enum(values: Iterable[str]) -> dict[str, Any]:
    return {"enum": sorted(values)}


@cache
def kind_schemas() -> dict[str, dict[str, Any]]:
    """Each field kind of the vocabulary as JSON Schema (seats checked by the reader)."""
    from buckshot.spec.chart_data import prompt_kinds

    seat: dict[str, Any] = {"type": "integer", "minimum": 0}
    count: dict[str, Any] = {"type": "integer", "minimum": 0}
    item = _enum(i.value for i in Item)
    return {
        SEAT: seat,
        SEAT_OR_NONE: {"anyOf": [seat, {"type": "null"}]},
        SEATS: {"type": "array", "items": seat},
        TABLE: {
            "type": "array",
            "minItems": 1,
            "items": {
                "type": "object",
                "required": ["seat", "role", "hp"],
                "properties": {
                    "seat": seat,
                    "role": _enum(r.value for r in Role),
                    "hp": count,
                    "name": {"type": "string"},
                },
            },
        },
        INT: {"type": "integer"},
        COUNT: count,
        DEPTH: {"type": "integer", "minimum": 1},
        COUNTS: {"type": "array", "items": count},
        BOOL: {"type": "boolean"},
        STR: {"type": "string"},
        STRS: {"type": "array", "items": {"type": "string"}},
        SHELL: _enum(s.value for s in Shell),
        ITEM: item,
        ITEMS: {"type": "array", "items": item},
        PHASE: _enum(p.value for p in Phase),
        FRAME: _enum(k.value for k in FrameKind),
        PROMPT: _enum(prompt_kinds()),
        REASON: _enum(REASONS),
    }


def event_schema(event_type: str) -> dict[str, Any]:
    """The JSON Schema of one log line of type ``event_type`` (a vocabulary type)."""
    fields = EVENT_FIELDS[event_type]
    kinds = kind_schemas()
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": f"one {event_type} event of a log",
        "type": "object",
        "required": ["type", "turn", "visibility", "data"],
        "properties": {
            "seq": {"type": "integer", "minimum": 1},
            "turn": {"type": "integer", "minimum": 1},
            "type": {"const": event_type},
            "visibility": {
                "anyOf": [
                    {"const": "public"},
                    {"type": "array", "items": kinds[SEAT], "uniqueItems": True},
                ]
            },
            "data": {
                "type": "object",
                "required": list(fields),
                "properties": {name: kinds[kind] for name, kind in fields.items()},
            },
        },
    }


@cache
def _validator(event_type: str) -> Draft202012Validator:
    schema = event_schema(event_type)
    _Strict.check_schema(schema)
    validator: Draft202012Validator = _Strict(schema)
    return validator


def _problem(raw: object) -> str | None:
    """What makes ``raw`` no event, in a few words; None when it is one."""
    if not isinstance(raw, dict):
        return f"an event is a JSON object, not {type(raw).__name__}"
    kind = raw.get("type")
    if kind not in EVENT_FIELDS:
        shown = repr(kind)[:MESSAGE_CHARS]
        return f"unknown event type {shown} (the vocabulary is spec/events.py)"
    problem = first_problem(_validator(str(kind)), raw)
    return None if problem is None else f"{kind}: {problem}"


def _seat_values(event: LogEvent) -> Iterator[tuple[str, object]]:
    """Every seat number the event names, with the field that names it."""
    for name, kind in EVENT_FIELDS[event.type].items():
        value = event.data[name]
        if kind in (SEAT, SEAT_OR_NONE) and value is not None:
            yield f"data.{name}", value
        elif kind == SEATS:
            yield from ((f"data.{name}", seat) for seat in value)
    yield from (("visibility", seat) for seat in event.visibility or ())


class _Table:
    """The table ``game_started`` seats, against which later events' seats are checked."""

    def __init__(self, first: LogEvent) -> None:
        if first.type != "game_started":
            raise ValueError(f"a log starts with game_started, not {first.type}")
        seats = first.data["seats"]
        for number, seat in enumerate(seats):
            if seat["seat"] != number:
                raise ValueError(f"game_started: seat {number} is numbered {seat['seat']}")
        self.size = len(seats)
        self.check(first)

    def check(self, event: LogEvent) -> None:
        """``ValueError`` naming the first seat of ``event`` that is not at the table."""
        if event.index and event.type == "game_started":
            raise ValueError("game_started again: a log holds one game")
        for name, seat in _seat_values(event):
            if not isinstance(seat, int) or not 0 <= seat < self.size:
                raise ValueError(
                    f"{event.type}: {name}: seat {seat!r} is not one of the {self.size} seats"
                )
        if event.type == "tally" and len(event.data["hp"]) != self.size:
            raise ValueError(f"tally: data.hp lists {len(event.data['hp'])} HP for {self.size}")


def check_records(records: Iterable[tuple[int, object]], source: str) -> Iterator[LogEvent]:
    """The events of parsed (line, record) pairs, checked one by one; EventLogError at the first
    bad record, or when there is none.
    """
    table: _Table | None = None
    index = 0
    for line, raw in records:
        problem = _problem(raw)
        if problem is not None:
            raise EventLogError(f"{source}, line {line}: {problem}")
        assert isinstance(raw, dict)
        shown_to = None if raw["visibility"] == "public" else tuple(raw["visibility"])
        seq = raw.get("seq", index + 1)
        event = LogEvent(index, line, seq, raw["turn"], raw["type"], shown_to, raw["data"])
        try:
            if table is None:
                table = _Table(event)
            else:
                table.check(event)
        except ValueError as error:
            raise EventLogError(f"{source}, line {line}: {error}") from None
        yield event
        index += 1
    if index == 0:
        raise EventLogError(f"{source}: the log holds no event", EMPTY)


def _refuse_constant(name: str) -> object:
    raise ValueError(f"{name} is not a JSON number")


def _parse(line: int, text: str, source: str) -> object:
    if "\0" in text:
        raise EventLogError(f"{source}, line {line}: binary data (a NUL byte), not a text log")
    try:
        return json.loads(text, parse_constant=_refuse_constant)
    except json.JSONDecodeError as error:
        what = "more than one JSON value" if error.msg == "Extra data" else "not JSON"
        raise EventLogError(f"{source}, line {line}: {what}, not an event") from None
    except ValueError as error:  # NaN, Infinity: no JSON number
        raise EventLogError(f"{source}, line {line}: not JSON ({error})") from None


def _records(lines: Iterable[tuple[int, str]], source: str) -> Iterator[tuple[int, object]]:
    for number, text in lines:
        if text.strip():
            yield number, _parse(number, text, source)


def refuse_a_folder(path: Path) -> None:
    """:class:`EventLogError` when ``path`` is a folder, which no log is."""
    if path.is_dir():
        raise EventLogError(f"{path} is a folder, not a log file", UNREADABLE)


def _file_lines(path: Path) -> Iterator[tuple[int, str]]:
    """The file's lines with their numbers, read one at a time and decoded as UTF-8."""
    source = str(path)
    refuse_a_folder(path)
    try:
        stream = path.open("rb")
    except FileNotFoundError:
        raise EventLogError(f"{source}: no such file", UNREADABLE) from None
    except PermissionError:
        raise EventLogError(f"{source}: no permission to read this log", UNREADABLE) from None
    except OSError as error:
        raise EventLogError(f"{source}: cannot read: {error.strerror}", UNREADABLE) from None
    with stream:
        number = 0
        while raw := stream.readline(MAX_LINE_BYTES + 1):
            number += 1
            if len(raw) > MAX_LINE_BYTES:
                raise EventLogError(
                    f"{source}, line {number}: longer than {MAX_LINE_BYTES} bytes, not an event"
                )
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError as error:
                raise EventLogError(
                    f"{source}, line {number}: not UTF-8 text (byte {error.start + 1} of the line)"
                ) from None
            yield number, text


def stream_log(path: Path) -> Iterator[LogEvent]:
    """The events of the log file at ``path``, read and checked one line at a time."""
    return check_records(_records(_file_lines(path), str(path)), str(path))


def read_log(path: Path) -> list[LogEvent]:
    """Every event of the log file at ``path``, checked (:func:`stream_log`)."""
    return list(stream_log(path))


def parse_log(text: str, source: str = "<log>") -> list[LogEvent]:
    """Every event of a log's text, checked; ``source`` names it in messages."""
    lines = enumerate(text.split("\n"), start=1)
    return list(check_records(_records(lines, source), source))
