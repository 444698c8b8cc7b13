"""Helpers for scenario tests of the reference engine: a prepared table and scripted play."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from buckshot.reference.chance import ScriptedChance
from buckshot.reference.events import EventType
from buckshot.reference.game import Game
from buckshot.spec.rulebook import Item, Role, Shell
from buckshot.spec.ruleset import Ruleset, load_ruleset


def draws(*items: str) -> list[dict[str, Any]]:
    """Scripted outcomes for items drawn, in order."""
    return [{"kind": "item", "value": item} for item in items]


def load(live: int, blank: int, order: Iterable[str]) -> list[dict[str, Any]]:
    """Scripted outcomes for a load of ``live``/``blank`` shells in ``order``."""
    return [{"kind": "load", "value": [live, blank]}, {"kind": "order", "value": list(order)}]


def make(
    roles: list[Role],
    chance: Iterable[dict[str, Any]] = (),
    *,
    hp: dict[int, int] | None = None,
    items: dict[int, dict[str, int]] | None = None,
    shells: list[str] | None = None,
    owner: int = 0,
    rules: Ruleset | None = None,
    traitors: Iterable[int] = (),
    kills: dict[int, int] | None = None,
) -> Game:
    """A game set up as given (before its first turn starts), then started."""
    game = Game(rules or load_ruleset(), roles, ScriptedChance(list(chance)))
    for seat, value in (hp or {}).items():
        game.state.seats[seat].hp = value
    for seat, held in (items or {}).items():
        game.state.seats[seat].items = {Item(name): count for name, count in held.items()}
    for seat in traitors:
        game.state.seats[seat].traitor = True
        game.state.seats[seat].conversion_used = True
    for seat, count in (kills or {}).items():
        game.state.seats[seat].kills = count
    if shells is not None:
        game.state.shells = [Shell(shell) for shell in shells]
    game.state.owner = owner
    game.start()
    return game


def act(game: Game, player: int, option: str) -> None:
    """Decide ``option`` as ``player``, checking first that it is asked and offered."""
    prompt = game.prompt
    assert prompt is not None, "the game is over"
    assert prompt.player == player, f"seat {prompt.player} is asked ({prompt.kind}), not {player}"
    assert option in prompt.option_ids(), f"{option!r} not in {prompt.option_ids()}"
    game.decide(player, option)


def events_of(game: Game, *types: EventType, since: int = 0) -> list[dict[str, Any]]:
    """The data of the events of the given types, from sequence number ``since`` on."""
    return [e.data for e in game.events if e.type in types and e.seq > since]


def asked_seats(game: Game, frame_kind: str) -> list[int]:
    """Seats asked in frames of ``frame_kind``, in order."""
    frames = {
        e.data["frame_id"]
        for e in game.events
        if e.type is EventType.FRAME_PUSHED and e.data["kind"] == frame_kind
    }
    return [
        e.data["player"]
        for e in game.events
        if e.type is EventType.ASKED and e.data["frame_id"] in frames
    ]
