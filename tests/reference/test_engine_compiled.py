"""The compiled program equals the tables: at every step of random games it takes the first
branch the tables say passes, and offers exactly the options the tables' guards allow, in
the canonical order; the hooked and the inline program play the same games; a change to
the tables is compiled in.

The options are checked against a brute-force list of every parameter value a decision
can carry (every seat, every item, every multiset of items), not against the engine's own
enumerators, so a candidate the enumerator forgets is caught.
"""

from __future__ import annotations

import dataclasses
import json
import random
import re
from collections.abc import Iterator, Mapping
from itertools import combinations_with_replacement
from typing import Any

from engine_invariants import variant

from buckshot.reference import compiled
from buckshot.reference.chance import SeededChance
from buckshot.reference.game import Game
from buckshot.reference.observe import GameObserver
from buckshot.reference.options import PARAMS_OF, Option
from buckshot.reference.state import ITEM_ORDER, Frame
from buckshot.reference.tables import TABLES, Edge
from buckshot.spec.rulebook import FrameKind, Role
from buckshot.spec.ruleset import Ruleset, load_ruleset

RULESETS: tuple[Ruleset, ...] = (
    load_ruleset(),
    variant(hp=(2, 4)),
    variant(magician_cost=1, hp=(3, 5)),
    variant(kills_to_win=1),
    variant(max_stack_depth=2),
    variant(max_turns=6),
)


def _passes(game: Game, edge: Edge, params: Mapping[str, Any]) -> bool:
    return all(fn(game, params) is expected for _, fn, expected in edge.guards)


def _every_option(event: str, seats: int, cost: int) -> Iterator[Option]:
    """Every value the decision's parameters can take, in the canonical option order."""
    shape = PARAMS_OF[event]
    if shape == ():
        yield Option(event)
    elif shape == ("target",):
        for seat in range(seats):
            yield Option(event, (("target", seat),))
    elif shape == ("item", "target"):
        for item in ITEM_ORDER:
            yield Option(event, (("item", item),))
            for seat in range(seats):
                yield Option(event, (("item", item), ("target", seat)))
    elif shape == ("item",):
        for item in ITEM_ORDER:
            yield Option(event, (("item", item),))
    else:
        assert shape == ("items",)
        for combo in combinations_with_replacement(ITEM_ORDER, cost):
            yield Option(event, (("items", combo),))


def legal_options(game: Game) -> list[Option]:
    """The options the tables allow in the top frame's state, read from the tables alone."""
    frame = game.state.stack[-1]
    row = TABLES[frame.kind].states[frame.state]
    seats, cost = len(game.state.seats), game.rules.magician.cost
    return [
        option
        for event, edges in row.edges.items()
        for option in _every_option(event, seats, cost)
        if any(_passes(game, edge, option.kwargs()) for edge in edges)
    ]


class TablesChecker(GameObserver):
    """Checks every transition of a game against the tables (an observed game runs the
    hooked program)."""

    def __init__(self) -> None:
        self.taken: list[str] = []

    def before_transition(
        self, game: Game, frame: Frame, edge: Edge, params: Mapping[str, Any]
    ) -> None:
        row = TABLES[frame.kind].states[frame.state]
        assert edge.event in row.edges, f"{edge.id} does not leave {frame.state}"
        first = next(e for e in row.edges[edge.event] if _passes(game, e, params))
        assert edge is first, f"took {edge.id}, the tables say {first.id}"
        self.taken.append(edge.id)


def _play(rules: Ruleset, players: int, seed: int, observer: GameObserver | None = None) -> Game:
    rng = random.Random(seed)
    roles = [rng.choice(list(Role)) for _ in range(players)]
    game = Game(rules, roles, SeededChance(seed), observer=observer)
    game.start()
    while (prompt := game.prompt) is not None:
        frame = game.state.stack[-1]
        row = TABLES[frame.kind].states[frame.state]
        assert row.asked is not None
        assert (prompt.player, prompt.kind) == (row.asked(game), row.prompt_kind)
        assert list(prompt.options) == legal_options(game)
        game.decide(prompt.player, rng.choice(prompt.options))
    return game


def test_the_program_takes_the_tables_branches_and_offers_their_options() -> None:
    taken: set[str] = set()
    for rules in RULESETS:
        for seed in range(6):
            checker = TablesChecker()
            _play(rules, 2 + seed % 7, seed, checker)
            taken.update(checker.taken)
    every = {
        edge.id
        for table in TABLES.values()
        for row in table.states.values()
        for edges in row.edges.values()
        for edge in edges
    }
    # no role of S2 has a counter skill (R18): the counter responses are unreachable
    unreachable = {edge for edge in every if "counter" in edge}
    unreachable.add("shot_window:responded:after_response:0")  # guarded by counter_possible
    assert every - taken == unreachable


def test_the_inline_program_plays_the_same_games_as_the_hooked_one() -> None:
    for seed in range(20):
        rules = RULESETS[seed % len(RULESETS)]
        checker = TablesChecker()
        hooked = _play(rules, 2 + seed % 7, seed, checker)
        inline = _play(rules, 2 + seed % 7, seed)
        assert checker.taken  # the observed game ran the hooked program
        assert json.dumps(inline.snapshot()) == json.dumps(hooked.snapshot())


def test_a_change_to_the_tables_is_compiled_in() -> None:
    before = compiled.program()
    assert compiled.program() is before
    row = TABLES[FrameKind.TURN].states["awaiting_action"]
    original = row.edges["end_main"]
    try:
        row.edges["end_main"] = tuple(
            dataclasses.replace(e, guards=(), static_guards=(), param_guards=()) for e in original
        )
        changed = compiled.program()
        assert changed is not before
        assert _can_shoot_tests(changed) == 1
    finally:
        row.edges["end_main"] = original
    assert _can_shoot_tests(compiled.program()) == 2


def _can_shoot_tests(program: compiled.Program) -> int:
    """How many events the main phase's prompt offers by the can_shoot guard's value (the
    guard called in the test, or once into a local that the tests read)."""
    return len(
        re.findall(r"can_shoot(?:\(g, NO_PARAMS\))? is (?:True|False)", _ask_source(program))
    )


def _ask_source(program: compiled.Program) -> str:
    """The generated prompt function of the main phase's decision."""
    source = program.source
    start = source.index("def ask__turn__awaiting_action(")
    return source[start : source.index("\ndef ", start)]


def _answers(game: Game, guard: Any, events: list[str]) -> tuple[bool, ...]:
    seats, cost = len(game.state.seats), game.rules.magician.cost
    return tuple(
        guard(game, option.kwargs())
        for event in events
        for option in _every_option(event, seats, cost)
    )


def test_a_guards_needs_and_reads_say_what_its_answers_depend_on() -> None:
    """effects.NEEDS: where the need fails, the guard refuses every parameter value;
    effects.READS: two positions with the same reads get the same answer for every value
    (what the prompts' shortcuts rely on), over every position of random games. The values
    tried are every value a parameter can carry, for the number of seats and magician.cost."""
    from buckshot.reference.effects import NEEDS, READS

    events_of = {
        fn: [event for event, params in PARAMS_OF.items() if params] for fn in {*NEEDS, *READS}
    }
    seen: dict[Any, dict[Any, tuple[bool, ...]]] = {fn: {} for fn in READS}
    needs_failed = 0
    for seed in range(12):
        rules = RULESETS[seed % len(RULESETS)]
        rng = random.Random(seed)
        game = Game(
            rules, [rng.choice(list(Role)) for _ in range(2 + seed % 7)], SeededChance(seed)
        )
        game.start()
        while (prompt := game.prompt) is not None:
            frame = game.state.stack[-1]
            for fn, need in NEEDS.items():
                if frame.kind is FrameKind.SHOT_WINDOW and not need(game):
                    needs_failed += 1
                    assert not any(_answers(game, fn, events_of[fn]))
            for fn, reads in READS.items():
                answers = _answers(game, fn, events_of[fn])
                assert (
                    seen[fn].setdefault(
                        (len(game.state.seats), rules.magician.cost, reads(game)), answers
                    )
                    == answers
                )
            game.decide(prompt.player, rng.choice(prompt.options))
    assert needs_failed
