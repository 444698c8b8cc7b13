"""Event logs as the engine writes them: one JSON object per line, read into typed events.

Each line is ``{"seq": int, "turn": int, "type": str, "visibility": "public" | [seat, ...],
"data": {...}}``. Only ``seq`` and ``type`` are required; a missing ``turn`` is unknown, a
missing ``visibility`` is public and missing ``data`` is empty. Unknown event types and
unknown keys are kept, so that a newer engine's log still draws.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path


class TraceLogError(ValueError):
    """A line of an event log is not an event; the message names the source and the line."""


@dataclass(frozen=True)
class LogEvent:
    """One event of a log, with typed accessors for the values of its ``data``."""

    line: int
    seq: int
    turn: int | None
    type: str
    visibility: tuple[int, ...] | None
    """The seats that see the event; None when it is public."""
    data: Mapping[str, object] = field(default_factory=dict)

    def int_of(self, key: str) -> int | None:
        """``data[key]`` when it is an integer (not a bool), else None."""
        value = self.data.get(key)
        return value if isinstance(value, int) and not isinstance(value, bool) else None

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


def _integer(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _event(number: int, raw: object, source: str) -> LogEvent:
    where = f"{source}, line {number}"
    if not isinstance(raw, dict):
        raise TraceLogError(f"{where}: an event must be a JSON object")
    seq, kind = raw.get("seq"), raw.get("type")
    if not _integer(seq):
        raise TraceLogError(f"{where}: 'seq' must be an integer, got {seq!r}")
    if not isinstance(kind, str) or not kind:
        raise TraceLogError(f"{where}: 'type' must be a non-empty string, got {kind!r}")
    turn = raw.get("turn")
    if turn is not None and not _integer(turn):
        raise TraceLogError(f"{where}: 'turn' must be an integer, got {turn!r}")
    visibility = raw.get("visibility", "public")
    seats: tuple[int, ...] | None
    if visibility == "public":
        seats = None
    elif isinstance(visibility, list) and all(_integer(seat) for seat in visibility):
        seats = tuple(int(seat) for seat in visibility)
    else:
        raise TraceLogError(
            f"{where}: 'visibility' must be \"public\" or a list of seats, got {visibility!r}"
        )
    data = raw.get("data", {})
    if not isinstance(data, dict):
        raise TraceLogError(f"{where}: 'data' must be a JSON object, got {data!r}")
    assert isinstance(seq, int)
    assert turn is None or isinstance(turn, int)
    return LogEvent(number, seq, turn, kind, seats, data)


def parse_log(text: str, source: str = "<log>") -> tuple[LogEvent, ...]:
    """The events of a log's text, in file order; blank lines are skipped."""
    events = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            raw = json.loads(line)
        except json.JSONDecodeError as error:
            raise TraceLogError(f"{source}, line {number}: not JSON: {error.msg}") from None
        events.append(_event(number, raw, source))
    return tuple(events)


def read_log(path: Path) -> tuple[LogEvent, ...]:
    """The events of the log file at ``path``."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise TraceLogError(f"{path}: cannot read: {error.strerror}") from None
    return parse_log(text, str(path))
