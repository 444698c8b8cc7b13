"""What every command of the ``buckshot`` program shares: refusing with a coded error, checking
and writing an output file whole, and loading the ``--rules`` ruleset.

One rule for every output option (``--json``, ``--out``, ``--report``, ``--junit``, ``--log``,
``--explore``...): the path is checked before the work starts (:func:`check_output`, exit 2 with
one line naming the option and the path); a missing parent folder is created when the file is
written; the file is written whole (a temporary file in the same folder, then a rename), with
the usual permissions (0666 less the umask, 0644 in general).

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

INTERRUPTED = 130
"""The exit status of a command stopped by Ctrl-C (128 + SIGINT), as a shell reports it."""


def fail(code: str, message: str, exit_code: int = 2) -> NoReturn:
    """Print ``error [code]: message`` on standard error and exit with ``exit_code``."""
    typer.echo(f"error [{code}]: {message}", err=True)
    raise typer.Exit(exit_code)


def write_atomic(path: Path, text: str) -> None:
    """Write ``text`` (UTF-8) to ``path`` whole: a reader sees the old file or the new one.
    Missing parent folders are created. The file gets the usual permissions (0666 less the
    umask), like any file a command writes."""
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


def _writable_folder(folder: Path) -> Path | None:
    """The folder that stops ``folder`` from being made or written into; None when it can be."""
    existing = next((p for p in (folder, *folder.parents) if p.exists()), Path("."))
    if not existing.is_dir() or not os.access(existing, os.W_OK | os.X_OK):
        return existing
    return None


def check_output(path: Path | None, option: str = "output") -> None:
    """Refuse, before any work, an output file ``path`` given as ``option`` that cannot be
    written: a folder, a read-only file, or a parent that is a file or not writable (a missing
    parent is fine: it is created on write). None: no output asked for."""
    if path is None:
        return
    if path.is_dir():
        fail("output.unwritable", f"{option} {path}: a folder, not a file")
    if path.exists() and not os.access(path, os.W_OK):
        fail("output.unwritable", f"{option} {path}: the file is not writable")
    blocker = _writable_folder(path.parent)
    if blocker is not None:
        fail("output.unwritable", f"{option} {path}: {blocker} is not a writable folder")


def check_output_folder(folder: Path | None, option: str = "output") -> None:
    """Refuse, before any work, an output folder ``folder`` given as ``option`` that cannot be
    made or written into (a missing one is created on write). None: no output asked for."""
    if folder is None:
        return
    if folder.exists() and not folder.is_dir():
        fail("output.unwritable", f"{option} {folder}: a file, not a folder")
    blocker = _writable_folder(folder)
    if blocker is not None:
        fail("output.unwritable", f"{option} {folder}: {blocker} is not a writable folder")


def save(path: Path, text: str, option: str = "output") -> None:
    """:func:`write_atomic`, refused with an error message (not a traceback) when it fails."""
    try:
        write_atomic(path, text)
    except OSError as error:
        fail("output.unwritable", f"{option} {path}: cannot write: {error.strerror or error}")


def load_rules(rules: Path | None) -> Ruleset:
    """The ruleset of ``--rules`` (the packaged default when None); refused with its error."""
    from buckshot.spec.ruleset import RulesetError, load_ruleset

    try:
        return load_ruleset(rules)
    except RulesetError as error:
        fail(error.code, str(error))
