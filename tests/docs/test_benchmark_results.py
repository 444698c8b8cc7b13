"""Every benchmark refuses a ``--results`` file it could not write its figures to, before
the work, with one line and exit 2 (``benchmarks/results.py``)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from benchmark_helpers import ROOT, load_benchmark


def _problem(path: Path) -> str | None:
    load_benchmark("verify")  # puts benchmarks/ on the import path
    from results import results_problem  # type: ignore[import-not-found]

    found: str | None = results_problem(path)
    return found


def test_a_results_file_that_can_take_the_figures_passes(tmp_path: Path) -> None:
    assert _problem(tmp_path / "new.json") is None
    (tmp_path / "old.json").write_text('{"engine": {}}\n', encoding="utf-8")
    assert _problem(tmp_path / "old.json") is None


@pytest.mark.parametrize(
    ("name", "content", "said"),
    [
        ("folder", None, "is a folder"),
        ("missing/x.json", None, "no folder"),
        ("empty.json", b"", "cannot be read as JSON"),
        ("binary.json", b"\xd0\xff\x00", "cannot be read as JSON"),
        ("list.json", b"[1]", "holds no JSON object"),
    ],
)
def test_a_results_file_that_cannot_is_named_with_the_reason(
    tmp_path: Path, name: str, content: bytes | None, said: str
) -> None:
    path = tmp_path / name
    if name == "folder":
        path.mkdir()
    elif content is not None:
        path.write_bytes(content)
    problem = _problem(path)
    assert problem is not None and said in problem


SCRIPTS = [
    "agent",
    "commands",
    "conformance",
    "conformance_mutants",
    "engine",
    "explore",
    "lockstep",
    "log_reader",
    "mutation",
    "verify",
]
"""Every benchmark that keeps figures."""


def test_every_benchmark_that_keeps_figures_is_named() -> None:
    keeping = {
        path.stem
        for path in (ROOT / "benchmarks").glob("*.py")
        if "publish(" in path.read_text(encoding="utf-8") and path.stem != "results"
    }
    assert keeping == set(SCRIPTS)
    figures = load_benchmark("figures")
    assert set(figures.SCRIPTS.values()) == set(SCRIPTS)


@pytest.mark.parametrize("script", SCRIPTS)
def test_each_benchmark_refuses_it_before_the_work(tmp_path: Path, script: str) -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / f"benchmarks/{script}.py"), "--results", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2, done.stderr
    assert "--results:" in done.stderr and "is a folder" in done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize("script", SCRIPTS)
def test_each_benchmark_keeps_its_figures_in_one_place_at_most(tmp_path: Path, script: str) -> None:
    done = subprocess.run(
        [
            sys.executable,
            str(ROOT / f"benchmarks/{script}.py"),
            "--update",
            "--results",
            str(tmp_path / "x.json"),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2, done.stderr
    assert "not allowed with argument" in done.stderr and "Traceback" not in done.stderr
    assert not (tmp_path / "x.json").exists()
