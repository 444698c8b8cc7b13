"""The optional parts (workbench, envs) are extras named in one line when missing (issue 31)."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from buckshot import extras
from buckshot.extras import ExtraMissing

ROOT = Path(__file__).resolve().parents[2]
DECLARED = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]


def test_the_named_extras_are_declared() -> None:
    """The extras the code names are the ones pyproject.toml declares, with what they list."""
    for extra in (extras.WORKBENCH, extras.ENVS):
        assert extra in DECLARED
        declared = sorted(r.split("=")[0].split("[")[0] for r in DECLARED[extra])
        assert sorted(extras.requirements(extra)) == declared


def test_a_missing_extra_is_named_with_the_command_that_installs_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(extras, "missing", lambda extra: ["matplotlib"])
    with pytest.raises(ExtraMissing) as raised:
        extras.require(extras.WORKBENCH, "buckshot compare")
    assert str(raised.value) == (
        "buckshot compare needs the optional part [workbench] (matplotlib not installed): "
        "pip install 'buckshot-spec[workbench]'"
    )


def test_an_installed_extra_passes() -> None:
    assert extras.missing(extras.WORKBENCH) == []
    extras.require(extras.ENVS, "buckshot.envs")
