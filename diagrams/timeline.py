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

    @property
    def span(self) -> str:
        """The step's seqs as ``a-b`` (one seq alone for most steps)."""
        return "-".join(str(seq) for seq in self.seqs)


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

    def steps(self) -> list[Step]:
        """Every step inside the band, those of the bands nested in it included, in order."""
        return [
            step
            for item in self.items
            for step in (item.steps() if isinstance(item, Band) else [item])
        ]


@dataclass(frozen=True)
class Timeline:
    """A whole log as a timeline: the seats, and the root band holding every step."""

    seats: tuple[Seat, ...]
    root: Band
    first_seq: int | None
    last_seq: int | None

    def name(self, seat: int | None) -> str:
        """The seat's name from ``game_started`` (``seat N`` when the log does not name it)."""
        if seat is None:
            return "?"
        return next((known.name for known in self.seats if known.seat == seat), f"seat {seat}")

    def private(self, step: Step) -> str:
        """``private to`` the names of the seats that alone saw ``step``; empty when public."""
        if step.private_to is None:
            return ""
        return "private to " + ", ".join(self.name(seat) for seat in step.private_to)

    def actors(self) -> tuple[int, ...]:
        """Every seat that the seats list or any step names, in seat order."""
        named = {step.actor for step in self.root.steps() if step.actor is not None}
        return tuple(sorted(named | {seat.seat for seat in self.seats}))


_SEAT_KEYS = ("player", "by", "shooter", "target", "seat")


def _seats_of(events: Sequence[LogEvent]) -> tuple[Seat, ...]:
    for event in events:
        raw = event.data.get("seats") if event.type == "game_started" else None
        if not isinstance(raw, list):
            continue
        seats = [
            Seat(
                entry["seat"],
                entry["name"] if isinstance(entry.get("name"), str) else f"seat {entry['seat']}",
                entry["role"] if isinstance(entry.get("role"), str) else None,
            )
            for entry in raw
            if isinstance(entry, dict) and isinstance(entry.get("seat"), int)
        ]
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
    def __init__(self, events: Sequence[LogEvent], timeline: Timeline) -> None:
        self.events = events
        self.timeline = timeline
        self.name = timeline.name
        self.answers = _pair_answers(events)
        self.open: list[Band] = [timeline.root]

    def add(self, step: Band | Step) -> None:
        self.open[-1].items.append(step)

    def build(self) -> None:
        answered = set(self.answers.values())
        turn: int | None = None
        for index, event in enumerate(self.events):
            if index in answered:
                continue
            if turn is not None and event.turn != turn:
                self.add(Step((event.seq,), StepKind.TURN, "turn", None, f"Turn {event.turn}"))
            turn = event.turn
            self.event(index, event)

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
        ident = f" #{frame_id}" if frame_id is not None else ""
        text = f"pop {event.str_of('kind') or 'frame'}{ident}"
        position = next(
            (i for i in range(len(self.open) - 1, 0, -1) if self.open[i].frame_id == frame_id),
            None,
        )
        if position is None:
            detail = "its push is not in this log"
            self.add(Step((event.seq,), StepKind.POP, event.type, None, text, detail))
            return
        del self.open[position + 1 :]
        self.open[-1].popped_at = event.seq
        self.add(Step((event.seq,), StepKind.POP, event.type, None, text))
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
                f"{s.name} (seat {s.seat}{', ' + s.role if s.role else ''})"
                for s in self.timeline.seats
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
    seqs = [event.seq for event in events]
    root = Band(None, "log", -1)
    timeline = Timeline(_seats_of(events), root, min(seqs, default=None), max(seqs, default=None))
    _Builder(events, timeline).build()
    return timeline
