"""The reference engine: a game run from the charts' tables, asking players through prompts."""

from __future__ import annotations

import string
from collections.abc import Mapping, Sequence
from itertools import pairwise
from typing import Any

from mypy_extensions import mypyc_attr

from buckshot.reference.chance import (
    Chance,
    ScriptedChance,
    SeededChance,
    clone_chance,
    restore_chance,
)
from buckshot.reference.effects import Board
from buckshot.reference.errors import Code, GameError
from buckshot.reference.events import Event, EventType, data_of, log_event
from buckshot.reference.options import Option, Prompt, parse_option
from buckshot.reference.state import Frame, GameState, Seat
from buckshot.reference.tables import PHASE_IDS, TABLES, Edge, StateRow
from buckshot.spec import SPEC_VERSION
from buckshot.spec.chart_data import StateKind
from buckshot.spec.rulebook import FrameKind, Role, Shell
from buckshot.spec.ruleset import Ruleset, RulesetError, load_ruleset, parse_ruleset
from buckshot.spec.schema_registry import validator
from buckshot.spec.views import TableView, visible_to

SNAPSHOT_FORMAT = "buckshot-snapshot/1"

__all__ = ["SNAPSHOT_FORMAT", "Game", "GameObserver", "Prompt"]


_TEXT_OR_OPTION = (str, Option)

_Data = tuple[Any, ...] | dict[str, Any]
"""A written event's values (one for each of its fields, :data:`events.FIELDS`; an ``asked``
event's its prompt alone) or its data by name (:meth:`Game.emit`)."""

_NO_PARAMS: dict[str, Any] = {}
"""The parameters of an automatic step or a resume: none (never changed)."""


def _data(kind: EventType, written: _Data) -> dict[str, Any]:
    """The data of an event of ``kind`` written as ``written``."""
    if isinstance(written, dict):
        return written
    if kind is EventType.ASKED:  # written as its prompt: the options' text is made when read
        (prompt,) = written
        written = (prompt.player, prompt.frame_id, prompt.kind, prompt.option_ids())
    return data_of(kind, written)


@mypyc_attr(allow_interpreted_subclasses=True)  # subclassed by observers, tests
class GameObserver:
    """Sees every transition, prompt and event of the games it is given to; override what
    you need, the base methods do nothing (:mod:`buckshot.reference.observe` says when each
    is called)."""

    def before_transition(
        self, game: Game, frame: Frame, edge: Edge, params: Mapping[str, Any]
    ) -> None:
        """``frame`` is about to take ``edge`` with the decision's ``params`` (empty for an
        automatic step or a resume); ``game.state`` is still as it was before."""

    def after_transition(
        self, game: Game, frame: Frame, edge: Edge, params: Mapping[str, Any]
    ) -> None:
        """``frame`` took ``edge``: its actions ran and ``frame.state`` is ``edge.entry``."""

    def asked(self, game: Game, prompt: Prompt) -> None:
        """``prompt`` is now pending (``game.prompt``); the game waits for its answer."""

    def emitted(self, game: Game, event: Event) -> None:
        """``event`` was written to the log (``game.events[event.seq - 1]``)."""


class Game(Board):
    """One game of 2-8 players, run by the spec's charts; ``decide`` answers the pending prompt.

    With ``record=False`` the game writes no events (for simulations and walks that read
    none); its decisions, chance draws and states are the same as with them. An
    ``observer`` (:class:`~buckshot.reference.observe.GameObserver`) is told of every
    transition, prompt and event as the game goes; without one the game runs no hooks.
    """

    def __init__(
        self,
        rules: Ruleset,
        roles: Sequence[Role],
        chance: Chance | None = None,
        names: Sequence[str] | None = None,
        record: bool = True,
        *,
        observer: GameObserver | None = None,
    ) -> None:
        players = len(roles)
        if not rules.players.min <= players <= rules.players.max:
            raise GameError(
                Code.BAD_SETUP,
                f"{players} seats; the ruleset allows {rules.players.min}..{rules.players.max}",
            )
        names = list(names) if names is not None else list(string.ascii_uppercase[:players])
        if len(names) != players or len(set(names)) != players:
            raise GameError(Code.BAD_SETUP, f"need {players} distinct names, got {names}")
        self.rules = rules
        self.chance = chance if chance is not None else SeededChance(0)
        self.record = record
        self._events: list[Event] = []
        self._pending: list[tuple[int, EventType, tuple[int, ...] | None, _Data]] = []
        """Events written and not yet built (their data as values; an ``asked`` event's as its
        prompt)."""
        self.state = GameState(
            seats=[
                Seat(seat=i, name=names[i], role=Role(role), hp=rules.hp.start)
                for i, role in enumerate(roles)
            ]
        )
        self.deepest_stack = 0
        """The most frames the stack has held at once."""
        self.prompt: Prompt | None = None
        """The pending prompt; None once the game is over (read it, never set it)."""
        self._phase_of_turn = ""
        self._observer = observer
        self._reported = 0
        self._shown: dict[int, tuple[TableView, int, Event | None]] = {}
        """Each seat's fold of the log so far (:meth:`first_shown`): the view, how many
        events it has read, and the last of them (a log cut back and written again is read
        anew)."""
        """How many events of the log the observer has been given."""

    @property
    def events(self) -> list[Event]:
        """The event log, oldest first (empty when the game records no events)."""
        if self._pending:
            events, seq = self._events, len(self._events)
            for turn, type_, visibility, written in self._pending:
                seq += 1
                events.append(Event(seq, turn, type_, _data(type_, written), visibility))
            self._pending.clear()
        return self._events

    @events.setter
    def events(self, events: list[Event]) -> None:
        self._events = events
        self._pending.clear()
        self._reported = len(events)

    # --- starting ---------------------------------------------------------------------------

    @classmethod
    def new(
        cls,
        roles: Sequence[Role],
        rules: Ruleset | None = None,
        chance: Chance | None = None,
        names: Sequence[str] | None = None,
        record: bool = True,
        *,
        observer: GameObserver | None = None,
    ) -> Game:
        """A game with the turn pushed and run to its first prompt."""
        game = cls(rules or load_ruleset(), roles, chance, names, record, observer=observer)
        game.start()
        return game

    @classmethod
    def resume_from(
        cls,
        state: GameState,
        rules: Ruleset | None = None,
        chance: Chance | None = None,
        record: bool = True,
        *,
        observer: GameObserver | None = None,
    ) -> Game:
        """A game of ``state``'s seats (their roles and names) gone on from ``state``, as
        :meth:`resume` does."""
        seats = state.seats
        game = cls(
            rules or load_ruleset(),
            [seat.role for seat in seats],
            chance,
            [seat.name for seat in seats],
            record,
            observer=observer,
        )
        game.resume(state)
        return game

    def start(self) -> None:
        """Announce the table, push the turn (the stack's bottom) and run to the first prompt."""
        if self.state.stack:
            raise GameError(Code.BAD_SETUP, "the game has already started")
        self.write(
            EventType.GAME_STARTED,
            [
                {"seat": s.seat, "name": s.name, "role": s.role.value, "hp": s.hp}
                for s in self.state.seats
            ],
        )
        self.write(EventType.TURN_STARTED, self.state.owner)
        self.push_frame(FrameKind.TURN)
        self._enter_phase(self._row(self.state.stack[0]).phase)
        self._advance()

    def resume(self, state: GameState) -> None:
        """Take ``state`` (itself, not a copy) as the game's and go on from it.

        A decision due in ``state`` is asked; otherwise the automatic steps, pushes and
        pops run, as after a decision, until one is due or the game is over. The observer
        hears of each. The event log starts afresh, empty, and holds what follows (the
        prompt's ``asked`` first, when one is due); the turn's phase is the one its
        state lies in. The caller vouches for the state: it is checked only for a turn at
        the bottom of its stack and a number of seats the ruleset allows, else ``GameError``
        ``setup.invalid`` (:meth:`restore` checks a saved game whole).
        """
        rules = self.rules
        if not rules.players.min <= len(state.seats) <= rules.players.max:
            raise GameError(
                Code.BAD_SETUP,
                f"{len(state.seats)} seats; the ruleset allows "
                f"{rules.players.min}..{rules.players.max}",
            )
        if not state.stack or state.stack[0].kind is not FrameKind.TURN:
            raise GameError(Code.BAD_SETUP, "a game resumes from a stack with a turn at its bottom")
        self.state = state
        self.events = []
        self.deepest_stack = len(state.stack)
        turn = TABLES[FrameKind.TURN].states[state.stack[0].state]
        self._phase_of_turn = turn.parent or turn.id
        self.prompt = None
        self._advance()

    # --- writing events: the one place that asks whether the game records them -----------

    def emit(self, type: EventType, visibility: tuple[int, ...] | None = None, **data: Any) -> None:
        """Append an event to the log with its data by name (the engine itself writes its
        events by :meth:`write`). A game that records no events ignores it.
        """
        if self.record:
            self._pending.append((self.state.turn, type, visibility, data))

    def write(
        self, type: EventType, *values: Any, visibility: tuple[int, ...] | None = None
    ) -> None:
        """Append an event of ``type`` to the log, its data given as ``values``, one for each
        of its fields (:data:`buckshot.reference.events.FIELDS`) in order; it is built into
        an :class:`Event` when the log is read. A game that records no events ignores it.
        """
        if self.record:
            self._pending.append((self.state.turn, type, visibility, values))

    def push_frame(
        self, kind: FrameKind, player: int | None = None, order: tuple[int, ...] = ()
    ) -> None:
        """Push a fresh frame of ``kind`` on the stack (S1.4, S6.1.2)."""
        state = self.state
        if len(state.stack) >= self.rules.limits.max_stack_depth:
            raise AssertionError(f"stack bound {self.rules.limits.max_stack_depth} exceeded")
        frame = Frame(state.next_frame_id, kind, TABLES[kind].initial, player, order)
        state.next_frame_id += 1
        state.stack.append(frame)
        self.deepest_stack = max(self.deepest_stack, len(state.stack))
        self.write(EventType.FRAME_PUSHED, frame.id, kind, len(state.stack), player)

    # --- the step loop: the charts' tables, interpreted ---------------------------------------

    def _row(self, frame: Frame) -> StateRow:
        return TABLES[frame.kind].states[frame.state]

    def _advance(self) -> None:
        """Run automatic steps, pushes and pops until a prompt is due or the game is over.

        The top frame alone runs (S6.0, S6.1, S6.1.1): in an automatic state it takes the
        first edge whose guards pass; in a decision state it asks; in a final state it is
        popped and the frame below resumes from its suspension state by the popped chart's
        resume event (S6.1.3, S5.3), so nested frames settle last in, first out (S6.1.4,
        S1.4). An action that pushes a frame puts it on top, so the loop runs it next.
        Frames never change the turn's owner (S1.3); the phases follow from the turn chart.
        """
        state = self.state
        stack = state.stack
        while state.winners is None:
            frame = stack[-1]
            row = TABLES[frame.kind].states[frame.state]
            if row.automatic:
                self._take(frame, row.automatic, _NO_PARAMS)
            elif row.choices:
                self._ask(self._prompt(frame, row))
                return
            elif row.final:
                self._pop(frame, row)
            else:
                raise AssertionError(f"{frame.kind.value} frame on top in {row.kind} {row.id}")
        self.prompt = None

    def _take(self, frame: Frame, edges: tuple[Edge, ...], params: dict[str, Any]) -> None:
        """Take the first of ``edges`` whose guards pass (in the chart's priority order): run
        its actions and put ``frame`` in its entry state; the observer, if any, is told
        before and after (with the events written in between)."""
        for edge in edges:
            if edge.passes is None or edge.passes(self, params) is True:
                break
        else:
            raise AssertionError(f"no branch of {edges[0].event if edges else '?'} passes")
        observer = self._observer
        if observer is not None:
            self._report_events(observer)
            observer.before_transition(self, frame, edge, params)
        for _, action in edge.actions:
            action(self, params)
        frame.state = edge.entry
        if edge.phase is not None and edge.phase != self._phase_of_turn:
            self._enter_phase(edge.phase)
        if observer is not None:
            self._report_events(observer)
            observer.after_transition(self, frame, edge, params)

    def _pop(self, frame: Frame, row: StateRow) -> None:
        """Pop the finished ``frame``; the frame below takes its resume event's edge."""
        resume = TABLES[frame.kind].resume_event
        if resume is None:
            raise AssertionError(f"{frame.kind.value} finished, but it resumes no frame")
        stack = self.state.stack
        stack.pop()
        self.write(EventType.FRAME_POPPED, frame.id, frame.kind, len(stack) + 1, row.id)
        below = stack[-1]
        self._take(below, TABLES[below.kind].states[below.state].edges[resume], _NO_PARAMS)

    def _prompt(self, frame: Frame, row: StateRow) -> Prompt:
        """A decision state's prompt: who is asked, and each event's candidate options that
        some edge of the event passes, in the candidates' order (the guards alone decide)."""
        assert row.asked is not None and row.prompt_kind is not None
        player = row.asked(self)
        seats = self.state.seats
        cost = self.rules.magician.cost
        options: list[Option] = []
        for _, candidates, edges in row.choices:
            tests = []
            for edge in edges:  # the edges open to some option: their static guards pass
                if edge.static_passes is None or edge.static_passes(self, _NO_PARAMS) is True:
                    tests.append(edge.param_passes)
            if not tests:
                continue
            listed = candidates(seats, seats[player], cost)
            if tests[0] is None:  # an open edge that reads no parameter takes every candidate
                options.extend(listed)
            elif len(tests) == 1:
                passes = tests[0]
                for option in listed:
                    if passes(self, option._kwargs) is True:
                        options.append(option)
            else:  # several open edges: an option passes if one of them passes it
                for option in listed:
                    if any(t is None or t(self, option._kwargs) is True for t in tests):
                        options.append(option)
        return Prompt(player, frame.id, frame.kind, row.id, row.prompt_kind, tuple(options))

    def _ask(self, prompt: Prompt) -> None:
        """Make ``prompt`` the pending one and announce it (the observer, if any, is told)."""
        observer = self._observer
        if observer is not None:
            self._report_events(observer)
        self.prompt = prompt
        self.write(EventType.ASKED, prompt)
        if observer is not None:
            observer.asked(self, prompt)
            self._report_events(observer)

    def _report_events(self, observer: GameObserver) -> None:
        """Give ``observer`` the events written since it was last given any."""
        events = self.events
        while self._reported < len(events):
            self._reported += 1
            observer.emitted(self, events[self._reported - 1])

    def _enter_phase(self, phase: str) -> None:
        """The turn enters ``phase``, announced when it is one of S4's five (the turn
        chart's compound states: S4.1, S4.2, S4.3, S4.4, S4.5)."""
        self._phase_of_turn = phase
        if phase in PHASE_IDS:
            self.write(EventType.PHASE, self.state.owner, phase)

    def _compute_prompt(self) -> Prompt:
        frame = self.state.stack[-1]
        return self._prompt(frame, self._row(frame))

    # --- the public interface ---------------------------------------------------------------

    @property
    def over(self) -> bool:
        """True once the game has ended."""
        return self.state.over

    def decide(self, player: object, option: object) -> None:
        """Answer the pending prompt as ``player`` (a seat number) with ``option`` (an
        :class:`Option` or its text).

        Raises :class:`GameError` with a stable code, leaving the game exactly as it was, when
        ``player`` or ``option`` is of another type (``decision.malformed``), the game is
        over, ``player`` is not the one asked, or the option is not legal.
        """
        prompt, chosen = self._checked(player, option)
        for offered in prompt.options:  # the same object as one offered, or equal to one
            if offered is chosen:
                break
        else:
            if chosen not in prompt.options:
                self._refuse(prompt, chosen)
        frame = self.state.stack[-1]
        saved = self._save() if isinstance(self.chance, ScriptedChance) else None
        try:
            self.write(EventType.DECIDED, player, frame.id, chosen._id)
            params = chosen._kwargs
            self._take(frame, TABLES[frame.kind].states[frame.state].edges[chosen.event], params)
            self._advance()
        except GameError:
            if saved is not None:
                self._load(saved)
            raise

    def _checked(self, player: object, option: object) -> tuple[Prompt, Option]:
        """The pending prompt and the option ``option`` names, checked in order: the player
        and the option are well-formed, a prompt is pending, ``player`` is the one asked and
        the text (if given as text) reads as an option; ``GameError`` at the first that is not."""
        if isinstance(player, bool) or not isinstance(player, int):
            raise GameError(Code.MALFORMED, f"a player is a seat number, got {player!r}")
        if not isinstance(option, _TEXT_OR_OPTION):
            raise GameError(Code.MALFORMED, f"an option is its text or an Option, got {option!r}")
        prompt = self.prompt
        if prompt is None:
            raise GameError(
                Code.GAME_OVER,
                f"the game is over ({self.state.end_reason}); no decision is expected",
            )
        if player != prompt.player:
            raise GameError(
                Code.WRONG_PLAYER,
                f"seat {player} decided, but seat {prompt.player} is asked ({prompt.kind})",
            )
        return prompt, parse_option(option) if isinstance(option, str) else option

    def _refuse(self, prompt: Prompt, chosen: Option) -> None:
        expected = ", ".join(prompt.option_ids())
        row = self._row(self.state.stack[-1])
        if chosen.event not in row.edges:
            raise GameError(
                Code.NOT_OFFERED,
                f"{chosen.id!r} is not offered in {prompt.kind}; expected one of: {expected}",
            )
        edge = row.edges[chosen.event][0]
        failing = [name for name, fn, want in edge.guards if fn(self, chosen.kwargs()) is not want]
        raise GameError(
            Code.REFUSED,
            f"{chosen.id!r} is refused by {', '.join(failing) or 'its parameters'}; "
            f"expected one of: {expected}",
        )

    # --- what a player may know -------------------------------------------------------------

    def public_counts(self) -> dict[str, int]:
        """Shells left and how many are live or blank, as every player can deduce them (R14)."""
        shells = list(self.state.shells)
        shot = self.state.shot
        flips = 0
        if shot is not None and shells:
            shells[0] = shot.initial
            flips = shot.flips
        live = shells.count(Shell.LIVE)
        return {
            "shells_left": len(shells),
            "live_left": live,
            "blank_left": len(shells) - live,
            "pending_flips": flips,
        }

    def view(self, player: int, with_events: bool = True) -> dict[str, Any]:
        """What ``player`` may know and nothing more (R14): the one view of a seat, which
        ``play``, the agents, the search, the environments and the conformance adapter show.

        The public state (no chamber order), and of the log what the spec's view lets the
        seat see (:func:`buckshot.spec.views.seat_view`: no other seat's peek or preview),
        with the first shell's type as those events showed it, ``chamber["first"]`` (None
        when they showed none, or with ``with_events=False``, which reads no log).
        """
        state = self.state
        prompt = self.prompt
        logged = [log_event(event) for event in self.events] if with_events else []
        shown = self.first_shown(player) if with_events else None
        return {
            "you": player,
            "turn": state.turn,
            "owner": state.owner,
            "phase": self._phase_of_turn,
            "seats": [seat.to_json() for seat in state.seats],
            "chamber": {**self.public_counts(), "first": shown},
            "kill_lock": state.kill_lock,
            "stack": [{"id": f.id, "kind": f.kind.value, "state": f.state} for f in state.stack],
            "prompt": prompt.to_json() if prompt is not None and prompt.player == player else None,
            "waiting_for": None if prompt is None else prompt.player,
            "result": None
            if not state.over
            else {"winners": state.winners, "reason": state.end_reason},
            "shot_target": None if state.shot is None else state.shot.target,
            "max_hp": self.rules.hp.max,
            "events": [
                event.to_json()
                for event, read in zip(self.events, logged, strict=True)
                if visible_to(read, player)
            ]
            if with_events
            else [],
        }

    # --- clone, snapshot and restore --------------------------------------------------------

    def clone(
        self,
        *,
        record: bool | None = None,
        chance: Chance | None = None,
        observer: GameObserver | None = None,
    ) -> Game:
        """An independent game in the same state: the same pending prompt, phase, log and
        mode, and its own copy of the chance source, which draws what this game's would.

        Deciding in one game never changes the other; the same decisions give both the
        same events. ``record=False`` makes a clone of a recording game that records no
        events (its log empty), as search wants; ``chance`` gives the clone another source;
        the clone has ``observer`` (by default none), told of what follows.
        """
        seats = self.state.seats
        game = Game(
            self.rules,
            [seat.role for seat in seats],
            clone_chance(self.chance) if chance is None else chance,
            [seat.name for seat in seats],
            self.record if record is None else record,
            observer=observer,
        )
        if game.record and self.record:
            game._events = list(self._events)  # events are frozen: shared
            game._pending = list(self._pending)
        else:
            game._events, game._pending = [], []
        game.state = self.state.copy()
        game.deepest_stack = self.deepest_stack
        game.prompt = self.prompt  # immutable
        game._phase_of_turn = self._phase_of_turn
        game._reported = len(game._events) + len(game._pending)
        return game

    def first_shown(self, player: int) -> str | None:
        """The first shell's type as the events ``player`` may see showed it (R14), by the
        spec's fold of the log (:class:`buckshot.spec.views.TableView`); None when they showed
        none. The one answer to what a seat knows of the chamber: :meth:`view` and the
        conformance adapter's view replies both give it."""
        events = self.events
        known, folded, last = self._shown.get(player, (TableView(), 0, None))
        if folded > len(events) or (folded and events[folded - 1] is not last):
            known, folded = TableView(), 0  # the log was cut back (a restore): read it anew
        for event in events[folded:]:
            read = log_event(event)
            if visible_to(read, player):
                known.observe(read)
        self._shown[player] = (known, len(events), events[-1] if events else None)
        return known.first_shown(player)

    def _save(self) -> dict[str, Any]:
        return {
            "state": self.state.copy(),
            "events": len(self.events),
            "chance": self.chance.snapshot(),
            "prompt": self.prompt,
            "phase": self._phase_of_turn,
        }

    def _load(self, saved: dict[str, Any]) -> None:
        self.state = saved["state"]
        del self.events[saved["events"] :]
        self._reported = min(self._reported, saved["events"])
        self.chance = restore_chance(saved["chance"])
        self.prompt = saved["prompt"]
        self._phase_of_turn = saved["phase"]

    def snapshot(self) -> dict[str, Any]:
        """The whole game, suspended frames and chance source included, as JSON-ready data."""
        return {
            "format": SNAPSHOT_FORMAT,
            "spec_version": SPEC_VERSION,
            "ruleset": self.rules.to_dict(),
            "state": self.state.to_json(),
            "phase": self._phase_of_turn,
            "chance": self.chance.snapshot(),
            "events": [event.to_json() for event in self.events],
        }

    @classmethod
    def restore(cls, data: Any) -> Game:
        """The game saved by :meth:`snapshot`; ``GameError`` ``snapshot.invalid`` if it is not.

        The document is checked whole before anything is built (types are never coerced:
        ``schemas/snapshot.schema.json``), then for consistency (one turn at the bottom,
        suspended frames below the top, a shot exactly while a window is open, ...).
        """
        errors = sorted(validator("snapshot").iter_errors(data), key=lambda e: list(e.path))
        if errors:
            where = "/".join(str(part) for part in errors[0].absolute_path) or "(top)"
            raise GameError(Code.BAD_SNAPSHOT, f"snapshot refused at {where}: {errors[0].message}")
        if data["spec_version"] != SPEC_VERSION:
            raise GameError(
                Code.BAD_SNAPSHOT,
                f"snapshot refused: written by spec {data['spec_version']}, this is {SPEC_VERSION}",
            )
        try:
            rules = parse_ruleset(data["ruleset"], source="snapshot")
            state = GameState.from_json(data["state"])
            roles = [seat.role for seat in state.seats]
            names = [seat.name for seat in state.seats]
            game = cls(rules, roles, restore_chance(data["chance"]), names)
            game.state = state
            game.events = [Event.from_json(event) for event in data["events"]]
            game._phase_of_turn = data["phase"]
            game._check_restored()
            game.prompt = None if state.over else game._compute_prompt()
        except GameError as error:
            raise GameError(Code.BAD_SNAPSHOT, f"snapshot refused: {error.message}") from None
        except KeyError as missing:
            raise GameError(Code.BAD_SNAPSHOT, f"snapshot refused: no field {missing}") from None
        except (RulesetError, TypeError, ValueError, IndexError) as bad:
            raise GameError(Code.BAD_SNAPSHOT, f"snapshot refused: {bad}") from None
        return game

    def _check_restored(self) -> None:
        """Raise ``ValueError`` naming the first way the restored game is inconsistent."""
        state, rules = self.state, self.rules
        seats = len(state.seats)
        if not rules.players.min <= seats <= rules.players.max:
            raise ValueError(
                f"{seats} seats; the ruleset allows {rules.players.min}..{rules.players.max}"
            )
        if any(seat.seat != i for i, seat in enumerate(state.seats)):
            raise ValueError("seats are not numbered 0..N-1 in order")
        if len({seat.name for seat in state.seats}) != seats:
            raise ValueError("two seats share a name")
        mentioned = [
            state.owner,
            *state.fell_to_one,
            *state.damage_source,
            *state.damage_source.values(),
        ]
        if state.shot is not None:
            mentioned += [state.shot.shooter, state.shot.target]
        if any(not 0 <= seat < seats for seat in mentioned):
            raise ValueError("a seat number lies outside the table")
        for seat in state.seats:
            if seat.hp > rules.hp.max:
                raise ValueError(f"seat {seat.seat}: HP {seat.hp} above hp.max {rules.hp.max}")
            if not seat.alive and (seat.items or seat.shield or seat.rage):
                raise ValueError(f"seat {seat.seat} is out but holds items or effects")
            if seat.traitor and not seat.conversion_used:
                raise ValueError(
                    f"seat {seat.seat} is a traitor without having used its conversion"
                )
        stack = state.stack
        kinds = [frame.kind for frame in stack]
        if kinds[0] is not FrameKind.TURN or kinds.count(FrameKind.TURN) != 1:
            raise ValueError("the stack must hold exactly one turn, at its bottom")
        if len(stack) > rules.limits.max_stack_depth:
            raise ValueError("the stack is deeper than limits.max_stack_depth")
        ids = [frame.id for frame in stack]
        if len(set(ids)) != len(ids) or max(ids) >= state.next_frame_id:
            raise ValueError("frame ids repeat or are not below next_frame_id")
        for frame in stack:
            if frame.state not in TABLES[frame.kind].states:
                raise ValueError(
                    f"frame {frame.id}: {frame.kind.value} has no state {frame.state!r}"
                )
            if frame.player is not None and not 0 <= frame.player < seats:
                raise ValueError(f"frame {frame.id} is for a seat outside the table")
            if frame.cursor > len(frame.order) or any(not 0 <= s < seats for s in frame.order):
                raise ValueError(
                    f"frame {frame.id}: its poll order or cursor lies outside the table"
                )
        for below in stack[:-1]:
            if self._row(below).kind is not StateKind.SUSPENDED:
                raise ValueError(f"frame {below.id} lies under another frame but is not suspended")
        for below, above in pairwise(stack):
            if self._row(below).pushes is not above.kind:
                raise ValueError(f"frame {above.id} is not the kind frame {below.id} pushed")
        turn_phase = TABLES[FrameKind.TURN].states[stack[0].state].parent or stack[0].state
        if self._phase_of_turn != turn_phase:
            raise ValueError(f"phase {self._phase_of_turn!r} does not match the turn's state")
        window_open = FrameKind.SHOT_WINDOW in kinds
        if window_open != (state.shot is not None):
            raise ValueError("a shot is recorded exactly while a shot window is open")
        if state.shot is not None and (not state.shells or state.shells[0] is not state.shot.shell):
            raise ValueError("the shot's shell is not the chamber's first")
        if state.over:
            if (
                kinds != [FrameKind.TURN]
                or stack[0].state != "game_over"
                or state.end_reason is None
            ):
                raise ValueError("a finished game rests in game_over with a reason")
            return
        top = self._row(stack[-1])
        if top.kind is not StateKind.DECISION:
            raise ValueError(f"the top frame must wait for a decision, not be in {top.id}")
        if not state.seats[state.owner].alive:
            raise ValueError("the turn owner is out")
        dying = {f.player for f in stack if f.kind is FrameKind.DYING}
        for seat in state.seats:
            if seat.alive and seat.hp == 0 and seat.seat not in dying:
                raise ValueError(f"seat {seat.seat} is alive at 0 HP outside a dying frame")
        asked = self._row(stack[-1]).asked
        if asked is not None and not state.seats[asked(self)].alive:
            raise ValueError("the player asked is out")
        if [e.seq for e in self.events] != list(range(1, len(self.events) + 1)):
            raise ValueError("the event log's sequence numbers are not 1..n")
