"""The package list, derived from pyproject.toml's ``[tool.setuptools.package-dir]``.

setuptools' own ``packages.find`` does not follow a package-dir mapping, so each room's
packages (data-only folders included) are found in its folder and named under the room.
"""

import tomllib
from pathlib import Path

from setuptools import find_namespace_packages, setup

ROOT = Path(__file__).parent
ROOMS: dict[str, str] = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"][
    "package-dir"
]

packages = []
for name, folder in ROOMS.items():
    inner = find_namespace_packages(where=str(ROOT / folder), exclude=["*__pycache__*"])
    nested = [f"{name}.{sub}" for sub in inner if f"{name}.{sub}" not in ROOMS]
    packages += [name, *nested]

setup(packages=sorted(set(packages)))
