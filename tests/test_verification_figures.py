"""The README's verification figures are the ones ``benchmarks/verify.py`` last wrote to
``benchmarks/results.json``."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]


def _benchmark() -> ModuleType:
    if str(ROOT / "benchmarks") not in sys.path:
        sys.path.insert(0, str(ROOT / "benchmarks"))  # as when run as a script
    spec = importlib.util.spec_from_file_location("verify_benchmark", ROOT / "benchmarks/verify.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_the_readme_shows_the_verification_figures_of_the_results_file() -> None:
    bench = _benchmark()
    figures = json.loads((ROOT / "benchmarks/results.json").read_text(encoding="utf-8"))["verify"]
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = readme[readme.index(bench.README_BEGIN) : readme.index(bench.README_END)]
    assert bench.markdown(figures) in block
    assert set(figures["proofs"]) >= {"I1", "I10", "P1"}
