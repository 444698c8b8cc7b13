"""Typed events: everything that happens in a game, with who may see it (R14)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from enum import Enum, StrEnum
from typing import TYPE_CHECKING, Any

from buckshot.spec.events import EVENT_FIELDS

if TYPE_CHECKING:
    from buckshot.spec.eventlog import LogEvent


class EventType(StrEnum):
    """Every kind of event the engine writes to the log (checked against the vocabulary,
    :data:`buckshot.spec.events.EVENT_FIELDS`, at import)."""

    GAME_STARTED = "game_started"
    TURN_STARTED = "turn_started"
    PHASE = "phase"
    CHAMBER_LOADED = "chamber_loaded"
    PREVIEW = "preview"
    ITEMS_DRAWN = "items_drawn"
    FRAME_PUSHED = "frame_pushed"
    FRAME_POPPED = "frame_popped"
    ASKED = "asked"
    DECIDED = "decided"
    SHOT_DECLARED = "shot_declared"
    SHELL_FLIPPED = "shell_flipped"
    SHOT_FIRED = "shot_fired"
    SHOT_BLOCKED = "shot_blocked"
    ITEM_USED = "item_used"
    PEEK = "peek"
    SHELL_EJECTED = "shell_ejected"
    CHAMBER_INVERTED = "chamber_inverted"
    ITEM_STOLEN = "item_stolen"
    SHIELD_GAINED = "shield_gained"
    RAGE_GAINED = "rage_gained"
    RAGE_USED = "rage_used"
    HP_CHANGED = "hp_changed"
    PILL_ROLLED = "pill_rolled"
    GAMBLER_ROLLED = "gambler_rolled"
    CONVERTED = "converted"
    ELIMINATED = "eliminated"
    SHOOTING_LOCKED = "shooting_locked"
    DISCARDED = "discarded"
    TALLY = "tally"
    TURN_ENDED = "turn_ended"
    GAME_OVER = "game_over"


def check_vocabulary() -> None:
    """The engine's event types are exactly the vocabulary's (:mod:`buckshot.spec.events`)."""
    ours, spec = {kind.value for kind in EventType}, set(EVENT_FIELDS)
    if ours != spec:
        raise ValueError(
            f"EventType differs from the vocabulary: not declared {sorted(ours - spec)}, "
            f"not written {sorted(spec - ours)}"
        )


FIELDS: dict[EventType, tuple[str, ...]] = {
    EventType.GAME_STARTED: ("seats",),
    EventType.TURN_STARTED: ("owner",),
    EventType.PHASE: ("owner", "phase"),
    EventType.CHAMBER_LOADED: ("live", "blank"),
    EventType.PREVIEW: ("player", "shell"),
    EventType.ITEMS_DRAWN: ("player", "items", "cause"),
    EventType.FRAME_PUSHED: ("frame_id", "kind", "depth", "player"),
    EventType.FRAME_POPPED: ("frame_id", "kind", "depth", "outcome"),
    EventType.ASKED: ("player", "frame_id", "prompt", "options"),
    EventType.DECIDED: ("player", "frame_id", "option"),
    EventType.SHOT_DECLARED: ("shooter", "target"),
    EventType.SHELL_FLIPPED: ("by", "frame_id", "items"),
    EventType.SHOT_FIRED: ("shooter", "target", "shell", "damage"),
    EventType.SHOT_BLOCKED: ("player", "shield"),
    EventType.ITEM_USED: ("player", "item", "target"),
    EventType.PEEK: ("player", "shell"),
    EventType.SHELL_EJECTED: ("shell",),
    EventType.CHAMBER_INVERTED: ("player",),
    EventType.ITEM_STOLEN: ("player", "victim", "item"),
    EventType.SHIELD_GAINED: ("player", "blocks", "shield"),
    EventType.RAGE_GAINED: ("player", "charges", "rage"),
    EventType.RAGE_USED: ("player", "rage"),
    EventType.HP_CHANGED: ("player", "hp", "delta", "cause"),
    EventType.PILL_ROLLED: ("player", "heals"),
    EventType.GAMBLER_ROLLED: ("player", "won"),
    EventType.CONVERTED: ("player",),
    EventType.ELIMINATED: ("player", "by"),
    EventType.SHOOTING_LOCKED: ("player",),
    EventType.DISCARDED: ("player", "item"),
    EventType.TALLY: ("owner", "shots", "items_used", "kills", "hp"),
    EventType.TURN_ENDED: ("owner",),
    EventType.GAME_OVER: ("winners", "reason"),
}
"""The data fields the engine writes for each event type, in the order of its data: the
vocabulary's and the engine's own besides (a frame's id, a change's cause, the tally's
counts). The engine writes an event as its values alone, paired with these when the log
is read (:func:`data_of`)."""


def check_fields() -> None:
    """Every event type has its data fields, the vocabulary's among them, none twice."""
    for kind in EventType:
        fields = FIELDS.get(kind)
        if fields is None or len(set(fields)) != len(fields):
            raise ValueError(f"FIELDS[{kind.value}]: missing or a field twice")
        if not EVENT_FIELDS[kind.value].keys() <= set(fields):
            raise ValueError(f"FIELDS[{kind.value}] lacks fields of the vocabulary")


check_vocabulary()
check_fields()


def data_of(kind: EventType, values: tuple[Any, ...]) -> dict[str, Any]:
    """The data of an event of ``kind`` written as ``values`` (one for each of its fields),
    each a plain JSON value: a member of the rulebook's enums is read as its name (a shell,
    an item, a frame kind), a sequence of them as a list."""
    return {name: _plain(value) for name, value in zip(FIELDS[kind], values, strict=True)}


def _plain(value: Any) -> Any:
    if isinstance(value, list | tuple):
        return [_plain(part) for part in value]
    return value.value if isinstance(value, Enum) else value


@dataclass(frozen=True)
class Event:
    """One entry of the log; ``visibility`` is None when public, else the seats who see it."""

    seq: int
    turn: int
    type: EventType
    data: dict[str, Any]
    visibility: tuple[int, ...] | None = None

    def visible_to(self, seat: int) -> bool:
        """True when ``seat`` may see this event."""
        return self.visibility is None or seat in self.visibility

    def to_json(self) -> dict[str, Any]:
        """The event as JSON-ready data (the log's line format)."""
        return {
            "seq": self.seq,
            "turn": self.turn,
            "type": self.type.value,
            "visibility": "public" if self.visibility is None else list(self.visibility),
            "data": self.data,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Event:
        """The event read from one line of a log."""
        visibility = data["visibility"]
        return cls(
            seq=int(data["seq"]),
            turn=int(data["turn"]),
            type=EventType(data["type"]),
            data=dict(data["data"]),
            visibility=None if visibility == "public" else tuple(int(s) for s in visibility),
        )

    @classmethod
    def from_log(cls, event: LogEvent) -> Event:
        """The event read by the log reader (:mod:`buckshot.spec.eventlog`)."""
        return cls(
            seq=event.seq,
            turn=event.turn,
            type=EventType(event.type),
            data=dict(event.data),
            visibility=event.visibility,
        )


def to_jsonl(events: list[Event]) -> str:
    """Events as JSON lines, one compact line each, keys sorted: a log that
    :mod:`buckshot.spec.eventlog` reads back (:func:`from_jsonl`)."""
    return "".join(
        json.dumps(event.to_json(), sort_keys=True, separators=(",", ":")) + "\n"
        for event in events
    )


def from_jsonl(text: str, source: str = "<log>") -> list[Event]:
    """Events read back from :func:`to_jsonl` output, checked by the one log reader
    (:func:`buckshot.spec.eventlog.parse_log`; its ``EventLogError`` when it is no log)."""
    from buckshot.spec.eventlog import parse_log

    return [Event.from_log(event) for event in parse_log(text, source)]


def log_event(event: Event) -> LogEvent:
    """The engine's event as the log reader (:mod:`buckshot.spec.eventlog`) gives it, for
    the spec's folds: its place in the log is its ``seq``."""
    from buckshot.spec.eventlog import LogEvent

    return LogEvent(
        index=event.seq - 1,
        line=event.seq,
        seq=event.seq,
        turn=event.turn,
        type=event.type.value,
        visibility=event.visibility,
        data=event.data,
    )
