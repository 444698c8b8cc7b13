"""Where the benchmarks keep their figures: ``benchmarks/results.json`` (one key per
benchmark, the others kept), the machine they were measured on, and the README blocks
written from them."""

from __future__ import annotations

import json
import os
import platform
from pathlib import Path
from typing import Any

from buckshot.command import write_atomic
from buckshot.paths import SOURCE_ROOT

ROOT = SOURCE_ROOT
RESULTS = ROOT / "benchmarks" / "results.json"
README = ROOT / "README.md"


def machine() -> dict[str, Any]:
    """The machine the figures were measured on, and how busy it was when they began."""
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8").splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cores = os.cpu_count() or 1
    try:
        load = [round(x, 2) for x in os.getloadavg()]
    except OSError:
        load = []
    return {
        "python": platform.python_version(),
        "system": f"{platform.system()} {platform.machine()}",
        "cpu": cpu,
        "cores": cores,
        "load_average": load,
    }


def results_problem(path: Path) -> str | None:
    """Why ``path`` cannot take a benchmark's figures (None: it can), checked before the work:
    a folder, a missing folder, or an existing file that is not a JSON object."""
    if path.is_dir():
        return f"{path} is a folder, not a file"
    if not path.parent.is_dir():
        return f"no folder {path.parent}"
    if path.exists():
        try:
            stored = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            return f"{path} cannot be read as JSON ({exc})"
        if not isinstance(stored, dict):
            return f"{path} holds no JSON object"
    return None


def store(path: Path, key: str, figures: dict[str, Any]) -> None:
    """Write ``figures`` under ``key`` of the results file ``path``, keeping its other keys."""
    stored: dict[str, Any] = {}
    if path.exists():
        stored = json.loads(path.read_text(encoding="utf-8"))
    stored[key] = figures
    write_atomic(path, json.dumps(stored, indent=2, sort_keys=True) + "\n")


def replace_block(readme: Path, begin: str, end: str, text: str) -> None:
    """Replace what stands between the markers ``begin`` and ``end`` of ``readme``."""
    content = readme.read_text(encoding="utf-8")
    start, stop = content.index(begin) + len(begin), content.index(end)
    write_atomic(readme, content[:start] + "\n" + text + "\n" + content[stop:])
