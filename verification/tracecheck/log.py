"""Reading an event log for trace validation: its lines, checked for shape before any rule.

A log is JSON lines (``buckshot play --log``, :func:`buckshot.reference.events.to_jsonl`) or
a list of :class:`buckshot.reference.events.Event` or of plain dicts. Every line must be an
object with a known ``type``, an integer ``turn`` and a ``data`` object holding that type's
fields with the right JSON types; seats must lie at the table that ``game_started`` (the
first line) sets, item, shell, phase, frame and prompt names must be the spec's. Anything
else is :class:`TraceLogError` with the stable code :data:`MALFORMED`; whether the log obeys
the rules is for :mod:`.validate` to say.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Final

from buckshot.reference.events import Event, EventType
from buckshot.spec.events import (
    BOOL,
    EVENT_FIELDS,
    INT,
    ITEM,
    LIST,
    REASONS,
    SEAT,
    SEAT_OR_NONE,
    SHELL,
    STR,
)
from buckshot.spec.rulebook import FrameKind, Item, Phase, Role
from buckshot.verification.model.layout import layout

MALFORMED: Final = "trace.malformed"
"""The error code of a log that is not a well-formed event log."""
UNREADABLE: Final = "trace.unreadable"
"""The error code of a log file that cannot be read."""

FIELDS: Final = EVENT_FIELDS
"""The data fields each event type must carry (:mod:`buckshot.spec.events`)."""


class TraceLogError(ValueError):
    """The log is not a well-formed event log; ``code`` is stable, ``index`` the line (0-based)."""

    def __init__(self, message: str, index: int | None = None, code: str = MALFORMED) -> None:
        where = "" if index is None else f"event #{index}: "
        super().__init__(f"{where}{message}")
        self.code = code
        self.index = index
        self.message = f"{where}{message}"


@dataclass(frozen=True)
class TraceEvent:
    """One line of a log: its position, sequence number, turn, type and data."""

    index: int
    """Position in the log, from 0."""
    seq: int | None
    turn: int
    type: str
    data: Mapping[str, Any]

    def label(self) -> str:
        """``#index type`` (with ``seq`` when the log gives one), for messages."""
        seq = "" if self.seq is None else f" (seq {self.seq})"
        return f"#{self.index} {self.type}{seq}"


LogInput = str | Iterable[Event | Mapping[str, Any]]
"""What :func:`read_log` accepts: JSON-lines text, or events, or their JSON dicts."""


def read_log(log: LogInput) -> list[TraceEvent]:
    """The log's events, checked for shape; :class:`TraceLogError` on the first bad line."""
    raw: list[Any] = []
    if isinstance(log, str):
        for number, line in enumerate(log.splitlines()):
            if not line.strip():
                continue
            try:
                raw.append(json.loads(line))
            except json.JSONDecodeError as exc:
                raise TraceLogError(
                    f"line {number + 1} is not JSON ({exc.msg})", len(raw)
                ) from None
    else:
        raw = [item.to_json() if isinstance(item, Event) else item for item in log]
    if not raw:
        raise TraceLogError("the log is empty")
    events = [_event(index, item) for index, item in enumerate(raw)]
    seats = _table(events[0])
    for event in events[1:]:
        _check_fields(event, seats)
    return events


def _event(index: int, item: Any) -> TraceEvent:
    if not isinstance(item, Mapping):
        raise TraceLogError("an event is a JSON object", index)
    kind = item.get("type")
    if not isinstance(kind, str) or kind not in FIELDS:
        raise TraceLogError(f"unknown event type {kind!r}", index)
    data = item.get("data")
    if not isinstance(data, Mapping):
        raise TraceLogError(f"{kind}: 'data' must be an object", index)
    turn = item.get("turn")
    if not isinstance(turn, int) or isinstance(turn, bool):
        raise TraceLogError(f"{kind}: 'turn' must be an integer", index)
    seq = item.get("seq")
    if seq is not None and not _is_int(seq):
        raise TraceLogError(f"{kind}: 'seq' must be an integer", index)
    return TraceEvent(index, seq, turn, kind, data)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _table(first: TraceEvent) -> int:
    """The number of seats ``game_started`` sets (checking its seats)."""
    if first.type != EventType.GAME_STARTED.value:
        raise TraceLogError(f"a log starts with game_started, not {first.type}", first.index)
    seats = first.data.get("seats")
    if not isinstance(seats, list) or not seats:
        raise TraceLogError("game_started: 'seats' must be a non-empty list", first.index)
    roles = {role.value for role in Role}
    for number, seat in enumerate(seats):
        if not isinstance(seat, Mapping):
            raise TraceLogError(f"game_started: seat {number} is not an object", first.index)
        if seat.get("seat") != number:
            raise TraceLogError(f"game_started: seat {number} is numbered out of order", 0)
        if seat.get("role") not in roles:
            raise TraceLogError(f"game_started: seat {number} has no known role", first.index)
        if not _is_int(seat.get("hp")) or seat["hp"] < 0:
            raise TraceLogError(f"game_started: seat {number} has no HP", first.index)
    return len(seats)


_ITEMS = frozenset(item.value for item in Item)
_KINDS = frozenset(kind.value for kind in FrameKind)
_PHASES = frozenset(phase.value for phase in Phase)


def _prompts() -> frozenset[str]:
    return frozenset(p.kind for chart in layout().charts for p in chart.prompts.values())


def _check_fields(event: TraceEvent, seats: int) -> None:
    def bad(message: str) -> TraceLogError:
        return TraceLogError(f"{event.type}: {message}", event.index)

    data = event.data
    for name, kind in FIELDS[event.type].items():
        if name not in data:
            raise bad(f"the field {name!r} is missing")
        value = data[name]
        if kind in (SEAT, SEAT_OR_NONE):
            if value is None and kind == SEAT_OR_NONE:
                continue
            if not _is_int(value) or not 0 <= value < seats:
                raise bad(f"{name} = {value!r} is not a seat of the {seats} at the table")
        elif kind == INT:
            if not _is_int(value) or (value < 0 and name != "delta"):
                raise bad(f"{name} = {value!r} is not a non-negative integer")
        elif kind == BOOL:
            if not isinstance(value, bool):
                raise bad(f"{name} = {value!r} is not a boolean")
        elif kind == STR:
            if not isinstance(value, str):
                raise bad(f"{name} = {value!r} is not a string")
        elif kind == LIST:
            if not isinstance(value, list):
                raise bad(f"{name} = {value!r} is not a list")
        elif kind == SHELL:
            if value not in ("live", "blank"):
                raise bad(f"{name} = {value!r} is not live or blank")
        elif kind == ITEM and value not in _ITEMS:
            raise bad(f"{name} = {value!r} is not an item")
    _check_values(event, seats, bad)


def _check_values(event: TraceEvent, seats: int, bad: Any) -> None:
    data = event.data
    kind = event.type
    if kind in ("items_drawn", "shell_flipped"):
        if any(item not in _ITEMS for item in data["items"]):
            raise bad(f"items {data['items']!r} name something that is not an item")
    elif kind in ("frame_pushed", "frame_popped"):
        if data["kind"] not in _KINDS:
            raise bad(f"kind {data['kind']!r} is not a frame kind")
        if data["depth"] < 1:
            raise bad("depth starts at 1")
    elif kind == "phase":
        if data["phase"] not in _PHASES:
            raise bad(f"phase {data['phase']!r} is not one of S4's phases")
    elif kind == "asked":
        if data["prompt"] not in _prompts():
            raise bad(f"prompt {data['prompt']!r} is not a prompt of the charts")
        if not all(isinstance(option, str) for option in data["options"]):
            raise bad("options must be strings")
    elif kind == "tally":
        hp = data["hp"]
        if len(hp) != seats or not all(_is_int(v) and v >= 0 for v in hp):
            raise bad(f"hp must list {seats} non-negative integers")
    elif kind == "game_over":
        if data["reason"] not in REASONS:
            raise bad(f"reason {data['reason']!r} is not one of {sorted(REASONS)}")
        if not all(_is_int(w) and 0 <= w < seats for w in data["winners"]):
            raise bad("winners must be seats at the table")
