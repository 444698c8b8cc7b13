"""A played fragment as a timeline: steps in log order, inside nested bands, one per frame.

An ``asked`` and the ``decided`` that answers it become one step; known event types get a
sentence, any other a labelled point.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from buckshot.spec.eventlog import LogEvent


class StepKind(StrEnum):
    """What a step of the timeline shows."""

    PUSH = "push"
    POP = "pop"
    ASK = "ask"
    """A player was asked, with the options, and (when the log has it) what they chose."""
    EVENT = "event"
    POINT = "point"
    """Any other event type, shown by its name and data."""
    TURN = "turn"


@dataclass(frozen=True)
class Seat:
    """A seat at the table, as ``game_started`` names it."""

    seat: int
    name: str
    role: str | None


@dataclass(frozen=True)
class Step:
    """One row of the timeline."""

    seqs: tuple[int, ...]
    """The ``seq`` of each event the step shows (an ask and its answer are two)."""
    kind: StepKind
    type: str
    actor: int | None
    text: str
    detail: str = ""
    options: tuple[str, ...] = ()
    chosen: str | None = None
    private_to: tuple[int, ...] | None = None


@dataclass
class Band:
    """A frame's stretch of the timeline: from its push to its pop, with what ran inside."""

    frame_id: int | None
    kind: str
    depth: int
    items: list[Band | Step] = field(default_factory=list)
    pushed_at: int | None = None
    popped_at: int | None = None

    @property
    def label(self) -> str:
        """``kind #id · depth d · seq a-b`` (``still open`` when the log ends inside it)."""
        ident = f" #{self.frame_id}" if self.frame_id is not None else ""
        end = str(self.popped_at) if self.popped_at is not None else "end (still open)"
        start = self.pushed_at if self.pushed_at is not None else "start"
        return f"{self.kind}{ident} · depth {self.depth} · seq {start}-{end}"


@dataclass(frozen=True)
class Timeline:
    """A whole log as a timeline: the seats, and the root band holding every step."""

    seats: tuple[Seat, ...]
    root: Band
    first_seq: int | None
    last_seq: int | None

    def name(self, seat: int | None) -> str:
        """The seat's name from ``game_started`` (``seat N`` when the log does not name it)."""
        return _name(self.seats, seat)

    def actors(self) -> tuple[int, ...]:
        """Every seat that the seats list or any step names, in seat order."""
        seen = {seat.seat for seat in self.seats}
        stack: list[Band | Step] = [self.root]
        while stack:
            item = stack.pop()
            if isinstance(item, Band):
                stack.extend(item.items)
            elif item.actor is not None:
                seen.add(item.actor)
        return tuple(sorted(seen))


def _name(seats: Sequence[Seat], seat: int | None) -> str:
    if seat is None:
        return "?"
    for known in seats:
        if known.seat == seat:
            return known.name
    return f"seat {seat}"


_SEAT_KEYS = ("player", "by", "shooter", "target", "seat")


def _seats_of(events: Sequence[LogEvent]) -> tuple[Seat, ...]:
    for event in events:
        if event.type != "game_started":
            continue
        raw = event.data.get("seats")
        if not isinstance(raw, list):
            continue
        seats = []
        for entry in raw:
            if isinstance(entry, dict) and isinstance(entry.get("seat"), int):
                name = entry.get("name")
                role = entry.get("role")
                seats.append(
                    Seat(
                        entry["seat"],
                        name if isinstance(name, str) else f"seat {entry['seat']}",
                        role if isinstance(role, str) else None,
                    )
                )
        return tuple(sorted(seats, key=lambda s: s.seat))
    return ()


def _pair_answers(events: Sequence[LogEvent]) -> dict[int, int]:
    """Index of each ``asked`` -> index of the ``decided`` that answers it."""
    answers: dict[int, int] = {}
    waiting: dict[tuple[int | None, int | None], int] = {}
    for index, event in enumerate(events):
        key = (event.int_of("player"), event.int_of("frame_id"))
        if event.type == "asked":
            waiting[key] = index
        elif event.type == "decided" and key in waiting:
            answers[waiting.pop(key)] = index
    return answers


def _compact(value: object) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, list) and all(isinstance(v, str | int | float) for v in value):
        return "[" + ", ".join(_compact(v) for v in value) + "]"
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


class _Builder:
    def __init__(self, events: Sequence[LogEvent]) -> None:
        self.events = events
        self.seats = _seats_of(events)
        self.answers = _pair_answers(events)
        self.root = Band(None, "log", -1)
        self.open: list[Band] = [self.root]

    def name(self, seat: int | None) -> str:
        return _name(self.seats, seat)

    def add(self, step: Band | Step) -> None:
        self.open[-1].items.append(step)

    def build(self) -> Band:
        answered = set(self.answers.values())
        turn: int | None = None
        for index, event in enumerate(self.events):
            if index in answered:
                continue
            if event.turn is not None and turn is not None and event.turn != turn:
                self.add(Step((event.seq,), StepKind.TURN, "turn", None, f"Turn {event.turn}"))
            if event.turn is not None:
                turn = event.turn
            self.event(index, event)
        return self.root

    def event(self, index: int, event: LogEvent) -> None:
        if event.type == "frame_pushed":
            self.push(event)
        elif event.type == "frame_popped":
            self.pop(event)
        elif event.type == "asked":
            answer = self.answers.get(index)
            self.add(self.ask(event, self.events[answer] if answer is not None else None))
        else:
            self.add(self.told(event) or self.point(event))

    def push(self, event: LogEvent) -> None:
        kind = event.str_of("kind") or "frame"
        depth = event.int_of("depth")
        band = Band(
            event.int_of("frame_id"),
            kind,
            depth if depth is not None else len(self.open) - 1,
            pushed_at=event.seq,
        )
        self.add(band)
        self.open.append(band)
        text = f"push {band.kind}" + (f" #{band.frame_id}" if band.frame_id is not None else "")
        self.add(Step((event.seq,), StepKind.PUSH, event.type, None, text, f"depth {band.depth}"))

    def pop(self, event: LogEvent) -> None:
        frame_id = event.int_of("frame_id")
        kind = event.str_of("kind") or "frame"
        ident = f" #{frame_id}" if frame_id is not None else ""
        position = next(
            (i for i in range(len(self.open) - 1, 0, -1) if self.open[i].frame_id == frame_id),
            None,
        )
        if position is None:
            self.add(
                Step(
                    (event.seq,),
                    StepKind.POP,
                    event.type,
                    None,
                    f"pop {kind}{ident}",
                    "its push is not in this log",
                )
            )
            return
        del self.open[position + 1 :]
        band = self.open[-1]
        band.popped_at = event.seq
        self.add(Step((event.seq,), StepKind.POP, event.type, None, f"pop {kind}{ident}"))
        self.open.pop()

    def ask(self, asked: LogEvent, decided: LogEvent | None) -> Step:
        prompt = asked.str_of("prompt") or "?"
        seqs = (asked.seq,) if decided is None else (asked.seq, decided.seq)
        chosen = decided.str_of("option") if decided is not None else None
        return Step(
            seqs,
            StepKind.ASK,
            "asked",
            asked.int_of("player"),
            f"{self.name(asked.int_of('player'))} is asked: {prompt}",
            "no answer in this log" if decided is None else "",
            options=asked.strs_of("options"),
            chosen=chosen,
            private_to=asked.visibility,
        )

    def told(self, event: LogEvent) -> Step | None:
        """A sentence for an event type the timeline knows; None for any other."""
        text: str | None = None
        actor: int | None = None
        if event.type == "game_started":
            seats = ", ".join(
                f"{s.name} (seat {s.seat}{', ' + s.role if s.role else ''})" for s in self.seats
            )
            text = f"game started: {seats}"
        elif event.type == "decided":
            actor = event.int_of("player")
            text = f"{self.name(actor)} decides {event.str_of('option') or '?'}"
        elif event.type == "shot_declared":
            actor = event.int_of("shooter")
            target = event.int_of("target")
            whom = "themself" if target == actor else self.name(target)
            text = f"{self.name(actor)} declares a shot at {whom}"
        elif event.type == "shell_flipped":
            actor = event.int_of("by")
            text = f"{self.name(actor)} flips the shot's shell"
        elif event.type == "shot_fired":
            actor = event.int_of("shooter")
            shell = event.str_of("shell") or "?"
            damage = event.int_of("damage")
            hit = f", {damage} damage" if damage is not None else ""
            text = f"the shot at {self.name(event.int_of('target'))} fires: {shell}{hit}"
        elif event.type == "hp_changed":
            actor = event.int_of("player")
            delta = event.int_of("delta")
            change = f" ({delta:+d})" if delta is not None else ""
            text = f"{self.name(actor)}: HP {event.int_of('hp')}{change}"
        if text is None:
            return None
        return Step(
            (event.seq,), StepKind.EVENT, event.type, actor, text, private_to=event.visibility
        )

    def point(self, event: LogEvent) -> Step:
        actor = next((event.int_of(k) for k in _SEAT_KEYS if event.int_of(k) is not None), None)
        parts = []
        for key, value in event.data.items():
            shown = self.name(value) if key in _SEAT_KEYS and isinstance(value, int) else value
            parts.append(f"{key}={_compact(shown)}")
        return Step(
            (event.seq,),
            StepKind.POINT,
            event.type,
            actor,
            event.type,
            ", ".join(parts),
            private_to=event.visibility,
        )


def build_timeline(events: Sequence[LogEvent]) -> Timeline:
    """The timeline of ``events`` (in log order)."""
    builder = _Builder(events)
    root = builder.build()
    seqs = [event.seq for event in events]
    return Timeline(builder.seats, root, min(seqs) if seqs else None, max(seqs) if seqs else None)
