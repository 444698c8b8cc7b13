"""The README's line on the suite's speed is the one ``benchmarks/conformance.py`` last
stored in ``benchmarks/results.json``."""

from __future__ import annotations

import json

from benchmark_helpers import ROOT, load_benchmark


def test_the_readme_shows_the_figures_of_the_results_file() -> None:
    bench = load_benchmark("conformance")
    figures = json.loads((ROOT / "benchmarks/results.json").read_text(encoding="utf-8"))
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    begin, end = readme.index(bench.README_BEGIN), readme.index(bench.README_END)
    block = readme[begin + len(bench.README_BEGIN) : end]
    line = bench.readme_line(figures["conformance"])
    assert block.strip() == line.strip()
    assert f"{figures['conformance']['cases']} cases" in line


def test_the_line_says_what_was_measured() -> None:
    bench = load_benchmark("conformance")
    figures = {
        "date": "2026-12-01",
        "machine": {"cores": 2, "load_average": [0.5, 0.4, 0.3]},
        "cases": 405,
        "repeat": 3,
        "best_seconds": 4.25,
        "median_seconds": 4.5,
        "best_cpu_seconds": 3.75,
        "load_seconds": 0.5,
    }
    line = bench.readme_line(figures)
    for text in ("2026-12-01", "2 cores", "load average of 0.5", "405 cases", "4.25 s", "4.50 s"):
        assert text in line
