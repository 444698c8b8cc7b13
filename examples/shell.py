"""What the examples share: running ``buckshot`` as you would at a shell, and showing it.

Each example runs the program with the interpreter that runs the example
(``python -m buckshot``, the same program as ``.venv/bin/buckshot``), prints the command
line as ``$ buckshot ...`` and then what it printed, and stops when it exits otherwise than
expected.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path


def buckshot(
    *args: str,
    expect: int = 0,
    stdin: str | None = None,
    columns: int = 100,
    show: bool = True,
) -> str:
    """Run ``buckshot ARGS``; its standard output. Exit with a message unless its exit code
    is ``expect``."""
    print(f"$ buckshot {shlex.join(args)}", flush=True)
    done = subprocess.run(
        [sys.executable, "-m", "buckshot", *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=dict(os.environ, COLUMNS=str(columns)),
    )
    if show:
        print(done.stdout, end="" if done.stdout.endswith("\n") or not done.stdout else "\n")
    if done.stderr.strip() and (show or done.returncode != expect):
        print(done.stderr, end="", file=sys.stderr)
    if done.returncode != expect:
        sys.exit(f"buckshot {shlex.join(args)}: exit {done.returncode}, expected {expect}")
    return done.stdout


def folder(given: Path | None, name: str) -> Path:
    """The folder an example writes into: ``given``, or a new one under the system's
    temporary folder (kept, so that you can open what it holds)."""
    if given is None:
        return Path(tempfile.mkdtemp(prefix=f"buckshot-{name}-"))
    given.mkdir(parents=True, exist_ok=True)
    return given
