"""The one fold of event logs (spec/views.py): the whole table's view and each seat's.

Seeded engine games are folded event by event and compared, at every prompt, with the
engine's own state: the seats, the chamber, the owner, the kill lock, the stack and the
result for the whole table; for each seat, the events it may see (R14) and the first shell
it was shown (a Dealer's preview, a peek), through inversions and Magicians' flips.
Single events that contradict the view are problems, folded as far as they go.
"""

from __future__ import annotations

import random
from functools import partial
from typing import Any

import pytest

from buckshot.reference.agents import HeuristicAgent
from buckshot.reference.chance import SeededChance
from buckshot.reference.events import log_event
from buckshot.reference.game import Game
from buckshot.spec.eventlog import LogEvent
from buckshot.spec.rulebook import Role
from buckshot.spec.views import TableView, fold_table, seat_view, visible_to


def _event(type_: str, **data: Any) -> LogEvent:
    return LogEvent(0, 1, 1, 1, type_, None, data)


def _whole(table: TableView, game: Game) -> None:
    """The whole table's view agrees with the engine's state."""
    state = game.state
    for seat in state.seats:
        view = table.seats[seat.seat]
        assert (view.hp, view.alive, view.traitor, view.shield, view.rage, view.kills) == (
            seat.hp,
            seat.alive,
            seat.traitor,
            seat.shield,
            seat.rage,
            seat.kills,
        )
        assert view.items == {item.value: n for item, n in seat.items.items()}
        assert view.role == seat.role.value
    assert table.owner == state.owner and table.turns_started == state.turn
    assert table.kill_lock == state.kill_lock
    assert table.shells == len(state.shells)
    if state.shot is None:
        assert table.shot is None
        assert table.live == sum(shell.value == "live" for shell in state.shells)
    else:
        assert table.shot == (state.shot.shooter, state.shot.target)
        assert table.flips == state.shot.flips
    assert [(f.id, f.kind, f.state) for f in table.stack] == [
        (f.id, f.kind.value, f.state) for f in state.stack
    ]
    assert table.over == state.over
    if state.winners is not None:
        assert table.winners == tuple(state.winners) and table.reason == state.end_reason


def _knows(table: TableView, seat: int, game: Game) -> int:
    """What ``seat`` was shown of the chamber is so; 1 when it knows the first shell."""
    state = game.state
    assert set(table.first_shell) <= {seat}
    assert all(seat in (e.visibility or ()) for e in table.shown.get(seat, ()))
    loaded = table.first_shell.get(seat)
    if loaded is None:
        return 0
    if state.shot is None:
        assert loaded == state.shells[0].value
    else:
        assert loaded == state.shot.initial.value
        assert table.shot_shell(seat) == state.shot.shell.value
    return 1


@pytest.mark.parametrize("seed", [1, 4, 9])
@pytest.mark.slow
def test_the_views_agree_with_the_engine_at_every_prompt(seed: int) -> None:
    rng = random.Random(seed)
    players = rng.randint(4, 7)
    roles = [Role.DEALER, Role.MAGICIAN, Role.MAGICIAN] + [
        rng.choice(list(Role)) for _ in range(players - 3)
    ]
    game = Game.new(roles, chance=SeededChance(seed))
    agents = [HeuristicAgent(seed * 10 + n) for n in range(players)]
    whole = TableView()
    seats = [TableView() for _ in range(players)]
    seen, known = 0, 0
    while True:
        for event in map(log_event, game.events[seen:]):
            assert whole.observe(event) is None, event
            for number, view in enumerate(seats):
                if visible_to(event, number):
                    assert view.observe(event) is None, event
        seen = len(game.events)
        _whole(whole, game)
        for number, view in enumerate(seats):
            assert view.seats == whole.seats and view.stack == whole.stack
            assert [e.seq for e in view.shown.get(number, ())] == [
                e.seq for e in whole.shown.get(number, ())
            ]
            known += _knows(view, number, game)
        if game.over:
            break
        prompt = game.prompt
        assert prompt is not None
        game.decide(
            prompt.player, agents[prompt.player].choose(prompt, partial(game.view, prompt.player))
        )
    assert known > 0, "no seat was ever shown a shell"
    log = [log_event(e) for e in game.events]
    for number in range(players):  # the events a seat may see are those the engine shows it
        shown = game.view(number)["events"]
        assert [e.seq for e in log if visible_to(e, number)] == [e["seq"] for e in shown]
    assert fold_table(log).seats == whole.seats
    assert seat_view(log, 0).first_shell == seats[0].first_shell


def test_a_first_shell_shown_is_kept_through_flips_and_inversions() -> None:
    table = TableView()
    for event in (
        _event("chamber_loaded", live=1, blank=2),
        LogEvent(1, 2, 2, 1, "peek", (1,), {"player": 1, "shell": "blank"}),
        _event("chamber_inverted", player=1),
        _event("shot_declared", shooter=1, target=0),
        _event("shell_flipped", by=2, items=[]),
    ):
        assert table.observe(event) is None
    assert table.first_shell == {1: "live"}  # as loaded, after the inversion (S3.8)
    assert table.shot_shell(1) == "blank" and table.shot_shell(0) is None  # flipped (S2.6)
    assert table.observe(_event("shot_fired", shooter=1, target=0, shell="blank")) is None
    assert table.first_shell == {} and (table.shells, table.live) == (2, 1)


@pytest.mark.parametrize(
    ("event", "problem"),
    [
        (_event("hp_changed", player=0, hp=2, delta=-1), "seat 0 had 4 HP; -1 does not make 2"),
        (_event("item_used", player=0, item="amulet"), "seat 0 holds 0 amulet, not 1"),
        (_event("shield_gained", player=0, blocks=1, shield=2), "0 blocks + 1 do not make 2"),
        (_event("frame_popped", kind="turn", depth=1), "pops a turn at depth 1; the top is turn"),
        (_event("shot_fired", shooter=0, target=0, shell="live"), "no live shell is left"),
        (_event("turn_ended", owner=1), "the turn of seat 1 ends; the owner is 0"),
    ],
)
def test_an_event_that_contradicts_the_view_is_a_problem(event: LogEvent, problem: str) -> None:
    table = TableView()
    for before in (
        _event("game_started", seats=[{"seat": 0, "role": "medic", "hp": 4}]),
        _event("turn_started", owner=0),
        _event("frame_pushed", frame_id=1, kind="turn", depth=1, player=None),
    ):
        assert table.observe(before) is None
    found = table.observe(event)
    assert found is not None and problem in found
