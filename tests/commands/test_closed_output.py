"""A reader that closes standard output early (``buckshot spec traceability | head -1``) ends
the command quietly, exit 1, never with a ``BrokenPipeError`` traceback (issue 26: no
traceback for any input, file, path, signal or environment): every ``python -m buckshot...``
entry point and the ``buckshot`` program (buckshot/interrupt.py)."""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from buckshot.interrupt import CLOSED_OUTPUT

ROOT = Path(__file__).resolve().parents[2]
ROOMS = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-dir"]
"""Each package name of the project with its folder (``buckshot.spec`` is ``spec/``)."""
MAIN_GUARD = 'if __name__ == "__main__":'


def entry_points() -> list[str]:
    """Every module of the package run as ``python -m MODULE``: each ``__main__.py`` and
    each module with a main guard, in every room (the reference engine's adapter among
    them)."""
    found = []
    for package, room in ROOMS.items():
        for path in (ROOT / room).rglob("*.py"):
            if "data" in path.parts or not (
                path.name == "__main__.py" or MAIN_GUARD in path.read_text(encoding="utf-8")
            ):
                continue
            parts = (package, *path.relative_to(ROOT / room).with_suffix("").parts)
            found.append(".".join(parts[:-1] if path.name == "__main__.py" else parts))
    return sorted(found)


def _environment(buffered: bool) -> dict[str, str]:
    """The environment, standard output block-buffered (the interpreter's default on a pipe,
    where what is left is written at exit) or not (``PYTHONUNBUFFERED``)."""
    env = {key: value for key, value in os.environ.items() if key != "PYTHONUNBUFFERED"}
    if not buffered:
        env["PYTHONUNBUFFERED"] = "1"
    env.pop("BUCKSHOT_TRACEBACK", None)
    return env


def run_with_output_closed(
    args: list[str], cwd: Path, buffered: bool = True, stdin: str = ""
) -> subprocess.CompletedProcess[str]:
    """Run ``args`` with standard output a pipe whose reader has already gone."""
    reader, writer = os.pipe()
    os.close(reader)
    try:
        return subprocess.run(
            args,
            stdout=writer,
            stderr=subprocess.PIPE,
            input=stdin,
            text=True,
            cwd=cwd,
            env=_environment(buffered),
            timeout=120,
            check=False,
        )
    finally:
        os.close(writer)


def test_the_entry_points_are_found() -> None:
    found = entry_points()
    for module in (
        "buckshot",
        "buckshot.reference.adapter",
    ):
        assert module in found


@pytest.mark.parametrize("module", entry_points())
@pytest.mark.slow
def test_help_to_a_closed_output_ends_quietly(module: str, tmp_path: Path) -> None:
    """``--help`` (argparse's, typer's; or a refusal on standard error by a module that
    takes no arguments): to a closed output, exit 1 and nothing said, or the refusal as
    before when it writes nothing on standard output."""
    args = [sys.executable, "-m", module, "--help"]
    shown = subprocess.run(
        args, capture_output=True, text=True, cwd=tmp_path, env=_environment(True), check=False
    )
    closed = run_with_output_closed(args, tmp_path)
    assert "Traceback" not in closed.stderr and "Exception ignored" not in closed.stderr
    if shown.stdout:
        assert (closed.returncode, closed.stderr) == (CLOSED_OUTPUT, "")
    else:
        assert (closed.returncode, closed.stderr) == (shown.returncode, shown.stderr)


@pytest.mark.parametrize("buffered", [True, False])
@pytest.mark.slow
def test_a_fault_list_to_a_closed_output_ends_quietly(buffered: bool, tmp_path: Path) -> None:
    """The report: ``python -m buckshot.faults.adapter --list | head -1`` (the fault adapter is
    now ``tests/faults/adapter.py``, outside the package, and ends the same way)."""
    args = [sys.executable, str(ROOT / "tests" / "faults" / "adapter.py"), "--list"]
    closed = run_with_output_closed(args, tmp_path, buffered)
    assert (closed.returncode, closed.stderr) == (CLOSED_OUTPUT, "")


@pytest.mark.parametrize("buffered", [True, False])
@pytest.mark.slow
def test_a_buckshot_command_to_a_closed_output_ends_quietly(buffered: bool, tmp_path: Path) -> None:
    """``spec rulings`` prints a page (checked in this process: only the closed output needs a
    real one); to a closed output it ends quietly."""
    from typer.testing import CliRunner

    from buckshot.cli.main import app

    shown = CliRunner().invoke(app, ["spec", "rulings"])
    assert shown.exit_code == 0 and shown.stdout, shown.output
    args = [sys.executable, "-m", "buckshot", "spec", "rulings"]
    closed = run_with_output_closed(args, tmp_path, buffered)
    assert (closed.returncode, closed.stderr) == (CLOSED_OUTPUT, "")


@pytest.mark.slow
def test_the_reference_adapter_replying_to_a_closed_output_ends_quietly(
    tmp_path: Path,
) -> None:
    """A runner that stops reading: the adapter's reply to ``start`` cannot be written."""
    from buckshot.conformance.protocol import encode, start_message
    from buckshot.spec import SPEC_VERSION

    args = [sys.executable, "-m", "buckshot.reference.adapter"]
    closed = run_with_output_closed(args, tmp_path, stdin=encode(start_message(SPEC_VERSION)))
    assert (closed.returncode, closed.stderr) == (CLOSED_OUTPUT, "")
