"""A game stepped one action at a time, chance included: the core both environments share.
Each settled point (:class:`Settled`) is never changed again, so copies share it."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, TypeVar

from buckshot.envs.actions import ActionSpace
from buckshot.envs.chance import ChanceCodes, ChanceNeeded, Draw, DrawnChance
from buckshot.reference.events import Event, log_event
from buckshot.reference.game import Game
from buckshot.spec.eventlog import LogEvent
from buckshot.spec.rulebook import Role
from buckshot.spec.ruleset import Ruleset
from buckshot.spec.views import TableView, visible_to

T = TypeVar("T")

PUBLIC = -1
"""The seat number of the public: shown only the events shown to all (R14)."""

BOOKKEEPING = frozenset({"asked", "decided", "frame_pushed", "frame_popped", "phase"})
"""Event types a seat's record leaves out: the charts' own steps."""


@dataclass(frozen=True)
class Setup:
    """What a table is played with: the ruleset, each seat's role, and the numberings."""

    rules: Ruleset
    roles: tuple[Role, ...]
    actions: ActionSpace
    codes: ChanceCodes

    @classmethod
    def of(cls, rules: Ruleset, roles: Sequence[Role]) -> Setup:
        """The setup of ``roles`` (one per seat, seat 0 first) under ``rules``."""
        return cls(
            rules, tuple(roles), ActionSpace(len(roles), rules.magician.cost), ChanceCodes.of(rules)
        )

    @property
    def seats(self) -> int:
        """How many seats the table has."""
        return len(self.roles)


def default_roles(seats: int) -> tuple[Role, ...]:
    """The rulebook's roles in order, repeated to fill ``seats`` seats (every role plays)."""
    roles = tuple(Role)
    return tuple(roles[seat % len(roles)] for seat in range(seats))


def payoff(winners: Sequence[int] | None, alive: Sequence[bool]) -> list[float]:
    """Each seat's return once the game is over: every seat stakes 1, the winners share all.

    A draw at the turn limit is shared by the living (R21): of ``k`` sharing among ``n``, each
    gets ``n / k - 1``, every other seat -1; 0 to all while the game goes on.
    """
    seats = len(alive)
    if winners is None:
        return [0.0] * seats
    sharing = set(winners) if winners else {seat for seat in range(seats) if alive[seat]}
    if not sharing:
        return [0.0] * seats
    share = seats / len(sharing) - 1
    return [share if seat in sharing else -1.0 for seat in range(seats)]


@dataclass(frozen=True, eq=False)
class Trail:
    """The steps that led to a settled point, each with the events it wrote, newest last.

    What a seat knows and its record are read when first asked for and kept at that point,
    folded from the nearest point before it that keeps them.
    """

    parent: Trail | None
    step: str
    events: tuple[LogEvent, ...]
    kept: dict[tuple[str, int], Any] = field(default_factory=dict)

    def after(self, step: str, events: Sequence[Event]) -> Trail:
        """The trail with one more ``step`` (its text) that wrote ``events``."""
        return Trail(self, step, tuple(log_event(event) for event in events))

    def _since_kept(self, key: tuple[str, int]) -> tuple[Any, list[Trail]]:
        """What the nearest point keeps under ``key`` (None at a start) and the points after it."""
        points: list[Trail] = []
        point: Trail | None = self
        while point is not None and key not in point.kept:
            points.append(point)
            point = point.parent
        return (None if point is None else point.kept[key]), points[::-1]

    def known(self, seat: int) -> TableView:
        """``seat``'s fold of the events it may see (R14); the caller must not change it."""
        key = ("known", seat)
        if key not in self.kept:
            kept, points = self._since_kept(key)
            view = TableView() if kept is None else kept.copy()
            for point in points:
                for event in point.events:
                    if visible_to(event, seat):
                        view.observe(event)
            self.kept[key] = view
        known: TableView = self.kept[key]
        return known

    def record(self, seat: int) -> tuple[str, ...]:
        """``seat``'s record, one entry per step: its text and the events the seat saw in it."""
        key = ("record", seat)
        if key not in self.kept:
            kept, points = self._since_kept(key)
            lines = [] if kept is None else list(kept)
            for point in points:
                if point.parent is None and not point.step:
                    continue  # the fresh start before any step
                told = [
                    event.type + json.dumps(event.data, sort_keys=True, separators=(",", ":"))
                    for event in point.events
                    if visible_to(event, seat) and event.type not in BOOKKEEPING
                ]
                lines.append(" ".join([point.step, *told]))
            self.kept[key] = tuple(lines)
        record: tuple[str, ...] = self.kept[key]
        return record


@dataclass(frozen=True)
class Settled:
    """A game at a prompt or over, and the trail that led there; never changed."""

    game: Game
    trail: Trail
    memo: dict[Any, Any] = field(default_factory=dict, compare=False)

    def remember(self, key: Any, read: Callable[[], T]) -> T:
        """``read()``, called once per ``key`` for this point."""
        if key not in self.memo:
            self.memo[key] = read()
        value: T = self.memo[key]
        return value

    def view(self, seat: int) -> dict[str, Any]:
        """``seat``'s view of the game (``Game.view`` without events)."""
        return self.remember(("view", seat), lambda: self.game.view(seat, with_events=False))


class Table:
    """A game between actions: at a player's prompt, at a chance node, or over."""

    def __init__(self, setup: Setup) -> None:
        self.setup = setup
        self.settled = Settled(Game(setup.rules, setup.roles, record=True), Trail(None, "", ()))
        self.started = False
        self.pending: tuple[int, str] | None = None
        self.given: list[int] = []
        self.draw: Draw | None = None
        self.load: Table | None = None
        """The table just before the current load's shuffle was drawn (None before the first)."""
        self.since_load: list[int] = []
        """Every move since ``load``: the shuffle's draws first (``load_draws`` of them)."""
        self.load_draws = 0
        self._settle()

    def copy(self) -> Table:
        """An independent table in the same place (sharing the settled point)."""
        twin = Table.__new__(Table)
        twin.__dict__.update(self.__dict__)
        twin.given = list(self.given)
        twin.since_load = list(self.since_load)
        return twin

    def __deepcopy__(self, memo: dict[int, Any]) -> Table:
        return self.copy()

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as plain data: the settled game's state, resumed when loaded."""
        settled, seats = self.settled, (*range(self.setup.seats), PUBLIC)
        known = tuple(settled.trail.known(seat) for seat in seats)
        parts = (settled.game.state, known, tuple(settled.trail.record(seat) for seat in seats))
        where = (self.started, self.pending, self.given, self.draw)
        return (_unpickled, (self.setup, parts, where))

    # --- where the table is --------------------------------------------------------------

    @property
    def game(self) -> Game:
        """The game at the last settled point."""
        return self.settled.game

    @property
    def over(self) -> bool:
        """True once the game has ended."""
        return self.started and self.draw is None and self.game.over

    @property
    def player(self) -> int | None:
        """The seat asked; None at a chance node or once over."""
        if self.draw is not None or not self.started:
            return None
        prompt = self.game.prompt
        return None if prompt is None else prompt.player

    def legal(self) -> list[int]:
        """The asked seat's legal action ids (empty at a chance node or once over)."""
        prompt = self.game.prompt
        if self.draw is not None or prompt is None:
            return []
        return self.setup.actions.legal(prompt)

    def chances(self) -> list[tuple[int, Fraction]]:
        """The chance node's outcome ids with their exact probabilities, ids ascending."""
        return [] if self.draw is None else sorted(self.draw.outcomes)

    def describe(self, outcome: int) -> str:
        """The chance outcome's text: as the draw waited for names it, else by its code."""
        if self.draw is not None and outcome in self.draw.labels:
            return self.draw.labels[outcome]
        return self.setup.codes.describe(outcome)

    def returns(self) -> list[float]:
        """Each seat's return (:func:`payoff`); 0 for all until the game is over."""
        state = self.game.state
        return payoff(state.winners if self.over else None, state.alive())

    # --- stepping -------------------------------------------------------------------------

    def step(self, move: int) -> None:
        """Take ``move``: a chance outcome at a chance node, else the asked seat's action."""
        shuffling = self.draw is not None and self.draw.kind == "shell"
        if shuffling and len(self.since_load) == self.load_draws and self.load is not None:
            self.load_draws += 1  # the shuffle goes on
        elif shuffling:  # a new load's shuffle starts (or goes on in a table loaded mid-way)
            codes = self.setup.codes
            first = not any(codes.decode(given)[0] == "shell" for given in self.given)
            self.load = self.copy() if first else None  # None: its start is in the history
            self.since_load, self.load_draws = [], 1
        if self.draw is not None:
            self.chance(move)
        else:
            self.act(move)
        if self.load is not None:
            self.since_load.append(move)

    def act(self, action: int) -> None:
        """The asked seat takes the action id ``action``; ``ValueError`` if it is not legal."""
        if action not in self.legal():
            raise ValueError(f"action {action} is not legal here")
        prompt = self.game.prompt
        assert prompt is not None
        self.pending = (prompt.player, self.setup.actions.option(action))
        self.given = []
        self._settle()

    def chance(self, outcome: int) -> None:
        """The chance node's draw comes out as ``outcome``; ``ValueError`` if not possible."""
        if outcome not in dict(self.chances()):
            raise ValueError(f"chance outcome {outcome} is not possible here")
        self.given.append(outcome)
        self._settle()

    def _settle(self) -> None:
        """Run the pending step with the outcomes drawn: wait for the next draw, or settle."""
        setup = self.setup
        chance = DrawnChance(setup.codes, tuple(self.given))
        try:
            if self.pending is None:
                game = Game(setup.rules, setup.roles, chance, record=True)
                game.start()
                events: list[Event] = game.events
                step = "start"
            else:
                player, option = self.pending
                game = self.game.clone(record=True, chance=chance)
                done = len(game.events)
                game.decide(player, option)
                events = game.events[done:]
                step = f"{player}:{option}"
        except ChanceNeeded as need:
            self.draw = need.draw
            return
        self.settled = Settled(game, self.settled.trail.after(step, events))
        self.started, self.pending, self.given, self.draw = True, None, [], None

    def state_dict(self) -> dict[str, Any]:
        """Where the table is, hidden parts included, for debugging (not to restore)."""
        return {
            "game": self.game.state.to_json(),
            "pending": self.pending,
            "given": list(self.given),
            "draw": None if self.draw is None else self.draw.kind,
        }


def _unpickled(setup: Setup, parts: tuple[Any, ...], where: tuple[Any, ...]) -> Table:
    state, known, record = parts
    table = Table.__new__(Table)
    table.setup = setup
    table.started, table.pending, table.given, table.draw = where
    table.load, table.since_load, table.load_draws = None, [], 0
    chance = DrawnChance(setup.codes, ())
    game = (
        Game.resume_from(state, setup.rules, chance, record=False)
        if table.started
        else Game(setup.rules, setup.roles, chance, record=True)
    )
    seats = (*range(setup.seats), PUBLIC)
    kept: dict[tuple[str, int], Any] = {
        ("known", s): view for s, view in zip(seats, known, strict=True)
    }
    kept.update({("record", s): lines for s, lines in zip(seats, record, strict=True)})
    table.settled = Settled(game, Trail(None, "", (), kept))
    return table
