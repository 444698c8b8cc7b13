"""The README's verification figures are the ones ``benchmarks/verify.py`` last wrote to
``benchmarks/results.json``."""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType

from benchmark_helpers import load_benchmark

ROOT = Path(__file__).resolve().parents[1]


def _benchmark() -> ModuleType:
    return load_benchmark("verify")


def test_the_readme_shows_the_verification_figures_of_the_results_file() -> None:
    bench = _benchmark()
    figures = json.loads((ROOT / "benchmarks/results.json").read_text(encoding="utf-8"))["verify"]
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = readme[readme.index(bench.README_BEGIN) : readme.index(bench.README_END)]
    assert bench.markdown(figures) in block
    assert set(figures["proofs"]) >= {"I1", "I10", "P1"}
