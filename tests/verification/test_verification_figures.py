"""The documents' verification figures are the ones ``benchmarks/verify.py`` last stored in
``benchmarks/results.json``."""

from __future__ import annotations

import json
from argparse import Namespace
from pathlib import Path

from benchmark_helpers import document_block, load_benchmark, stored_figures

from buckshot.verification.proofs.bmc import NOT_NEEDED


def test_the_documents_show_the_verification_figures_of_the_results_file() -> None:
    figures = load_benchmark("figures")
    stored = stored_figures()
    assert document_block("verify").strip() == figures.render("verify", stored).strip()
    assert set(stored["verify"]["proofs"]) >= {"I1", "I10", "P1"}


def test_the_block_names_bounded_model_checking_as_the_run_reports_it() -> None:
    figures = load_benchmark("figures")
    assert figures.BMC_NOT_NEEDED == NOT_NEEDED  # figures.py imports nothing of the package
    verify = stored_figures()["verify"]
    skipped = {**verify, "bmc": {"status": NOT_NEEDED, "depth": 0, "properties": []}}
    assert "not needed (every property proved" in figures.render("verify", {"verify": skipped})
    searched = {**verify, "bmc": {"status": "ok", "depth": 12, "properties": ["I1", "I2"]}}
    text = figures.render("verify", {"verify": searched})
    assert "bounded model checking of 2 invariants to depth 12: ok" in text


def test_a_bmc_all_run_and_a_default_run_each_keep_the_others_figures(tmp_path: Path) -> None:
    """``benchmarks/verify.py --bmc-all`` (the main job's run) stores its figures under
    ``bmc_all`` of the ``verify`` key, beside the default run's; each keeps the other's."""
    verify = load_benchmark("verify")
    results = tmp_path / "results.json"
    default = {"wall_seconds": 30.0, "bmc": {"status": NOT_NEEDED}}
    results.write_text(json.dumps({"verify": default}))
    searched = {"wall_seconds": 50.0, "bmc": {"status": "ok"}}
    both = verify.kept(Namespace(bmc_all=True, results=results), searched)
    assert both == {**default, "bmc_all": searched}
    results.write_text(json.dumps({"verify": both}))
    again = {"wall_seconds": 31.0, "bmc": {"status": NOT_NEEDED}}
    assert verify.kept(Namespace(bmc_all=False, results=results), again) == {
        **again,
        "bmc_all": searched,
    }
