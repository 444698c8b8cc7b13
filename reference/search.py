"""A search agent: determinised Monte Carlo search over what its seat may know (R14).

For each decision with a choice, the agent plays many short futures. Each starts from a
*determinisation*: a copy of the game in which every fact hidden from the seat (the
chamber's order, the declared shot's shell, every future chance outcome) is drawn afresh,
consistent with the seat's view: the public counts of live and blank shells and the
seat's own private knowledge (its peek, S3.1, or its preview as a Dealer, S2.3). The root's
options are tried by UCB1 over all determinisations together (one information set), each
future played out by a fast rollout policy for a bounded number of turns and scored; the
option tried most often is chosen. Every random draw comes from the agent's seeded
generator, so the same seed and the same view give the same choice.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from types import EllipsisType
from typing import TYPE_CHECKING, Any

from buckshot.spec.rulebook import Item, Shell

if TYPE_CHECKING:  # the game, imported where it is played: naming the bots loads no engine
    from buckshot.reference.chance import SeededChance
    from buckshot.reference.game import Game, Prompt
    from buckshot.reference.options import Option

DEFAULT_ITERATIONS = 48
"""Futures played per decision with a choice, by default."""

DEFAULT_TURNS = 2
"""Turns a future runs (the current one included) before it is scored, by default."""

DEFAULT_DECISIONS = 80
"""Decisions a future runs at most before it is scored, by default."""

EXPLORATION = 0.7
"""UCB1's exploration constant for values in [0, 1]."""

ROLLOUT_RANDOMNESS = 0.15
"""How often the rollout policy takes a uniformly random option instead of its rule."""


# --- what a seat may know ---------------------------------------------------------------------


def known_first_shell(game: Game, seat: int) -> Shell | None:
    """The type the chamber's first shell had when its shot was declared (or has now, with no
    shot), when ``seat`` has seen it; else None: the seat's view of the chamber
    (:meth:`Game.view`, the spec's fold of the events the seat may see, R14) with the public
    flips since the shot was declared undone. A game that records no events tells nothing.
    """
    chamber = game.view(seat)["chamber"]
    if chamber["first"] is None:
        return None
    seen = Shell(chamber["first"])
    return seen if chamber["pending_flips"] % 2 == 0 else _other(seen)


def _other(shell: Shell) -> Shell:
    return Shell.BLANK if shell is Shell.LIVE else Shell.LIVE


def copy_game(game: Game, chance: SeededChance) -> Game:
    """A copy of ``game`` that records no events and draws from ``chance`` (the one place
    that makes copies for the search)."""
    return game.clone(record=False, chance=chance)


def determinise(
    game: Game, seat: int, rng: random.Random, known: Shell | EllipsisType | None = ...
) -> Game:
    """A copy of ``game`` with every fact hidden from ``seat`` drawn afresh by ``rng``.

    The chamber is shuffled from the public counts of live and blank shells (R14), its first
    shell fixed when ``seat`` has seen it (:func:`known_first_shell`); a declared shot's shell
    is that first shell, flipped once per public flip (S2.6); the future's chance outcomes
    come from a new seeded source. Nothing else in a game is hidden from a seat (R14), so
    two games that show ``seat`` the same view give the same distribution of copies.
    ``known`` is :func:`known_first_shell` when the caller has read it already.
    """
    from buckshot.reference.chance import SeededChance

    counts = game.public_counts()
    if known is ...:
        known = known_first_shell(game, seat)
    live, blank = counts["live_left"], counts["blank_left"]
    rest: list[Shell] = []
    if known is not None and counts["shells_left"]:
        rest.append(known)
        live -= known is Shell.LIVE
        blank -= known is Shell.BLANK
    tail = [Shell.LIVE] * live + [Shell.BLANK] * blank
    rng.shuffle(tail)
    shells = rest + tail
    world = copy_game(game, SeededChance(rng.randrange(2**32)))
    world.state.shells = shells
    shot = world.state.shot
    if shot is not None:
        shot.initial = shells[0]
        shot.shell = shells[0] if counts["pending_flips"] % 2 == 0 else _other(shells[0])
        shells[0] = shot.shell
    return world


class SeatView:
    """What an agent is given for a seat: its view (called like ``game.view`` for that seat)
    and determinisations of the game as that seat may know it (:func:`determinise`)."""

    def __init__(self, game: Game, seat: int) -> None:
        self._game = game
        self.seat = seat

    def __call__(self, with_events: bool = True) -> dict[str, Any]:
        """The seat's view (:meth:`Game.view`)."""
        return self._game.view(self.seat, with_events=with_events)

    def determinise(self, rng: random.Random, known: Shell | EllipsisType | None = ...) -> Game:
        """A copy of the game with what the seat may not know drawn by ``rng``."""
        return determinise(self._game, self.seat, rng, known)

    def known_first_shell(self) -> Shell | None:
        """The chamber's first shell as the seat has seen it (:func:`known_first_shell`)."""
        return known_first_shell(self._game, self.seat)


# --- the rollout policy -----------------------------------------------------------------------

_DISCARD_FIRST = (
    Item.PEEKING_GLASS,
    Item.EJECTING_DRINK,
    Item.INVERTER,
    Item.PICKPOCKET,
    Item.RAGE_POTION,
    Item.EXPIRED_PILLS,
    Item.AMULET,
    Item.MILK_TEA,
)
"""The rollout policy's order of items to give up (discards, a Magician's payment); a kind
not listed (one the policy was not taught) is given up first."""
_GIVE_UP_RANK = {item: place for place, item in enumerate(_DISCARD_FIRST)}


class Rollout:
    """A fast policy playing every seat of a determinised game for a few turns.

    It reads only public facts of the copy (seats, the counts of shells) and, for each seat,
    the first shell that seat has seen in this future (by its own peek), so that peeking
    has the worth it has for a player.
    """

    def __init__(self, world: Game, rng: random.Random, known: dict[int, Shell]) -> None:
        self.world = world
        self.rng = rng
        self.known = known

    def run(self, turns: int, decisions: int) -> None:
        """Play until the game ends, ``turns`` turns have begun after this one, or
        ``decisions`` decisions are taken."""
        world = self.world
        last_turn = world.state.turn + turns - 1
        for _ in range(decisions):
            prompt = world.prompt
            if prompt is None or world.state.turn > last_turn:
                return
            self.step(prompt)

    def step(self, prompt: Prompt) -> None:
        """Answer ``prompt`` by the policy and follow what its seats learn."""
        options = prompt.options
        if len(options) == 1:
            option = options[0]
        elif self.rng.random() < ROLLOUT_RANDOMNESS:
            option = options[self.rng.randrange(len(options))]
        else:
            option = self.choose(prompt)
        self.apply(prompt.player, option)

    def apply(self, player: int, option: Option) -> None:
        """Take ``option`` for ``player`` in the copy; a peek teaches its user the first
        shell, an inverter flips what everyone has seen, a spent shell forgets it."""
        world = self.world
        before = len(world.state.shells)
        world.decide(player, option)
        if option.event == "use_item":
            item = option.kwargs()["item"]
            if item is Item.PEEKING_GLASS:
                self.known[player] = world.state.shells[0]
            elif item is Item.INVERTER:
                self.known = {seat: _other(shell) for seat, shell in self.known.items()}
        if len(world.state.shells) != before:
            self.known = {}

    def _live_chance(self, player: int) -> float:
        known = self.known.get(player)
        counts = self.world.public_counts()
        if known is not None:
            chance = 1.0 if known is Shell.LIVE else 0.0
        elif counts["shells_left"]:
            chance = counts["live_left"] / counts["shells_left"]
        else:
            return 0.0
        return chance if counts["pending_flips"] % 2 == 0 else 1.0 - chance

    def choose(self, prompt: Prompt) -> Option:
        """The policy's option for ``prompt``."""
        options = prompt.options
        events = {option.event: option for option in options}
        if prompt.kind == "rescue":
            return next((o for o in options if o.event == "use_rescue"), events["give_up"])
        if prompt.kind == "discard":
            return min(options, key=lambda o: _GIVE_UP_RANK.get(o.kwargs()["item"], -1))
        if prompt.kind in ("shot_response", "counter_response"):
            return self._respond(prompt)
        if prompt.kind == "main_action":
            return self._act(prompt)
        return options[self.rng.randrange(len(options))]

    def _respond(self, prompt: Prompt) -> Option:
        shot = self.world.state.shot
        flips = [o for o in prompt.options if o.event == "flip_shell"]
        passes = [o for o in prompt.options if o.event != "flip_shell"]
        mine = shot is not None and shot.target == prompt.player
        if flips and mine and self._live_chance(prompt.player) > 0.5:
            return min(flips, key=_payment_cost)
        return passes[0] if passes else prompt.options[0]

    def _act(self, prompt: Prompt) -> Option:
        player = prompt.player
        seats = self.world.state.seats
        me = seats[player]
        items: dict[Item, list[Option]] = {}
        shots: dict[int, Option] = {}
        end: Option | None = None
        for option in prompt.options:
            if option.event == "use_item":
                items.setdefault(option.kwargs()["item"], []).append(option)
            elif option.event == "shoot":
                shots[option.kwargs()["target"]] = option
            elif option.event == "end_main":
                end = option
        counts = self.world.public_counts()
        live = self._live_chance(player)
        others = [s for s in seats if s.alive and s.seat != player]

        def on_self(item: Item) -> Option | None:
            for option in items.get(item, ()):
                target = option.kwargs()["target"]
                if target is None or target == player:
                    return option
            return None

        hurt = me.hp < self.world.rules.hp.max
        if hurt and (tea := on_self(Item.MILK_TEA)):
            return tea
        if me.shield == 0 and (amulet := on_self(Item.AMULET)):
            return amulet
        unsure = counts["shells_left"] and player not in self.known and 0.0 < live < 1.0
        if unsure and (glass := on_self(Item.PEEKING_GLASS)):
            return glass
        if Item.PICKPOCKET in items and me.total_items() < me.hp:
            richest = max(others, key=lambda s: (s.total_items(), -s.seat))
            for option in items[Item.PICKPOCKET]:
                if option.kwargs()["target"] == richest.seat:
                    return option
        if live < 0.5 and shots and (inverter := on_self(Item.INVERTER)) and live < 0.35:
            return inverter
        if 0.35 <= live <= 0.65 and (drink := on_self(Item.EJECTING_DRINK)):
            return drink
        if live > 0.5 and me.rage == 0 and shots and (rage := on_self(Item.RAGE_POTION)):
            return rage
        if me.hp <= 1 and (pills := on_self(Item.EXPIRED_PILLS)):
            return pills
        if not shots:
            if end is not None:
                return end
            return prompt.options[self.rng.randrange(len(prompt.options))]
        if live < 0.5 and player in shots:
            return shots[player]
        targets = [s for s in others if s.seat in shots]
        if not targets:
            return shots[player]
        weakest = min(targets, key=lambda s: (s.hp + s.shield, self.rng.random()))
        return shots[weakest.seat]


def _payment_cost(option: Option) -> int:
    paid: tuple[Item, ...] = option.kwargs()["items"]
    return sum(len(_DISCARD_FIRST) - _GIVE_UP_RANK.get(item, -1) for item in paid)


# --- scoring ------------------------------------------------------------------------------------


def score(world: Game, seat: int) -> float:
    """How good ``world`` is for ``seat``, in [0, 1]: 1 for a win and 0 for a loss once it is
    over (a draw shares one win among the living); before then the seat's share of the
    table's strength (HP, shield, rage, items; a traitor's kills towards a win, S5.1)."""
    state = world.state
    if state.winners is not None:
        if state.winners:
            return 1.0 if seat in state.winners else 0.0
        living = [s.seat for s in state.seats if s.alive]
        return 1.0 / len(living) if seat in living else 0.0
    kills_to_win = world.rules.traitor.kills_to_win

    def strength(s: Any) -> float:
        if not s.alive:
            return 0.0
        value = s.hp + 0.8 * s.shield + 0.3 * s.rage + 0.3 * s.total_items()
        if s.traitor:
            value *= 1.0 + s.kills / max(1, kills_to_win)
        return float(value)

    total = sum(strength(s) for s in state.seats)
    return strength(state.seats[seat]) / total if total else 0.0


# --- the agent ----------------------------------------------------------------------------------

Determinise = Callable[[random.Random], "Game"]
"""Draws a copy of the game as the asked seat may know it."""


class SearchAgent:
    """Chooses by determinised Monte Carlo search over the options of its seat (R14-safe)."""

    needs_events = True
    """The agent learns its peeks and previews from the log: its games must record events."""

    def __init__(
        self,
        seed: int = 0,
        iterations: int = DEFAULT_ITERATIONS,
        turns: int = DEFAULT_TURNS,
        decisions: int = DEFAULT_DECISIONS,
    ) -> None:
        self._rng = random.Random(seed)
        self.iterations = iterations
        self.turns = turns
        self.decisions = decisions

    def choose(self, prompt: Prompt, view: Any) -> Option:
        """The option whose futures were tried most often; the only one when there is one.

        ``view`` must be a :class:`SeatView` (as :func:`~buckshot.reference.agents.play_out`
        gives), whose determinisations the search plays.
        """
        options = prompt.options
        if len(options) == 1:
            return options[0]
        if not isinstance(view, SeatView):
            raise TypeError("the search agent needs a SeatView to draw determinisations")
        known = view.known_first_shell()  # read once: the game stands still while searching
        return self.search(prompt, lambda rng: view.determinise(rng, known), known is not None)

    def search(self, prompt: Prompt, draw: Determinise, knows_first: bool = False) -> Option:
        """The most visited of ``prompt``'s options after ``iterations`` futures by UCB1;
        ``knows_first``: the asked seat has seen the first shell, as each future keeps."""
        rng = self._rng
        options = prompt.options
        seat = prompt.player
        visits = [0] * len(options)
        totals = [0.0] * len(options)
        for played in range(self.iterations):
            world = draw(rng)
            if played < len(options):
                index = played
            else:
                log_n = math.log(played)
                index = max(
                    range(len(options)),
                    key=lambda i: (
                        totals[i] / visits[i] + EXPLORATION * math.sqrt(log_n / visits[i])
                    ),
                )
            known: dict[int, Shell] = {}
            if knows_first and world.state.shells:
                shot = world.state.shot
                known[seat] = shot.initial if shot is not None else world.state.shells[0]
            rollout = Rollout(world, rng, known)
            rollout.apply(seat, options[index])
            rollout.run(self.turns, self.decisions)
            visits[index] += 1
            totals[index] += score(world, seat)
        best = max(range(len(options)), key=lambda i: (visits[i], totals[i] / max(1, visits[i])))
        return options[best]
