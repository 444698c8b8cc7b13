"""The engine built with mypyc (``python scripts/build_engine.py``): chosen only while it
matches the sources, never with ``BUCKSHOT_ENGINE=plain``, and passing through the states of
the 200-game digest unchanged, when it is built."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import buckshot.reference as reference

HERE = Path(__file__).resolve().parent


def test_a_build_is_chosen_only_while_it_matches_the_sources(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(reference, "BUILT", tmp_path)
    monkeypatch.setenv("BUCKSHOT_ENGINE", "compiled")
    assert reference.built_folder() is None  # nothing built
    (tmp_path / "sources.sha256").write_text("0" * 64)
    assert reference.built_folder() is None  # built from other sources
    (tmp_path / "sources.sha256").write_text(reference.stamp())
    assert reference.built_folder() == tmp_path / "buckshot" / "reference"
    monkeypatch.setenv("BUCKSHOT_ENGINE", "plain")
    assert reference.built_folder() is None


def test_the_tests_run_the_plain_engine() -> None:
    assert reference.engine() == "plain"


def _engine_in_a_process(engine: str, check: str) -> str:
    """What ``check`` prints, run with ``BUCKSHOT_ENGINE=engine`` beside the digest test."""
    env = {**os.environ, "BUCKSHOT_ENGINE": engine}
    script = f"from buckshot.reference import engine\nprint(engine())\n{check}"
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=HERE, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.slow
def test_the_built_engine_passes_through_the_digests_states(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("BUCKSHOT_ENGINE", "compiled")
    if reference.built_folder() is None:
        pytest.skip("the engine is not built, or not from these sources (scripts/build_engine.py)")
    check = (
        "from test_engine_digest import DIGEST, FAST_DIGEST, digest\n"
        "print(digest() == DIGEST, digest(60, record=False) == FAST_DIGEST)"
    )
    assert _engine_in_a_process("compiled", check).split() == ["compiled", "True", "True"]
    assert _engine_in_a_process("plain", "").split() == ["plain"]
