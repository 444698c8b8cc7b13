"""The documents' figures of the suite's speed are the ones ``benchmarks/conformance.py``
last stored in ``benchmarks/results.json``."""

from __future__ import annotations

import pytest
from benchmark_helpers import document_block, load_benchmark, stored_figures


def test_the_documents_show_the_figures_of_the_results_file() -> None:
    figures = load_benchmark("figures")
    stored = stored_figures()
    block = document_block("conformance")
    assert block.strip() == figures.render("conformance", stored).strip()
    assert f"{stored['conformance']['cases']} cases" in block


def test_the_line_says_what_was_measured() -> None:
    figures = load_benchmark("figures")
    measured = {
        "date": "2026-12-01",
        "machine": {"cores": 2, "load_average": [0.5, 0.4, 0.3]},
        "cases": 405,
        "repeat": 3,
        "best_seconds": 4.25,
        "median_seconds": 4.5,
        "best_cpu_seconds": 3.75,
        "load_seconds": 0.5,
    }
    line = figures.render("conformance", {"conformance": measured})
    for text in ("2026-12-01", "2 cores", "load average 0.5", "405 cases", "4.25 s", "4.50 s"):
        assert text in line
    assert line.endswith("The aim is the whole suite within 10 s on 2 cores: met.")
    slow = figures.render("conformance", {"conformance": {**measured, "best_seconds": 12.0}})
    assert slow.endswith(": not met.")


def test_the_figures_of_a_part_of_the_suite_are_not_kept() -> None:
    bench = load_benchmark("conformance")
    with pytest.raises(SystemExit) as refused:
        bench.main(["--filter", "shot.*", "--update"])  # refused before any case runs
    assert refused.value.code == 2
