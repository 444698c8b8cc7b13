"""Measure what an install weighs: the core package, and with each extra.

    python benchmarks/install.py [--update | --results FILE]

The wheel is built from a clone of HEAD (uncommitted changes are left out). First the wheel's
own Python is counted (the product's lines of code, every ``.py`` file
the wheel installs). Then, for each form (``core``: ``pip install buckshot-spec`` with no
extra; ``workbench``, ``envs``; ``all``: both extras), a fresh virtual environment gets the
package from that wheel, and its ``site-packages`` is measured (bytes on disk, less pip's
and setuptools' own). The figures are printed; ``--update`` stores them under the key
``"install"`` of ``benchmarks/results.json`` and rewrites the documents' blocks,
``--results FILE`` stores them in FILE; without either nothing is written. Each form takes a
minute or two, mostly installs from the package index's cache.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import venv
import zipfile
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from figures import render  # benchmarks/figures.py
from results import ROOT, add_arguments, check_arguments, machine, publish

FORMS = {"core": "", "workbench": "[workbench]", "envs": "[envs]", "all": "[workbench,envs]"}
"""Each install measured, with the extras it asks for."""
TOOLING = ("pip", "setuptools", "_distutils_hack", "pkg_resources")
"""What every fresh environment holds whatever is installed: left out of the size."""


def folder_bytes(folder: Path) -> int:
    """Bytes of the files under ``folder`` (links not followed)."""
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file() and not p.is_symlink())


def installed_bytes(site: Path) -> int:
    """The size of ``site`` without the tooling every environment has."""
    total = folder_bytes(site)
    for entry in site.iterdir():
        if entry.name.split("-", 1)[0].lower() in TOOLING and entry.is_dir():
            total -= folder_bytes(entry)
    return total


def measure(wheel: Path, extras: str, folder: Path) -> int:
    """Install ``wheel`` with ``extras`` into a fresh environment under ``folder``; its size."""
    venv.create(folder, with_pip=True)
    python = folder / "bin" / "python"
    subprocess.run(
        [
            str(python),
            "-m",
            "pip",
            "install",
            "--quiet",
            "--disable-pip-version-check",
            f"{wheel}{extras}",
        ],
        check=True,
    )
    (site,) = (folder / "lib").glob("python3*/site-packages")
    return installed_bytes(site)


def python_lines(wheel: Path) -> int:
    """Lines of the ``.py`` files ``wheel`` installs."""
    with zipfile.ZipFile(wheel) as archive:
        return sum(
            archive.read(name).count(b"\n") for name in archive.namelist() if name.endswith(".py")
        )


def main(argv: list[str] | None = None) -> int:
    """Build the wheel, measure each form, print and keep the figures."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    add_arguments(parser)
    args = parser.parse_args(argv)
    check_arguments(parser, args)
    figures: dict[str, Any] = {
        "date": datetime.now(UTC).strftime("%Y-%m-%d"),
        "machine": machine(),
        "measured_with": "`benchmarks/install.py`",
        "megabytes": {},
    }
    with tempfile.TemporaryDirectory() as temporary:
        out = Path(temporary)
        # from a clone of HEAD: a checkout's build/ keeps the modules of earlier builds, which
        # setuptools would put in the wheel beside today's
        source = out / "source"
        subprocess.run(["git", "clone", "--quiet", str(ROOT), str(source)], check=True)
        subprocess.run(
            [
                sys.executable,
                "-m",
                "pip",
                "wheel",
                "--quiet",
                "--no-deps",
                "-w",
                str(out),
                str(source),
            ],
            check=True,
        )
        (wheel,) = out.glob("buckshot_spec-*.whl")
        figures["python_lines"] = python_lines(wheel)
        print(f"the wheel's Python: {figures['python_lines']:,} lines", flush=True)
        for form, extras in FORMS.items():
            size = measure(wheel, extras, out / form)
            figures["megabytes"][form] = round(size / 1e6, 1)
            print(f"{form}: {figures['megabytes'][form]} MB", flush=True)
    print(render("install", {"install": figures}))
    publish(args, "install", figures)
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        print("interrupted; nothing written", file=sys.stderr)
        sys.exit(130)
