"""The guards, selectors and actions the compiled program writes in place (reference/inline.py):
each written expression gives what the call gives and each written statement does what the
call does in the games' positions, a guard or helper a seam substitutes is the one the game
runs, and only one-line functions are written."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

from buckshot.reference import compiled, effects, seams
from buckshot.reference.chance import SeededChance
from buckshot.reference.game import Game
from buckshot.reference.inline import MODULE_NAME, inline_action, inline_call
from buckshot.reference.state import Seat
from buckshot.spec.rulebook import Role

FREQUENT = ("can_shoot", "someone_dying", "conversion_due", "kill_locked", "main_continues")
"""Guards of the turn's settling and main phase, each one returned expression."""


def _positions(games: int = 12) -> Iterator[Game]:
    """Every position of random games, 2 to 8 players (the game itself, between decisions)."""
    for seed in range(games):
        rng = random.Random(seed)
        roles = [rng.choice(list(Role)) for _ in range(2 + seed % 7)]
        game = Game.new(roles, chance=SeededChance(seed), record=False)
        while (prompt := game.prompt) is not None:
            yield game
            game.decide(prompt.player, rng.choice(prompt.options))


def _written(name: str, arity: int) -> str | None:
    return inline_call(getattr(effects, name), ("g", "p")[:arity])


def test_each_written_expression_gives_what_the_call_gives() -> None:
    functions = {**effects.GUARDS, **effects.SELECTORS, "asked_magician": effects.asked_magician}
    written = {
        name: (fn, expression)
        for name, fn in functions.items()
        if (expression := _written(name, fn.__code__.co_argcount)) is not None
    }
    assert set(FREQUENT) <= written.keys()
    checked = 0
    for game in _positions():
        for name, (fn, expression) in written.items():
            arguments: tuple[Any, ...] = (game, {})[: fn.__code__.co_argcount]
            try:
                expected: Any = fn(*arguments)
            except (AssertionError, IndexError, TypeError):
                continue  # a selector of a frame that is not on top
            scope = {MODULE_NAME: effects, "g": game, "p": {}}
            assert eval(expression, scope) == expected, name
            checked += 1
    assert checked > 1000


def test_each_written_action_does_what_the_call_does() -> None:
    written = {
        name: (fn, statement)
        for name, fn in effects.ACTIONS.items()
        if (statement := inline_action(fn, ("g", "p"))) is not None
    }
    assert "advance_poll" in written
    checked = 0
    for game in _positions(6):
        for fn, statement in written.values():
            called, run = game.clone(), game.clone()
            try:
                fn(called, {})
            except (AssertionError, IndexError, TypeError, AttributeError):
                continue  # an action of a frame that is not on top
            exec(statement, {MODULE_NAME: effects, "g": run, "p": {}})
            assert json.dumps(run.snapshot()) == json.dumps(called.snapshot())
            checked += 1
    assert checked > 100


def test_a_function_of_more_than_one_statement_is_called() -> None:
    assert _written("game_is_over", 2) is None
    assert _written("item_usable", 2) is None
    assert inline_action(effects.settle_shot, ("g", "p")) is None


def test_a_substituted_guard_is_called_and_a_substituted_helper_is_the_one_read() -> None:
    calls: list[Seat | None] = []

    def converting_seat(g: Game) -> Seat | None:
        calls.append(None)
        return None  # nobody ever converts

    try:
        seams.wrap_guard("kill_locked", lambda guard: lambda g, p: guard(g, p))
        assert inline_call(effects.GUARDS["kill_locked"], ("g", "p")) is None
        assert "G_kill_locked(g, p)" in compiled.program().source
        seams.replace_helper("converting_seat", converting_seat)
        for game in _positions(4):
            assert not [seat for seat in game.state.seats if seat.traitor]
        assert calls  # conversion_due, written in place, asked the substituted helper
    finally:
        seams.reset()
    assert "G_kill_locked" not in compiled.program().source
