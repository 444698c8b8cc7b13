"""How every entry point of the package ends when its reader closes standard output
(``| head -1``): quietly, with :data:`CLOSED_OUTPUT` (docs/commands.md, "Exit status").

A leaf module: it imports nothing of the package, so any entry point may use it.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import NoReturn

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
