"""The one helper that finds the repository's files: right in a checkout, None when installed."""

from __future__ import annotations

import runpy
import shutil
from pathlib import Path

import buckshot.paths
from buckshot.paths import SOURCE_ROOT, checkout_root

REPO = Path(__file__).resolve().parents[2]


def test_in_this_checkout_the_root_is_the_repository() -> None:
    assert checkout_root() == SOURCE_ROOT == REPO
    assert (SOURCE_ROOT / "diagrams" / "index.html").is_file()


def test_an_installed_copy_has_no_checkout(tmp_path: Path) -> None:
    """The same module placed as an installed package (no pyproject.toml beside it)."""
    package = tmp_path / "site-packages" / "buckshot"
    package.mkdir(parents=True)
    shutil.copy(Path(buckshot.paths.__file__), package / "paths.py")
    installed = runpy.run_path(str(package / "paths.py"))
    assert installed["SOURCE_ROOT"] == tmp_path / "site-packages"
    assert installed["checkout_root"]() is None
