"""Loading a benchmark script (``benchmarks/NAME.py``) as a module, as when it runs."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def load_benchmark(name: str) -> ModuleType:
    """The script ``benchmarks/<name>.py`` imported as ``<name>_benchmark`` (its folder on the
    import path, so that it finds ``results.py`` beside it)."""
    if str(ROOT / "benchmarks") not in sys.path:
        sys.path.append(str(ROOT / "benchmarks"))  # behind tests/, whose faults/ it names too
    spec = importlib.util.spec_from_file_location(
        f"{name}_benchmark", ROOT / f"benchmarks/{name}.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def stored_figures() -> dict[str, Any]:
    """``benchmarks/results.json``."""
    stored: dict[str, Any] = json.loads(
        (ROOT / "benchmarks" / "results.json").read_text(encoding="utf-8")
    )
    return stored


def document_block(name: str) -> str:
    """The text of the generated block ``name`` (``<!-- figures:NAME -->``) of the README or
    of a page of docs/, wherever it stands."""
    marker = f"<!-- figures:{name} -->\n"
    for document in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        text = document.read_text(encoding="utf-8")
        if marker in text:
            return text.split(marker, 1)[1].split("<!-- /figures -->", 1)[0]
    raise AssertionError(f"no document holds the block {name!r}")
