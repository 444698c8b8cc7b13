"""One verification run: inductive proofs, bounded model checking, vacuity, and mutants."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

from buckshot.verification.bmc import check_bounded
from buckshot.verification.config import Config
from buckshot.verification.induction import ProofResult, all_properties, prove
from buckshot.verification.invariants import INVARIANTS
from buckshot.verification.mutants import MUTANTS, run_mutant
from buckshot.verification.report import Report
from buckshot.verification.vacuity import check_vacuity

Progress = Callable[[str, int, int], None]
"""Called with (stage, done, total) as the run advances."""


def verify(
    cfg: Config,
    depth: int = 12,
    vacuity: bool = True,
    mutants: bool = False,
    timeout_ms: int = 60_000,
    progress: Progress | None = None,
    only: Sequence[str] | None = None,
    inject: frozenset[str] = frozenset(),
) -> Report:
    """Run every stage that is asked for and collect the results.

    ``only`` restricts the proofs (and BMC) to those property IDs; ``inject`` switches on
    deliberate bugs (see :mod:`.mutants`) in every stage but the vacuity check.
    """
    report = Report(cfg)
    tick: Progress = progress if progress is not None else (lambda stage, done, total: None)
    started = time.perf_counter()
    props = [p for p in all_properties() if only is None or p.id in only]
    done: list[str] = []

    def proved(result: ProofResult) -> None:
        done.append(result.id)
        tick("proofs", len(done), len(props))

    report.proofs = prove(cfg, props, inject, timeout_ms=timeout_ms, on_result=proved)
    report.seconds["proofs"] = time.perf_counter() - started
    if depth > 0:
        started = time.perf_counter()
        report.bmc_depth = depth
        # I10 is a ranking argument (termination), proved by induction; a bounded path
        # cannot show non-termination, and its measure is the costliest term to unroll
        checked = [p for p in INVARIANTS if (only is None or p.id in only) and not p.per_branch]
        violations, times, status = check_bounded(
            cfg,
            checked,
            depth,
            inject,
            timeout_ms=timeout_ms * 5,
            progress=lambda j: tick("bmc", j, depth),
        )
        report.violations, report.bmc_times, report.bmc_status = violations, times, status
        report.seconds["bmc"] = time.perf_counter() - started
    if vacuity:
        started = time.perf_counter()
        report.vacuity, report.vacuity_times = check_vacuity(
            cfg, depth=min(depth, 8) if depth > 0 else 6
        )
        tick("vacuity", 1, 1)
        report.seconds["vacuity"] = time.perf_counter() - started
    if mutants:
        started = time.perf_counter()
        for number, mutant in enumerate(MUTANTS, 1):
            report.mutants.append(run_mutant(cfg, mutant, timeout_ms))
            tick("mutants", number, len(MUTANTS))
        report.seconds["mutants"] = time.perf_counter() - started
    report.seconds["total"] = sum(report.seconds.values())
    return report
