"""What every command of the ``buckshot`` program shares: one-line refusals, output files
checked before the work and written whole, input files read in words, and the ``--rules``
ruleset (docs/commands.md, "What every command does with bad input, output paths and Ctrl-C").

A leaf module (it imports no other command), so that each subcommand's module can use it.
"""

from __future__ import annotations

import ctypes
import json
import os
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn

import typer
import typer.core

from buckshot.extras import ExtraMissing
from buckshot.interrupt import (
    CTRL_C,
    closed_output_ends_quietly,
    noting_ctrl_c,
    stop_if_interrupted,
)
from buckshot.spec import SpecError

if TYPE_CHECKING:
    from buckshot.spec.ruleset import Ruleset

INTERRUPTED = 130
"""The exit status of a command stopped by Ctrl-C (128 + SIGINT), as a shell reports it."""

REFUSED = 2
"""The exit status of a refusal: bad input, an unwritable output, a usage error."""

MAX_GAMES = 10_000_000
"""The most games one command plays (``--games``, times the rulesets of a sweep): hours of a
machine's cores already; a larger number is refused, not started."""

TRACEBACK_VARIABLE = "BUCKSHOT_TRACEBACK"
"""Set (to anything but empty) to see the traceback of an unforeseen error, not its one line."""


def _library_error(name: str) -> type[Exception]:
    """The command-line library's exception class ``name``, an ancestor of its public
    ``BadParameter`` (typer keeps its copy of click's exceptions in a private module)."""
    found = next((c for c in typer.BadParameter.__mro__ if c.__name__ == name), None)
    if found is None or not issubclass(found, Exception):
        raise ImportError(f"typer.BadParameter has no ancestor {name}")
    return found


UsageError = _library_error("UsageError")
"""A command line that does not parse: unknown option or command, bad value, missing one."""
ClickException = _library_error("ClickException")
"""Any error the command-line library reports to the user."""


class OneLineErrors(typer.core.TyperGroup):
    """A command group whose usage errors are one line, ``error [usage]: <command>: <what>``
    on standard error with exit 2, like every other refusal. A path it is given is judged by
    the command that reads or writes it, in that reader's words and code (``log.unreadable``,
    ``output.unwritable``...), never refused by the library as "not readable"."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for command in [self, *self.commands.values()]:
            for param in command.params:  # a path's own check: "path 'x' is not readable"
                declared = getattr(getattr(param, "type_descriptor", None), "parameter_info", None)
                if declared is not None and getattr(declared, "readable", False):
                    declared.readable = False

    def main(
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        windows_expand_args: bool = True,
        **extra: Any,
    ) -> Any:
        """Run the command; in standalone mode, end the process with its exit status."""
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, False, windows_expand_args, **extra)
        # `buckshot ... | head -1`: exit 1, no traceback; a Ctrl-C a finaliser drops: exit 130
        with closed_output_ends_quietly(), noting_ctrl_c():
            if sys.stdout is None:  # started with standard output closed (>&-)
                _unforeseen(OSError("standard output is closed"), "os", "standard output is closed")
            try:
                for arg in sys.argv[1:] if args is None else args:  # no program can be given one
                    if "\0" in arg:
                        raise typer.BadParameter(f"{arg!r} holds a NUL byte")
                status = super().main(
                    args, prog_name, complete_var, False, windows_expand_args, **extra
                )
            except UsageError as error:
                if type(error).__name__ == "NoArgsIsHelpError":  # a bare group: its help is shown
                    typer.echo(error.format_message())  # type: ignore[attr-defined]
                    sys.exit(getattr(error, "exit_code", 2))
                context = getattr(error, "ctx", None)
                where = context.command_path if context is not None else (prog_name or "buckshot")
                hint = f" (see {where} --help)" if context is not None else ""
                message = error.format_message()  # type: ignore[attr-defined]
                typer.echo(f"error [usage]: {where}: {message}{hint}", err=True)
                sys.exit(2)
            except ClickException as error:
                typer.echo(f"error [usage]: {error.format_message()}", err=True)  # type: ignore[attr-defined]
                sys.exit(getattr(error, "exit_code", 1))
            except typer.Abort:
                typer.echo("error [aborted]: no input", err=True)
                sys.exit(1)
            except BrokenPipeError:  # standard output closed by its reader: no error (main)
                raise
            except ExtraMissing as error:  # an optional part not installed: what to install
                typer.echo(f"error [extra.missing]: {one_line(str(error))}", err=True)
                sys.exit(REFUSED)
            except SpecError as error:  # the spec edited into an inconsistent state
                typer.echo(f"error [spec.invalid]: the spec does not hold: {error}", err=True)
                sys.exit(REFUSED)
            except OSError as error:
                where = f"{error.filename}: " if error.filename is not None else ""
                _unforeseen(error, "os", f"{where}{error.strerror or error}")
            except ctypes.ArgumentError as error:
                if "KeyboardInterrupt" not in str(error):  # ctypes' word for a Ctrl-C in a call
                    _unforeseen(error, "internal", f"ArgumentError: {error} (a bug in buckshot)")
                typer.echo("error [interrupted]: stopped by Ctrl-C; nothing was written", err=True)
                _quiet_finalisers()
                sys.exit(INTERRUPTED)
            except Exception as error:  # the last guard: one line, never a traceback
                _unforeseen(
                    error, "internal", f"{type(error).__name__}: {error} (a bug in buckshot)"
                )
            # a command's typer.Exit comes back as its status; a finished command returns None
            if CTRL_C.is_set() and status != INTERRUPTED:  # dropped, and the command went on
                _interrupted()
            if status == INTERRUPTED:
                _quiet_finalisers()
            sys.exit(status if isinstance(status, int) else 0)


def command_group(**settings: Any) -> typer.Typer:
    """A group of commands (``help`` and the rest as ``typer.Typer`` takes them) with
    one-line errors (:class:`OneLineErrors`), no shell completion, and plain help, which
    never cuts an option's name."""
    return typer.Typer(cls=OneLineErrors, add_completion=False, rich_markup_mode=None, **settings)


def _unforeseen(error: BaseException, code: str, message: str) -> NoReturn:
    """End on an error no command foresaw: one line and exit 2, or its traceback when
    :data:`TRACEBACK_VARIABLE` is set."""
    if os.environ.get(TRACEBACK_VARIABLE):
        raise error
    typer.echo(f"error [{code}]: {one_line(message)}", err=True)
    sys.exit(REFUSED)


def one_line(message: str) -> str:
    """``message`` on one line: its lines joined by "; " (by a space after a colon)."""
    joined = ""
    for part in (line.strip() for line in message.splitlines()):
        if part:
            joined = (
                part if not joined else f"{joined}{' ' if joined.endswith(':') else '; '}{part}"
            )
    return joined


def fail(code: str, message: str, exit_code: int = 2) -> NoReturn:
    """Print ``error [code]: message`` on standard error, on one line, and exit with
    ``exit_code``."""
    typer.echo(f"error [{code}]: {one_line(message)}", err=True)
    raise typer.Exit(exit_code)


def _interrupted() -> NoReturn:
    """End a command that a Ctrl-C stopped without its own word on it: one line, exit 130."""
    typer.echo("error [interrupted]: stopped by Ctrl-C", err=True)
    _quiet_finalisers()
    sys.exit(INTERRUPTED)


def _quiet_finalisers() -> None:
    """After a Ctrl-C, let no finaliser of a half-built object print a traceback on the way
    out (unless :data:`TRACEBACK_VARIABLE` is set)."""
    if not os.environ.get(TRACEBACK_VARIABLE):
        sys.unraisablehook = lambda _unraisable: None


def write_atomic(path: Path, text: str) -> None:
    """Write ``text`` (UTF-8) to ``path`` whole: a reader sees the old file or the new one.
    Missing parent folders are created. The file gets the usual permissions (0666 less the
    umask), like any file a command writes."""
    stop_if_interrupted()
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
    try:  # permissions are not all (root, a read-only mount, /proc): try an unnamed file
        with tempfile.TemporaryFile(dir=existing):
            pass
    except OSError:
        return existing
    return None


def output_problem(path: Path) -> str | None:
    """Why the output file ``path`` cannot be written (a folder, a read-only file, a parent that
    is a file or not writable; a missing parent is fine: it is created on write); None when it
    can."""
    if path.is_dir():
        return "a folder, not a file"
    if path.exists() and not os.access(path, os.W_OK):
        return "the file is not writable"
    blocker = _writable_folder(path.parent)
    return None if blocker is None else f"{blocker} is not a writable folder"


def check_output(path: Path | None, option: str = "output") -> None:
    """Refuse, before any work, an output file ``path`` given as ``option`` that cannot be
    written (:func:`output_problem`). None: no output asked for."""
    if path is not None and (problem := output_problem(path)) is not None:
        fail("output.unwritable", f"{option} {path}: {problem}")


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


def save(path: Path, text: str, option: str = "output", told: bool = False) -> None:
    """:func:`write_atomic`, refused with an error message (not a traceback) when it fails;
    ``told``: then say ``wrote PATH`` on standard error."""
    try:
        write_atomic(path, text)
    except OSError as error:
        fail("output.unwritable", f"{option} {path}: cannot write: {error.strerror or error}")
    if told:
        typer.echo(f"wrote {path}", err=True)


class InputError(ValueError):
    """An input file that cannot be read as the text it should be, in the user's words;
    ``code`` is its reader's ``<reader>.unreadable`` (missing, a folder, no permission) or
    ``<reader>.invalid`` (not UTF-8 text)."""

    def __init__(self, message: str, code: str) -> None:
        super().__init__(message)
        self.code = code


def read_input(path: Path, what: str, reader: str) -> str:
    """The text of the input file ``path``, a ``what`` ("conformance report") read by
    ``reader`` ("report", the first word of its error codes); :class:`InputError` saying, in
    words, why it cannot be read: missing, a folder, not readable, not UTF-8 text."""
    unreadable = f"{reader}.unreadable"
    if path.is_dir():
        raise InputError(f"{path}: a folder, not a {what}", unreadable)
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise InputError(f"{path}: no such file (a {what} was expected)", unreadable) from None
    except PermissionError:
        raise InputError(f"{path}: no permission to read this {what}", unreadable) from None
    except OSError as error:
        reason = (error.strerror or "error").lower()
        raise InputError(f"{path}: cannot read it: {reason}", unreadable) from None
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise InputError(
            f"{path}: not UTF-8 text (byte {error.start + 1}), so not a {what}", f"{reader}.invalid"
        ) from None


def json_problem(error: ValueError, where: bool = True) -> str:
    """What a JSON parse error means, in words (never the parser's own text); ``where``
    adds the line and column (a file's, not one line's)."""
    if not isinstance(error, json.JSONDecodeError):
        return "not JSON"
    if error.msg == "Extra data":
        return "more than one JSON value" + (f" (from line {error.lineno})" if where else "")
    return "not JSON" + (f" (at line {error.lineno}, column {error.colno})" if where else "")


RulesOption = Annotated[
    Path | None,
    typer.Option("--rules", help="A ruleset variant (TOML) to use instead of the default one."),
]
"""The ``--rules`` option of the commands that play or verify a variant."""


def load_rules(rules: Path | None) -> Ruleset:
    """The ruleset of ``--rules`` (the packaged default when None); refused with its error."""
    from buckshot.spec.ruleset import RulesetError, load_ruleset

    try:
        return load_ruleset(rules)
    except RulesetError as error:
        fail(error.code, str(error))
