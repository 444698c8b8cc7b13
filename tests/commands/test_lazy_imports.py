"""The ``buckshot`` program imports only what the command it runs needs: the commands'
modules declare their options with light imports and import the rooms they drive when they
run (``buckshot --help`` loads no solver). So that a misspelt import inside a command, or a
binding by name that its room checks at import (a chart's guard, an item's effect), fails
here and not in a user's hands, every import the commands write, at the top of a module or
inside a function, is made and each name it takes is looked up."""

from __future__ import annotations

import ast
import importlib
import importlib.util
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

COMMAND_MODULES = [
    *sorted((ROOT / "buckshot" / "cli").glob("*.py")),
    *(ROOT / "buckshot" / f"{name}.py" for name in ("__main__", "command", "progress", "report")),
]
"""The program, its commands and the support every command imports."""

HEAVY = (
    "buckshot.conformance.runner",
    "buckshot.reference.game",
    "buckshot.verification",
    "buckshot.workbench",
    "cvc5",
    "dask",
    "jsonschema",
    "rich",
    "z3",
)
"""Rooms and libraries no command needs to be declared: each is loaded by the commands that
run it."""


def _imports(path: Path) -> Iterator[tuple[str, list[str]]]:
    """Each absolute import written in ``path`` (module, the names it takes)."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module is not None and node.level == 0:
            yield node.module, [alias.name for alias in node.names]
        elif isinstance(node, ast.Import):
            yield from ((alias.name, []) for alias in node.names)


def test_the_program_loads_no_room_to_declare_its_commands() -> None:
    shown = "import sys, buckshot.cli.main; print(*sys.modules)"
    loaded = subprocess.run(
        [sys.executable, "-c", shown], capture_output=True, text=True, check=True
    ).stdout.split()
    assert "buckshot.cli.conformance" in loaded and "buckshot.cli.verify" in loaded
    heavy = [name for name in loaded if name.startswith(HEAVY)]
    assert heavy == [], f"declaring the commands loads {heavy}"


@pytest.mark.slow  # the solvers, the suite's runner and Dask are imported: seconds
@pytest.mark.parametrize("path", COMMAND_MODULES, ids=lambda path: path.name)
def test_every_import_of_the_commands_resolves(path: Path) -> None:
    for module, names in _imports(path):
        imported = importlib.import_module(module)
        for name in names:
            assert hasattr(imported, name) or importlib.util.find_spec(f"{module}.{name}"), (
                f"{path.name}: from {module} import {name}"
            )
