"""Where the repository's files are when the package runs from a source checkout.

The package's own data (rulesets, schemas, clauses) is read with :mod:`importlib.resources`
and is there installed or not (the conformance suite too: :mod:`buckshot.conformance.bundled`);
the files that only a checkout has (the committed diagrams) are found here, and only here.
"""

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
