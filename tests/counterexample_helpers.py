"""A counterexample document built from a random walk of the executable spec: well formed
(the reference engine follows it), for tests that tamper with it. It names an enabledness
property (A1): the replay checks that the model takes the path, but cannot check from the
document alone that the model refuses a decision at its end, so the walk is accepted."""

from __future__ import annotations

import random
from typing import Any

from buckshot.spec.ruleset import load_ruleset
from buckshot.verification.engine.counterexample import FORMAT
from buckshot.verification.model.executable import ExecutableSpec
from buckshot.verification.model.layout import ROLES
from buckshot.verification.model.state import to_json


def walk_document(
    spec: ExecutableSpec | None = None, steps: int = 6, property_id: str = "A1"
) -> dict[str, Any]:
    """A ``buckshot-counterexample/1`` document of a two-seat random walk (seed 0), a path
    from a game's start, naming ``property_id``."""
    spec = spec if spec is not None else ExecutableSpec(load_ruleset())
    walk = spec.random_game(2, random.Random(0), max_steps=steps)
    start = walk[0].before
    return {
        "format": FORMAT,
        "property": property_id,
        "kind": "bounded",
        "ruleset": spec.cfg.ruleset.to_dict(),
        "players": 2,
        "roles": [ROLES[start.role[p]].value for p in range(2)],
        "start": to_json(start),
        "steps": [
            {
                "edge": s.edge.edge.id,
                "input": to_json(s.input),
                "after": to_json(s.after),
            }
            for s in walk
        ],
    }
