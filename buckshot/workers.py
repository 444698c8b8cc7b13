"""Worker processes that Ctrl-C stops at once, shared by the commands that use a pool
(``simulate``, ``verify``).

The workers ignore Ctrl-C (:func:`ignore_ctrl_c`, a pool's initializer): the terminal sends
SIGINT to the whole process group, and a worker's own KeyboardInterrupt would only print a
traceback. The main process gets it, and ends the workers with :func:`terminate`, rather
than waiting for a worker inside a long game or a solver call to notice.
"""

from __future__ import annotations

import signal
from concurrent.futures import ProcessPoolExecutor


def ignore_ctrl_c() -> None:
    """Make this (worker) process ignore Ctrl-C; the main process stops it."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


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
