"""One verification run: inductive proofs, bounded model checking, vacuity, and the engine's
lockstep walks.

The run is cut into independent tasks (:mod:`.parallel`): one per property (a property
proved branch by branch is cut into chunks of its branches when there are several
processes), the bounded model check, the vacuity check and the engine walks. The tasks run
on ``jobs`` processes, the longest first.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import replace

from buckshot.verification.model.config import Config
from buckshot.verification.model.patch import NO_PATCH, Patch
from buckshot.verification.parallel import (
    BMC,
    ENGINE,
    PROOF,
    VACUITY,
    Done,
    Task,
    TaskFailed,
    default_jobs,
    execute,
)
from buckshot.verification.proofs.bmc import NOT_NEEDED, BmcResult
from buckshot.verification.proofs.crosscheck import DISAGREED, CrossCheck
from buckshot.verification.proofs.induction import (
    PROVED,
    ProofResult,
    all_properties,
    merge_chunks,
)
from buckshot.verification.proofs.invariants import INVARIANTS
from buckshot.verification.proofs.properties import Property
from buckshot.verification.proofs.reach import refusal_paths
from buckshot.verification.proofs.vacuity import VacuityTarget
from buckshot.verification.report import Report

Progress = Callable[[str, int, int], None]  # called with (stage, done, total) as the run advances

CHUNKS = {"I10": 4, "L3": 4}
"""How many pieces the branches of the costliest per-branch proofs are cut into when the run
has several processes (more pieces than processes, so that the processes finish together).
I10 in 4 pieces, not 8: branches asked together let its opaque-sum queries refute more of
them (61 queries instead of 70, measured 2026-11-30)."""


Parts = dict[tuple[str, str], list[ProofResult | None]]  # proof pieces by tag and property

STAGES = {PROOF: "proofs", BMC: "bmc", VACUITY: "vacuity", ENGINE: "engine"}
"""The stage of each kind of task, in report order."""


class RunFailed(RuntimeError):
    """Some tasks of a run failed (an error, not a verdict): ``report`` holds what finished
    (each proof that finished, and every other stage that did), ``failures`` one line each."""

    def __init__(self, report: Report, failures: Sequence[str]) -> None:
        super().__init__("; ".join(failures))
        self.report = report
        self.failures = tuple(failures)


def verify(
    cfg: Config,
    depth: int = 12,
    vacuity: bool = True,
    timeout_ms: int = 60_000,
    progress: Progress | None = None,
    only: Sequence[str] | None = None,
    patch: Patch = NO_PATCH,
    jobs: int | None = None,
    walk_steps: int = 0,
    cross_check: bool = False,
    isolate: bool = False,
    bmc_all: bool = False,
) -> Report:
    """Run every stage that is asked for and collect the results.

    ``only`` restricts the proofs (and BMC) to those property IDs; ``patch`` changes the model
    (:mod:`.model.patch`) in every stage but vacuity; ``jobs`` processes (default
    :func:`.default_jobs`) do not change the verdicts; ``walk_steps`` > 0 runs the engine's
    lockstep walks; ``cross_check`` re-asks every proof query of cvc5; ``isolate`` runs even
    one job in a worker, so that Ctrl-C stops at once.

    BMC (to ``depth``; 0 skips it) searches the invariants the proofs left open
    (:func:`bmc_scope`) once they are done; it starts with the run when the proofs rest on
    properties not proved here (``only``), or with ``bmc_all``, which searches them all.
    A task that fails raises :class:`RunFailed` once the others are done.
    """
    report = Report(cfg, patch)
    tick: Progress = progress if progress is not None else (lambda stage, done, total: None)
    workers = default_jobs() if jobs is None else max(1, jobs)
    started = time.perf_counter()
    props = [p for p in all_properties() if only is None or p.id in only]
    report.assumed = [
        p.id for p in all_properties() if p.state is not None and p not in props
    ]  # every proof assumes every state property; those not proved here are listed
    # I10 is a ranking argument (termination), proved by induction; a bounded path cannot
    # show non-termination, and its measure is the costliest term to unroll
    checked = [p for p in INVARIANTS if (only is None or p.id in only) and not p.per_branch]

    def bmc_task(ids: Sequence[str]) -> Task:
        return Task(BMC, cfg, patch, timeout_ms * 5, depth=depth, props=tuple(ids))

    tasks: list[Task] = []
    searched = depth > 0 and bool(checked)
    searched_first = searched and (bmc_all or bool(report.assumed))
    if searched_first:
        tasks.append(bmc_task([p.id for p in checked]))
    if walk_steps > 0:
        tasks.append(Task(ENGINE, cfg, patch, steps=walk_steps))
    if vacuity:
        report.vacuity_depth = vacuity_depth(depth)
        tasks.append(Task(VACUITY, cfg, depth=report.vacuity_depth))
    pieces = proof_pieces(props, workers)
    tasks += [
        Task(PROOF, cfg, patch, timeout_ms, prop=prop.id, chunk=chunk, cross_check=cross_check)
        for prop, chunk in pieces
    ]

    parts: Parts = {}
    proofs: dict[str, ProofResult] = {}
    checks: dict[str, list[CrossCheck]] = {p.id: [] for p in props}
    stage_seconds: dict[str, float] = {}
    stage_cpu: dict[str, float] = {}

    def done(item: Done) -> list[Task]:
        task = item.task
        stage = STAGES[task.kind]
        stage_seconds[stage] = stage_seconds.get(stage, 0.0) + item.seconds
        stage_cpu[stage] = stage_cpu.get(stage, 0.0) + item.cpu_seconds
        if task.kind == PROOF:
            checks[task.prop].extend(item.checks)
            proof = gathered(parts, item)
            if proof is not None:
                proofs[task.prop] = proof
                tick("proofs", len(proofs), len(props))
                if len(proofs) == len(props):
                    report.proofs = [_with_cross_check(proofs[p.id], checks[p.id]) for p in props]
                    if searched and not searched_first:
                        final = {proof.id: proof for proof in report.proofs}
                        left = bmc_scope(props, checked, final, report.assumed)
                        if not left:
                            report.bmc_status = NOT_NEEDED
                        return [bmc_task(left)] if left else []
        elif task.kind == BMC:
            result: BmcResult = item.result
            report.bmc_depth, report.bmc_checked = depth, list(task.props)
            report.violations, report.bmc_times = result.violations, result.times
            report.bmc_status, report.bmc_per_n = result.status, list(result.per_n)
            tick("bmc", depth, depth)
        elif task.kind == ENGINE:
            report.walks = item.result
            tick("engine", 1, 1)
        else:
            targets: list[VacuityTarget]
            targets, report.vacuity_times = item.result
            report.vacuity = targets
            tick("vacuity", 1, 1)
        return []

    for task in tasks:  # each stage's start: a line before its first task runs
        tick(STAGES[task.kind], 0, {PROOF: len(props), BMC: depth}.get(task.kind, 1))
    failed: TaskFailed | None = None
    try:
        execute(tasks, workers, done, isolate)
    except TaskFailed as error:
        failed = error
        report.proofs = [
            _with_cross_check(proofs[p.id], checks[p.id]) for p in props if p.id in proofs
        ]
    if cross_check:
        report.cross_check = {pid: tuple(found) for pid, found in checks.items()}
    report.violations += refusal_paths(cfg, patch, _refusals(props, report.proofs))
    report.seconds = {k: stage_seconds[k] for k in STAGES.values() if k in stage_seconds}
    report.cpu_seconds = {k: stage_cpu[k] for k in STAGES.values() if k in stage_cpu}
    report.seconds["total"] = time.perf_counter() - started
    report.jobs = workers
    if failed is not None:
        raise RunFailed(report, failed.failures)
    return report


def vacuity_depth(depth: int) -> int:
    """How deep the vacuity check's bounded search goes for a run to ``depth``: as deep, up
    to 8 (its random games show the rest), and 6 when the run does no bounded model
    checking."""
    return min(depth, 8) if depth > 0 else 6


def _refusals(
    props: Sequence[Property], proofs: Sequence[ProofResult]
) -> list[tuple[Property, int]]:
    """Each enabledness property and player count whose proof found a confirmed refusal."""
    by_id = {p.id: p for p in props}
    return [
        (by_id[proof.id], verdict.n)
        for proof in proofs
        if by_id[proof.id].offer is not None
        for verdict in proof.per_n
        if verdict.counterexample is not None and verdict.counterexample.confirmed
    ]


def bmc_scope(
    props: Sequence[Property],
    checked: Sequence[Property],
    proofs: dict[str, ProofResult],
    assumed: Sequence[str],
) -> list[str]:
    """The invariants of ``checked`` that bounded model checking must search, given the
    verdicts ``proofs`` on the run's properties ``props``: every one when the proofs rest on a
    state property that is not proved (one of ``assumed``, outside the run, or one of
    ``props`` whose proof failed, was unknown or disagreed), since every proof assumes them
    all; otherwise those whose own proof is not proved (none, when every proof held)."""
    unproved = {pid for pid, proof in proofs.items() if proof.verdict != PROVED}
    resting = bool(assumed) or any(p.state is not None and p.id in unproved for p in props)
    return [p.id for p in checked if resting or p.id in unproved]


def proof_pieces(
    props: Sequence[Property], workers: int
) -> list[tuple[Property, tuple[int, int] | None]]:
    """The proof tasks of ``props`` on ``workers`` processes, the costliest first: each
    property with the chunk of its branches it proves (None: the whole property, the only
    piece of any property but those of :data:`CHUNKS` when there are several processes)."""
    out: list[tuple[Property, tuple[int, int] | None]] = []
    for prop in sorted(props, key=lambda p: -CHUNKS.get(p.id, 0)):
        count = CHUNKS.get(prop.id, 1) if workers > 1 and prop.per_branch else 1
        out += [(prop, (i, count) if count > 1 else None) for i in range(count)]
    return out


def gathered(parts: Parts, done: Done) -> ProofResult | None:
    """Note a finished proof task in ``parts`` (by its tag and property); the property's
    result once its last piece (:func:`proof_pieces`) is in."""
    task = done.task
    index, count = task.chunk or (0, 1)
    found = parts.setdefault((task.tag, task.prop), [None] * count)
    found[index] = done.result
    if any(part is None for part in found):
        return None
    return done.result if count == 1 else merge_chunks([p for p in found if p is not None])


def _with_cross_check(proof: ProofResult, checks: Sequence[CrossCheck]) -> ProofResult:
    """The proof without the re-checks in its time (they are reported apart), marked
    :data:`.DISAGREED` (overall, and for each count it proved, since every query of the
    property covered those counts) when the two solvers disagreed on one of its queries."""
    if not checks:
        return proof
    proof = replace(proof, seconds=max(0.0, proof.seconds - sum(c.seconds for c in checks)))
    if not any(check.disagrees for check in checks):
        return proof
    per_n = tuple(replace(v, verdict=DISAGREED) if v.verdict == PROVED else v for v in proof.per_n)
    return replace(proof, verdict=DISAGREED, per_n=per_n)
