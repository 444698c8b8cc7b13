"""Teeth: deliberate bugs in the model, each of which the invariant it breaks must catch.

A mutant is switched on by name in the step semantics (a static setting, not a state value),
or, for a chart mutant, by removing one transition of a chart. Running one re-proves the
property it is expected to break, assuming every other property. It counts as caught only
with real evidence: that proof fails with a counterexample the executable spec confirms,
*and* a seeded random game of the executable spec with the bug reaches a state or step that
breaks an expected property (:mod:`.reach`). A proof failure from an unreachable state
alone is reported (``cti only``) and does not count.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, replace

from buckshot.spec.rulebook import Role
from buckshot.spec.ruleset import Ruleset
from buckshot.verification.model.config import Config, make_config
from buckshot.verification.proofs.induction import (
    VIOLATED,
    ProofResult,
    all_properties,
    property_by_id,
    prove,
)
from buckshot.verification.proofs.reach import Evidence, Table, find_reachable, short_game


@dataclass(frozen=True)
class Variant:
    """A change of the ruleset for an evidence walk, and how the evidence names it."""

    label: str
    change: Callable[[Ruleset], Ruleset]


@dataclass(frozen=True)
class Mutant:
    """A deliberate bug and the invariant expected to catch it."""

    name: str
    bug: str
    caught_by: tuple[str, ...]
    """The invariant expected to catch it, then the lemmas that strengthen that invariant."""
    switch: str = ""
    """The switch the model reads, when it is not ``name`` (a chart mutant ``drop:<edge>``
    removes that transition)."""
    table: Table | None = None
    """Where the evidence walk looks, when the bug needs a table random play rarely deals
    (several traitors, say); None: every player count, random roles."""
    variant: Variant | None = None
    """A neighbouring ruleset the evidence walk tries when the ruleset's own paths to the bug
    are longer than the walks (besides the short-game variant); the evidence names it."""

    @property
    def inject(self) -> frozenset[str]:
        """The switches that turn this bug on in the model."""
        return frozenset({self.switch or self.name})


MUTANTS: tuple[Mutant, ...] = (
    Mutant("poll_no_skip", "a poll that does not skip the eliminated", ("I1", "I4")),
    Mutant("dead_owner_turn", "the turn passes to the next seat, dead or alive", ("I1",)),
    Mutant("pop_no_resume", "a pop that leaves the frame below suspended", ("I2",)),
    Mutant("owner_changes_in_window", "a shot window hands the turn to the next seat", ("I2",)),
    Mutant("suspended_frame_touched", "a poll step also writes the suspended turn frame", ("I2",)),
    Mutant("cap_off_by_one", "the discard cap is one too high", ("I3",)),
    Mutant("traitor_cap_forgotten", "a traitor's cap forgets the +1", ("I3",)),
    Mutant("poll_owner_first", "the shot window asks the shooter first", ("I4",)),
    Mutant("second_conversion", "a second conversion is offered", ("I5",)),
    Mutant(
        "traitor_keeps_skill",
        "a traitor Magician may still flip",
        ("I5",),
        table=Table(3, Role.MAGICIAN),
    ),
    Mutant("counter_unbounded", "counter responses ignore the stack bound", ("I6", "L4")),
    Mutant("kill_lock_never_set", "a kill never locks shooting", ("I7",)),
    Mutant("rage_not_cleared", "rage charges survive the turn end", ("I8",)),
    Mutant("shield_below_zero", "a live hit uses a shield block even when none is left", ("I8",)),
    Mutant("no_game_over_check", "the end condition is never checked", ("I9",)),
    Mutant("shell_not_removed", "a fired shell stays in the chamber", ("I10",)),
    Mutant("item_not_spent", "a used item is not spent", ("I10",)),
    Mutant("pop_wrong_resume", "a pop resumes the frame below at its initial state", ("I2",)),
    Mutant(
        "stuck_after_kill",
        "chart: shooting_locked loses its end_main edge (an owner who killed and holds no "
        "item can never move)",
        ("P1",),
        switch="drop:turn:shooting_locked:end_main:0",
    ),
    Mutant(
        "window_resumes_to_action",
        "a closed shot window resumes the turn at awaiting_action, not settling",
        ("I2",),
    ),
    Mutant(
        "traitor_win_ignored",
        "a traitor's kills_to_win kills do not end the game",
        ("I9",),
        table=Table(6, prefer=frozenset({"give_up"})),
        variant=Variant(
            "traitor.kills_to_win = 1",
            lambda r: replace(r, traitor=replace(r.traitor, kills_to_win=1)),
        ),
    ),
    Mutant(
        "shared_cap_off_by_one",
        "the cap helper shared by the discard guard is one too high",
        ("I3",),
    ),
    Mutant("conversion_asks_owner", "a conversion prompt goes to the turn owner", ("I1",)),
    Mutant("early_draw", "the game is drawn one turn before limits.max_turns", ("I9",)),
)
"""The catalogue of deliberate bugs."""


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
        """``caught``, ``cti only`` (not counted) or ``escaped``."""
        if self.caught:
            return "caught"
        return "cti only" if self.cti_only else "escaped"


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
        (proof,) = prove(cfg, props, mutant.inject, timeout_ms)
        proofs.append(proof)
        cex = proof.counterexample
        if proof.verdict == VIOLATED and cex is not None and cex.confirmed:
            break
    evidence = mutant_evidence(cfg, mutant)
    return judge(mutant, proofs, evidence, time.perf_counter() - started)


def mutant_evidence(cfg: Config, mutant: Mutant) -> Evidence | None:
    """Reachable evidence of a deliberate bug (:mod:`.reach`): a path under the ruleset
    itself, else under its short-game variant (labelled as such); None when neither shows
    one."""
    expected = [property_by_id(pid) for pid in mutant.caught_by]
    found = find_reachable(cfg, mutant.inject, expected, table=mutant.table)
    if found is not None:
        return found
    variants: list[tuple[str, Config]] = []
    short = short_game(cfg)
    if short is not None:
        variants.append((f"limits.max_turns = {short.max_turns}", short))
    if mutant.variant is not None:
        changed = mutant.variant.change(cfg.ruleset)
        variants.append((mutant.variant.label, make_config(changed, cfg.players)))
    for label, other in variants:
        found = find_reachable(other, mutant.inject, expected, table=mutant.table)
        if found is not None:
            return replace(found, variant=label)
    return None


def mutant_by_name(name: str) -> Mutant:
    """The catalogue's mutant ``name``."""
    return next(m for m in MUTANTS if m.name == name)


def run_mutants(cfg: Config, timeout_ms: int = 60_000) -> list[MutantResult]:
    """Run the whole catalogue."""
    return [run_mutant(cfg, mutant, timeout_ms) for mutant in MUTANTS]
