"""Every generated case file (``buckshot regen``'s targets "conformance cases" and "model
cases"): the families by name, the folder each family's files go to, and their JSON text."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from buckshot.conformance.bundled import CASES
from buckshot.regen.cases import cap_cases, poll_cases, role_item_cases
from buckshot.regen.invalid_cases import invalid_cases
from buckshot.regen.model_cases import model_cases

FAMILIES: dict[str, Callable[[], Iterable[dict[str, Any]]]] = {
    "roleitem": role_item_cases,
    "poll": poll_cases,
    "cap": cap_cases,
    "invalid": invalid_cases,
    "model": model_cases,
}
"""Every family of cases, by name."""
RULE_FAMILIES = ("roleitem", "poll", "cap", "invalid")
"""The families written to ``cases/generated/<family>/``; the model family's cases, slower
to make, go to ``cases/model/``."""


# --- writing -----------------------------------------------------------------------------


def to_text(value: Any, indent: int = 0, width: int = 100, used: int = 0) -> str:
    """JSON with 2-space indentation, keeping any value that fits on its line on one line.

    ``indent`` is the value's indentation level and ``used`` how many characters of its
    first line are taken already (by the key in front of it).
    """
    compact = json.dumps(value, ensure_ascii=False, separators=(", ", ": "))
    start = used or indent
    if start + len(compact) <= width or not isinstance(value, dict | list) or not value:
        return compact
    pad = " " * (indent + 2)
    if isinstance(value, dict):
        lines = []
        for key, sub in value.items():
            head = f"{pad}{json.dumps(key, ensure_ascii=False)}: "
            lines.append(head + to_text(sub, indent + 2, width, len(head)))
        return "{\n" + ",\n".join(lines) + "\n" + " " * indent + "}"
    items = [pad + to_text(sub, indent + 2, width) for sub in value]
    return "[\n" + ",\n".join(items) + "\n" + " " * indent + "]"


def render_all(families: Iterable[str] = FAMILIES) -> dict[Path, str]:
    """Every case file of ``families``: its path and its text."""
    files: dict[Path, str] = {}
    for family in families:
        folder = CASES / "generated" / family if family in RULE_FAMILIES else CASES / family
        for document in FAMILIES[family]():
            files[folder / f"{document['id']}.json"] = to_text(document) + "\n"
    return files
