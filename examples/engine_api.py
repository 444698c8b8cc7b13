"""The reference engine as a library: a game, its prompts, decisions, views and snapshots.

    python examples/engine_api.py [--seed S]

Plays the first decisions of a three-player game by hand, shows what one seat may know,
saves the game and continues both copies identically, scripts the chance of a game so that
its first shell is live, has a bad decision refused (the game left as it was), and plays a
whole game without an event log. See docs/engine.md.
"""

from __future__ import annotations

import argparse
from typing import Any

from buckshot.reference.agents import HeuristicAgent, play_out
from buckshot.reference.chance import ScriptedChance, SeededChance
from buckshot.reference.errors import GameError
from buckshot.reference.events import to_jsonl
from buckshot.reference.game import Game
from buckshot.spec.rulebook import Role


def first_decisions(seed: int) -> Game:
    """A seeded game and its first prompt answered with its first option."""
    game = Game.new([Role.MAGICIAN, Role.DEALER, Role.MEDIC], chance=SeededChance(seed))
    prompt = game.prompt
    assert prompt is not None
    print(f"seat {prompt.player} is asked ({prompt.kind} in the {prompt.frame.value} frame):")
    for option in prompt.options:
        print(f"  {option}")  # the option's text, e.g. shoot:target=2
    game.decide(prompt.player, str(prompt.options[0]))  # an Option or its text
    print(f"after {prompt.options[0]}: seat {game.prompt.player if game.prompt else '-'} is asked")
    return game


def what_a_seat_knows(game: Game, seat: int) -> None:
    """A seat's view: counts of the chamber, never its order, and no other seat's peek."""
    view = game.view(seat, with_events=False)
    chamber = view["chamber"]
    print(
        f"seat {seat} sees {chamber['shells_left']} shells left "
        f"({chamber['live_left']} live), its own items {view['seats'][seat]['items']}"
    )


def save_and_continue(game: Game) -> None:
    """A snapshot is JSON-ready; the restored game continues exactly like the original."""
    copy = Game.restore(game.snapshot())
    for g in (game, copy):
        for _ in range(5):
            if g.prompt is None:
                break
            g.decide(g.prompt.player, g.prompt.options[-1])
    same = to_jsonl(game.events) == to_jsonl(copy.events)
    print(f"the original and its restored copy wrote the same log: {same}")
    assert same


def scripted_chance() -> None:
    """Chance named outcome by outcome, as the conformance cases do: the load, its order,
    then the turn owner's item draws; the live shell ends the turn, so the next owner draws
    too. A game that asks for an outcome the script does not hold raises chance.invalid."""
    script: list[dict[str, Any]] = [
        {"kind": "load", "value": [1, 1]},
        {"kind": "order", "value": ["live", "blank"]},
        {"kind": "item", "value": "amulet"},
        {"kind": "item", "value": "milk_tea"},
        {"kind": "item", "value": "inverter"},
        {"kind": "item", "value": "amulet"},
    ]
    game = Game.new([Role.DEALER, Role.DOCTOR], chance=ScriptedChance(script))
    game.decide(0, "shoot:target=1")
    while not (fired := [e for e in game.events if e.type == "shot_fired"]):
        assert game.prompt is not None  # the shot window: every other seat may respond
        game.decide(game.prompt.player, "pass_response")
    print(f"the scripted first shell: {fired[0].data['shell']}")


def refused(game: Game) -> None:
    """Bad input raises GameError with a stable code and changes nothing."""
    prompt = game.prompt
    assert prompt is not None
    before = game.snapshot()
    try:
        game.decide(prompt.player, "shoot:target=99")
    except GameError as error:
        print(f"refused: {error.code} ({error})")
    assert game.snapshot() == before


def without_a_log(seed: int) -> None:
    """record=False: the same game, no event log (for simulations)."""
    roles = [Role.GAMBLER, Role.MERCENARY, Role.DOCTOR, Role.MEDIC]
    game = Game.new(roles, chance=SeededChance(seed), record=False)
    play_out(game, [HeuristicAgent(seed + seat) for seat in range(len(roles))])
    print(f"a game without a log: over after turn {game.state.turn}, winners {game.state.winners}")


def main() -> None:
    """Run every part of the example."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    game = first_decisions(args.seed)
    what_a_seat_knows(game, 1)
    save_and_continue(game)
    scripted_chance()
    refused(game)
    without_a_log(args.seed)


if __name__ == "__main__":
    main()
