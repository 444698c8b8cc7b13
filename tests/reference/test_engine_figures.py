"""The documents' engine figures are the ones ``benchmarks/engine.py`` last stored in
``benchmarks/results.json``; the benchmark keeps what it measured only where it is told to
(``--results FILE``, or ``--update``: the results file and the documents' blocks)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from benchmark_helpers import ROOT, document_block, load_benchmark, stored_figures

QUICK = ["--games", "1", "--seconds", "5", "--min-seconds", "0", "--profile-games", "0"]


def test_the_documents_show_the_figures_of_the_results_file() -> None:
    engine = stored_figures()["engine"]
    block = document_block("engine")
    assert block.strip() == load_benchmark("figures").render("engine", stored_figures()).strip()
    labels = [config["label"] for config in engine["configurations"]]
    assert any("record=False" in label for label in labels) and any(
        "full" in label for label in labels
    )


def test_the_targets_are_judged_from_the_ratios() -> None:
    figures = load_benchmark("figures")
    said = figures.engine({"engine": stored_figures()["engine"]})
    assert "Issue 32's targets" in said
    fast = {**stored_figures()["engine"], "ratios": {"reference engine, 4 players, full": 1.5}}
    assert "full at most 1.5x: met (1.50x in this run)" in figures.engine({"engine": fast})


def test_the_benchmark_writes_its_figures_beside_other_results(tmp_path: Path) -> None:
    bench = load_benchmark("engine")
    results = tmp_path / "results.json"
    results.write_text(json.dumps({"verify": {"kept": True}}), encoding="utf-8")
    assert bench.main([*QUICK, "--results", str(results)]) == 0
    data = json.loads(results.read_text(encoding="utf-8"))
    assert data["verify"] == {"kept": True}
    engine = data["engine"]
    assert engine["date"] and engine["machine"]["cores"] >= 1
    assert [c["games"] for c in engine["configurations"]] == [1, 1, 1, 1]
    for config in engine["configurations"]:
        rate = config["decisions"] / config["seconds"]
        assert config["decisions"] > 0 and abs(config["decisions_per_s"] - rate) <= 0.05 * rate
    # each configuration's clones, priced in its own decisions
    clones = engine["clones"]
    assert [(c["players"], c["mode"]) for c in clones] == [
        (4, "full"),
        (4, "record=False"),
        (8, "full"),
        (8, "record=False"),
    ]
    for cloned in clones:
        assert cloned["clones"] > 0 and cloned["decisions_per_clone"] > 0


def _tree(tmp_path: Path) -> Path:
    """A copy of the documents and of the results file, for ``results.py`` to write into."""
    if (ROOT / "docs").is_dir():
        shutil.copytree(ROOT / "docs", tmp_path / "docs")
    shutil.copy(ROOT / "README.md", tmp_path / "README.md")
    (tmp_path / "benchmarks").mkdir()
    shutil.copy(ROOT / "benchmarks" / "results.json", tmp_path / "benchmarks" / "results.json")
    return tmp_path


def test_without_update_or_results_nothing_is_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    bench = load_benchmark("engine")
    import results  # type: ignore[import-not-found]  # benchmarks/results.py

    tree = _tree(tmp_path)
    monkeypatch.setattr(results, "ROOT", tree)
    monkeypatch.setattr(results, "RESULTS", tree / "benchmarks" / "results.json")
    before = {p: p.read_bytes() for p in tree.rglob("*") if p.is_file()}
    assert bench.main(QUICK) == 0
    assert {p: p.read_bytes() for p in tree.rglob("*") if p.is_file()} == before
    assert "figures not stored" in capsys.readouterr().out


def test_update_stores_the_figures_and_rewrites_the_blocks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    bench = load_benchmark("engine")
    import results

    tree = _tree(tmp_path)
    monkeypatch.setattr(results, "ROOT", tree)
    monkeypatch.setattr(results, "RESULTS", tree / "benchmarks" / "results.json")
    old = json.loads(results.RESULTS.read_text(encoding="utf-8"))
    assert bench.main([*QUICK, "--update"]) == 0
    new = json.loads(results.RESULTS.read_text(encoding="utf-8"))
    assert new["engine"]["arguments"]["games"] == 1 and new["verify"] == old["verify"]
    block = load_benchmark("figures").render("engine", new)
    assert any(block in path.read_text(encoding="utf-8") for path in results.documents(tree))
    assert results.stale(new, tree) == []
