"""Known-failures files: the cases an implementation is known not to pass yet.

One case ID per line, optionally followed by a reason; ``#`` starts a comment; blank lines
are ignored::

    shot.a-kill-locks-shooting   the lock is not implemented yet (issue 12)
"""

from __future__ import annotations

from pathlib import Path

from buckshot.command import InputError, read_input


class KnownFailuresError(Exception):
    """The file cannot be read or a line is not ``ID [reason]``; ``code`` is
    ``known_failures.unreadable`` (missing, a folder, no permission) or
    ``known_failures.invalid``."""

    def __init__(self, message: str, code: str = "known_failures.invalid") -> None:
        super().__init__(message)
        self.code = code


def parse_known_failures(text: str, source: str = "<text>") -> dict[str, str]:
    """Case ID -> reason (empty when none is given), in file order."""
    marked: dict[str, str] = {}
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        case_id, _, reason = line.partition(" ")
        if case_id in marked:
            raise KnownFailuresError(f"{source}:{number}: {case_id} is listed twice")
        marked[case_id] = reason.strip()
    return marked


def load_known_failures(path: Path) -> dict[str, str]:
    """The known failures listed in ``path``."""
    try:
        text = read_input(path, "known-failures list", "known_failures")
    except InputError as error:
        raise KnownFailuresError(str(error), error.code) from None
    return parse_known_failures(text, str(path))
