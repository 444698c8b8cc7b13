"""Build the reference engine with mypyc, the compiler that ships with mypy (opt-in).

``python scripts/build_engine.py`` compiles the engine's hot path (:data:`COMPILED`, the same
source files that run as plain Python) into extension modules under ``build/engine/``,
never beside the sources; ``buckshot.reference`` runs them from there while they match the
sources they were built from, and the plain Python otherwise (a source edited since, or
``BUCKSHOT_ENGINE=plain``). ``--clean`` removes the build: the plain engine runs again.
An install without this step (the wheel, ``pip install -e .``) is plain Python.

mypy reads packages from folders, so the sources are given to it through a throwaway tree of
links, each file at its module's place (as ``scripts/static_checks.py`` does for
``lint-imports``); the C sources are written to ``build/engine-c/``.
"""

from __future__ import annotations

import shutil
import sys
import tempfile
import time
from pathlib import Path

from static_checks import ROOT, sources

from buckshot.reference import BUILT, COMPILED, SPEC_COMPILED, stamp

C_SOURCES = ROOT / "build" / "engine-c"


def build() -> None:
    """Compile :data:`COMPILED` into :data:`BUILT` and write the stamp of its sources."""
    from mypyc.build import mypycify
    from setuptools import Distribution

    clean()
    with tempfile.TemporaryDirectory(prefix="buckshot-engine-") as temporary:
        tree = Path(temporary)
        compiled: dict[str, list[str]] = {"reference": [], "spec": []}
        for path, module in sources():
            parts = module.split(".")
            name = "__init__.py" if path.name == "__init__.py" else parts.pop() + ".py"
            link = tree.joinpath(*parts, name)
            link.parent.mkdir(parents=True, exist_ok=True)
            link.symlink_to(path)
            room, _, rest = module.removeprefix("buckshot.").partition(".")
            if rest in {"reference": COMPILED, "spec": SPEC_COMPILED}.get(room, ()):
                compiled[room].append(str(link))
        config = ["--config-file", str(ROOT / "pyproject.toml")]
        extensions = [  # one group each: the engine calls the spec's modules as Python
            extension
            for room, paths in compiled.items()
            for extension in mypycify(
                [*config, *paths],
                group_name=f"buckshot.{room}.engine",
                target_dir=str(C_SOURCES / room),
            )
        ]
        distribution = Distribution({"name": "buckshot-engine", "ext_modules": extensions})
        command = distribution.get_command_obj("build_ext")
        command.build_lib = str(BUILT)  # type: ignore[attr-defined]
        command.build_temp = str(C_SOURCES / "objects")  # type: ignore[attr-defined]
        distribution.run_command("build_ext")
    stamp_file = BUILT / "sources.sha256"
    stamp_file.write_text(stamp())


def clean() -> None:
    """Remove the build (the plain engine runs again)."""
    for folder in (BUILT, C_SOURCES):
        shutil.rmtree(folder, ignore_errors=True)


def main(arguments: list[str]) -> int:
    """Build, or with ``--clean`` remove the build; 2 on an unknown argument."""
    if arguments == ["--clean"]:
        clean()
        print(f"removed {BUILT.relative_to(ROOT)}: the engine runs as plain Python")
        return 0
    if arguments:
        print("usage: python scripts/build_engine.py [--clean]", file=sys.stderr)
        return 2
    started = time.perf_counter()
    build()
    print(
        f"compiled {len(COMPILED) + len(SPEC_COMPILED)} modules into {BUILT.relative_to(ROOT)} "
        f"in {time.perf_counter() - started:.0f} s"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
