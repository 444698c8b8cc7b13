"""The greedy choice of model paths that together reach every goal, table size by table size.

Each round plays a few seeded random games of the model and keeps the one whose shortest
useful prefix adds the most goals not yet reached; rounds stop when none adds any. Then, for
the guard outcomes only a refused decision shows (a guard false on a decision), a prefix of
a kept path is ended with such a decision.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from buckshot.conformance.modelcases.goals import impossible_at
from buckshot.conformance.modelcases.paths import (
    Path,
    best_prefix,
    pending,
    probes,
    step_goals,
    walk,
)

GAMES_PER_ROUND = 8
"""Random games tried per round."""
PATIENCE = 3
"""Rounds in a row that add nothing before the search stops."""
MAX_STEPS = 250
"""Steps of one random game at most."""
ROTATION = ("default", "quick", "default", "short")
"""The rulesets (:data:`.paths.PATCHES`) of successive games."""


def played_paths(n: int, seed: int) -> list[Path]:
    """Paths of ``n`` players whose prefixes reach every goal the random games find."""
    rng = random.Random(f"{seed}:{n}")
    covered: set[str] = set(impossible_at(n))
    chosen: list[Path] = []
    idle = 0
    game_no = 0
    while idle < PATIENCE:
        best: tuple[Path, set[str]] | None = None
        for _ in range(GAMES_PER_ROUND):
            game_no += 1
            patch = ROTATION[game_no % len(ROTATION)]
            found = best_prefix(walk(patch, n, rng, MAX_STEPS), covered)
            if found is None:
                continue
            if best is None or (len(found[1]), -len(found[0].steps)) > (
                len(best[1]),
                -len(best[0].steps),
            ):
                best = found
        if best is None:
            idle += 1
            continue
        idle = 0
        chosen.append(best[0])
        covered |= best[1]
    return chosen


def probe_paths(paths: Sequence[Path], covered: set[str]) -> list[Path]:
    """Prefixes of ``paths`` ended with a refused decision, each reaching a guard outcome not
    in ``covered`` (shortest prefix first)."""
    found: list[Path] = []
    reached = set(covered)
    states = [
        (cut, number, path, s)
        for number, path in enumerate(paths)
        for cut, s in enumerate([path.start(), *(step.after for step in path.steps)])
        if pending(path.spec, s) and not path.spec.is_terminal(s)
    ]
    for cut, _, path, s in sorted(states, key=lambda entry: entry[:2]):
        for probe in probes(path.spec, s):
            fresh = step_goals(path.spec, s, probe) - reached
            if fresh:
                found.append(Path(path.patch, path.roles, path.steps[:cut], probe))
                reached |= fresh
    return found


__all__ = ["played_paths", "probe_paths"]
