"""The search agent: it only ever chooses a legal option, it decides from what its seat may
know (R14: the chamber's order is hidden, a peek is its user's alone, S3.1), and over a few
games it uses every item kind of S3.

The hidden-facts tests build two games that show the asked seat the same view but differ
in what it may not know (the chamber's order, the chance source) and ask the same seeded
agent in both.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from typer.testing import CliRunner

from buckshot.cli.main import app
from buckshot.reference.agents import AGENTS, RandomAgent, ViewFn, play_out
from buckshot.reference.chance import SeededChance
from buckshot.reference.game import Game, Prompt
from buckshot.reference.options import Option
from buckshot.reference.search import SearchAgent, SeatView, determinise, known_first_shell
from buckshot.reference.simulate import play_one
from buckshot.spec.rulebook import Item, Role, Shell
from buckshot.spec.ruleset import load_ruleset

ROLES = [Role.GAMBLER, Role.MEDIC, Role.DEALER, Role.MERCENARY]
NO_DEALER = [Role.GAMBLER, Role.MEDIC, Role.DOCTOR, Role.MERCENARY]
"""A table where nobody is shown a shell by a role (S2.3)."""


def _main_action(seed: int, roles: list[Role] = ROLES) -> Game:
    """A recorded game played by random bots up to a main action with a choice, while the
    chamber holds at least one live and one blank shell (so its order is a hidden fact)."""
    game = Game.new(roles, chance=SeededChance(seed))
    bots = [RandomAgent(seed * 10 + seat) for seat in range(len(roles))]
    while not game.over:
        prompt = game.prompt
        assert prompt is not None
        counts = game.public_counts()
        if (
            prompt.kind == "main_action"
            and len(prompt.options) > 2
            and counts["live_left"]
            and counts["blank_left"]
            and game.state.shot is None
        ):
            return game
        game.decide(prompt.player, bots[prompt.player].choose(prompt, SeatView(game, 0)))
    raise AssertionError("no main action with a mixed chamber")


def _hidden_changed(game: Game, keep_first: bool) -> Game:
    """The same game with the chamber's order and the chance source changed (the first
    shell kept when ``keep_first``): what no seat may know without a peek (R14)."""
    other = Game.restore(game.snapshot())
    shells = list(other.state.shells)
    start = 1 if keep_first else 0
    rest = shells[start:]
    for attempt in range(50):
        random.Random(attempt).shuffle(rest)
        if shells[:start] + rest != shells:
            break
    other.state.shells = shells[:start] + rest
    other.chance = SeededChance(424242)
    return other


def test_the_agent_chooses_only_legal_options() -> None:
    class Checked:
        def __init__(self, seed: int) -> None:
            self.agent = SearchAgent(seed, iterations=6)
            self.chosen = 0

        def choose(self, prompt: Prompt, view: ViewFn) -> Option:
            option = self.agent.choose(prompt, view)
            assert option in prompt.options
            self.chosen += 1
            return option

    for seed, players in ((1, 2), (2, 5)):
        rng = random.Random(seed)
        roles = [rng.choice(list(Role)) for _ in range(players)]
        game = Game.new(roles, chance=SeededChance(seed))
        bots = [Checked(seed * 10 + seat) for seat in range(players)]
        play_out(game, bots)
        assert game.over
        assert sum(bot.chosen for bot in bots) > 0


@pytest.mark.parametrize("seed", [3, 8, 21])
def test_the_choice_does_not_depend_on_hidden_facts(seed: int) -> None:
    game = _main_action(seed)
    prompt = game.prompt
    assert prompt is not None
    seat = prompt.player
    other = _hidden_changed(game, keep_first=known_first_shell(game, seat) is not None)
    assert other.state.shells != game.state.shells or len(game.state.shells) < 2
    assert other.view(seat) == game.view(seat)
    first = SearchAgent(7, iterations=24).choose(prompt, SeatView(game, seat))
    second = SearchAgent(7, iterations=24).choose(prompt, SeatView(other, seat))
    assert first == second
    for draw in range(5):
        one = determinise(game, seat, random.Random(draw)).state
        two = determinise(other, seat, random.Random(draw)).state
        assert one.shells == two.shells
        assert one.to_json() == two.to_json()


def test_a_determinisation_keeps_the_public_counts_and_hides_the_order() -> None:
    game = _main_action(3)
    seat = game.state.owner
    orders = set()
    for draw in range(40):
        world = determinise(game, seat, random.Random(draw))
        assert world.public_counts() == game.public_counts()
        assert world.prompt == game.prompt
        orders.add(tuple(world.state.shells))
    assert len(orders) > 1


def test_a_peek_is_kept_by_its_user_alone() -> None:
    game = _main_action(5, NO_DEALER)
    seat = game.state.owner
    seen = game.state.shells[0]
    game.state.seats[seat].add(Item.PEEKING_GLASS)
    game.decide(seat, f"use_item:item={Item.PEEKING_GLASS.value}")
    assert known_first_shell(game, seat) is seen
    others = [s.seat for s in game.state.seats if s.alive and s.seat != seat]
    assert all(known_first_shell(game, other) is None for other in others)
    for draw in range(20):
        assert determinise(game, seat, random.Random(draw)).state.shells[0] is seen
    if game.public_counts()["live_left"] and game.public_counts()["blank_left"]:
        firsts = {determinise(game, others[0], random.Random(d)).state.shells[0] for d in range(40)}
        assert firsts == {Shell.LIVE, Shell.BLANK}


def test_an_inverter_flips_what_a_peek_showed() -> None:
    game = _main_action(5)
    seat = game.state.owner
    seen = game.state.shells[0]
    seat_of = game.state.seats[seat]
    seat_of.add(Item.PEEKING_GLASS)
    seat_of.add(Item.INVERTER)
    game.decide(seat, f"use_item:item={Item.PEEKING_GLASS.value}")
    game.decide(seat, f"use_item:item={Item.INVERTER.value}")
    flipped = Shell.BLANK if seen is Shell.LIVE else Shell.LIVE
    assert known_first_shell(game, seat) is flipped


def test_a_dealer_knows_the_first_shell_of_a_fresh_load() -> None:
    game = Game.new([Role.DEALER, Role.GAMBLER, Role.MEDIC], chance=SeededChance(2))
    assert known_first_shell(game, 0) is game.state.shells[0]
    assert known_first_shell(game, 1) is None


def test_the_search_agent_is_in_the_registry() -> None:
    assert isinstance(AGENTS["search"](1), SearchAgent)


@pytest.mark.slow
def test_the_agent_uses_every_item_kind() -> None:
    rules = load_ruleset()
    used: Counter[str] = Counter()
    kinds = {item.value for item in Item}
    for seed in range(8):  # stops at the first game by which every kind is used (today, 2)
        used.update(play_one(rules, 4, seed, "search").items_used)
        if kinds <= {kind for kind, count in used.items() if count}:
            break
    assert kinds <= {kind for kind, count in used.items() if count}


@pytest.mark.parametrize(
    "command",
    [
        ["simulate", "--games", "1"],
        ["compare", "default", "default", "--no-verify"],
        ["sweep", "--param", "magician.cost=1"],
        ["play"],
    ],
)
def test_every_command_with_bots_knows_the_agents_by_one_list(command: list[str]) -> None:
    result = CliRunner().invoke(app, [*command, "--agent", "nobody"])
    assert result.exit_code == 2, result.output
    assert "error [usage.agent]" in result.output
    assert all(name in result.output for name in AGENTS)


def test_simulate_seats_the_search_agent() -> None:
    args = ["simulate", "--games", "1", "--players", "2", "--agent", "search", "--jobs", "1"]
    result = CliRunner().invoke(app, [*args, "--quiet"])
    assert result.exit_code == 0, result.output
    assert "search bots" in result.output


def test_a_declared_shot_s_shell_is_drawn_and_flipped_as_publicly_known() -> None:
    # S4.2.1a: the declared shot locks the chamber's first shell; S2.6, R8, R14: every flip
    # is public, the type is not, so the drawn shell is the drawn first one flipped per flip
    checked = odd = 0
    for seed in range(12):
        game = Game.new([Role.MAGICIAN, Role.MAGICIAN, Role.GAMBLER], chance=SeededChance(seed))
        bots = [RandomAgent(seed * 10 + seat) for seat in range(3)]
        while not game.over and checked < 40:
            prompt = game.prompt
            assert prompt is not None
            shot = game.state.shot
            if shot is not None:
                for draw in range(3):
                    world = determinise(game, prompt.player, random.Random(draw))
                    drawn = world.state.shot
                    assert drawn is not None
                    assert world.public_counts() == game.public_counts()
                    assert drawn.shell is world.state.shells[0]
                    flipped = drawn.initial is not drawn.shell
                    assert flipped == (shot.flips % 2 == 1)
                    assert (drawn.shooter, drawn.target, drawn.flips) == (
                        shot.shooter,
                        shot.target,
                        shot.flips,
                    )
                checked += 1
                odd += shot.flips % 2
                for seat in game.state.seats:  # every Magician can pay for a flip (R8)
                    if seat.alive and seat.seat != prompt.player:
                        seat.add(Item.AMULET, 2)
            flips = [o for o in prompt.options if o.event == "flip_shell"]
            chosen = flips[0] if flips else bots[prompt.player].choose(prompt, SeatView(game, 0))
            game.decide(prompt.player, chosen)
    assert checked >= 40 and odd
