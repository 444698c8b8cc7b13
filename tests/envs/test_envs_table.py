"""The table between actions: what a seat knows is the spec's fold of the events it may see,
however the steps were taken and observed."""

from __future__ import annotations

import pickle
import random

from buckshot.envs.table import Setup, Table, Trail, default_roles
from buckshot.spec.eventlog import LogEvent
from buckshot.spec.ruleset import load_ruleset
from buckshot.spec.views import seat_view


def _events(trail: Trail) -> list[LogEvent]:
    """Every event the trail's steps wrote, oldest first."""
    steps = []
    point: Trail | None = trail
    while point is not None:
        steps.append(point.events)
        point = point.parent
    return [event for events in reversed(steps) for event in events]


def test_a_seats_knowledge_is_the_fold_of_what_it_may_see() -> None:
    rng = random.Random(4)
    setup = Setup.of(load_ruleset(), default_roles(3))
    table = Table(setup)
    steps = 0
    while not table.over and steps < 400:
        if table.draw is not None:
            table.chance(rng.choice([outcome for outcome, _ in table.chances()]))
        else:
            table.act(rng.choice(table.legal()))
        steps += 1
        if rng.random() < 0.1:  # observed now and then: the fold resumes from there
            seat = rng.randrange(3)
            trail = table.settled.trail
            expected = seat_view(_events(trail), seat)
            known = table.settled.trail.known(seat)
            assert known.first_shell == expected.first_shell
            assert (known.shells, known.live, known.shot, known.flips) == (
                expected.shells,
                expected.live,
                expected.shot,
                expected.flips,
            )
            assert known.seats == expected.seats


def test_a_pickled_table_goes_on_as_the_original() -> None:
    rng = random.Random(9)
    table = Table(Setup.of(load_ruleset(), default_roles(4)))
    for _ in range(60):
        if table.draw is not None:
            table.chance(rng.choice([outcome for outcome, _ in table.chances()]))
        else:
            table.act(rng.choice(table.legal()))
    again = pickle.loads(pickle.dumps(table))
    for _ in range(200):
        if table.over:
            break
        assert again.legal() == table.legal() and again.chances() == table.chances()
        move = rng.choice(table.legal() or [outcome for outcome, _ in table.chances()])
        table.step(move)
        again.step(move)
        for seat in range(4):
            assert again.settled.trail.record(seat) == table.settled.trail.record(seat)
            assert again.settled.view(seat) == table.settled.view(seat)
