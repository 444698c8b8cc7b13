"""The ``buckshot`` program: its console script and ``python -m buckshot``."""

import os
import signal
import sys
from contextlib import suppress

ENDED_BY_CTRL_C = 128 + signal.SIGINT
"""The exit status of a run Ctrl-C stopped (``buckshot.command.INTERRUPTED``, not imported
here: a Ctrl-C may come before it is)."""


def main() -> None:
    """Run the ``buckshot`` program. A Ctrl-C ends it with exit status 130 at once: while it
    loads (with no traceback), and once a command has stopped on it (its workers ended, its
    line printed) without the interpreter's teardown of what the command loaded, which took
    a second or more after a Dask cluster, and whose finalisers could only print noise."""
    status: str | int | None = 0
    try:
        from buckshot.cli.main import app

        app(prog_name="buckshot")
    except KeyboardInterrupt:
        status = ENDED_BY_CTRL_C
    except SystemExit as end:
        status = end.code
    if status == ENDED_BY_CTRL_C:
        for stream in (sys.stdout, sys.stderr):
            with suppress(OSError, ValueError, AttributeError):  # closed by its reader, or none
                stream.flush()
        os._exit(ENDED_BY_CTRL_C)
    sys.exit(status)


if __name__ == "__main__":
    main()
