"""Typed events: everything that happens in a game, with who may see it (R14)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from enum import StrEnum
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


check_vocabulary()


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
