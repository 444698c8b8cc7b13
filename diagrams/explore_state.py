"""What an event log says the game looked like after each of its events, for the explorer.

The log is the only input, so that any implementation's log in the engine's vocabulary can
be explored: each event moves a view of the stack (frames, their chart states, poll order
and cursor) and of the seats (HP, items, shield, rage, role, whether out). Which chart
state an event means is read from the spec's charts (``buckshot.spec.model``), never
written here: a pushed frame starts in its chart's initial leaf and puts the frame below in
the state that pushes that kind; a pop resumes that state's target; ``asked`` puts the
frame in the decision state of that prompt; ``phase`` puts the turn in that phase's initial
leaf. Between two such events the view keeps the last state it was told.

A log may start after the seats got items (a conformance case or a worked example set up
by hand): items spent but never drawn in the log are shown as held from before it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from buckshot.reference.events import EventType
from buckshot.spec.eventlog import LogEvent
from buckshot.spec.model import ChartModel, StateKind, chart_models
from buckshot.spec.polling import poll_order
from buckshot.spec.rulebook import FrameKind

LOCKED_STATE = "shooting_locked"
"""The turn's decision state once the owner's kill locked shooting (S4.2.3, R25): the log
says so by a ``shooting_locked`` event; both it and ``awaiting_action`` ask ``main_action``."""

POLL_SELECTOR = "poll_cursor"
"""The registry's name for "the seat at the poll cursor": a prompt asked so polls (S6.2)."""

POLLED_FROM_OWNER = frozenset({FrameKind.SHOT_WINDOW.value})
"""Frame kinds that poll every living seat from the owner's next, the owner last (S6.2.1)."""


class _Charts:
    """The facts of the charts the view needs, each read once from the spec's model."""

    def __init__(self, models: Sequence[ChartModel]) -> None:
        self.models = {model.kind.value: model for model in models}
        self.pushes = {
            (model.kind.value, push.frame.value): (push.state, push.resumes_to)
            for model in models
            for push in model.pushes
        }
        self.asking: dict[tuple[str, str], list[str]] = {}
        for model in models:
            for state, prompt in model.prompts.items():
                self.asking.setdefault((model.kind.value, prompt.kind), []).append(state)
        turn = self.models[FrameKind.TURN.value]
        if LOCKED_STATE not in turn.prompts:  # a binding by name, checked at import
            raise AssertionError(f"the turn chart has no decision state {LOCKED_STATE!r}")
        if not any(p.asked == POLL_SELECTOR for m in models for p in m.prompts.values()):
            raise AssertionError(f"no chart asks by {POLL_SELECTOR!r}")
        finals = [s.id for s in turn.states if s.kind is StateKind.FINAL and s.parent is None]
        (self.game_over,) = finals

    def entry(self, kind: str, state_id: str) -> str:
        """The leaf a chart is in when it enters ``state_id`` (compound: its initial leaf)."""
        model = self.models[kind]
        state = model.state(state_id)
        while state.kind is StateKind.COMPOUND:
            state = next(s for s in model.states if s.parent == state.id and s.initial)
        return state.id

    def initial(self, kind: str) -> str:
        """The leaf a freshly pushed frame of ``kind`` starts in."""
        return self.entry(kind, self.models[kind].initial)


CHARTS = _Charts(chart_models())


@dataclass(frozen=True)
class FrameView:
    """One frame of the stack as the log shows it."""

    id: int | None
    kind: str
    state: str | None
    """The chart state; None while the log has not said (a log that starts mid-stack)."""
    player: int | None = None
    """Whom a dying, conversion or discard frame is for."""
    order: tuple[int, ...] = ()
    """The seats a poll asks, in order, as far as known."""
    cursor: int | None = None
    """The position in ``order`` of the seat asked now (or last)."""
    answers: tuple[tuple[int, str], ...] = ()
    """Each polled seat's answer so far, in order: (seat, option)."""

    def to_json(self) -> dict[str, Any]:
        """The frame as JSON-ready data."""
        return {
            "id": self.id,
            "kind": self.kind,
            "state": self.state,
            "player": self.player,
            "order": list(self.order),
            "cursor": self.cursor,
            "answers": [list(answer) for answer in self.answers],
        }


@dataclass
class SeatView:
    """One seat as the log shows it."""

    seat: int
    name: str
    role: str | None = None
    hp: int | None = None
    alive: bool = True
    traitor: bool = False
    shield: int = 0
    rage: int = 0
    items: dict[str, int] = field(default_factory=dict)
    before_log: dict[str, int] = field(default_factory=dict)
    """Items the seat spent in the log without drawing them there: held before it."""

    def to_json(self) -> dict[str, Any]:
        """The seat as JSON-ready data, items by name in sorted order."""
        return {
            "seat": self.seat,
            "name": self.name,
            "role": self.role,
            "hp": self.hp,
            "alive": self.alive,
            "traitor": self.traitor,
            "shield": self.shield,
            "rage": self.rage,
            "items": {k: v for k, v in sorted(self.items.items()) if v},
            "before_log": dict(sorted(self.before_log.items())),
        }


@dataclass(frozen=True)
class Moment:
    """The view right after one event: the stack bottom first, the seats, the edges taken."""

    stack: tuple[FrameView, ...]
    seats: tuple[dict[str, Any], ...]
    taken: tuple[str, ...] = ()
    """SVG ids of the transition edges a ``decided`` event took (all branches of its event)."""


ITEM_EVENTS = frozenset({"items_drawn", "item_used", "discarded", "shell_flipped", "item_stolen"})
"""The event types that move items into or out of a hand (:func:`_item_moves`)."""

SEAT_EVENTS = ITEM_EVENTS | {
    "game_started",
    "hp_changed",
    "shield_gained",
    "shot_blocked",
    "rage_gained",
    "rage_used",
    "converted",
    "eliminated",
    "turn_ended",
}
"""The event types that change what a seat shows (``_Fold.seat_effects`` and handlers)."""


def _item_moves(event: LogEvent) -> list[tuple[int, str, int]]:
    """(seat, item, +n or -n) for every item an event puts into or takes out of a hand."""
    kind = event.type
    moves: list[tuple[int, str, int]] = []
    if kind not in ITEM_EVENTS:
        return moves
    if kind == "items_drawn" and event.int_of("player") is not None:
        moves += [(event.int_of("player") or 0, item, 1) for item in event.strs_of("items")]
    elif kind in ("item_used", "discarded") and event.int_of("player") is not None:
        item = event.str_of("item")
        if item is not None:
            moves.append((event.int_of("player") or 0, item, -1))
    elif kind == "shell_flipped" and event.int_of("by") is not None:
        moves += [(event.int_of("by") or 0, item, -1) for item in event.strs_of("items")]
    elif kind == "item_stolen":
        thief, victim, item = event.int_of("player"), event.int_of("victim"), event.str_of("item")
        if thief is not None and victim is not None and item is not None:
            moves += [(victim, item, -1), (thief, item, 1)]
    return moves


def held_before(events: Sequence[LogEvent]) -> dict[int, dict[str, int]]:
    """Per seat, the items it must have held before the log so that no count goes below 0."""
    running: dict[tuple[int, str], int] = {}
    lowest: dict[tuple[int, str], int] = {}
    for event in events:
        if event.type == "eliminated" and event.int_of("player") is not None:
            seat = event.int_of("player")
            for key in running:
                if key[0] == seat:
                    running[key] = 0
        for seat, item, delta in _item_moves(event):
            key = (seat, item)
            running[key] = running.get(key, 0) + delta
            lowest[key] = min(lowest.get(key, 0), running[key])
    before: dict[int, dict[str, int]] = {}
    for (seat, item), low in sorted(lowest.items()):
        if low < 0:
            before.setdefault(seat, {})[item] = -low
    return before


class _Fold:
    """Walks the log once, keeping the view and recording it after every event."""

    def __init__(self, events: Sequence[LogEvent]) -> None:
        self.stack: list[FrameView] = []
        self.seats: dict[int, SeatView] = {}
        self.before = held_before(events)
        self.owner: int | None = None
        self.locked = False
        self.shown_seats: tuple[dict[str, Any], ...] = ()

    def seat(self, number: int) -> SeatView:
        if number not in self.seats:
            hand = dict(self.before.get(number, {}))
            self.seats[number] = SeatView(
                number, f"seat {number}", items=dict(hand), before_log=hand
            )
        return self.seats[number]

    def frame_index(self, frame_id: int | None) -> int | None:
        for index in range(len(self.stack) - 1, -1, -1):
            if frame_id is None or self.stack[index].id == frame_id:
                return index
        return None

    def set_state(self, index: int, state: str, **changes: Any) -> None:
        self.stack[index] = replace(self.stack[index], state=state, **changes)

    def step(self, event: LogEvent) -> Moment:
        seats = len(self.seats)
        handler = getattr(self, f"on_{event.type}", None)
        taken = handler(event) if handler is not None else None
        self.seat_effects(event)
        if event.type in SEAT_EVENTS or len(self.seats) != seats:
            # a new tuple only when a seat may have changed: moments share it otherwise
            self.shown_seats = tuple(self.seats[n].to_json() for n in sorted(self.seats))
        return Moment(tuple(self.stack), self.shown_seats, tuple(taken) if taken else ())

    # --- the stack ------------------------------------------------------------------------

    def on_game_started(self, event: LogEvent) -> None:
        seats = event.data.get("seats")
        for raw in seats if isinstance(seats, list) else []:
            if isinstance(raw, Mapping) and isinstance(raw.get("seat"), int):
                seat = self.seat(int(raw["seat"]))
                seat.name = str(raw.get("name", seat.name))
                role, hp = raw.get("role"), raw.get("hp")
                seat.role = role if isinstance(role, str) else seat.role
                seat.hp = hp if isinstance(hp, int) else seat.hp

    def on_turn_started(self, event: LogEvent) -> None:
        self.owner = event.int_of("owner")
        self.locked = False

    def on_turn_ended(self, event: LogEvent) -> None:
        for seat in self.seats.values():  # rage lasts for the turn only (S4.5.1)
            seat.rage = 0

    def on_shooting_locked(self, event: LogEvent) -> None:
        self.locked = True

    def on_frame_pushed(self, event: LogEvent) -> None:
        kind = event.str_of("kind")
        if kind not in CHARTS.models:
            return
        if self.stack:
            below = self.stack[-1]
            push = CHARTS.pushes.get((below.kind, kind))
            if push is not None:
                self.set_state(len(self.stack) - 1, push[0])
        order: tuple[int, ...] = ()
        if kind in POLLED_FROM_OWNER and self.owner is not None and self.seats:
            alive = [self.seat(n).alive for n in range(max(self.seats) + 1)]
            order = poll_order(alive, self.owner)
        self.stack.append(
            FrameView(
                event.int_of("frame_id"),
                kind,
                CHARTS.initial(kind),
                event.int_of("player"),
                order,
            )
        )

    def on_frame_popped(self, event: LogEvent) -> None:
        index = self.frame_index(event.int_of("frame_id"))
        if index is None:
            return
        popped = self.stack[index]
        del self.stack[index:]
        if self.stack:
            below = self.stack[-1]
            push = CHARTS.pushes.get((below.kind, popped.kind))
            if push is not None and len(push[1]) == 1:
                self.set_state(len(self.stack) - 1, push[1][0])

    def on_phase(self, event: LogEvent) -> None:
        phase = event.str_of("phase")
        turn = CHARTS.models[FrameKind.TURN.value]
        known = phase is not None and any(s.id == phase for s in turn.states)
        if known and self.stack and self.stack[0].kind == turn.kind.value:
            assert phase is not None
            self.set_state(0, CHARTS.entry(turn.kind.value, phase))

    def on_asked(self, event: LogEvent) -> None:
        index = self.frame_index(event.int_of("frame_id"))
        prompt, player = event.str_of("prompt"), event.int_of("player")
        if index is None or prompt is None:
            return
        frame = self.stack[index]
        states = CHARTS.asking.get((frame.kind, prompt), [])
        if not states:
            return
        state = LOCKED_STATE if self.locked and LOCKED_STATE in states else states[0]
        order, cursor = frame.order, frame.cursor
        polls = CHARTS.models[frame.kind].prompts[state].asked == POLL_SELECTOR
        if player is not None and polls:
            if player not in order:
                order = (*order, player)
            cursor = order.index(player)
        self.set_state(index, state, order=order, cursor=cursor)

    def on_decided(self, event: LogEvent) -> list[str]:
        index = self.frame_index(event.int_of("frame_id"))
        option, player = event.str_of("option"), event.int_of("player")
        if index is None or option is None:
            return []
        frame = self.stack[index]
        if frame.order and player is not None:
            self.stack[index] = replace(frame, answers=(*frame.answers, (player, option)))
        name = option.split(":", 1)[0]
        model = CHARTS.models[frame.kind]
        return [
            edge.id.replace(":", "-")
            for edge in model.transitions
            if edge.source == frame.state and edge.event == name
        ]

    def on_game_over(self, event: LogEvent) -> None:
        if self.stack and self.stack[0].kind == FrameKind.TURN.value:
            del self.stack[1:]
            self.set_state(0, CHARTS.game_over)

    # --- the seats ------------------------------------------------------------------------

    def seat_effects(self, event: LogEvent) -> None:
        for number, item, delta in _item_moves(event):
            seat = self.seat(number)
            seat.items[item] = seat.items.get(item, 0) + delta
        player = event.int_of("player")
        if player is None:
            return
        seat = self.seat(player)
        kind = event.type
        if kind == "hp_changed" and event.int_of("hp") is not None:
            seat.hp = event.int_of("hp")
        elif kind in ("shield_gained", "shot_blocked") and event.int_of("shield") is not None:
            seat.shield = event.int_of("shield") or 0
        elif kind in ("rage_gained", "rage_used") and event.int_of("rage") is not None:
            seat.rage = event.int_of("rage") or 0
        elif kind == "converted":
            seat.traitor = True
        elif kind == "eliminated":
            seat.alive = False
            seat.items.clear()
            seat.shield = seat.rage = 0


def _check_event_names() -> None:
    """Every event type the view reads is one the engine writes (a binding by name)."""
    known = {event.value for event in EventType}
    handled = {name.removeprefix("on_") for name in vars(_Fold) if name.startswith("on_")}
    unknown = sorted((handled | SEAT_EVENTS) - known)
    if unknown:
        raise AssertionError(f"the explorer reads event types the engine never writes: {unknown}")


_check_event_names()


def fold(events: Sequence[LogEvent]) -> list[Moment]:
    """The view after each event of ``events``, one moment per event, in log order."""
    walker = _Fold(events)
    return [walker.step(event) for event in events]
