"""The type check and the import contracts over the rooms, as pyproject.toml maps them.

Each room is a top-level folder imported as ``buckshot.<folder>``
(``[tool.setuptools.package-dir]``). Python's import system follows that mapping through the
editable install; mypy and import-linter read packages from folders and cannot. So:

- ``mypy``: mypy is given every source file with its module name (``buckshot.spec.ruleset``
  is ``spec/ruleset.py``), and every file of ``tests/`` with the name pytest imports it by
  (:func:`tests`), its options read from ``[tool.mypy]``; its messages name the files
  by their one path in the tree.
- ``layers``: ``lint-imports`` runs over a throwaway tree of links (``buckshot/spec`` ->
  ``spec/``, ...) in a temporary folder; its messages name modules, not files.

Usage: ``python scripts/static_checks.py [mypy|layers]...`` (both when none is named);
exit 1 when a check fails.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def rooms() -> dict[str, Path]:
    """Each package name the project maps, with its folder."""
    table = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    return {name: ROOT / folder for name, folder in table["package-dir"].items()}


def sources() -> list[tuple[Path, str]]:
    """Every Python file of every room, with its module name."""
    found: list[tuple[Path, str]] = []
    for name, folder in rooms().items():
        for path in sorted(folder.rglob("*.py")):
            module = ".".join((name, *path.relative_to(folder).with_suffix("").parts))
            found.append((path, module.removesuffix(".__init__")))
    return found


def tests() -> list[tuple[Path, str]]:
    """Every Python file of ``tests/``, with the module name pytest imports it by.

    pytest's import mode ``prepend`` names a file from the nearest folder above it without an
    ``__init__.py``, which it puts on the import path: ``tests/spec/test_views.py`` is
    ``test_views``, ``tests/engine_helpers.py`` is ``engine_helpers`` and
    ``tests/faults/model.py`` is ``faults.model`` (the package ``faults``, as
    ``benchmarks/faults.py`` and the fault scripts import it too)."""
    found: list[tuple[Path, str]] = []
    for path in sorted((ROOT / "tests").rglob("*.py")):
        base = path.parent
        while (base / "__init__.py").exists():
            base = base.parent
        module = ".".join(path.relative_to(base).with_suffix("").parts)
        found.append((path, module.removesuffix(".__init__")))
    return found


def check_types() -> int:
    """mypy over every source and test file under its module name; 0 when it finds nothing."""
    from mypy import build
    from mypy.errors import CompileError
    from mypy.main import process_options
    from mypy.modulefinder import BuildSource

    _, options = process_options(["--config-file", str(ROOT / "pyproject.toml"), str(ROOT)])
    files = sources() + tests()
    build_sources = [
        BuildSource(os.path.relpath(path, ROOT), module, None) for path, module in files
    ]
    try:
        result = build.build(build_sources, options)
        messages = result.errors
    except CompileError as error:
        messages = error.messages
    for line in messages:
        print(line)
    if messages:
        errors = sum(": error:" in line for line in messages)
        print(f"mypy: {errors} error(s) in {len(files)} source files")
        return 1
    print(f"mypy: no issues found in {len(files)} source files")
    return 0


def check_layers() -> int:
    """lint-imports over a tree of links to every source file, each at its module's place."""
    with tempfile.TemporaryDirectory(prefix="buckshot-layers-") as temporary:
        tree = Path(temporary)
        for path, module in sources():
            parts = module.split(".")
            if path.name == "__init__.py":
                link = tree.joinpath(*parts, "__init__.py")
            else:
                link = tree.joinpath(*parts[:-1], parts[-1] + ".py")
            link.parent.mkdir(parents=True, exist_ok=True)
            link.symlink_to(path)
        env = {**os.environ, "PYTHONPATH": temporary}
        lint = str(Path(sys.executable).with_name("lint-imports"))
        command = [lint, "--no-cache", str(ROOT / "pyproject.toml")]
        # run from the tree of links: lint-imports puts its working folder first on the path
        return subprocess.run(command, cwd=tree, env=env, check=False).returncode


CHECKS = {"mypy": check_types, "layers": check_layers}


def main(names: list[str]) -> int:
    """Run the checks named (all when none is) and return 1 if any failed."""
    unknown = sorted(set(names) - set(CHECKS))
    if unknown:
        print(f"static_checks: unknown check(s) {unknown}; known: {sorted(CHECKS)}")
        return 2
    failed = [name for name in names or list(CHECKS) if CHECKS[name]() != 0]
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
