"""The architecture picture: the rooms of the checkout in their layers, bottom to top.

Drawn from the import contract ``lint-imports`` keeps and ``[tool.setuptools.package-dir]``.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping, Sequence
from pathlib import Path

from buckshot.diagrams.labels import FONT


def layers_of(pyproject: Path) -> tuple[list[list[str]], dict[str, str]]:
    """The layers contract's layers, top first (lists of modules), and each mapped folder."""
    data = tomllib.loads(pyproject.read_text(encoding="utf-8"))
    (contract,) = [  # the house's contract: the one whose layers hold the spec
        c
        for c in data["tool"]["importlinter"]["contracts"]
        if c.get("type") == "layers" and any("buckshot.spec" in layer for layer in c["layers"])
    ]
    layers = [
        [name.strip() for name in layer.replace(":", "|").split("|")]
        for layer in contract["layers"]
    ]
    return layers, dict(data["tool"]["setuptools"]["package-dir"])


def place(module: str, folders: Mapping[str, str], root: Path) -> tuple[str, str]:
    """Where ``module`` lives under ``root``: its top folder and the file or folder inside it."""
    best = max(
        (name for name in folders if module == name or module.startswith(name + ".")), key=len
    )
    inside = module[len(best) :].lstrip(".").replace(".", "/")
    base = folders[best]
    if inside and (root / base / inside).is_dir():
        inside += "/"
    elif inside:
        inside += ".py"
    return f"{base}/", inside


def architecture_dot(
    layers: Sequence[Sequence[str]], folders: Mapping[str, str], root: Path
) -> str:
    """DOT of ``layers`` (top first) as boxes stacked bottom to top, naming their rooms."""
    lines = [
        "digraph architecture {",
        "  rankdir=TB;",
        f'  node [shape=box, style="rounded,filled", fillcolor="#f5f5f5", fontname="{FONT}",'
        " fontsize=11];",
        f'  edge [fontname="{FONT}", fontsize=9, color="#888888"];',
    ]
    bottom_up = list(reversed(layers))
    for index, layer in enumerate(bottom_up):
        rooms: dict[str, list[str]] = {}
        for module in layer:
            top, inside = place(module, folders, root)
            rooms.setdefault(top, [])
            if inside:
                rooms[top].append(inside)
        label = "\\n".join(f"{top} {' '.join(parts)}".rstrip() for top, parts in rooms.items())
        lines.append(f'  layer{index} [label="{label}"];')
    for index in range(1, len(bottom_up)):
        lines.append(f'  layer{index} -> layer{index - 1} [label="imports"];')
    lines.append("}")
    return "\n".join(lines) + "\n"
