"""How a command ends when it is interrupted (docs/commands.md, "Exit status"): when its reader
closes standard output (``| head -1``), quietly with :data:`CLOSED_OUTPUT`; a Ctrl-C that Python
dropped on the way is noted (:data:`CTRL_C`), so that the command still stops (exit 130,
:mod:`buckshot.command`).

A leaf module: it imports nothing of the package, so any entry point may use it.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType
from typing import Any, NoReturn

CLOSED_OUTPUT = 1
"""The exit status of a command whose standard output was closed before it finished."""


@contextmanager
def closed_output_ends_quietly() -> Iterator[None]:
    """Run the block; if standard output is closed by its reader, in the block or when what
    is still buffered is written at its end (even as the block exits), exit quietly with
    :data:`CLOSED_OUTPUT`."""
    try:
        yield
    except BrokenPipeError:
        _end_quietly()
    finally:
        try:
            if sys.stdout is not None:
                sys.stdout.flush()
        except BrokenPipeError:
            _end_quietly()


def _end_quietly() -> NoReturn:
    """Exit with :data:`CLOSED_OUTPUT`, standard output pointed at the null device so that
    the interpreter's last flush of what is left in its buffer cannot fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # no file descriptor (a test's capture)
        pass
    sys.exit(CLOSED_OUTPUT)


CTRL_C = threading.Event()
"""Set when Ctrl-C comes while a command runs. Python raises KeyboardInterrupt wherever the
main thread is, and when that is a finaliser (z3's ``Solver.__del__``) it prints "Exception
ignored" and drops it: a command's progress and its writes look here to stop all the same."""


def _on_ctrl_c(signum: int, frame: FrameType | None) -> None:
    """SIGINT's handler while a command runs: Python's own, and a note in :data:`CTRL_C`."""
    CTRL_C.set()
    raise KeyboardInterrupt


def _unraisable(unraisable: Any) -> None:
    """``sys.unraisablehook`` while a command runs: a Ctrl-C a finaliser dropped is noted
    (:data:`CTRL_C` holds it) and not printed as "Exception ignored" with its traceback."""
    if not isinstance(unraisable.exc_value, KeyboardInterrupt):
        sys.__unraisablehook__(unraisable)


@contextmanager
def noting_ctrl_c() -> Iterator[None]:
    """While inside, note each Ctrl-C in :data:`CTRL_C`, unless SIGINT has a handler other
    than Python's own (a test runner's); on the way out, the handlers are as they were."""
    CTRL_C.clear()
    if signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        yield
        return
    hook = sys.unraisablehook
    signal.signal(signal.SIGINT, _on_ctrl_c)
    sys.unraisablehook = _unraisable
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, signal.default_int_handler)
        if sys.unraisablehook is _unraisable:
            sys.unraisablehook = hook
        CTRL_C.clear()


def stop_if_interrupted() -> None:
    """Raise KeyboardInterrupt if a Ctrl-C came while the command ran (one a finaliser dropped)."""
    if CTRL_C.is_set():
        raise KeyboardInterrupt
