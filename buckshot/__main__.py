"""The ``buckshot`` program: its console script and ``python -m buckshot``."""

import os
import signal
import sys
from contextlib import suppress

ENDED_BY_CTRL_C = 128 + signal.SIGINT
"""The exit status of a run Ctrl-C stopped (``buckshot.command.INTERRUPTED``, not imported
here: a Ctrl-C may come before it is)."""


def main() -> None:
    """Run the ``buckshot`` program. A Ctrl-C ends it with exit status 130 at once, while it
    loads and once a command has stopped on it, without the interpreter's slow teardown."""
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
