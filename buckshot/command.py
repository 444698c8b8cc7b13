"""What every command of the ``buckshot`` program shares: refusing with a coded error, writing
an output file whole, and loading the ``--rules`` ruleset.

A leaf module (it imports no other command), so that each subcommand's module can use it.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

import typer

if TYPE_CHECKING:
    from buckshot.spec.ruleset import Ruleset


def fail(code: str, message: str, exit_code: int = 2) -> NoReturn:
    """Print ``error [code]: message`` on standard error and exit with ``exit_code``."""
    typer.echo(f"error [{code}]: {message}", err=True)
    raise typer.Exit(exit_code)


def write_atomic(path: Path, text: str) -> None:
    """Write ``text`` (UTF-8) to ``path`` whole: a reader sees the old file or the new one.
    The file gets the usual permissions (0666 less the umask), like any file a command writes."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    mask = os.umask(0)
    os.umask(mask)
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="") as stream:
            stream.write(text)
        os.chmod(temporary, 0o666 & ~mask)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def check_output(path: Path | None) -> None:
    """Refuse, before any work, an output path that cannot be written (None: no output)."""
    if path is None:
        return
    folder = next((p for p in (path.parent, *path.parent.parents) if p.exists()), Path("."))
    if path.is_dir():
        fail("output.unwritable", f"{path} is a folder, not a file")
    if not folder.is_dir() or not os.access(folder, os.W_OK | os.X_OK):
        fail("output.unwritable", f"cannot write {path}: {folder} is not a writable folder")


def save(path: Path, text: str) -> None:
    """:func:`write_atomic`, refused with an error message (not a traceback) when it fails."""
    try:
        write_atomic(path, text)
    except OSError as error:
        fail("output.unwritable", f"cannot write {path}: {error.strerror or error}")


def load_rules(rules: Path | None) -> Ruleset:
    """The ruleset of ``--rules`` (the packaged default when None); refused with its error."""
    from buckshot.spec.ruleset import RulesetError, load_ruleset

    try:
        return load_ruleset(rules)
    except RulesetError as error:
        fail(error.code, str(error))
