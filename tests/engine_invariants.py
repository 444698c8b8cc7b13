"""The engine's log and state kept in step, checked after every decision of a test game.

:class:`GameMonitor` watches one :class:`~buckshot.reference.game.Game`. After every step,
:meth:`GameMonitor.check` folds the events logged since the last check into the spec's view
of the whole table (:class:`buckshot.spec.views.TableView`, the one fold of a log that
replay, the diagrams and the views use), then checks that the engine's state is what its
log says (R14: every change a seat can see is an event) and a few facts of the state
between two decisions that the rules state outright. Whether each step follows the rules is
the model's question: the engine runs in lockstep with the executable spec in
``tests/verification/test_verification_engine.py``, and Z3 proves the model's properties.

A failed check raises :class:`Violation`, whose message cites the clause or ruling. The
module also holds small helpers of the property tests: random roles, a random legal
decision, variant rulesets, a canonical snapshot text.
"""

from __future__ import annotations

import json
import random
from typing import Any

from buckshot.reference.events import log_event
from buckshot.reference.game import Game
from buckshot.spec.rulebook import Role
from buckshot.spec.ruleset import Ruleset, load_ruleset
from buckshot.spec.views import TableView


class Violation(AssertionError):
    """A check of :class:`GameMonitor` failed; the message cites the clause or ruling."""


def require(condition: bool, clause: str, message: str) -> None:
    """Raise :class:`Violation` citing ``clause`` unless ``condition`` holds."""
    if not condition:
        raise Violation(f"[{clause}] {message}")


class GameMonitor:
    """Checks one game's log against its state after every step."""

    def __init__(self, game: Game) -> None:
        self.table = TableView()
        """The whole table as the game's events so far describe it."""
        self.seen = 0
        self.prev_stack: list[dict[str, Any]] | None = None
        self.prev_owner: int | None = None
        self.steps = 0

    def check(self, game: Game) -> None:
        """Fold the new events, then check the state between two decisions."""
        for event in game.events[self.seen :]:
            problem = self.table.observe(log_event(event))
            require(problem is None, "R14", f"event #{event.seq} {event.type.value}: {problem}")
        self.seen = len(game.events)
        self._state(game)
        self.steps += 1

    def _state(self, game: Game) -> None:
        """The engine's state between two decisions, against the events' view and the rules."""
        state, rules, table = game.state, game.rules, self.table
        prompt = game.prompt
        stack = [frame.to_json() for frame in state.stack]
        where = f"after step {self.steps} (event #{len(game.events)})"
        for seat_state in state.seats:
            seat = table.seat(seat_state.seat)
            mine = {
                "hp": seat.hp,
                "alive": seat.alive,
                "items": dict(seat.items),
                "traitor": seat.traitor,
                "shield": seat.shield,
                "rage": seat.rage,
                "kills": seat.kills,
            }
            theirs = {
                "hp": seat_state.hp,
                "alive": seat_state.alive,
                "items": {item.value: count for item, count in seat_state.items.items()},
                "traitor": seat_state.traitor,
                "shield": seat_state.shield,
                "rage": seat_state.rage,
                "kills": seat_state.kills,
            }
            require(
                mine == theirs,
                "R14",
                f"{where}: seat {seat_state.seat} is {theirs}, the events say {mine}",
            )
            require(0 <= seat_state.hp <= rules.hp.max, "R2", f"{where}: HP out of 0..hp.max")
            require(seat_state.shield >= 0 and seat_state.rage >= 0, "R9", f"{where}: negative")
        require(state.owner == table.owner, "S1.1", f"{where}: owner differs from the log")
        require(state.turn == table.turns_started, "R21", f"{where}: turn number")
        require(len(state.shells) == table.shells, "R14", f"{where}: shells left")
        if state.shot is None:
            live = sum(shell.value == "live" for shell in state.shells)
            require(live == table.live, "R14", f"{where}: live shells left")
        # The stack (S6.1.1): the turn at the bottom, bounded, as the events built it.
        require(
            bool(stack) and stack[0]["kind"] == "turn", "S6.1.1", f"{where}: bottom is not turn"
        )
        require(len(stack) <= rules.limits.max_stack_depth, "S6.1.1, R18", f"{where}: depth")
        require(
            [(f["id"], f["kind"]) for f in stack] == [(f.id, f.kind) for f in table.stack],
            "S6.1",
            f"{where}: the stack is not what the pushes and pops built",
        )
        # Frames below the top are suspended: unchanged until the frame above them pops.
        if self.prev_stack is not None:
            for depth in range(len(stack) - 1):
                if depth + 1 < len(self.prev_stack) and [f["id"] for f in stack[: depth + 2]] == [
                    f["id"] for f in self.prev_stack[: depth + 2]
                ]:
                    require(
                        stack[depth] == self.prev_stack[depth],
                        "S1.4, S6.1.2, S6.1.3",
                        f"{where}: suspended frame {stack[depth]} was "
                        f"{self.prev_stack[depth]} when the frame above it was pushed",
                    )
            if (
                len(stack) > 1
                and len(self.prev_stack) > 1
                and stack[1]["id"] == self.prev_stack[1]["id"]
            ):
                require(
                    state.owner == self.prev_owner,
                    "S1.3",
                    f"{where}: the turn owner changed while a frame was pushed",
                )
        self.prev_stack = stack
        self.prev_owner = state.owner
        # The end of the game (R13), and who may be asked (S1.2, S5.2).
        require(state.over == table.over, "R13", f"{where}: over={state.over}, game_over seen")
        if state.over:
            require(prompt is None, "R13", f"{where}: a prompt after the game ended")
            require(
                table.winners == tuple(state.winners or ()),
                "R13",
                f"{where}: the winners differ from the log's",
            )
            return
        require(prompt is not None, "R21", f"{where}: the game waits for nothing")
        assert prompt is not None
        require(state.seats[prompt.player].alive, "S1.2, S5.2", f"{where}: a dead seat is asked")
        require(state.seats[state.owner].alive, "S1.2, S5.2", f"{where}: a dead seat owns a turn")
        asked = [event for event in game.events if event.type.value == "asked"]
        require(
            bool(asked) and asked[-1].data["player"] == prompt.player,
            "R14",
            f"{where}: the prompt was not logged",
        )
        if state.seats[prompt.player].traitor:
            require(
                all(option.event != "flip_shell" for option in prompt.options),
                "S5.1",
                f"{where}: a traitor is offered flip_shell",
            )


# --- shared helpers --------------------------------------------------------------------------


ROLES: tuple[Role, ...] = tuple(Role)


def random_roles(rng: random.Random, players: int) -> list[Role]:
    """``players`` roles drawn uniformly, repeats allowed."""
    return [rng.choice(ROLES) for _ in range(players)]


def random_decision(game: Game, rng: random.Random) -> tuple[int, str]:
    """A uniformly random legal option of the pending prompt, as (player, option text)."""
    prompt = game.prompt
    assert prompt is not None
    return prompt.player, rng.choice(prompt.options).id


def variant(
    base: Ruleset | None = None,
    *,
    hp: tuple[int, int] | None = None,
    max_turns: int | None = None,
    max_stack_depth: int | None = None,
    kills_to_win: int | None = None,
    magician_cost: int | None = None,
) -> Ruleset:
    """The ruleset ``base`` (the default) with the given numbers changed, parsed and checked."""
    changes: dict[str, object] = {
        "hp.start": None if hp is None else hp[0],
        "hp.max": None if hp is None else hp[1],
        "limits.max_turns": max_turns,
        "limits.max_stack_depth": max_stack_depth,
        "traitor.kills_to_win": kills_to_win,
        "magician.cost": magician_cost,
    }
    given = {key: value for key, value in changes.items() if value is not None}
    return (base or load_ruleset()).with_changes(given, source="test variant")


def canonical(snapshot: dict[str, Any]) -> str:
    """A snapshot as canonical JSON text, for byte-for-byte comparison."""
    return json.dumps(snapshot, sort_keys=True, separators=(",", ":"))
