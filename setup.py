"""The package list, derived from pyproject.toml's ``[tool.setuptools.package-dir]``.

setuptools' own ``packages.find`` does not follow a package-dir mapping, so each room's
packages (data-only folders included) are found in its folder and named under the room;
the checkout's build step (:data:`BUILD_STEP`) is left out of the wheel.
"""

import tomllib
from pathlib import Path

from setuptools import find_namespace_packages, setup

ROOT = Path(__file__).parent
ROOMS: dict[str, str] = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"][
    "package-dir"
]

BUILD_STEP = "buckshot.regen"
"""``buckshot regen``'s generators: they rewrite a source checkout, so the wheel leaves them out
(an editable install reaches them through the folder ``buckshot/``, as every checkout does)."""

packages = []
for name, folder in ROOMS.items():
    inner = find_namespace_packages(where=str(ROOT / folder), exclude=["*__pycache__*"])
    nested = [f"{name}.{sub}" for sub in inner if f"{name}.{sub}" not in ROOMS]
    packages += [name, *nested]
packages = [p for p in packages if p != BUILD_STEP and not p.startswith(f"{BUILD_STEP}.")]

setup(packages=sorted(set(packages)))
