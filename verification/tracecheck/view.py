"""What a log's events observe of the game, read as the model's state fields.

The events between two decisions are split among the model's steps by the vocabulary's
table of what each action writes (:data:`buckshot.spec.events.ACTION_EVENTS`; a step also
writes ``frame_popped`` when it pops a frame, and ``phase`` when the turn's chart state
enters another of S4's phases). This module holds the other piece trace validation relies on:

- :class:`View`: the whole table's view of the log, folded event by event by the one fold
  of event logs (:class:`buckshot.spec.views.TableView`: HP from ``hp_changed``, items from
  draws, uses, thefts, discards and Magician payments, the chamber's counts, shields, rage,
  kills, the owner, the kill lock, the stack's frames, the result), read here as the
  model's fields: 8 seat slots, item and frame-kind codes. After each step the model's
  state must agree with the view on every field the view knows, and each event names the
  fields it set, which the model step that writes it must set to the view's values. An
  event that contradicts the view's own arithmetic (an ``hp_changed`` whose delta does not
  lead to its HP, an item spent that is not held) is a problem of its own.
"""

from __future__ import annotations

from typing import Any

from buckshot.spec.eventlog import LogEvent
from buckshot.spec.rulebook import FrameKind, Item
from buckshot.spec.views import TableView
from buckshot.verification.model.layout import (
    DRAWN,
    EMPTY,
    ITEM_KINDS,
    KINDS,
    NONE,
    RUNNING,
    SEATS,
    WON,
    item_code,
    kind_code,
)

Key = tuple[Any, ...]
"""A state field the view knows: ``("hp", 2)``, ``("items", 0, 5)``, ``("shells",)``..."""
Value = int | bool

_PICK = {item.value: item_code(item) for item in Item}


def item_of(name: str) -> int:
    """The model's code of the item called ``name``."""
    return _PICK[name]


def _items(p: int, names: Any) -> set[Key]:
    return {("items", p, item_of(name)) for name in names}


class View:
    """The game state as the events so far describe it, in the model's fields."""

    def __init__(self, table: TableView, shield_cap: int, slots: int) -> None:
        self.table = table  # the fold of the log so far
        self.shield_cap = shield_cap
        self.slots = slots

    def copy(self) -> View:
        """An independent copy (for trying one of several model steps)."""
        return View(self.table.copy(), self.shield_cap, self.slots)

    def values(self) -> dict[Key, Value]:
        """Every state field the view knows, with its value."""
        table = self.table
        out: dict[Key, Value] = {}
        for p in range(SEATS):
            seat = table.seats.get(p)
            out["hp", p] = 0 if seat is None or seat.hp is None else seat.hp
            out["alive", p] = seat is not None and seat.alive
            out["traitor", p] = seat is not None and seat.traitor
            out["rage", p] = 0 if seat is None else seat.rage
            out["kills", p] = 0 if seat is None else seat.kills
            shield = 0 if seat is None else seat.shield
            if shield < self.shield_cap:  # above it the model's counter saturates
                out["shield", p] = shield
            for k in range(KINDS):
                out["items", p, k] = 0 if seat is None else seat.items.get(ITEM_KINDS[k], 0)
        out["shells",] = table.shells
        out["live",] = table.live
        out["owner",] = 0 if table.owner is None else table.owner
        out["kill_lock",] = table.kill_lock
        winners = table.winners
        if winners is None:
            out["result",] = RUNNING
        else:
            out["result",] = DRAWN if table.reason == "turn_limit" else WON
        out["winner",] = winners[0] if winners else NONE
        out["depth",] = len(table.stack)
        for i in range(self.slots):
            frame = table.stack[i] if i < len(table.stack) else None
            out["fkind", i] = EMPTY if frame is None else kind_code(FrameKind(frame.kind))
            if frame is not None and frame.player is not None:
                out["fwho", i] = frame.player
        return out

    def observe(self, event: LogEvent) -> tuple[set[Key], str | None]:
        """Fold ``event`` in; the fields it set, and what is wrong with it on its own terms."""
        keys = self._keys(event)
        problem = self.table.observe(event)
        depth = len(self.table.stack)
        if problem is None and event.type == "frame_pushed" and depth > self.slots:
            problem = f"depth {depth} exceeds limits.max_stack_depth = {self.slots} (S6.1.4)"
        return keys, problem

    def _keys(self, event: LogEvent) -> set[Key]:
        """The fields ``event`` sets, read before it is folded in."""
        kind, d = event.type, event.data
        if kind in ("chamber_loaded", "shot_fired", "shell_ejected"):
            return {("shells",), ("live",)}
        if kind in ("items_drawn", "shell_flipped"):
            return _items(d["by" if kind == "shell_flipped" else "player"], d["items"])
        if kind in ("item_used", "discarded"):
            return _items(d["player"], [d["item"]])
        if kind == "item_stolen":
            return _items(d["victim"], [d["item"]]) | _items(d["player"], [d["item"]])
        if kind in _SEAT_FIELD:
            return {(_SEAT_FIELD[kind], d["player"])}
        if kind in ("frame_pushed", "frame_popped"):
            top = len(self.table.stack) - (kind == "frame_popped")
            return {("depth",), ("fkind", max(top, 0)), ("fwho", max(top, 0))}
        if kind == "eliminated":
            p = d["player"]
            keys: set[Key] = {("alive", p), ("shield", p), ("rage", p)}
            keys |= {("items", p, k) for k in range(KINDS)}
            return keys | ({("kills", d["by"])} if d["by"] is not None else set())
        if kind == "turn_ended":
            return {("rage", p) for p in range(SEATS)} | {("kill_lock",)}
        return set(_TABLE_FIELDS.get(kind, ()))


_SEAT_FIELD = {
    "shot_blocked": "shield",
    "shield_gained": "shield",
    "rage_gained": "rage",
    "rage_used": "rage",
    "hp_changed": "hp",
    "converted": "traitor",
}
"""The event types that set one field of the seat ``player``, and the field."""

_TABLE_FIELDS: dict[str, tuple[Key, ...]] = {
    "turn_started": (("owner",),),
    "chamber_inverted": (("live",),),
    "shooting_locked": (("kill_lock",),),
    "game_over": (("result",), ("winner",)),
}
"""The event types that set table fields only, and the fields."""
