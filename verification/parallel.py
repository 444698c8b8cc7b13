"""The verification's independent pieces of work (:class:`Task`), run in worker processes.

A task carries only plain data (Z3 objects do not pickle) and each worker builds the symbolic
model itself, once per configuration (:func:`.proof_model`). A task that raises does not end
the run (see :func:`execute`).
"""

from __future__ import annotations

import multiprocessing
import time
from collections import deque
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from contextlib import nullcontext
from dataclasses import dataclass
from typing import Any

import z3

from buckshot.verification.engine.lockstep import random_walks
from buckshot.verification.model.config import Config
from buckshot.verification.model.executable import ExecutableSpec
from buckshot.verification.model.patch import NO_PATCH, Patch
from buckshot.verification.proofs.bmc import bounded_per_n
from buckshot.verification.proofs.crosscheck import CrossCheck, recording
from buckshot.verification.proofs.induction import proof_model, property_by_id, prove_property
from buckshot.verification.proofs.reachability import check_reachability
from buckshot.verification.proofs.vacuity import check_vacuity
from buckshot.workers import available_cores, deaf_children, ignore_ctrl_c, terminate

PROOF = "proof"
BMC = "bmc"
VACUITY = "vacuity"
ENGINE = "engine"
REACHABILITY = "reachability"


@dataclass(frozen=True)
class Task:
    """One independent piece of a run (plain data, so that it can go to another process)."""

    kind: str  # PROOF, BMC, VACUITY, ENGINE or REACHABILITY (a comparison's targets)
    cfg: Config
    patch: Patch = NO_PATCH  # the change of the model (a deliberate bug), if any
    timeout_ms: int = 60_000
    prop: str = ""  # a proof task's property
    chunk: tuple[int, int] | None = None  # a proof task's branches (i, k): i, i+k, i+2k...
    depth: int = 0  # a BMC or vacuity task's bound
    props: tuple[str, ...] = ()  # the properties a BMC task checks
    steps: int = 0  # an engine task's lockstep steps
    cross_check: bool = False  # a proof task re-asks its queries of cvc5
    tag: str = ""  # the caller's label (a comparison's ``old``/``new``)


@dataclass(frozen=True)
class Done:
    """A finished task, its result and how long it ran (in the process that ran it)."""

    task: Task
    result: Any  # what :func:`run_task` returns for the task's kind
    seconds: float
    cpu_seconds: float  # the processor time of the process that ran it, Z3 included
    checks: tuple[CrossCheck, ...] = ()  # a proof task's queries re-checked by cvc5


class TaskFailed(RuntimeError):
    """Tasks of a run raised errors: each as one line, the task and its error (plain text, so
    that it crosses from a worker process whatever the error's class)."""

    def __init__(self, failures: Sequence[str]) -> None:
        super().__init__("; ".join(failures))
        self.failures = tuple(failures)

    def __reduce__(self) -> tuple[type[TaskFailed], tuple[tuple[str, ...]]]:
        return (TaskFailed, (self.failures,))


def run_task_or_fail(task: Task) -> Done:
    """:func:`run_task`, its error (any but Ctrl-C) raised as a :class:`TaskFailed` naming
    the task (``proof P1 part 1 of 4: ...``)."""
    try:
        return run_task(task)
    except Exception as error:
        part = "" if task.chunk is None else f"part {task.chunk[0] + 1} of {task.chunk[1]}"
        what = " ".join(word for word in (task.kind, task.prop, part) if word)
        reason = " ".join(str(error).split()) or "no message"
        raise TaskFailed([f"{what}: {reason}"]) from None


def run_task(task: Task) -> Done:
    """Run one task (in whichever process calls it) and return its result."""
    # Z3 otherwise takes Ctrl-C for itself during a query: it cancels the query, which
    # returns unknown, and the run goes on with a verdict Ctrl-C made up
    z3.set_param("ctrl_c", False)
    started, cpu = time.perf_counter(), time.process_time()
    result: Any
    checks: list[CrossCheck] = []
    if task.kind == PROOF:
        model = proof_model(task.cfg, task.patch)
        prop = property_by_id(task.prop)
        with recording(task.timeout_ms) if task.cross_check else nullcontext(checks) as checks:
            result = prove_property(model, prop, task.timeout_ms, task.chunk)
    elif task.kind == BMC:
        props = [property_by_id(pid) for pid in task.props]
        result = bounded_per_n(task.cfg, props, task.depth, task.patch, task.timeout_ms)
    elif task.kind == VACUITY:
        result = check_vacuity(task.cfg, depth=task.depth)
    elif task.kind == REACHABILITY:
        result = check_reachability(task.cfg, depth=task.depth, timeout_ms=task.timeout_ms)
    elif task.kind == ENGINE:
        spec = ExecutableSpec(task.cfg.ruleset, config=task.cfg, patch=task.patch)
        counts = tuple(range(task.cfg.players_lo, task.cfg.players_hi + 1))
        result = random_walks(spec, task.cfg.ruleset, task.steps, players=counts)
    else:
        raise ValueError(f"unknown task kind {task.kind!r}")
    seconds, cpu_seconds = time.perf_counter() - started, time.process_time() - cpu
    return Done(task, result, seconds, cpu_seconds, tuple(checks))


def default_jobs() -> int:
    """Worker processes to use by default: the cores available to this process, at most 2."""
    return min(2, available_cores())


def execute(
    tasks: Sequence[Task],
    jobs: int,
    on_done: Callable[[Done], Sequence[Task] | None],
    isolate: bool = False,
) -> None:
    """Run ``tasks`` (in the order given: put the longest first) on ``jobs`` processes,
    calling ``on_done`` in this process as each one finishes; the tasks ``on_done`` returns
    (work that only a finished task shows to be needed) are run after those already queued.

    With one job the tasks run in this process, unless ``isolate``: then in one worker
    process, which Ctrl-C ends at once (in this process it would wait for the query).

    A task that raises does not stop the others: once they are done, :class:`TaskFailed`
    names every task that failed (``on_done`` has heard of every other one)."""
    failures: list[str] = []
    if not isolate and (jobs <= 1 or len(tasks) <= 1):
        queue = deque(tasks)
        while queue:
            try:
                done = run_task_or_fail(queue.popleft())
            except TaskFailed as failure:
                failures += failure.failures
                continue
            queue.extend(on_done(done) or ())
    else:
        context = multiprocessing.get_context("spawn")
        pool = ProcessPoolExecutor(
            max_workers=max(1, jobs), mp_context=context, initializer=ignore_ctrl_c
        )
        try:
            with deaf_children():  # submitting starts the workers
                pending: set[Future[Done]] = {pool.submit(run_task_or_fail, t) for t in tasks}
            while pending:
                finished, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in finished:
                    error = future.exception()
                    if isinstance(error, TaskFailed):
                        failures += error.failures
                        continue
                    more = on_done(future.result()) or ()
                    with deaf_children():
                        pending |= {pool.submit(run_task_or_fail, t) for t in more}
        except BaseException:
            # Ctrl-C (or a failure) stops the run at once: a worker inside a solver call
            # would only notice at its end, so the workers are terminated, not waited for
            terminate(pool)
            raise
        pool.shutdown()
    if failures:
        raise TaskFailed(failures)
