"""Example games played by the reference engine, for the diagrams and the documentation.

Each example is a real game: a setup, a scripted chance source and scripted decisions,
run through :class:`~buckshot.reference.game.Game`; its event log is what gets drawn.
"""

from __future__ import annotations

from collections.abc import Callable

from buckshot.reference.chance import ScriptedChance
from buckshot.reference.events import Event, EventType
from buckshot.reference.setup import game_from_setup


def s6_3_worked_example() -> list[Event]:
    """S6.3.0: A shoots C; B passes; C and D (Magicians) flip; A passes; the shot settles live.

    The log runs from the game's start to the end of A's turn.
    """
    setup = {
        "seats": [
            {"role": "medic"},
            {"role": "dealer"},
            {"role": "magician", "items": {"amulet": 1, "inverter": 1}},
            {"role": "magician", "items": {"milk_tea": 2}},
        ],
        "chamber": ["live", "blank"],
    }
    draws = [{"kind": "item", "value": item} for item in ("amulet", "milk_tea") * 2]
    game = game_from_setup(setup, ScriptedChance(draws))
    for player, option in (
        (0, "shoot:target=2"),
        (1, "pass_response"),
        (2, "flip_shell:items=amulet+inverter"),
        (3, "flip_shell:items=milk_tea+milk_tea"),
        (0, "pass_response"),
    ):
        game.decide(player, option)
    end = next(e.seq for e in game.events if e.type is EventType.TURN_ENDED)
    return [event for event in game.events if event.seq <= end]


EXAMPLES: dict[str, Callable[[], list[Event]]] = {"s6_3_example": s6_3_worked_example}
"""Every example game, by the name its log and its diagrams are written under."""
