"""A game prepared from a setup document: seats, HP, items, chamber, ruleset patch.

This is how conformance cases, tests and tools start a game from a given position rather
than from the rules' own start. The setup is applied before the first turn starts.
"""

from __future__ import annotations

from typing import Any, TypeVar

from buckshot.reference.chance import Chance
from buckshot.reference.errors import Code, GameError
from buckshot.reference.game import Game
from buckshot.spec.rulebook import Item, Role, Shell
from buckshot.spec.ruleset import RulesetError, load_ruleset

SEAT_KEYS = {
    "role",
    "name",
    "hp",
    "items",
    "traitor",
    "conversion_used",
    "shield",
    "rage",
    "kills",
    "alive",
}
SETUP_KEYS = {"seats", "owner", "chamber", "ruleset"}


def game_from_setup(
    setup: dict[str, Any], chance: Chance, start: bool = True, game_class: type[Game] = Game
) -> Game:
    """A game laid out as ``setup`` says (then started, unless ``start`` is False), made by
    ``game_class`` (a subclass of :class:`Game`, or the class itself).

    ``setup`` keys: ``seats`` (each with ``role`` and optionally ``name``, ``hp``, ``items``
    {kind: count}, ``traitor``, ``conversion_used``, ``shield``, ``rage``, ``kills``,
    ``alive``), ``owner`` (the seat whose turn starts first, default 0), ``chamber`` (shells
    loaded before the first turn, first shell first; default empty, so the turn loads), and
    ``ruleset`` (changes to the default ruleset, as ``Ruleset.with_changes`` reads them).
    Raises ``GameError`` ``setup.invalid``.
    """
    try:
        if not isinstance(setup, dict):
            raise ValueError(
                "the setup: an object of seats, owner, chamber and ruleset was expected"
            )
        unknown = set(setup) - SETUP_KEYS
        if unknown:
            raise ValueError(f"unknown setup keys {sorted(unknown)}")
        rules = load_ruleset()
        if "ruleset" in setup:
            rules = rules.with_changes(setup["ruleset"], source="setup")
        seats = setup.get("seats")
        if not isinstance(seats, list) or not all(isinstance(seat, dict) for seat in seats):
            raise ValueError("seats: a list of seats, each an object with a role, was expected")
        for number, seat in enumerate(seats):
            extra = set(seat) - SEAT_KEYS
            if extra:
                raise ValueError(f"seat {number}: unknown keys {sorted(extra)}")
        names = [seat.get("name", chr(ord("A") + i)) for i, seat in enumerate(seats)]
        roles = [_one_of(Role, seat.get("role"), f"seat {n}: role") for n, seat in enumerate(seats)]
        game = game_class(rules, roles, chance, names)
        for state, seat in zip(game.state.seats, seats, strict=True):
            where = f"seat {state.seat}:"
            state.hp = _whole(seat.get("hp", rules.hp.start), f"{where} hp")
            held = seat.get("items", {})
            if not isinstance(held, dict):
                raise ValueError(f"{where} items: an object of item: count was expected")
            counts = {
                _one_of(Item, k, f"{where} item"): _whole(v, f"{where} {k}")
                for k, v in held.items()
            }
            state.items = {item: count for item, count in counts.items() if count != 0}
            state.traitor = bool(seat.get("traitor", False))
            state.conversion_used = bool(seat.get("conversion_used", state.traitor))
            state.shield = _whole(seat.get("shield", 0), f"{where} shield")
            state.rage = _whole(seat.get("rage", 0), f"{where} rage")
            state.kills = _whole(seat.get("kills", 0), f"{where} kills")
            state.alive = bool(seat.get("alive", True))
            if not 0 <= state.hp <= rules.hp.max or (state.alive and state.hp == 0):
                raise ValueError(f"seat {state.seat}: HP {state.hp} outside 1..{rules.hp.max}")
            if min(state.shield, state.rage, state.kills, *state.items.values(), 0) < 0:
                raise ValueError(f"seat {state.seat}: negative count")
            if not state.alive and (state.hp or state.items or state.shield or state.rage):
                raise ValueError(f"seat {state.seat}: eliminated, but holds HP or effects (R13)")
            if state.traitor and not state.conversion_used:
                raise ValueError(f"seat {state.seat}: a traitor has used the conversion (R6)")
        game.state.owner = _whole(setup.get("owner", 0), "owner")
        if not 0 <= game.state.owner < len(seats) or not game.state.seats[game.state.owner].alive:
            raise ValueError(f"owner {game.state.owner} is not a living seat")
        if sum(game.state.alive()) < 2:
            raise ValueError("at least two seats must be alive")
        for seat in game.state.seats:
            if seat.traitor and seat.kills >= rules.traitor.kills_to_win:
                raise ValueError(f"seat {seat.seat}: a traitor who has already won (S5.1, R7)")
        chamber = setup.get("chamber", [])
        if not isinstance(chamber, list):
            raise ValueError("chamber: a list of shells was expected")
        game.state.shells = [_one_of(Shell, shell, "chamber: shell") for shell in chamber]
        if len(game.state.shells) > rules.shells.max_per_load:
            raise ValueError(f"the chamber holds more than {rules.shells.max_per_load} shells")
    except GameError:
        raise
    except (RulesetError, ValueError) as error:
        raise GameError(Code.BAD_SETUP, str(error)) from None
    if start:
        game.start()
    return game


Kind = TypeVar("Kind", Role, Item, Shell)


def _one_of(kind: type[Kind], value: Any, what: str) -> Kind:
    """``value`` as a ``kind`` (a role, an item, a shell); ValueError naming ``what`` and the
    values it may take."""
    try:
        return kind(value)
    except ValueError:
        known = ", ".join(member.value for member in kind)
        raise ValueError(f"{what} {value!r}: one of {known} was expected") from None


def _whole(value: object, what: str) -> int:
    """``value`` as a whole number; ValueError naming ``what`` when it is none."""
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise ValueError(f"{what} {value!r}: a whole number was expected")
    try:
        return int(value)
    except ValueError:
        raise ValueError(f"{what} {value!r}: a whole number was expected") from None
