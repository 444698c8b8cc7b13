"""What can happen under one ruleset: every transition, frame kind, win reason, role skill and
item use, each shown reachable by a concrete path or proved unreachable (or honestly left
"not reached within the bound").

It is the vacuity check (:mod:`.vacuity`) with the outcomes of :mod:`.outcomes` added, and
with the lemma that an item no draw can give is never held (:data:`.outcomes.UNDRAWABLE`),
proved here by induction first: the unreachability proofs assume it only when it is proved.
"""

from __future__ import annotations

from dataclasses import dataclass

from buckshot.verification.model.config import Config
from buckshot.verification.proofs.induction import (
    PROVED,
    ProofResult,
    all_properties,
    players_label,
    proof_model,
    prove_property,
)
from buckshot.verification.proofs.outcomes import OUTCOMES, UNDRAWABLE
from buckshot.verification.proofs.vacuity import VacuityTarget, check_vacuity

REACH_DEPTH = 6
"""The bounded model check's depth for reachability (its witnesses are the shortest paths;
deeper targets are shown by seeded random games)."""
REACH_GAMES = 24
"""Seeded random games of the executable spec played before the unreachability proofs."""


@dataclass(frozen=True)
class Reachability:
    """Every target's status under one ruleset, the draw lemma's proof and the stage times."""

    targets: tuple[VacuityTarget, ...]
    lemma: ProofResult
    seconds: dict[str, float]
    depth: int
    games: int

    def target(self, name: str) -> VacuityTarget:
        """The target named ``name`` (a transition id, a frame kind, or ``kind:name``)."""
        return next(t for t in self.targets if t.name == name)


def check_reachability(
    cfg: Config, depth: int = REACH_DEPTH, timeout_ms: int = 600_000
) -> Reachability:
    """Classify every transition, frame kind and outcome of ``cfg``'s model."""
    if all(weight > 0 for weight in cfg.weights):
        # every kind can be drawn: the lemma is the empty conjunction, true by construction
        lemma = ProofResult(UNDRAWABLE.id, players_label(cfg), PROVED, 0.0, "")
    else:
        model = proof_model(cfg, assume=(*all_properties(), UNDRAWABLE))
        lemma = prove_property(model, UNDRAWABLE, timeout_ms)
    lemmas = (UNDRAWABLE,) if lemma.verdict == PROVED else ()
    targets, seconds = check_vacuity(
        cfg, depth=depth, games=REACH_GAMES, outcomes=OUTCOMES, lemmas=lemmas
    )
    seconds = {"draw lemma": lemma.seconds, **seconds}
    return Reachability(tuple(targets), lemma, seconds, depth, REACH_GAMES)
