"""Worker processes that Ctrl-C stops at once, and as many as the machine can run, shared by
the commands that use a pool (``simulate``, ``verify``, ``compare``, ``sweep``).

The workers ignore Ctrl-C (:func:`ignore_ctrl_c`, a pool's initializer, and from their very
start when they are started inside :func:`deaf_children`): the terminal sends SIGINT to the
whole process group, and a worker's own KeyboardInterrupt would only print a traceback. The
main process gets it, and ends the workers with :func:`terminate`, rather than waiting for a
worker inside a long game or a solver call to notice.

A number of workers asked for (``--jobs``, ``--workers``) is bounded by the cores this process
may run on (:func:`bounded_workers`): more workers than cores only take turns on them.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from typing import TextIO


def ignore_ctrl_c() -> None:
    """Make this (worker) process ignore Ctrl-C; the main process stops it."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@contextmanager
def deaf_children() -> Iterator[None]:
    """Processes started inside (a pool's workers, as tasks are submitted) ignore Ctrl-C from
    their first instruction: an ignored signal stays ignored in a new program, and Python
    leaves it so. A spawned worker imports for a second or more before its initializer runs,
    and a Ctrl-C then printed its traceback. This process ignores Ctrl-C inside too, so keep
    the block to the starting of processes."""
    if threading.current_thread() is not threading.main_thread():
        yield  # only the main thread may change the handler; Ctrl-C is its own
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def terminate(pool: ProcessPoolExecutor) -> None:
    """Stop every worker of ``pool`` now and drop the tasks not started."""
    processes = list((getattr(pool, "_processes", None) or {}).values())
    for worker in processes:
        worker.terminate()
    pool.shutdown(wait=False, cancel_futures=True)
    for worker in processes:
        worker.join(timeout=5)
    # Let the pool's manager thread finish closing its wake-up pipe now: left running, it can
    # close the pipe while the interpreter's exit hook writes to it, which prints an
    # "OSError: Bad file descriptor" traceback after the command has ended (CPython 3.11).
    manager = getattr(pool, "_executor_manager_thread", None)
    if manager is not None:
        manager.join(timeout=5)


def available_cores() -> int:
    """The number of cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def bounded_workers(requested: int, option: str, stream: TextIO | None = None) -> int:
    """``requested`` worker processes (0: one per core), at most the cores available: more
    would only share the cores and wait (each worker is one busy process). Asked for more, a
    one-line warning on ``stream`` (standard error) says how many are used."""
    cores = available_cores()
    if requested <= 0:
        return cores
    if requested > cores:
        print(
            f"warning: {option} {requested}: this machine gives {cores} "
            f"core{'s' if cores != 1 else ''}; using {cores}",
            file=stream if stream is not None else sys.stderr,
            flush=True,
        )
        return cores
    return requested
