"""What a log's events observe of the game: the events each model step writes, and a folded view.

The events between two decisions are split among the model's steps by the vocabulary's
table of what each action writes (:data:`buckshot.spec.events.ACTION_EVENTS`; a step also
writes ``frame_popped`` when it pops a frame, and ``phase`` when the turn's chart state
enters another of S4's phases). This module holds the other piece trace validation relies on:

- :class:`View`: the state the events describe, folded event by event (HP from
  ``hp_changed``, items from draws, uses, thefts, discards and Magician payments, the
  chamber's counts, shields, rage, kills, the owner, the kill lock, the stack's frames, the
  result). After each step the model's state must agree with the view on every field the
  view knows; an event that contradicts the view's own arithmetic (an ``hp_changed`` whose
  delta does not lead to its HP, an item spent that is not held) is a problem of its own.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from buckshot.spec.eventlog import LogEvent
from buckshot.spec.rulebook import FrameKind, Item
from buckshot.verification.model.layout import (
    DRAWN,
    EMPTY,
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


@dataclass
class FrameSeen:
    """A frame on the stack as the log shows it."""

    kind: FrameKind
    player: int | None
    frame_id: int | None


@dataclass
class View:
    """The game state as the events so far describe it (8 seat slots, like the model)."""

    players: int
    shield_cap: int
    turn_cap: int
    slots: int
    hp: list[int]
    alive: list[bool] = field(default_factory=lambda: [False] * SEATS)
    items: list[list[int]] = field(default_factory=lambda: [[0] * KINDS for _ in range(SEATS)])
    traitor: list[bool] = field(default_factory=lambda: [False] * SEATS)
    shield: list[int] = field(default_factory=lambda: [0] * SEATS)
    rage: list[int] = field(default_factory=lambda: [0] * SEATS)
    kills: list[int] = field(default_factory=lambda: [0] * SEATS)
    shells: int = 0
    live: int = 0
    owner: int = 0
    kill_lock: bool = False
    result: int = RUNNING
    winner: int = NONE
    stack: list[FrameSeen] = field(default_factory=list)
    phase: str | None = None
    flips: int = 0
    """Flips of the declared shot's shell so far (S2.6, S6.3.1): its chamber type is the
    fired type when even, the other when odd (the flip changes the shot, not the load)."""

    @classmethod
    def start(cls, hp: list[int], shield_cap: int, turn_cap: int, slots: int) -> View:
        """The view before the first event after ``game_started``: seats with their HP."""
        padded = list(hp) + [0] * (SEATS - len(hp))
        view = cls(len(hp), shield_cap, turn_cap, slots, padded)
        view.alive = [p < len(hp) for p in range(SEATS)]
        return view

    def copy(self) -> View:
        """An independent copy (for trying one of several model steps)."""
        return View(
            self.players,
            self.shield_cap,
            self.turn_cap,
            self.slots,
            list(self.hp),
            list(self.alive),
            [list(row) for row in self.items],
            list(self.traitor),
            list(self.shield),
            list(self.rage),
            list(self.kills),
            self.shells,
            self.live,
            self.owner,
            self.kill_lock,
            self.result,
            self.winner,
            [FrameSeen(f.kind, f.player, f.frame_id) for f in self.stack],
            self.phase,
            self.flips,
        )

    def values(self) -> dict[Key, Value]:
        """Every state field the view knows, with its value."""
        out: dict[Key, Value] = {}
        for p in range(SEATS):
            out["hp", p] = self.hp[p]
            out["alive", p] = self.alive[p]
            out["traitor", p] = self.traitor[p]
            out["rage", p] = self.rage[p]
            out["kills", p] = self.kills[p]
            if self.shield[p] < self.shield_cap:  # above it the model's counter saturates
                out["shield", p] = self.shield[p]
            for k in range(KINDS):
                out["items", p, k] = self.items[p][k]
        out["shells",] = self.shells
        out["live",] = self.live
        out["owner",] = self.owner
        out["kill_lock",] = self.kill_lock
        out["result",] = self.result
        out["winner",] = self.winner
        out["depth",] = len(self.stack)
        for i in range(self.slots):
            frame = self.stack[i] if i < len(self.stack) else None
            out["fkind", i] = EMPTY if frame is None else kind_code(frame.kind)
            if frame is not None and frame.player is not None:
                out["fwho", i] = frame.player
        return out

    # --- folding one event ---------------------------------------------------------------

    def observe(self, event: LogEvent) -> tuple[set[Key], str | None]:
        """Fold ``event`` in; the fields it set, and what is wrong with it on its own terms."""
        handler = getattr(self, f"_on_{event.type}", None)
        if handler is None:
            return set(), None
        result: tuple[set[Key], str | None] = handler(event.data)
        return result

    def _take(self, p: int, name: str, count: int = 1) -> tuple[set[Key], str | None]:
        k = item_of(name)
        if self.items[p][k] < count:
            return {("items", p, k)}, f"seat {p} holds {self.items[p][k]} {name}, not {count}"
        self.items[p][k] -= count
        return {("items", p, k)}, None

    def _on_turn_started(self, d: dict[str, Any]) -> tuple[set[Key], str | None]:
        self.owner = d["owner"]
        return {("owner",)}, None

    def _on_phase(self, d: dict[str, Any]) -> tuple[set[Key], str | None]:
        self.phase = d["phase"]
        if d["owner"] != self.owner:
            return set(), f"the phase is announced for seat {d['owner']}, the owner is {self.owner}"
        return set(), None

    def _on_chamber_loaded(self, d: dict[str, Any]) -> tuple[set[Key], str | None]:
        self.shells, self.live = d["live"] + d["blank"], d["live"]
        return {("shells",), ("live",)}, None

    def _on_items_drawn(self, d: dict[str, Any]) -> tuple[set[Key], str | None]:
        p = d["player"]
        for name, count in Counter(d["items"]).items():
            self.items[p][item_of(name)] += count
        return {("items", p, item_of(name)) for name in d["items"]}, None

    def _on_frame_pushed(self, d: dict[str, Any]) -> tuple[set[Key], str | None]:
        depth = len(self.stack) + 1
        self.stack.append(FrameSeen(FrameKind(d["kind"]), d["player"], d.get("frame_id")))
        keys: set[Key] = {("depth",), ("fkind", depth - 1), ("fwho", depth - 1)}
        if d["depth"] != depth:
            return keys, f"a frame pushed at depth {d['depth']} onto a stack of {depth - 1}"
        if depth > self.slots:
            return keys, f"depth {depth} exceeds limits.max_stack_depth = {self.slots} (S6.1.4)"
        return keys, None

    def _on_frame_popped(self, d: dict[str, Any]) -> tuple[set[Key], str | None]:
        depth = len(self.stack)
        keys: set[Key] = {("depth",), ("fkind", max(depth - 1, 0)), ("fwho", max(depth - 1, 0))}
        if depth <= 1 or d["depth"] != depth or self.stack[-1].kind.value != d["kind"]:
            top = self.stack[-1].kind.value if self.stack else "nothing"
            return keys, f"pops a {d['kind']} at depth {d['depth']}; the top is {top} at {depth}"
        self.stack.pop()
        return keys, None

    def _on_shot_declared(self, d: dict[str, Any]) -> tuple[set[Key], str | None]:
        self.flips = 0
        return set(), None

    def _on_shot_fired(self, d: dict[str, Any]) -> tuple[set[Key], str | None]:
        flipped = {"live": "blank", "blank": "live"}
        loaded = d["shell"] if self.flips % 2 == 0 else flipped[d["shell"]]
        self.flips = 0
        return self._remove_shell(loaded)

    def _on_shell_ejected(self, d: dict[str, Any]) -> tuple[set[Key], str | None]:
        return self._remove_shell(d["shell"])

    def _remove_shell(self, shell: str) -> tuple[set[Key], str | None]:
        keys: set[Key] = {("shells",), ("live",)}
        live = shell == "live"
        if self.shells == 0 or (live and self.live == 0) or (not live and self.live == self.shells):
            return keys, f"no {shell} shell is left ({self.live} live of {self.shells})"
        self.shells -= 1
        self.live -= int(live)
        return keys, None

    def _on_chamber_inverted(self, d: dict[str, Any]) -> tuple[set[Key], str | None]:
        self.live = self.shells - self.live
        return {("live",)}, None

    def _on_shot_blocked(self, d: dict[str, Any]) -> tuple[set[Key], str | None]:
        self.shield[d["player"]] = d["shield"]
        return {("shield", d["player"])}, None

    def _on_item_used(self, d: dict[str, Any]) -> tuple[set[Key], str | None]:
        return self._take(d["player"], d["item"])

    def _on_item_stolen(self, d: dict[str, Any]) -> tuple[set[Key], str | None]:
        keys, problem = self._take(d["victim"], d["item"])
        self.items[d["player"]][item_of(d["item"])] += 1
        return keys | {("items", d["player"], item_of(d["item"]))}, problem

    def _on_shell_flipped(self, d: dict[str, Any]) -> tuple[set[Key], str | None]:
        self.flips += 1
        keys: set[Key] = set()
        for name, count in Counter(d["items"]).items():
            more, problem = self._take(d["by"], name, count)
            keys |= more
            if problem is not None:
                return keys, problem
        return keys, None

    def _on_discarded(self, d: dict[str, Any]) -> tuple[set[Key], str | None]:
        return self._take(d["player"], d["item"])

    def _on_shield_gained(self, d: dict[str, Any]) -> tuple[set[Key], str | None]:
        p = d["player"]
        before, self.shield[p] = self.shield[p], d["shield"]
        if before + d["blocks"] != d["shield"]:
            return {("shield", p)}, f"{before} blocks + {d['blocks']} do not make {d['shield']}"
        return {("shield", p)}, None

    def _on_rage_gained(self, d: dict[str, Any]) -> tuple[set[Key], str | None]:
        p = d["player"]
        before, self.rage[p] = self.rage[p], d["rage"]
        if before + d["charges"] != d["rage"]:
            return {("rage", p)}, f"{before} charges + {d['charges']} do not make {d['rage']}"
        return {("rage", p)}, None

    def _on_rage_used(self, d: dict[str, Any]) -> tuple[set[Key], str | None]:
        self.rage[d["player"]] = d["rage"]
        return {("rage", d["player"])}, None

    def _on_hp_changed(self, d: dict[str, Any]) -> tuple[set[Key], str | None]:
        p = d["player"]
        before, self.hp[p] = self.hp[p], d["hp"]
        if before + d["delta"] != d["hp"]:
            return {("hp", p)}, f"seat {p} had {before} HP; {d['delta']:+d} does not make {d['hp']}"
        return {("hp", p)}, None

    def _on_converted(self, d: dict[str, Any]) -> tuple[set[Key], str | None]:
        self.traitor[d["player"]] = True
        return {("traitor", d["player"])}, None

    def _on_eliminated(self, d: dict[str, Any]) -> tuple[set[Key], str | None]:
        p = d["player"]
        self.alive[p] = False
        self.items[p] = [0] * KINDS
        self.shield[p] = self.rage[p] = 0
        keys: set[Key] = {("alive", p), ("shield", p), ("rage", p)}
        keys |= {("items", p, k) for k in range(KINDS)}
        if d["by"] is not None:
            self.kills[d["by"]] += 1
            keys.add(("kills", d["by"]))
        return keys, None

    def _on_shooting_locked(self, d: dict[str, Any]) -> tuple[set[Key], str | None]:
        self.kill_lock = True
        return {("kill_lock",)}, None

    def _on_turn_ended(self, d: dict[str, Any]) -> tuple[set[Key], str | None]:
        self.rage = [0] * SEATS
        self.kill_lock = False
        keys: set[Key] = {("rage", p) for p in range(SEATS)} | {("kill_lock",)}
        if d["owner"] != self.owner:
            return keys, f"the turn of seat {d['owner']} ends; the owner is {self.owner}"
        return keys, None

    def _on_game_over(self, d: dict[str, Any]) -> tuple[set[Key], str | None]:
        winners = d["winners"]
        self.result = DRAWN if d["reason"] == "turn_limit" else WON
        self.winner = winners[0] if winners else NONE
        return {("result",), ("winner",)}, None
