"""The log trace validation reads: the one log reader (:mod:`buckshot.spec.eventlog`) over
JSON-lines text (``buckshot play --log``, :func:`buckshot.reference.events.to_jsonl`), the
engine's events, or their JSON dicts. Whether the log obeys the rules is for :mod:`.validate`
to say; a log that is not an event log is :class:`~buckshot.spec.eventlog.EventLogError`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from buckshot.reference.events import Event
from buckshot.spec.eventlog import EventLogError, LogEvent, check_records, parse_log

LogInput = str | Iterable[Event | Mapping[str, Any]]
"""What :func:`read_log` accepts: JSON-lines text, or events, or their JSON dicts."""


def read_log(log: LogInput) -> list[LogEvent]:
    """The log's events, checked by the one reader (a list's items numbered as its lines)."""
    if isinstance(log, str):
        return parse_log(log)
    records = (
        (number, item.to_json() if isinstance(item, Event) else item)
        for number, item in enumerate(log, start=1)
    )
    return list(check_records(records, "<events>"))


def unreadable_event(event: LogEvent, message: str) -> EventLogError:
    """The error for an event whose content trace validation cannot read (an option's text),
    naming its line as the reader names a bad record's."""
    return EventLogError(f"line {event.line}: {message}")
