"""Every command of the ``buckshot`` program and its parameters, read from the typer app, and
the kinds of file its path parameters take: one list the robustness walk and the fuzzer share.

What the app cannot say is declared here once: which path parameters are outputs (a file or a
folder the command writes) and what kind of file an input path holds. :func:`unclassified`
names any path parameter missing from those tables, so a new option cannot escape the tests.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import typer

from buckshot.cli.main import app

ROOT = Path(__file__).resolve().parents[1]

OUTPUT_FILES = frozenset(
    {
        "--json",
        "--out",
        "--report",
        "--junit",
        "--log",
        "--html",
        "--markdown",
        "--chance-report",
    }
)
"""Options naming a file the command writes (``--out`` of ``diagrams`` is a folder: below)."""
OUTPUT_FOLDERS = {
    ("diagrams", "--out"),
    ("diagrams trace", "--out"),
    ("verify", "--counterexamples"),
    ("conformance run", "--explore"),
    ("conformance export", "folder"),
}
"""The (command, option) pairs naming a folder the command writes into."""
INPUT_KINDS: dict[tuple[str, str], str] = {
    ("*", "--rules"): "ruleset",
    ("compare", "old"): "ruleset",
    ("compare", "new"): "ruleset",
    ("replay", "log"): "log",
    ("verify-trace", "log"): "log",
    ("explore", "log"): "log",
    ("explore", "--expected"): "log",
    ("diagrams trace", "log"): "log",
    ("conformance diff", "before"): "report",
    ("conformance diff", "after"): "report",
    ("conformance report", "reports"): "report",
    ("conformance report", "--chance"): "report",
    ("conformance run", "--known-failures"): "known-failures",
    ("*", "--cases"): "suite",
}
"""What each input path holds, by (command, option or argument); ``*``: any command."""

REFUSED_TEXT: dict[str, str] = {
    "--agent": "nobody",
    "--roles": "king",
    "--players": "8-2",
    "--only": "Z9",
    "--param": "nosuch=1",
    "--filter": "nosuch.*",
}
"""A value each text option must refuse (the options absent here are never the refused one)."""
EXIT_STATUS_HEADING = "## Exit status"
"""The section of docs/commands.md that says what each exit status means."""


@dataclass(frozen=True)
class Param:
    """One parameter of a command: an option (``--games``) or an argument (``log``)."""

    command: str
    """The command's words after ``buckshot``: ``"conformance run"``."""
    name: str
    """The option as typed (``--games``), or the argument's name (``log``)."""
    type: type[Any] | None
    """The value's Python type (bool for a flag)."""
    flag: bool
    multiple: bool
    required: bool
    off: str | None
    """A flag's negative form (``--no-vacuity``), if any."""

    @property
    def argument(self) -> bool:
        """A positional argument, not an option."""
        return not self.name.startswith("-")

    @property
    def output(self) -> str | None:
        """``"file"`` or ``"folder"`` when the command writes there; None for an input."""
        if (self.command, self.name) in OUTPUT_FOLDERS:
            return "folder"
        if self.type is Path and self.name in OUTPUT_FILES:
            return "file"
        return None

    @property
    def input_kind(self) -> str | None:
        """What an input path holds (``"ruleset"``, ``"log"``...); None when not an input path."""
        if self.output is not None:
            return None
        named = INPUT_KINDS.get((self.command, self.name))  # a path given as text, too
        if named is not None or self.type is not Path:
            return named
        return INPUT_KINDS.get(("*", self.name))


_TYPES: dict[str, type[Any]] = {
    "Path": Path,
    "list[Path]": Path,
    "int": int,
    "float": float,
    "bool": bool,
}
"""The value types by the name the app gives (its annotations are strings); text otherwise."""


def _walk(command: Any, words: list[str]) -> list[tuple[str, Any]]:
    subcommands = getattr(command, "commands", None)
    found: list[tuple[str, Any]] = []
    if words and (subcommands is None or command.callback is not None):
        found.append((" ".join(words), command))
    for name, sub in (subcommands or {}).items():
        if not getattr(sub, "hidden", False):
            found.extend(_walk(sub, [*words, name]))
    return found


@cache
def commands() -> dict[str, tuple[Param, ...]]:
    """Every visible command (a group with options of its own too), with its parameters."""
    catalogue: dict[str, tuple[Param, ...]] = {}
    for name, command in _walk(typer.main.get_command(app), []):
        params = []
        for p in command.params:
            is_option = p.param_type_name == "option"
            params.append(
                Param(
                    command=name,
                    name=p.opts[0] if is_option else p.name,
                    type=_TYPES.get(str(p.bare_type()), str),
                    flag=bool(is_option and p.is_flag),
                    multiple=bool(p.multiple),
                    required=bool(p.required),
                    off=(p.secondary_opts[0] if is_option and p.secondary_opts else None),
                )
            )
        catalogue[name] = tuple(params)
    return catalogue


def unclassified() -> list[Param]:
    """The path parameters this catalogue says nothing about (neither output nor input kind)."""
    return [
        p
        for params in commands().values()
        for p in params
        if p.type is Path and p.output is None and p.input_kind is None
    ]


@cache
def verdict_commands() -> frozenset[str]:
    """The commands whose exit status 1 is a verdict or an ending (not a refusal), as the
    exit status section of docs/commands.md lists them."""
    text = (ROOT / "docs" / "commands.md").read_text(encoding="utf-8")
    section = text.split(EXIT_STATUS_HEADING, 1)[1].split("\n## ", 1)[0]
    bullet = section.split("- **1**", 1)[1].split("\n- **", 1)[0]
    return frozenset(re.findall(r"`([a-z -]+?)`", " ".join(bullet.split())))


ERROR_LINE = re.compile(r"^error \[(?P<code>[a-z0-9._-]+)\]: \S")
"""A refusal's line: ``error [code]: message``."""
RAW_PYTHON = re.compile(
    r"\[Errno|codec can't|Extra data|Expecting |\(char \d+\)"
    r"|\b[A-Z][a-z]+(?:[A-Z][a-z]+)*(?:Error|Exception)\b"
)
"""What no message may hold (issue 34): errno text, a codec's or the JSON parser's words, an
exception's class name."""
NOTHING_RAN = re.compile(r"\b0 (?:cases|games|experiments) |nothing run\b")
"""Words of a command that ran no case, game or experiment: it must exit 2, no verdict."""
