"""One fold of an event log into views of the game: the whole table's (:class:`TableView`) and
each seat's (:func:`seat_view`: the events it may see, R14); docs/spec.md, "Events and logs".
A log that starts mid-game folds too (a seat is seated when first named); an event that
contradicts the view is a problem, returned by ``observe``, and still folded.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from buckshot.spec.chart_data import ChartModel, StateKind, chart_models
from buckshot.spec.eventlog import LogEvent
from buckshot.spec.events import EVENT_FIELDS
from buckshot.spec.polling import poll_order
from buckshot.spec.rulebook import FrameKind, Role

LOCKED_STATE = "shooting_locked"
"""The turn's decision state once the owner's kill locked shooting (S4.2.3, R25): the log
says so by a ``shooting_locked`` event; both it and ``awaiting_action`` ask ``main_action``."""

POLL_SELECTOR = "poll_cursor"
"""The registry's name for "the seat at the poll cursor" (S6.2)."""

POLLED_FROM_OWNER = frozenset({FrameKind.SHOT_WINDOW.value})
"""Frame kinds that poll every living seat from the owner's next, the owner last (S6.2.1)."""

FLIPPED = {"live": "blank", "blank": "live"}
"""Each shell type and the type a flip or an inversion makes of it (S2.6, S3.8)."""

PUBLIC_SEAT_FIELDS = ("role", "hp", "alive", "items", "traitor", "shield", "rage", "kills")
"""A seat's fields that every seat sees (R14; INTERPRETING.md 2.4)."""


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
        self.polling = {
            (model.kind.value, state)
            for model in models
            for state, prompt in model.prompts.items()
            if prompt.asked == POLL_SELECTOR
        }
        turn = self.models[FrameKind.TURN.value]
        if LOCKED_STATE not in turn.prompts:  # a binding by name, checked at import
            raise AssertionError(f"the turn chart has no decision state {LOCKED_STATE!r}")
        if not self.polling:
            raise AssertionError(f"no chart asks by {POLL_SELECTOR!r}")
        finals = [s.id for s in turn.states if s.kind is StateKind.FINAL and s.parent is None]
        (self.game_over,) = finals


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


@dataclass
class SeatView:
    """One seat as the log shows it."""

    seat: int
    name: str
    role: str | None = None
    hp: int | None = None
    """None until the log says (a log that starts mid-game)."""
    alive: bool = True
    traitor: bool = False
    shield: int = 0
    rage: int = 0
    kills: int = 0
    items: dict[str, int] = field(default_factory=dict)
    """The items held, by name; an item whose count falls to 0 is left out."""
    before_log: dict[str, int] = field(default_factory=dict)
    """Items the seat spent in the log without drawing them there: held before it."""

    def held(self) -> int:
        """How many items the seat holds."""
        return sum(self.items.values())

    def skilled(self, role: Role) -> bool:
        """Has ``role`` and keeps its skill: a traitor loses every skill (S5.1)."""
        return self.role == role.value and not self.traitor

    def copy(self) -> SeatView:
        """An independent copy."""
        return replace(self, items=dict(self.items), before_log=dict(self.before_log))


ITEM_EVENTS = frozenset({"items_drawn", "item_used", "discarded", "shell_flipped", "item_stolen"})

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
"""The event types that change a seat's view (besides seating a seat first named)."""


def item_moves(event: LogEvent) -> list[tuple[int, str, int]]:
    """(seat, item, +n or -n) for every item an event puts into or takes out of a hand."""
    kind, player, item = event.type, event.int_of("player"), event.str_of("item")
    victim, by = event.int_of("victim"), event.int_of("by")
    if kind == "items_drawn" and player is not None:
        return [(player, drawn, 1) for drawn in event.strs_of("items")]
    if kind in ("item_used", "discarded") and player is not None and item is not None:
        return [(player, item, -1)]
    if kind == "shell_flipped" and by is not None:
        return [(by, paid, -1) for paid in event.strs_of("items")]
    if kind == "item_stolen" and player is not None and victim is not None and item is not None:
        return [(victim, item, -1), (player, item, 1)]
    return []


def held_before(events: Iterable[LogEvent]) -> dict[int, dict[str, int]]:
    """Per seat, the items it must have held before the log so that no count goes below 0."""
    running: dict[tuple[int, str], int] = {}
    lowest: dict[tuple[int, str], int] = {}
    for event in events:
        if event.type == "eliminated" and event.int_of("player") is not None:
            seat = event.int_of("player")
            for key in running:
                if key[0] == seat:
                    running[key] = 0
        for seat, item, delta in item_moves(event):
            key = (seat, item)
            running[key] = running.get(key, 0) + delta
            lowest[key] = min(lowest.get(key, 0), running[key])
    before: dict[int, dict[str, int]] = {}
    for (seat, item), low in sorted(lowest.items()):
        if low < 0:
            before.setdefault(seat, {})[item] = -low
    return before


def visible_to(event: LogEvent, seat: int) -> bool:
    """True when ``seat`` may see ``event``: it is public, or shown to that seat (R14)."""
    return event.visibility is None or seat in event.visibility


@dataclass
class TableView:
    """The whole table as the events so far describe it; :meth:`observe` folds one more."""

    seats: dict[int, SeatView] = field(default_factory=dict)
    before: Mapping[int, Mapping[str, int]] = field(default_factory=dict)
    """The hands held before the log, by seat (:func:`held_before`)."""
    owner: int | None = None
    turns_started: int = 0
    phase: str | None = None
    """The phase the log last announced in this turn (S4.0); None before the first."""
    shells: int = 0
    live: int = 0
    """Live shells among ``shells`` as loaded: a flip changes the shot, not the load."""
    shot: tuple[int, int] | None = None
    """The declared shot not yet fired: (shooter, target) (S4.2.1a)."""
    flips: int = 0
    """Flips of the declared shot's shell so far (S2.6, S6.3.1)."""
    kill_lock: bool = False
    """The owner's kill has locked shooting for the rest of the turn (S4.2.3, R25)."""
    stack: list[FrameView] = field(default_factory=list)
    winners: tuple[int, ...] | None = None
    """The winners once the game is over (empty for a draw); None while it goes on."""
    reason: str | None = None
    first_shell: dict[int, str] = field(default_factory=dict)
    """Per seat shown it, the type the chamber's first shell was loaded as (S2.3, S3.1)."""
    shown: dict[int, tuple[LogEvent, ...]] = field(default_factory=dict)
    """Per seat, the private events it was shown, in order (R14)."""

    # --- reading the view -------------------------------------------------------------------

    @property
    def over(self) -> bool:
        """The log announced the end of the game."""
        return self.winners is not None

    def seat(self, number: int) -> SeatView:
        """The seat ``number``, seated with its hand from before the log when first named."""
        if number not in self.seats:
            hand = dict(self.before.get(number, {}))
            self.seats[number] = SeatView(
                number, f"seat {number}", items=dict(hand), before_log=hand
            )
        return self.seats[number]

    def living(self) -> list[int]:
        """The seats still in play, in seat order."""
        return [n for n, seat in sorted(self.seats.items()) if seat.alive]

    def frame_index(self, frame_id: int | None) -> int | None:
        """Where the frame ``frame_id`` is on the stack (the top for None); None if nowhere."""
        for index in range(len(self.stack) - 1, -1, -1):
            if frame_id is None or self.stack[index].id == frame_id:
                return index
        return None

    def shot_shell(self, seat: int) -> str | None:
        """The type the declared shot will fire as ``seat`` can tell it; None if unknown."""
        loaded = self.first_shell.get(seat)
        if loaded is None or self.shot is None:
            return None
        return loaded if self.flips % 2 == 0 else FLIPPED[loaded]

    def first_shown(self, seat: int) -> str | None:
        """The first shell's type now as ``seat`` was shown it, a shot's flips included; or None."""
        return self.shot_shell(seat) if self.shot is not None else self.first_shell.get(seat)

    def copy(self) -> TableView:
        """An independent copy (to try one of several readings of the next events)."""
        return replace(
            self,
            seats={n: seat.copy() for n, seat in self.seats.items()},
            stack=list(self.stack),
            first_shell=dict(self.first_shell),
            shown=dict(self.shown),
        )

    # --- folding one event ------------------------------------------------------------------

    def observe(self, event: LogEvent) -> str | None:
        """Fold ``event`` in; what is wrong with it on the view's own terms, or None."""
        for seat in event.visibility or ():
            self.shown[seat] = (*self.shown.get(seat, ()), event)
        player = event.int_of("player")
        if player is not None:
            self.seat(player)
        moves = item_moves(event)
        problem = self._move_items(moves) if moves else None
        handler = _HANDLERS.get(event.type)
        if handler is not None:
            problem = handler(self, event) or problem
        return problem

    def _move_items(self, moves: list[tuple[int, str, int]]) -> str | None:
        """Move the items; a hand that lacks what it gives is a problem (still moved)."""
        wanted: dict[tuple[int, str], int] = {}
        for number, item, delta in moves:
            if delta < 0:
                wanted[number, item] = wanted.get((number, item), 0) - delta
        problem = None
        for (number, item), count in wanted.items():
            has = self.seat(number).items.get(item, 0)
            if has < count and problem is None:
                problem = f"seat {number} holds {has} {item}, not {count}"
        for number, item, delta in moves:
            hand = self.seat(number).items
            hand[item] = hand.get(item, 0) + delta
            if not hand[item]:
                del hand[item]
        return problem

    def _set_state(self, index: int, state: str, **changes: Any) -> None:
        self.stack[index] = replace(self.stack[index], state=state, **changes)

    def _on_game_started(self, event: LogEvent) -> None:
        seats = event.data.get("seats")
        for raw in seats if isinstance(seats, list) else []:
            if isinstance(raw, Mapping) and isinstance(raw.get("seat"), int):
                seat = self.seat(int(raw["seat"]))
                seat.name = str(raw.get("name", seat.name))
                role, hp = raw.get("role"), raw.get("hp")
                seat.role = role if isinstance(role, str) else seat.role
                seat.hp = hp if isinstance(hp, int) else seat.hp

    def _on_turn_started(self, event: LogEvent) -> None:
        self.owner = event.int_of("owner")
        self.turns_started += 1
        self.phase = None
        self.kill_lock = False

    def _on_phase(self, event: LogEvent) -> str | None:
        self.phase = event.str_of("phase")
        leaf = CHARTS.models["turn"].leaves.get(self.phase or "")
        if leaf is not None and self.stack and self.stack[0].kind == "turn":
            self._set_state(0, leaf)
        owner = event.int_of("owner")
        if owner != self.owner:
            return f"the phase is announced for seat {owner}, the owner is {self.owner}"
        return None

    def _on_chamber_loaded(self, event: LogEvent) -> None:
        live, blank = event.int_of("live"), event.int_of("blank")
        if live is not None and blank is not None:
            self.shells, self.live = live + blank, live
        self.first_shell.clear()

    def _on_preview(self, event: LogEvent) -> None:
        player, shell = event.int_of("player"), event.str_of("shell")
        if player is not None and shell in FLIPPED:
            assert shell is not None
            self.first_shell[player] = shell

    _on_peek = _on_preview

    def _on_shot_declared(self, event: LogEvent) -> None:
        shooter, target = event.int_of("shooter"), event.int_of("target")
        self.shot = None if shooter is None or target is None else (shooter, target)
        self.flips = 0

    def _on_shell_flipped(self, event: LogEvent) -> None:
        self.flips += 1

    def _on_shot_fired(self, event: LogEvent) -> str | None:
        shell = event.str_of("shell") or ""
        loaded = shell if self.flips % 2 == 0 else FLIPPED.get(shell, shell)
        self.flips = 0
        self.shot = None
        return self._remove_shell(loaded)

    def _on_shell_ejected(self, event: LogEvent) -> str | None:
        return self._remove_shell(event.str_of("shell") or "")

    def _remove_shell(self, shell: str) -> str | None:
        """The chamber's first shell, of type ``shell``, leaves it; no one knows the next."""
        self.first_shell.clear()
        live = shell == "live"
        if self.shells == 0 or (live and self.live == 0) or (not live and self.live == self.shells):
            return f"no {shell} shell is left ({self.live} live of {self.shells})"
        self.shells -= 1
        self.live -= int(live)
        return None

    def _on_chamber_inverted(self, event: LogEvent) -> None:
        self.live = self.shells - self.live
        self.first_shell = {seat: FLIPPED[shell] for seat, shell in self.first_shell.items()}

    def _named(self, event: LogEvent) -> SeatView | None:
        """The seat the event's ``player`` names; None when it names none."""
        player = event.int_of("player")
        return None if player is None else self.seat(player)

    def _on_shot_blocked(self, event: LogEvent) -> str | None:
        return self._count(event, "shield")

    def _on_shield_gained(self, event: LogEvent) -> str | None:
        return self._count(event, "shield", "blocks")

    def _on_rage_gained(self, event: LogEvent) -> str | None:
        return self._count(event, "rage", "charges")

    def _on_rage_used(self, event: LogEvent) -> str | None:
        return self._count(event, "rage")

    def _count(self, event: LogEvent, name: str, added: str = "") -> str | None:
        """Set a seat's shield or rage to the event's count, which must be before + ``added``."""
        seat, value, more = self._named(event), event.int_of(name), event.int_of(added)
        if seat is None or value is None:
            return None
        before = getattr(seat, name)
        setattr(seat, name, value)
        if more is not None and before + more != value:
            return f"{before} {added} + {more} do not make {value}"
        return None

    def _on_hp_changed(self, event: LogEvent) -> str | None:
        seat, hp, delta = self._named(event), event.int_of("hp"), event.int_of("delta")
        if seat is None or hp is None:
            return None
        before, seat.hp = seat.hp, hp
        if before is not None and delta is not None and before + delta != hp:
            return f"seat {seat.seat} had {before} HP; {delta:+d} does not make {hp}"
        return None

    def _on_converted(self, event: LogEvent) -> None:
        seat = self._named(event)
        if seat is not None:
            seat.traitor = True

    def _on_eliminated(self, event: LogEvent) -> None:
        seat = self._named(event)
        if seat is None:
            return
        seat.alive = False
        seat.items.clear()
        seat.shield = seat.rage = 0
        by = event.int_of("by")
        if by is not None:
            self.seat(by).kills += 1

    def _on_shooting_locked(self, event: LogEvent) -> None:
        self.kill_lock = True

    def _on_turn_ended(self, event: LogEvent) -> str | None:
        for seat in self.seats.values():  # rage lasts for the turn only (S4.5.1)
            seat.rage = 0
        self.kill_lock = False
        owner = event.int_of("owner")
        if owner != self.owner:
            return f"the turn of seat {owner} ends; the owner is {self.owner}"
        return None

    def _on_game_over(self, event: LogEvent) -> None:
        self.winners = tuple(w for w in event.data.get("winners", ()) if isinstance(w, int))
        self.reason = event.str_of("reason")
        if self.stack and self.stack[0].kind == FrameKind.TURN.value:
            del self.stack[1:]
            self._set_state(0, CHARTS.game_over)

    # --- the stack ------------------------------------------------------------------------

    def _on_frame_pushed(self, event: LogEvent) -> str | None:
        kind = event.str_of("kind")
        if kind not in CHARTS.models:
            return f"a frame of unknown kind {kind!r} is pushed"
        depth = len(self.stack) + 1
        if self.stack:
            push = CHARTS.pushes.get((self.stack[-1].kind, kind))
            if push is not None:
                self._set_state(depth - 2, push[0])
        order: tuple[int, ...] = ()
        if kind in POLLED_FROM_OWNER and self.owner is not None and self.seats:
            alive = [self.seat(n).alive for n in range(max(self.seats) + 1)]
            order = poll_order(alive, self.owner)
        frame_id, player = event.int_of("frame_id"), event.int_of("player")
        self.stack.append(FrameView(frame_id, kind, CHARTS.models[kind].initial, player, order))
        said = event.int_of("depth")
        if said != depth:
            return f"a frame pushed at depth {said} onto a stack of {depth - 1}"
        return None

    def _on_frame_popped(self, event: LogEvent) -> str | None:
        depth = len(self.stack)
        top = self.stack[-1] if self.stack else None
        frame_id, kind, said = event.int_of("frame_id"), event.str_of("kind"), event.int_of("depth")
        problem = None
        index: int | None = depth - 1
        if top is None or depth <= 1 or said != depth or top.kind != kind:
            shown = "nothing" if top is None else top.kind
            problem = f"pops a {kind} at depth {said}; the top is {shown} at {depth}"
            index = self.frame_index(frame_id)  # the frame it names, and all above it
        if index is None:
            return problem
        popped = self.stack[index]
        del self.stack[index:]
        if self.stack:
            push = CHARTS.pushes.get((self.stack[-1].kind, popped.kind))
            if push is not None and len(push[1]) == 1:
                self._set_state(len(self.stack) - 1, push[1][0])
        return problem

    def addressed(self, event: LogEvent, text: str) -> tuple[int, FrameView, str] | None:
        """The frame an ``asked`` or ``decided`` names, its index and its ``text`` field."""
        index, said = self.frame_index(event.int_of("frame_id")), event.str_of(text)
        return None if index is None or said is None else (index, self.stack[index], said)

    def _on_asked(self, event: LogEvent) -> None:
        addressed, player = self.addressed(event, "prompt"), event.int_of("player")
        if addressed is None:
            return
        index, frame, prompt = addressed
        states = CHARTS.asking.get((frame.kind, prompt), [])
        if not states:
            return
        state = LOCKED_STATE if self.kill_lock and LOCKED_STATE in states else states[0]
        order, cursor = frame.order, frame.cursor
        if player is not None and (frame.kind, state) in CHARTS.polling:
            if player not in order:
                order = (*order, player)
            cursor = order.index(player)
        self._set_state(index, state, order=order, cursor=cursor)

    def _on_decided(self, event: LogEvent) -> None:
        addressed, player = self.addressed(event, "option"), event.int_of("player")
        if addressed is None:
            return
        index, frame, option = addressed
        if frame.order and player is not None:
            self.stack[index] = replace(frame, answers=(*frame.answers, (player, option)))


_HANDLERS: dict[str, Callable[[TableView, LogEvent], str | None]] = {
    name.removeprefix("_on_"): handler
    for name, handler in vars(TableView).items()
    if name.startswith("_on_")
}

# every event type the fold reads is one of the vocabulary (a binding by name)
if unknown := sorted((set(_HANDLERS) | SEAT_EVENTS) - set(EVENT_FIELDS)):
    raise AssertionError(f"the views read event types the vocabulary lacks: {unknown}")


def fold_table(events: Iterable[LogEvent]) -> TableView:
    """The whole table's view after ``events``."""
    table = TableView()
    for event in events:
        table.observe(event)
    return table


def seat_view(events: Iterable[LogEvent], seat: int) -> TableView:
    """What ``seat`` knows after ``events``: the fold of those it may see (R14)."""
    return fold_table(event for event in events if visible_to(event, seat))
