"""Decision agents: who answers a prompt. Each sees only the prompt and its player's view."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from buckshot.reference.search import SearchAgent, SeatView
from buckshot.spec.rulebook import Item

if TYPE_CHECKING:  # for the annotations alone: the commands name the bots without the engine
    from buckshot.reference.game import Game, Prompt
    from buckshot.reference.options import Option

ViewFn = Callable[..., dict[str, Any]]
"""Gives the asked player's view; ``with_events=False`` leaves out the event log (faster)."""


class Agent(Protocol):
    """Answers prompts for one or more seats."""

    def choose(self, prompt: Prompt, view: ViewFn) -> Option:
        """One of ``prompt.options``; ``view()`` gives the asked player's view when needed."""
        ...


class RandomAgent:
    """Picks uniformly among the legal options, from its own seeded generator."""

    def __init__(self, seed: int = 0) -> None:
        self._rng = random.Random(seed)

    def choose(self, prompt: Prompt, view: ViewFn) -> Option:
        """A uniformly random legal option."""
        return prompt.options[self._rng.randrange(len(prompt.options))]


_DISCARD_ORDER = (
    Item.INVERTER,
    Item.PICKPOCKET,
    Item.EJECTING_DRINK,
    Item.PEEKING_GLASS,
    Item.RAGE_POTION,
    Item.EXPIRED_PILLS,
    Item.AMULET,
    Item.MILK_TEA,
)
"""The heuristic's order of items to discard; a kind not listed is discarded first."""
_DISCARD_RANK = {item: place for place, item in enumerate(_DISCARD_ORDER)}


class HeuristicAgent:
    """A simple player: heals when hurt, shields, shoots by the odds it can see, rescues itself."""

    def __init__(self, seed: int = 0) -> None:
        self._rng = random.Random(seed)

    def choose(self, prompt: Prompt, view: ViewFn) -> Option:
        """A plausible option by a few fixed rules; random among equals."""
        by_id = {option.id: option for option in prompt.options}
        if prompt.kind == "rescue":
            rescue = [o for o in prompt.options if o.event == "use_rescue"]
            return rescue[0] if rescue else by_id["give_up"]
        if prompt.kind == "conversion":
            return by_id["keep_role"] if self._rng.random() < 0.5 else by_id["convert"]
        if prompt.kind == "discard":
            return min(prompt.options, key=lambda o: _DISCARD_RANK.get(o.kwargs()["item"], -1))
        if prompt.kind in ("shot_response", "counter_response"):
            if len(prompt.options) == 1:
                return prompt.options[0]
            return self._respond(prompt, view(with_events=False))
        return self._act(prompt, view(with_events=False))

    def _respond(self, prompt: Prompt, seen: dict[str, Any]) -> Option:
        flips = [o for o in prompt.options if o.event == "flip_shell"]
        passes = [o for o in prompt.options if o.event not in ("flip_shell", "counter")]
        chamber = seen["chamber"]
        likely_live = chamber["live_left"] > chamber["blank_left"]
        if flips and likely_live and seen["shot_target"] == prompt.player:
            return flips[0]
        return passes[0]

    def _act(self, prompt: Prompt, seen: dict[str, Any]) -> Option:
        me = seen["seats"][prompt.player]
        items = {
            o.kwargs()["item"]: o
            for o in prompt.options
            if o.event == "use_item" and o.kwargs()["target"] is None
        }
        if Item.MILK_TEA in items and me["hp"] < seen["max_hp"]:
            return items[Item.MILK_TEA]
        if Item.AMULET in items and me["shield"] == 0:
            return items[Item.AMULET]
        chamber = seen["chamber"]
        shots = {o.kwargs()["target"]: o for o in prompt.options if o.event == "shoot"}
        if not shots:
            return next(o for o in prompt.options if o.event == "end_main")
        others = [s for s in seen["seats"] if s["alive"] and s["seat"] != prompt.player]
        weakest = min(others, key=lambda s: (s["hp"], self._rng.random()))["seat"]
        if (
            Item.RAGE_POTION in items
            and me["rage"] == 0
            and chamber["live_left"] > chamber["blank_left"]
        ):
            return items[Item.RAGE_POTION]
        if chamber["live_left"] == 0 or (
            chamber["blank_left"] > chamber["live_left"] and prompt.player in shots
        ):
            return shots[prompt.player]
        return shots[weakest]


AGENTS: dict[str, Callable[[int], Agent]] = {
    "heuristic": HeuristicAgent,
    "random": RandomAgent,
    "search": SearchAgent,
}
"""Every bot a command can seat, by name, each made from a seed (the one list of them)."""


def records_events(agent: str) -> bool:
    """Whether the bot named ``agent`` reads its seat's event log (its games must record)."""
    return bool(getattr(AGENTS[agent], "needs_events", False))


def play_out(game: Game, agents: Sequence[Agent], max_decisions: int = 1_000_000) -> int:
    """Let ``agents[seat]`` answer every prompt until the game ends; the number of decisions.

    Each agent is given its seat's :class:`~buckshot.reference.search.SeatView`.
    """
    decisions = 0
    views = [SeatView(game, seat) for seat in range(len(game.state.seats))]
    while not game.over and decisions < max_decisions:
        prompt = game.prompt
        assert prompt is not None
        player = prompt.player
        option = agents[player].choose(prompt, views[player])
        game.decide(player, option)
        decisions += 1
    return decisions
