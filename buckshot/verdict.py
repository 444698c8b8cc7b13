"""The three verdicts of a check and their exit statuses, for every command that gives one:
passed 0, failed 1, undecided 2 (docs/commands.md, "Exit status")."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from typing import NoReturn

import typer


class Verdict(StrEnum):
    """The outcome of a check, worst last: :func:`verdict_of` takes the worst."""

    PASSED = "passed"
    UNDECIDED = "undecided"
    FAILED = "failed"

    @property
    def exit_code(self) -> int:
        """0 passed, 1 failed, 2 undecided."""
        return {Verdict.PASSED: 0, Verdict.FAILED: 1, Verdict.UNDECIDED: 2}[self]


@dataclass(frozen=True)
class Finding:
    """One thing that keeps a check from passing: a property that fails, or a check left
    undecided with ``hint``, what would decide it."""

    verdict: Verdict
    what: str
    hint: str = ""

    def line(self) -> str:
        """The finding on one line: what, then (undecided) what would decide it."""
        hint = f"; to decide it: {self.hint}" if self.hint else ""
        return f"{self.verdict.upper()} {self.what}{hint}"

    def to_json(self) -> dict[str, str]:
        """The finding as JSON-ready data."""
        return {"verdict": self.verdict.value, "what": self.what, "hint": self.hint}


def verdict_of(findings: Iterable[Finding]) -> Verdict:
    """FAILED when some finding fails, else UNDECIDED when some is undecided, else PASSED."""
    return max(
        (finding.verdict for finding in findings),
        key=list(Verdict).index,
        default=Verdict.PASSED,
    )


def conclude(command: str, findings: list[Finding]) -> None:
    """End ``command`` with the verdict of ``findings`` (the findings printed already):
    return when it passed; exit 1 when it failed; exit 2 with one line ``error
    [<command>.undecided]: ...`` when it is undecided."""
    verdict = verdict_of(findings)
    if verdict is Verdict.FAILED:
        raise typer.Exit(1)
    if verdict is Verdict.UNDECIDED:
        undecided(command, [f for f in findings if f.verdict is Verdict.UNDECIDED])


def undecided(command: str, findings: list[Finding]) -> NoReturn:
    """Exit 2 with one line: how many checks are undecided, and the first one's hint."""
    first = findings[0]
    count = f"{len(findings)} checks" if len(findings) > 1 else "1 check"
    hint = f"; to decide it: {first.hint}" if first.hint else ""
    typer.echo(
        f"error [{command}.undecided]: {count} undecided, no property fails "
        f"(first: {first.what}{hint})",
        err=True,
    )
    raise typer.Exit(Verdict.UNDECIDED.exit_code)
