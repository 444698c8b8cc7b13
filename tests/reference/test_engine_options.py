"""A decision's options and its guards cannot disagree: the prompt lists each event's
candidates and keeps those the edges' guards pass, so a guard changed alone changes what is
offered, for every decision event the charts guard by its parameters, and the engine never
offers an option it then fails to take (issue 32: ``no branch of use_item passes``)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from engine_helpers import draws, make
from faults import seams

from buckshot.reference import effects
from buckshot.reference.chance import SeededChance
from buckshot.reference.effects import Board, Guard, Params
from buckshot.reference.errors import Code, GameError
from buckshot.reference.game import Game
from buckshot.reference.options import Option
from buckshot.reference.tables import TABLES
from buckshot.spec.rulebook import Item, Role

GAMES = 25
"""Random games played for each decision event."""

PARAM_GUARDED = sorted(
    {
        (edge.event, name)
        for table in TABLES.values()
        for row in table.states.values()
        for _, _, edges in row.choices
        for edge in edges
        for name, _, expected in edge.param_guards
        if expected is True
    }
)
"""Each decision event with a guard of its parameters (expected True), by the tables."""


@pytest.fixture(autouse=True)
def restored() -> Iterator[None]:
    yield
    seams.reset()


def _victim(event: str) -> Any:
    """The parameter value the changed guard refuses for ``event``: a seat or an item."""
    return 1 if event == "shoot" else Item.MILK_TEA


def _names(option: Option, victim: Any) -> bool:
    """Whether ``option`` names ``victim`` among its parameters."""
    for _, value in option.params:
        if value == victim or (isinstance(value, tuple) and victim in value):
            return True
    return False


def _refusing(guard: Guard, victim: Any) -> Guard:
    def refusing(g: Board, p: Params) -> bool:
        named = [v for v in p.values() if v == victim or (isinstance(v, tuple) and victim in v)]
        return False if named else guard(g, p)

    return refusing


def test_every_parameter_guarded_decision_is_covered() -> None:
    assert {event for event, _ in PARAM_GUARDED} >= {
        "shoot",
        "use_item",
        "flip_shell",
        "use_rescue",
        "discard_item",
    }


@pytest.mark.parametrize(("event", "guard"), PARAM_GUARDED)
def test_a_guard_changed_alone_changes_the_options_and_no_take_fails(
    event: str, guard: str
) -> None:
    """The guard refuses one seat or item kind more: no prompt offers it, every offered
    option is taken without an AssertionError, and the refused one is refused by name."""
    victim = _victim(event)
    seams.wrap_guard(guard, lambda original: _refusing(original, victim))
    seen = 0
    for seed in range(GAMES):
        rng = random.Random(seed)
        players = 2 + seed % 7
        roles = [rng.choice([Role.MAGICIAN, Role.DEALER, Role.MEDIC, Role.DOCTOR])] * players
        game = Game.new(roles, chance=SeededChance(seed), record=False)
        while (prompt := game.prompt) is not None and prompt.options:  # refusals may leave none
            offered = [o for o in prompt.options if o.event == event]
            assert not any(_names(o, victim) for o in offered), (event, prompt.option_ids())
            seen += len(offered)
            if offered:
                _try_refused(game, prompt.player, event, victim)
            game.decide(prompt.player, rng.choice(prompt.options))
    assert seen, f"no prompt offered {event}"


def _try_refused(game: Game, player: int, event: str, victim: Any) -> None:
    """Decide the option of ``event`` naming ``victim`` (when it is one parameter): it is
    refused with a GameError, and the game stays as it was."""
    text = {
        "shoot": f"shoot:target={victim}",
        "use_item": "use_item:item=milk_tea",
        "use_rescue": "use_rescue:item=milk_tea",
        "discard_item": "discard_item:item=milk_tea",
    }.get(event)
    if text is None:
        return
    before = game.state.copy()
    with pytest.raises(GameError) as caught:
        game.decide(player, text)
    assert caught.value.code in (Code.REFUSED, Code.NOT_OFFERED)
    assert game.state == before


def test_a_guard_loosened_alone_is_offered_and_taken() -> None:
    """R23 changed in the guard alone (a pickpocket may pick from the user's own hand): the
    prompt offers it and the engine takes it, instead of failing inside the take."""
    original = effects.GUARDS["item_usable"]

    def item_usable(g: Board, p: Params) -> bool:
        owner = g.state.seats[g.state.owner]
        if p.get("item") is Item.PICKPOCKET and p.get("target") == owner.seat:
            return owner.count(Item.PICKPOCKET) > 0 and owner.total_items() > 1
        return original(g, p)

    def game() -> Game:
        picked = [{"kind": "pick", "value": "amulet"}]
        chance = [*draws("pickpocket", "amulet"), *picked]
        return make([Role.MEDIC, Role.GAMBLER], chance, shells=["live"])

    option = "use_item:item=pickpocket,target=0"
    before = game().prompt
    assert before is not None and option not in before.option_ids()  # R23: another seat
    seams.replace_guard("item_usable", item_usable)
    loosened = game()
    prompt = loosened.prompt
    assert prompt is not None and option in prompt.option_ids()
    loosened.decide(prompt.player, option)
    assert loosened.state.seats[0].items == {Item.AMULET: 1}
