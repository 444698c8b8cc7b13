"""The README's engine figures are the ones ``benchmarks/engine.py`` last wrote to
``benchmarks/results.json``, and the benchmark writes what it measured."""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType

from benchmark_helpers import load_benchmark

ROOT = Path(__file__).resolve().parents[1]


def _benchmark() -> ModuleType:
    return load_benchmark("engine")


def test_the_readme_shows_the_figures_of_the_results_file() -> None:
    bench = _benchmark()
    engine = json.loads((ROOT / "benchmarks/results.json").read_text(encoding="utf-8"))["engine"]
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = readme[readme.index(bench.README_BEGIN) : readme.index(bench.README_END)]
    assert bench.markdown_table(engine) in block
    labels = [config["label"] for config in engine["configurations"]]
    assert any("record=False" in label for label in labels) and any(
        "full" in label for label in labels
    )


def test_the_benchmark_writes_its_figures_beside_other_results(tmp_path: Path) -> None:
    bench = _benchmark()
    results = tmp_path / "results.json"
    results.write_text(json.dumps({"verify": {"kept": True}}), encoding="utf-8")
    arguments = ["--games", "1", "--seconds", "5", "--min-seconds", "0", "--profile-games", "0"]
    assert bench.main([*arguments, "--results", str(results)]) == 0
    data = json.loads(results.read_text(encoding="utf-8"))
    assert data["verify"] == {"kept": True}
    engine = data["engine"]
    assert engine["date"] and engine["machine"]["cores"] >= 1
    assert [c["games"] for c in engine["configurations"]] == [1, 1, 1, 1]
    for config in engine["configurations"]:
        rate = config["decisions"] / config["seconds"]
        assert config["decisions"] > 0 and abs(config["decisions_per_s"] - rate) <= 0.05 * rate
