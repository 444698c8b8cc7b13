"""Every benchmark refuses a ``--results`` file it could not write its figures to, before
the work, with one line and exit 2 (``benchmarks/results.py``); the blocks show what the
results file holds (``benchmarks/figures.py``), and ``python benchmarks/results.py``
rewrites them from it without measuring."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from benchmark_helpers import ROOT, load_benchmark, stored_figures


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
    "engine",
    "explore",
    "install",
    "faults",
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


def _refusal(script: str, args: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    """What ``python benchmarks/<script>.py ARGS`` writes to standard error when it refuses
    the arguments with exit status 2, within two minutes (the work not begun), run in this
    process as its last line runs it: ``main()`` reading ``sys.argv``. Any other exception
    (a traceback) fails the test."""
    module = load_benchmark(script)
    started = time.perf_counter()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(sys, "argv", [f"benchmarks/{script}.py", *args])
        with pytest.raises(SystemExit) as stop:
            module.main()
    assert time.perf_counter() - started < 120
    error = capsys.readouterr().err
    assert stop.value.code == 2, error
    return error


@pytest.mark.parametrize("script", SCRIPTS)
@pytest.mark.slow
def test_each_benchmark_refuses_it_before_the_work(
    tmp_path: Path, script: str, capsys: pytest.CaptureFixture[str]
) -> None:
    error = _refusal(script, ["--results", str(tmp_path)], capsys)
    assert "--results:" in error and "is a folder" in error


@pytest.mark.slow
def test_a_bmc_all_run_is_not_kept_as_the_default_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """With no default run kept, a --bmc-all run would become the whole verify entry and be
    shown as the default run: it is refused before the work."""
    results = tmp_path / "results.json"
    results.write_text("{}", encoding="utf-8")
    error = _refusal("verify", ["--bmc-all", "--results", str(results)], capsys)
    assert "no default run is kept yet" in error
    assert results.read_text(encoding="utf-8") == "{}"


@pytest.mark.parametrize("script", SCRIPTS)
@pytest.mark.slow
def test_each_benchmark_keeps_its_figures_in_one_place_at_most(
    tmp_path: Path, script: str, capsys: pytest.CaptureFixture[str]
) -> None:
    error = _refusal(script, ["--update", "--results", str(tmp_path / "x.json")], capsys)
    assert "not allowed with argument" in error
    assert not (tmp_path / "x.json").exists()


# --- what the blocks show of the stored figures ---------------------------------------------


def _verify_run(wall_seconds: float, date: str) -> dict[str, Any]:
    """A verification run's figures, as ``benchmarks/verify.py`` stores them."""
    return {
        "date": date,
        "failed": False,
        "jobs": 2,
        "machine": {"cores": 2},
        "players": [2, 8],
        "proofs": {"I1": 1.0},
        "stages": {"proofs": 1.0},
        "bmc": {"depth": 12, "properties": ["I1"], "status": "ok"},
        "wall_seconds": wall_seconds,
    }


def test_the_verification_shows_the_default_run_and_the_main_job_s() -> None:
    figures = load_benchmark("figures")
    results = {"verify": {**_verify_run(78, "2026-12-01 19:36 UTC"), "complete": True}}
    results["verify"]["bmc_all"] = _verify_run(172, "2026-12-01 19:37 UTC")
    block, summary = figures.render("verify", results), figures.render("summary", results)
    assert "takes 78 s wall clock" in block and "`buckshot verify --bmc-all`" in block
    assert "172 s wall clock" in block and "not measured" not in block
    assert "default run 78 s" in summary and "`--bmc-all` (the main job's) 172 s" in summary


@pytest.mark.parametrize("bmc_all", [None, {"complete": False}])
def test_a_missing_or_partial_bmc_all_run_shows_as_not_measured(
    bmc_all: dict[str, Any] | None,
) -> None:
    figures = load_benchmark("figures")
    results = {"verify": {**_verify_run(78, "2026-12-01 19:36 UTC"), "complete": True}}
    if bmc_all is not None:
        results["verify"]["bmc_all"] = {**_verify_run(172, "2026-12-01"), **bmc_all}
    block, summary = figures.render("verify", results), figures.render("summary", results)
    assert "takes 78 s wall clock" in block and "172 s" not in block + summary
    assert "`python benchmarks/verify.py --bmc-all --update` measures it" in block
    assert "`--bmc-all` not measured yet" in summary


def _engine(ratios: dict[str, float], clone_costs: list[float]) -> dict[str, Any]:
    """The engine's figures with the given ratios and clone costs (in decisions)."""
    engine = dict(stored_figures()["engine"])
    engine["ratios"] = ratios
    engine["clones"] = [
        {**clone, "decisions_per_clone": cost}
        for clone, cost in zip(engine["clones"], clone_costs, strict=False)
    ]
    return engine


def test_the_engine_shows_clones_and_judges_issue_32_s_targets() -> None:
    figures = load_benchmark("figures")
    fast, full = "reference engine, 4 players, record=False", "reference engine, 4 players, full"
    # issue 32: fast within 1.0x, full within 1.5x; issue 27: a clone within 10 decisions
    met = figures.render("engine", {"engine": _engine({fast: 0.9, full: 1.5}, [0.5, 10.0])})
    assert "Issue 32's targets" in met and "Issue 14" not in met
    assert "record=False at most 1.0x: met (0.90x in this run)" in met
    assert "full at most 1.5x: met (1.50x in this run)" in met
    assert "a clone within 10 decisions: met (0.50-10.00 decisions in this run)" in met
    missed = figures.render("engine", {"engine": _engine({fast: 1.01, full: 1.51}, [10.5])})
    assert "record=False at most 1.0x: missed" in missed
    assert "full at most 1.5x: missed" in missed
    assert "a clone within 10 decisions: missed (10.50 decisions in this run)" in missed
    clones = stored_figures()["engine"]["clones"]
    assert f"| {clones[0]['clones_per_s']:,} | 0.50 |" in met  # beside its configuration


def test_the_blocks_are_rewritten_from_the_results_file_without_measuring(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    load_benchmark("figures")  # puts benchmarks/ on the import path
    import results

    (tmp_path / "docs").mkdir()
    (tmp_path / "benchmarks").mkdir()
    stored = {"verify": {**_verify_run(78, "2026-12-01 19:36 UTC"), "complete": True}}
    (tmp_path / "benchmarks" / "results.json").write_text(json.dumps(stored), encoding="utf-8")
    (tmp_path / "README.md").write_text(
        "# x\n<!-- figures:verify -->\nold\n<!-- /figures -->\n", encoding="utf-8"
    )
    monkeypatch.setattr(results, "ROOT", tmp_path)
    monkeypatch.setattr(results, "RESULTS", tmp_path / "benchmarks" / "results.json")
    assert results.main(["--check"]) == 1
    assert results.main([]) == 0
    assert "takes 78 s wall clock" in (tmp_path / "README.md").read_text(encoding="utf-8")
    assert results.main(["--check"]) == 0
