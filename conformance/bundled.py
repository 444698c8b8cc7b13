"""Where the suite shipped as package data lies (``data/`` beside this module), so that an
installed copy runs it with no clone."""

from __future__ import annotations

from pathlib import Path

SUITE_ROOT = Path(__file__).resolve().parent / "data"
"""The shipped suite folder (``features.json``, ``schemas/``, ``fixtures/``, ``cases/``)."""


def suite_path(*parts: str) -> Path:
    """A path inside the shipped suite, e.g. ``suite_path("INTERPRETING.md")``."""
    return SUITE_ROOT.joinpath(*parts)


CASES = suite_path("cases")
"""The shipped cases, the default of every command that reads them."""
