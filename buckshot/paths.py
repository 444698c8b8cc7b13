"""Where the repository's files are when the package runs from a source checkout: the
files only a checkout has (the committed diagrams) are found here, and only here."""

from __future__ import annotations

from pathlib import Path
from typing import Final

SOURCE_ROOT: Final = Path(__file__).resolve().parent.parent
"""The folder that holds the ``buckshot`` package: the repository's root in a checkout."""


def checkout_root() -> Path | None:
    """The root of the source checkout this package runs from; None for an installed copy."""
    if (SOURCE_ROOT / "pyproject.toml").is_file() and (SOURCE_ROOT / "spec").is_dir():
        return SOURCE_ROOT
    return None
