"""Where the suite shipped with the package lies: cases, fixtures, schemas, INTERPRETING.md.

The suite is package data of ``buckshot.conformance`` (the ``data/`` folder beside this
module), so an installed copy runs it with no clone of the repository. Everything that
needs a suite file finds it through :func:`suite_path`.
"""

from __future__ import annotations

from pathlib import Path

SUITE_ROOT = Path(__file__).resolve().parent / "data"
"""The shipped suite folder (``features.json``, ``schemas/``, ``fixtures/``, ``cases/``)."""


def suite_path(*parts: str) -> Path:
    """A path inside the shipped suite, e.g. ``suite_path("INTERPRETING.md")``."""
    return SUITE_ROOT.joinpath(*parts)


CASES = suite_path("cases")
"""The shipped cases, the default of every command that reads them."""
