"""Teeth: running a deliberate bug of the model against the properties that must catch it.

The bugs are rows of ``manifest.json`` with their patches in :mod:`faults.model` and the
stranger batches; each reaches the model as a :class:`~buckshot.verification.model.patch.Patch`,
never as a switch inside it. Running one re-proves the property it is expected to break,
assuming every other property. It counts as caught only with real evidence: that proof fails
with a counterexample the executable spec confirms, *and* a seeded random game of the executable
spec with the bug reaches a state or step that breaks an expected property
(:mod:`buckshot.verification.proofs.reach`). A proof failure from an unreachable state alone is
reported (``cti only``) and does not count.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path

from buckshot.spec.rulebook import Role
from buckshot.spec.ruleset import load_ruleset
from buckshot.verification.model.config import Config, make_config
from buckshot.verification.model.patch import Patch
from buckshot.verification.proofs.induction import (
    VIOLATED,
    ProofResult,
    all_properties,
    proof_model,
    property_by_id,
    prove,
    prove_property,
)
from buckshot.verification.proofs.reach import Evidence, Table, find_reachable, short_game
from faults.manifest import CAUGHT, CTI_ONLY, Row, patches, row, select

CI = Path(__file__).with_name("ci.json")
"""Where the suite checks each model and chart row (``tests/faults/ci_plan.py`` writes it)."""


@dataclass(frozen=True)
class Variant:
    """A change of the ruleset for an evidence walk (dotted keys, as
    :meth:`buckshot.spec.ruleset.Ruleset.with_changes` takes them), and how the evidence
    names it."""

    label: str
    changes: tuple[tuple[str, object], ...]


@dataclass(frozen=True)
class Mutant:
    """A deliberate bug of the model and the properties expected to catch it."""

    name: str
    bug: str
    caught_by: tuple[str, ...]
    """The properties that must catch it, the first expected to (then, for an invariant, the
    lemmas that strengthen it)."""
    patch: Patch
    """The bug, as a change of the model from outside it."""
    table: Table | None = None
    """Where the evidence walk looks, when the bug needs a table random play rarely deals
    (several traitors, say); None: every player count, random roles."""
    variant: Variant | None = None
    """A neighbouring ruleset the evidence walk tries when the ruleset's own paths to the bug
    are longer than the walks (besides the short-game variant); the evidence names it."""
    counts: tuple[int, int] | None = None
    """The player counts at which the bug can show at all (lowest, highest), when not every
    count (a shot at an eliminated player needs a table of three: with two, a death ends the
    game); None: every count."""


@dataclass(frozen=True)
class MutantResult:
    """Whether a mutant was caught, by which proof, and how long it took."""

    mutant: Mutant
    caught: bool
    """A proof failed with a confirmed counterexample and the bug was reached (evidence)."""
    caught_by: str
    """The property whose proof failed ("" when none did)."""
    proofs: tuple[ProofResult, ...]
    seconds: float
    evidence: Evidence | None = None
    """A path from an initial state that breaks an expected property, if one was found."""

    @property
    def cti_only(self) -> bool:
        """A proof failed, but no path from an initial state shows the bug: not a catch."""
        return bool(self.caught_by) and self.evidence is None

    @property
    def verdict(self) -> str:
        """``caught with evidence``, ``cti only`` (not counted) or ``escaped`` (the words of
        the manifest's verdicts)."""
        if self.caught:
            return CAUGHT
        return CTI_ONLY if self.cti_only else "escaped"


def judge(
    mutant: Mutant, proofs: list[ProofResult], evidence: Evidence | None, seconds: float
) -> MutantResult:
    """The verdict on a mutant from its proofs (in the order of ``caught_by``) and the walk's
    evidence: caught by the first proof that fails with a confirmed counterexample, counted
    only with evidence that the bug is reachable."""
    for proof in proofs:
        cex = proof.counterexample
        if proof.verdict == VIOLATED and cex is not None and cex.confirmed:
            caught = evidence is not None
            return MutantResult(mutant, caught, proof.id, tuple(proofs), seconds, evidence)
    return MutantResult(mutant, False, "", tuple(proofs), seconds, evidence)


def run_mutant(cfg: Config, mutant: Mutant, timeout_ms: int = 60_000) -> MutantResult:
    """Re-prove the invariant the mutant should break, with the mutant switched on."""
    started = time.perf_counter()
    proofs: list[ProofResult] = []
    for pid in mutant.caught_by:
        props = [p for p in all_properties() if p.id == pid]
        (proof,) = prove(cfg, props, mutant.patch, timeout_ms)
        proofs.append(proof)
        cex = proof.counterexample
        if proof.verdict == VIOLATED and cex is not None and cex.confirmed:
            break
    evidence = mutant_evidence(cfg, mutant)
    return judge(mutant, proofs, evidence, time.perf_counter() - started)


ONE_ROLE_PLAYERS = 3
"""The player count of the one-role tables the evidence search tries last."""


def mutant_evidence(cfg: Config, mutant: Mutant) -> Evidence | None:
    """Reachable evidence of a deliberate bug (:mod:`.reach`): a path under the ruleset
    itself, else under its short-game variant (labelled as such), else (for a bug declared
    with no table of its own) at a table of three with one role at every seat, each role in
    turn (where a role's skill, and with conversions preferred its loss, shows far more
    often than at a mixed table); None when none shows one."""
    expected = [property_by_id(pid) for pid in mutant.caught_by]
    found = find_reachable(cfg, mutant.patch, expected, table=mutant.table)
    if found is not None:
        return found
    variants: list[tuple[str, Config]] = []
    short = short_game(cfg)
    if short is not None:
        variants.append((f"limits.max_turns = {short.max_turns}", short))
    if mutant.variant is not None:
        changed = cfg.ruleset.with_changes(dict(mutant.variant.changes))
        variants.append((mutant.variant.label, make_config(changed, cfg.players)))
    for label, other in variants:
        found = find_reachable(other, mutant.patch, expected, table=mutant.table)
        if found is not None:
            return replace(found, variant=label)
    if mutant.table is None and cfg.players_lo <= ONE_ROLE_PLAYERS <= cfg.players_hi:
        for role in Role:
            table = Table(ONE_ROLE_PLAYERS, role)
            found = find_reachable(cfg, mutant.patch, expected, table=table)
            if found is not None:
                return found
    return None


def mutant(fault: Row) -> Mutant:
    """The model row ``fault`` of the manifest, with its patch, as the proofs run it."""
    variant = None if fault.variant is None else Variant(*fault.variant)
    return Mutant(
        fault.name,
        fault.summary,
        fault.caught_by,
        patches()[fault.name],
        fault.table,
        variant,
        fault.counts,
    )


MUTANTS: list[Mutant] = [mutant(fault) for fault in select("model", "chart")]
"""The project's own model and chart faults (not the stranger batches), in manifest order."""


def judge_row(name: str, timeout_ms: int = 60_000) -> tuple[str, str, str, str, float]:
    """Run the model fault ``name`` against its properties at every player count the ruleset
    allows: its name, its verdict (:attr:`MutantResult.verdict`), the property whose proof
    failed, the evidence found and the seconds taken (plain data, for a worker process)."""
    result = run_mutant(make_config(load_ruleset()), mutant(row(name)), timeout_ms)
    found = "" if result.evidence is None else result.evidence.text()
    return name, result.verdict, result.caught_by, found, result.seconds


@dataclass(frozen=True)
class CiCheck:
    """The suite's check of a model or chart row: one piece of the proof of one property of its
    ``caught_by`` at one player count with the row's patch (``ci.json``, planned by
    ``tests/faults/ci_plan.py``)."""

    name: str
    property: str
    """The property of ``caught_by`` whose proof fails (the first that does at some count)."""
    players: int
    """The player count it is proved at: one where it fails with a confirmed counterexample."""
    part: str | None = None
    """The piece of the proof where it fails so (``base`` or a branch of the step, as
    :func:`~buckshot.verification.proofs.induction.prove_property` takes it); None: all of it."""


@cache
def ci_checks() -> dict[str, CiCheck]:
    """The suite's check of every model and chart row, by name (``ci.json``)."""
    data = json.loads(CI.read_text(encoding="utf-8"))["faults"]
    return {
        name: CiCheck(name, entry["property"], entry["players"], entry.get("part"))
        for name, entry in data.items()
    }


def run_ci_check(name: str, patch: Patch | None = None, timeout_ms: int = 60_000) -> ProofResult:
    """Prove the piece of the proof of the property that the row ``name``'s CI check names at
    its one player count, with the row's patch (or ``patch``), assuming every other property
    as the full judgement does."""
    check = ci_checks()[name]
    cfg = make_config(load_ruleset(), (check.players, check.players))
    model = proof_model(cfg, patches()[name] if patch is None else patch)
    return prove_property(model, property_by_id(check.property), timeout_ms, part=check.part)
