"""Model paths: a seeded walk of the executable spec, the goals each step reaches.

A :class:`Path` is a game of the model from its initial state (roles given, default setup of
the ruleset), cut at a state where a decision is pending or the game is over, optionally
ending with one decision the model refuses (a *probe*).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from functools import cache
from typing import Any

from buckshot.conformance.modelcases.goals import guard_goal, transition_goal
from buckshot.conformance.modelcases.steps import guard_outcomes
from buckshot.spec.chart_data import StateKind
from buckshot.spec.payments import payments
from buckshot.spec.rulebook import Role
from buckshot.spec.ruleset import load_ruleset
from buckshot.verification.model.executable import (
    Concrete,
    ConcreteInput,
    ExecutableSpec,
    Step,
    Stuck,
)
from buckshot.verification.model.layout import KINDS, RESCUE_CODES
from buckshot.verification.model.text import targeted

SHORT_GAME: dict[str, Any] = {"limits": {"max_turns": 3}}
"""The ruleset patch of games played to the turn limit (R21)."""


@cache
def spec_for(patch_key: str) -> ExecutableSpec:
    """The executable spec of the default ruleset with the patch named ``patch_key``."""
    ruleset = load_ruleset().with_changes(PATCHES[patch_key], source=f"patch {patch_key}")
    return ExecutableSpec(ruleset)


QUICK_GAME: dict[str, Any] = {"hp": {"start": 1, "max": 2}}
"""The ruleset patch of quick games, played to a win (R2)."""

PATCHES: dict[str, dict[str, Any]] = {"default": {}, "short": SHORT_GAME, "quick": QUICK_GAME}
"""The rulesets games are played under, by name: patches of the default ruleset."""


@dataclass(frozen=True)
class Path:
    """One model game prefix: its ruleset patch, roles, steps and an optional refused probe."""

    patch: str
    roles: tuple[int, ...]
    steps: tuple[Step, ...]
    probe: ConcreteInput | None = None

    @property
    def spec(self) -> ExecutableSpec:
        """The executable spec the path was played on."""
        return spec_for(self.patch)

    @property
    def n(self) -> int:
        """Players at the table."""
        return len(self.roles)

    def start(self) -> Concrete:
        """The initial state."""
        return self.spec.initial(self.n, self.roles)

    def end(self) -> Concrete:
        """The state after the last step (before the probe)."""
        return self.steps[-1].after if self.steps else self.start()


def step_goals(spec: ExecutableSpec, s: Concrete, inp: ConcreteInput) -> set[str]:
    """The goals the step from ``s`` with ``inp`` reaches (its guards; its transition if legal)."""
    goals = {guard_goal(outcome) for outcome in guard_outcomes(spec, s, inp)}
    res = spec.result(s, inp)
    if res.ok:
        edge = next(e for e, fired in zip(spec.layout.edges, res.fired, strict=True) if fired)
        goals.add(transition_goal(edge.edge.id))
    return goals


def path_goals(path: Path) -> set[str]:
    """Every goal the path reaches."""
    found: set[str] = set()
    for step in path.steps:
        found |= step_goals(path.spec, step.before, step.input)
    if path.probe is not None:
        found |= step_goals(path.spec, path.end(), path.probe)
    return found


def pending(spec: ExecutableSpec, s: Concrete) -> bool:
    """A decision is pending in ``s`` or the game is over: a case may end there."""
    return spec.is_terminal(s) or spec.top(s).kind is StateKind.DECISION


@dataclass
class Walk:
    """One seeded random game with the goals of each step."""

    patch: str
    roles: tuple[int, ...]
    steps: list[Step] = field(default_factory=list)
    goals: list[set[str]] = field(default_factory=list)


STYLES: tuple[frozenset[str], ...] = (
    frozenset(),
    frozenset({"shoot"}),
    frozenset({"shoot", "give_up"}),
    frozenset({"give_up", "keep_role", "use_item"}),
    frozenset({"use_rescue", "convert", "flip_shell"}),
)
"""Ways of playing: the decisions a player takes whenever one of them is legal."""


def walk(patch: str, n: int, rng: random.Random, max_steps: int) -> Walk:
    """A seeded random game of ``n`` players (random roles, a random style of :data:`STYLES`)
    of at most ``max_steps`` steps."""
    spec = spec_for(patch)
    roles = tuple(rng.randrange(len(Role)) for _ in range(n))
    style = STYLES[rng.randrange(len(STYLES))]
    game = Walk(patch, roles)
    s = spec.initial(n, roles)
    for _ in range(max_steps):
        try:
            step = spec.random_step(s, rng, style)
        except Stuck:
            break
        if step is None:
            break
        game.steps.append(step)
        game.goals.append(step_goals(spec, step.before, step.input))
        s = step.after
    return game


def best_prefix(game: Walk, covered: set[str]) -> tuple[Path, set[str]] | None:
    """The shortest prefix of ``game`` with every goal it adds to ``covered``, ending where a
    case may end; None when it adds nothing (or never reaches such a state after it)."""
    spec = spec_for(game.patch)
    new: set[str] = set()
    last = -1
    for index, goals in enumerate(game.goals):
        fresh = goals - covered - new
        if fresh:
            new |= fresh
            last = index
    if last < 0:
        return None
    for cut in range(last, len(game.steps)):
        if pending(spec, game.steps[cut].after):
            return Path(game.patch, game.roles, tuple(game.steps[: cut + 1])), new
    return None


def probes(spec: ExecutableSpec, s: Concrete) -> Iterator[ConcreteInput]:
    """Well-formed decisions of the asked player in ``s`` that the model refuses (a guard of
    their transition fails), each written in canonical option text."""
    top = spec.top(s)
    if top.kind is not StateKind.DECISION:
        return
    base = spec.blank_input()
    for edge in spec.layout.edges:
        if edge.source != top.code or edge.edge.trigger.value != "decision":
            continue
        inp = replace(base, edge=edge.code)
        for variant in _variants(spec, s, inp, edge.edge.event):
            if not spec.sem.guards_hold(edge, s, variant):
                yield variant


def _variants(
    spec: ExecutableSpec, s: Concrete, inp: ConcreteInput, event: str
) -> Iterator[ConcreteInput]:
    seats = range(s.n)
    if event == "shoot":
        yield from (replace(inp, target=t) for t in seats)
    elif event == "use_item":
        for item in range(KINDS):
            if targeted(item):
                yield from (replace(inp, item=item, target=t) for t in seats)
            else:
                yield replace(inp, item=item, target=s.owner)
    elif event == "flip_shell":
        cost = spec.cfg.ruleset.magician.cost  # every payment, held or not: unheld is refused
        yield from (replace(inp, pay=pay) for pay in payments([cost] * KINDS, cost))
    elif event in ("use_rescue", "discard_item"):
        codes = RESCUE_CODES if event == "use_rescue" else range(KINDS)
        yield from (replace(inp, item=item) for item in codes)
    else:
        yield inp


__all__ = [
    "PATCHES",
    "Path",
    "Walk",
    "best_prefix",
    "path_goals",
    "pending",
    "probes",
    "spec_for",
    "step_goals",
    "walk",
]
