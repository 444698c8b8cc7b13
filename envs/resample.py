"""A state drawn from a seat's information set, for information-set search (IS-MCTS;
docs/envs.md, "Search over information sets"): the current load's unspent shells shuffled
again (R14). :func:`resampler` is a callback for OpenSpiel's ``ISMCTSBot.set_resampler``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

from buckshot.envs.openspiel_game import BuckshotState
from buckshot.envs.table import Table, Trail
from buckshot.spec.eventlog import LogEvent
from buckshot.spec.rulebook import Shell
from buckshot.spec.views import FLIPPED, visible_to


def _since_load(trail: Trail, seat: int) -> tuple[tuple[int, int], list[LogEvent]] | None:
    """The current load's (live, blank) and the events ``seat`` saw since; None before one."""
    points: list[Trail] = []
    point: Trail | None = trail
    while point is not None:
        points.append(point)
        loaded = [e for e in point.events if e.type == "chamber_loaded"]
        if loaded:
            last = loaded[-1]
            after = list(point.events[point.events.index(last) + 1 :])
            seen = [e for p in reversed(points[:-1]) for e in p.events]
            events = [e for e in after + seen if visible_to(e, seat)]
            return (last.int_of("live") or 0, last.int_of("blank") or 0), events
        point = point.parent
    return None


def _spent_as_loaded(events: list[LogEvent]) -> tuple[list[str], int]:
    """Each spent shell's type as loaded, in order, and the inversions since (S2.6, S3.8)."""
    spent: list[str] = []
    inversions = flips = 0

    def as_loaded(shell: str) -> str:
        return FLIPPED[shell] if inversions % 2 else shell

    for event in events:
        if event.type == "shot_declared":
            flips = 0
        elif event.type == "shell_flipped":
            flips += 1
        elif event.type == "chamber_inverted":
            inversions += 1
        elif event.type == "shot_fired":
            fired = event.str_of("shell") or ""
            spent.append(as_loaded(FLIPPED[fired] if flips % 2 else fired))
            flips = 0
        elif event.type == "shell_ejected":
            spent.append(as_loaded(event.str_of("shell") or ""))
    return spent, inversions


def _draws(table: Table, order: list[str], live: int, blank: int) -> Iterator[int]:
    """The shuffle's outcomes that load ``order``: one per shell while both types are left."""
    base = table.setup.codes.base("shell")
    for shell in order:
        if not live or not blank:
            return
        yield base + (0 if shell == Shell.LIVE.value else 1)
        live, blank = (live - 1, blank) if shell == Shell.LIVE.value else (live, blank - 1)


def resample(state: BuckshotState, player: int, rng: random.Random) -> BuckshotState:
    """A state of ``player``'s information set at a decision ``state``, drawn with ``rng``;
    its ``history()`` is ``state``'s.
    """
    table = state.table
    if table.draw is not None or table.pending is not None:
        raise ValueError("a state is resampled at a decision, not at a chance node")
    found = _since_load(table.settled.trail, player)
    if found is None or table.over or not all(found[0]):
        # nothing loaded yet, or a load of one type (R1 allows no blanks): one order only
        same: BuckshotState = state.clone()
        return same
    if table.load is None:  # loaded from a pickle: replay the history to find the load
        fresh = state.get_game().new_initial_state()
        for move in state.history():
            fresh.apply_action(move)
        table = fresh.table
        assert table.load is not None
    (live, blank), events = found
    spent, inversions = _spent_as_loaded(events)
    left = [Shell.LIVE.value] * (live - spent.count("live"))
    left += [Shell.BLANK.value] * (blank - spent.count("blank"))
    known = table.settled.trail.known(player).first_shell.get(player)
    head: list[str] = []
    if known is not None and left:  # its type now, so as loaded: undo the inversions
        head = [FLIPPED[known] if inversions % 2 else known]
        left.remove(head[0])
    rng.shuffle(left)
    world = table.load.copy()
    for outcome in _draws(table, spent + head + left, live, blank):
        world.step(outcome)
    for move in table.since_load[table.load_draws :]:
        world.step(move)
    sampled: BuckshotState = state.clone()
    sampled.table = world
    return sampled


def resampler(seed: int) -> Callable[[BuckshotState, int], BuckshotState]:
    """A resampling callback (state, player) -> state with its own seeded generator."""
    rng = random.Random(seed)
    return lambda state, player: resample(state, player, rng)
