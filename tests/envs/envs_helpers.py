"""What the environment tests share: a ruleset variant file, and seeded random play."""

from __future__ import annotations

import random
from importlib.resources import files
from pathlib import Path
from typing import Any

from buckshot.spec.ruleset import Ruleset, load_ruleset

VARIANT_PATCH: dict[str, object] = {
    "magician.cost": 3,
    "pills.heal_chance": "1/2",
    "items.weights.amulet": 0,
    "items.weights.peeking_glass": 3,
    "limits.max_turns": 12,
}
"""A designer's variant: dearer flips (S2.6), even pills (S3.6), no amulets and more
peeking glasses (R15), and a short turn limit (R21), so that games end in draws too."""

_EDITS = {
    "cost = 2\n": "cost = 3\n",
    'heal_chance = "1/3"': 'heal_chance = "1/2"',
    "amulet = 1 ": "amulet = 0 ",
    "peeking_glass = 1 ": "peeking_glass = 3 ",
    "max_turns = 500": "max_turns = 12",
}


def write_variant(folder: Path) -> tuple[Path, Ruleset]:
    """The variant written as a copy of the default ruleset file with its values changed,
    and the ruleset it must read as (the default with :data:`VARIANT_PATCH`)."""
    text = (files("buckshot.spec") / "rulesets/default.toml").read_text(encoding="utf-8")
    for old, new in _EDITS.items():
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    path = folder / "variant.toml"
    path.write_text(text, encoding="utf-8")
    expected = load_ruleset().with_changes(VARIANT_PATCH)
    assert load_ruleset(path).to_dict() == expected.to_dict()
    return path, expected


def random_move(state: Any, rng: random.Random) -> int:
    """A chance outcome by its probability at a chance node, else a uniform legal action
    (of an OpenSpiel state)."""
    if state.is_chance_node():
        outcomes, odds = zip(*state.chance_outcomes(), strict=True)
        return int(rng.choices(outcomes, odds)[0])
    return int(rng.choice(state.legal_actions()))
