"""Reachable evidence: seeded random games of the executable spec that break a property.

A counterexample to induction starts from a state that satisfies every invariant and lemma,
which need not be reachable: a deliberate bug can make a proof fail from a state no game
ever reaches (a 3-player state in which seat 7 fired). Such a catch proves nothing about the
bug. This module looks for a *real* counterexample instead: a path from an initial state,
played by the executable spec with the bug switched on, after which the property fails (a
state part false in a reached state, a step part false on a taken step, or, for progress,
a game that is not over and has no legal input). The path is concrete, so its evidence does
not depend on any solver.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace

from buckshot.spec.rulebook import Role
from buckshot.verification.model.config import Config, make_config
from buckshot.verification.model.executable import Concrete, ExecutableSpec, Stuck
from buckshot.verification.proofs.properties import Property

WALK_STEPS = 6_000
"""Steps of random play given to each mutant before its bug is declared not reached."""


@dataclass(frozen=True)
class Evidence:
    """A path from an initial state after which ``property_id`` fails."""

    property_id: str
    players: int
    seed: int
    steps: int
    """Length of the path (0: the initial state itself breaks the property)."""
    where: str
    """The chart state where the failure shows (``frame:state``)."""
    variant: str = ""
    """The ruleset change under which the path was found ("" for the ruleset itself)."""

    def text(self) -> str:
        """One line saying what was reached."""
        within = f", in the variant {self.variant}" if self.variant else ""
        return (
            f"{self.property_id} broken after {self.steps} steps of a seeded random game "
            f"(N={self.players}, seed {self.seed}{within}) at {self.where}"
        )


def _broken(spec: ExecutableSpec, props: Sequence[Property], s: Concrete) -> str | None:
    """The first property whose state part ``s`` breaks."""
    for prop in props:
        if prop.state is not None and not prop.state(spec.sem, s):
            return prop.id
    return None


def find_reachable(
    cfg: Config,
    inject: frozenset[str],
    props: Sequence[Property],
    steps: int = WALK_STEPS,
    seed: int = 0,
) -> Evidence | None:
    """A seeded random path of the executable spec, with ``inject`` switched on, that breaks
    one of ``props``; None when ``steps`` steps of play show none."""
    spec = ExecutableSpec(cfg.ruleset, config=cfg, mutants=inject)
    rng = random.Random(seed)
    counts = list(range(cfg.players_lo, cfg.players_hi + 1))
    progress = any(p.progress for p in props)
    taken = 0
    game = 0
    while taken < steps:
        n = counts[game % len(counts)]
        game_seed = rng.randrange(2**31)
        play = random.Random(game_seed)
        roles = [play.randrange(len(Role)) for _ in range(n)]
        if game % 2:
            roles = [roles[0]] * n
        game += 1
        s = spec.initial(n, roles)
        bad = _broken(spec, props, s)
        if bad is not None:
            return Evidence(bad, n, game_seed, 0, _where(spec, s))
        for index in range(1, 2_001):
            try:
                step = spec.random_step(s, play)
            except Stuck:
                if progress:
                    return Evidence("P1", n, game_seed, index - 1, _where(spec, s))
                break
            if step is None:
                break
            taken += 1
            res = spec.result(step.before, step.input)
            for prop in props:
                if prop.step is not None and not prop.step(spec.sem, step.before, step.input, res):
                    return Evidence(prop.id, n, game_seed, index, _where(spec, step.before))
            bad = _broken(spec, props, step.after)
            if bad is not None:
                return Evidence(bad, n, game_seed, index, _where(spec, step.after))
            s = step.after
            if taken >= steps:
                break
    return None


def _where(spec: ExecutableSpec, s: Concrete) -> str:
    try:
        top = spec.top(s)
    except ValueError:
        return "a state with no chart state on top"
    return f"{top.frame.value}:{top.id}"


SHORT_GAME_TURNS = 3
"""``limits.max_turns`` of the short-game variant tried when the ruleset's own games are too
long for the walks to reach the turn limit."""


def mutant_evidence(
    cfg: Config, inject: frozenset[str], props: Sequence[Property], steps: int = WALK_STEPS
) -> Evidence | None:
    """Reachable evidence of a deliberate bug: a path under the ruleset itself, else a path
    under its short-game variant (``limits.max_turns`` = 3, every other value the same),
    which is labelled as such; None when neither shows one."""
    found = find_reachable(cfg, inject, props, steps)
    if found is not None or cfg.max_turns <= SHORT_GAME_TURNS:
        return found
    rules = cfg.ruleset
    short = replace(rules, limits=replace(rules.limits, max_turns=SHORT_GAME_TURNS))
    short_cfg = make_config(short, (cfg.players_lo, cfg.players_hi))
    found = find_reachable(short_cfg, inject, props, steps // 4)
    if found is None:
        return None
    return replace(found, variant=f"limits.max_turns = {SHORT_GAME_TURNS}")
