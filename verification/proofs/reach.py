"""Reachable evidence: seeded random games of the executable spec that break a property.

A counterexample to induction may start from a state no game reaches; this module looks for
a path from an initial state, played by the executable spec with the bug switched on, after
which the property fails, trying refused inputs too (docs/verification.md, "Deliberate
bugs"). The path is concrete, so its evidence does not depend on any solver.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from buckshot.spec.rulebook import Role
from buckshot.verification.model.config import Config, make_config
from buckshot.verification.model.executable import Concrete, ExecutableSpec, Step, Stuck
from buckshot.verification.model.layout import role_code
from buckshot.verification.model.patch import Patch
from buckshot.verification.proofs.bmc import Violation, Witness
from buckshot.verification.proofs.enabled import refused_at
from buckshot.verification.proofs.properties import Property

WALK_STEPS = 6_000
"""Steps of random play given to a broken model before its bug is declared not reached."""


@dataclass(frozen=True)
class Table:
    """Where a walk looks: a player count, and one role at every seat (None: random)."""

    players: int
    role: Role | None = None
    prefer: frozenset[str] = frozenset()
    """Decisions taken whenever legal, in every game, besides :data:`PREFERRED`."""


@dataclass(frozen=True)
class Evidence:
    """A path from an initial state after which ``property_id`` fails."""

    property_id: str
    players: int
    seed: int
    steps: int  # length of the path (0: the initial state itself breaks the property)
    where: str  # the chart state where the failure shows (``frame:state``)
    variant: str = ""
    """The ruleset change under which the path was found ("" for the ruleset itself)."""
    start: Concrete | None = field(default=None, compare=False, repr=False)
    """The path's initial state."""
    path: tuple[Step, ...] = field(default=(), compare=False, repr=False)
    """The path's steps, the last one reaching (or taking) the failure."""

    def text(self) -> str:
        """One line saying what was reached."""
        within = f", in the variant {self.variant}" if self.variant else ""
        return (
            f"{self.property_id} broken after {self.steps} steps of a seeded random game "
            f"(N={self.players}, seed {self.seed}{within}) at {self.where}"
        )


def _broken(spec: ExecutableSpec, props: Sequence[Property], s: Concrete) -> str | None:
    """The first property whose state part ``s`` breaks, or that says ``s`` must offer a
    decision the model refuses there (enabledness)."""
    for prop in props:
        if prop.state is not None and not prop.state(spec.sem, s):
            return prop.id
        if prop.offer is not None and refused_at(spec, prop, s) is not None:
            return prop.id
    return None


def find_reachable(
    cfg: Config,
    patch: Patch,
    props: Sequence[Property],
    steps: int = WALK_STEPS,
    table: Table | None = None,
    refused: bool = True,
) -> Evidence | None:
    """A seeded random path of the executable spec, with ``patch`` applied, that breaks
    one of ``props``; None when ``steps`` steps of play show none. ``table`` fixes the player
    count and gives every seat one role (default: every count, random roles); with
    ``refused`` (the default) every step also tries the inputs the rules refuse."""
    spec = ExecutableSpec(cfg.ruleset, config=cfg, patch=patch)
    rng = random.Random(0)
    counts = list(range(cfg.players_lo, cfg.players_hi + 1))
    if table is not None:
        counts = [min(max(table.players, cfg.players_lo), cfg.players_hi)]
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
        if table is not None and table.role is not None:
            roles = [role_code(table.role)] * n
        game += 1
        s = spec.initial(n, roles)
        start = s
        path: list[Step] = []
        bad = _broken(spec, props, s)
        if bad is not None:
            return Evidence(bad, n, game_seed, 0, _where(spec, s), "", start)
        prefer = PREFERRED if game % 2 == 0 else frozenset()
        if table is not None and table.prefer:
            prefer = PREFERRED | table.prefer
        for index in range(1, 2_001):
            try:
                step = spec.random_step(s, play, prefer, refused)
            except Stuck:
                if progress:
                    where = _where(spec, s)
                    return Evidence("P1", n, game_seed, index - 1, where, "", start, tuple(path))
                break
            if step is None:
                break
            taken += 1
            path.append(step)
            res = spec.result(step.before, step.input)
            for prop in props:
                if prop.step is not None and not prop.step(spec.sem, step.before, step.input, res):
                    where = _where(spec, step.before)
                    return Evidence(prop.id, n, game_seed, index, where, "", start, tuple(path))
            bad = _broken(spec, props, step.after)
            if bad is not None:
                where = _where(spec, step.after)
                return Evidence(bad, n, game_seed, index, where, "", start, tuple(path))
            s = step.after
            if taken >= steps:
                break
    return None


PREFERRED = frozenset({"convert"})
"""Decisions that every other game takes whenever they are legal: converting makes traitors,
whose rules (lost skills, the cap bonus, winning by kills) a uniform walk rarely reaches."""


def _where(spec: ExecutableSpec, s: Concrete) -> str:
    try:
        top = spec.top(s)
    except ValueError:
        return "a state with no chart state on top"
    return f"{top.frame.value}:{top.id}"


SHORT_GAME_TURNS = 3
"""``limits.max_turns`` of the short-game variant tried when the ruleset's own games are too
long for the walks to reach the turn limit."""


def short_game(cfg: Config) -> Config | None:
    """The configuration of ``cfg``'s short-game variant (``limits.max_turns`` = 3, every
    other value the same), or None when ``cfg`` is no longer."""
    if cfg.max_turns <= SHORT_GAME_TURNS:
        return None
    short = cfg.ruleset.with_changes({"limits.max_turns": SHORT_GAME_TURNS})
    return make_config(short, (cfg.players_lo, cfg.players_hi))


def refusal_paths(
    cfg: Config, patch: Patch, failed: Sequence[tuple[Property, int]]
) -> list[Violation]:
    """For each enabledness property shown violated at a player count (``failed``), a path
    from an initial state of that count to a state that refuses what the property offers, as
    a seeded walk finds it (the proofs' counterexample state need not be reachable); those no
    walk reaches are left out."""
    out = []
    for prop, n in failed:
        found = find_reachable(cfg, patch, [prop], table=Table(n))
        if found is None or found.start is None or found.players != n:
            continue
        note = f"a seeded random game of the executable spec (seed {found.seed})"
        witness = Witness(found.start, found.path, True, note)
        out.append(Violation(prop.id, found.steps, witness))
    return out
