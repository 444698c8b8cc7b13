"""Worker processes that Ctrl-C stops at once, and as many as the machine can run
(``--jobs``, ``--workers``; docs/commands.md, "Ctrl-C" and "Resources")."""

from __future__ import annotations

import os
import signal
import sys
import threading
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from multiprocessing import resource_tracker
from typing import TextIO


def ignore_ctrl_c() -> None:
    """Make this (worker) process ignore Ctrl-C; the main process stops it."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@contextmanager
def deaf_children() -> Iterator[None]:
    """Threads and processes started inside (a pool's workers and helper threads, a Dask
    cluster's) start with SIGINT blocked, so that the terminal's Ctrl-C is always this main
    thread's (one a helper took left the main thread asleep in a wait); a Ctrl-C pressed
    inside is held, and raised as the block ends."""
    if threading.current_thread() is not threading.main_thread():
        yield  # Ctrl-C is the main thread's: a thread started here inherits this mask
        return
    # multiprocessing's resource tracker, started by the first spawned process, unblocks
    # SIGINT in the thread that starts it (the mask its own start needs): started first
    resource_tracker.ensure_running()
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def terminate(pool: ProcessPoolExecutor) -> None:
    """Stop every worker of ``pool`` now and drop the tasks not started."""
    manager = getattr(pool, "_executor_manager_thread", None)
    previous = threading.excepthook
    if manager is not None:
        # the manager, torn down while it works, can find its pipes closed under load: its
        # exception prints no traceback (every other thread's does)
        def hook(args: threading.ExceptHookArgs) -> None:
            if args.thread is not manager:
                previous(args)

        threading.excepthook = hook
    processes = list((getattr(pool, "_processes", None) or {}).values())
    for worker in processes:
        worker.terminate()
    pool.shutdown(wait=False, cancel_futures=True)
    for worker in processes:
        worker.join(timeout=5)
    # Let the pool's manager thread finish closing its wake-up pipe now: left running, it can
    # close the pipe while the interpreter's exit hook writes to it, which prints an
    # "OSError: Bad file descriptor" traceback after the command has ended (CPython 3.11).
    if manager is not None:
        manager.join(timeout=5)
        if not manager.is_alive():  # ended: nothing left to silence
            threading.excepthook = previous


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
