"""The architecture picture: the rooms of the checkout in their layers, bottom to top, and
the imports between them as the code has them.

The layers are the import contract's (``lint-imports`` keeps it), the rooms'
folders ``[tool.setuptools.package-dir]``; the arrows are read from every module's import
statements (:func:`module_imports`), so the picture shows each room, ``spec/`` included, as
the code ties it, and refuses to draw an import circle.
"""

from __future__ import annotations

import ast
import tomllib
from collections.abc import Mapping, Sequence
from graphlib import CycleError, TopologicalSorter
from pathlib import Path

from buckshot.diagrams.labels import FONT


class ImportCircle(ValueError):
    """Modules of the rooms import each other in a loop; the message names it."""


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


def _modules(folders: Mapping[str, str], root: Path) -> dict[str, Path]:
    """Every module of the rooms under ``root``, by its import name."""
    found = {}
    for name, folder in folders.items():
        for path in sorted((root / folder).rglob("*.py")):
            parts = path.relative_to(root / folder).with_suffix("").parts
            found[".".join((name, *parts)).removesuffix(".__init__")] = path
    return found


def _owner(name: str, modules: Mapping[str, Path]) -> str | None:
    """The module of the rooms that ``name`` (a module, or a name defined in one) is in."""
    while name and name not in modules:
        name = name.rpartition(".")[0]
    return name or None


def module_imports(folders: Mapping[str, str], root: Path) -> dict[str, set[str]]:
    """Each module of the rooms, with the modules of the rooms it imports anywhere in its
    code (a function's deferred import counts as one at the top)."""
    modules = _modules(folders, root)
    graph: dict[str, set[str]] = {}
    for module, path in modules.items():
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        named: list[str] = []
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                named += [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = package.rsplit(".", node.level - 1)[0] if node.level else ""
                source = ".".join(part for part in (base, node.module) if part)
                named += [f"{source}.{alias.name}" for alias in node.names]
        owners = {_owner(name, modules) for name in named}
        graph[module] = {owner for owner in owners if owner is not None} - {module}
    return graph


def check_no_circle(graph: Mapping[str, set[str]]) -> None:
    """Raise :class:`ImportCircle` naming a loop of ``graph``'s imports, if it has one."""
    try:
        TopologicalSorter(graph).prepare()
    except CycleError as error:
        raise ImportCircle("import circle: " + " -> ".join(reversed(error.args[1]))) from None


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


def _layer_of(module: str, bottom_up: Sequence[Sequence[str]]) -> int | None:
    """The index (bottom first) of the layer that holds ``module``; None outside every layer."""
    for index, layer in enumerate(bottom_up):
        if any(module == name or module.startswith(name + ".") for name in layer):
            return index
    return None


def architecture_dot(
    layers: Sequence[Sequence[str]], folders: Mapping[str, str], root: Path
) -> str:
    """DOT of ``layers`` (top first) as boxes stacked bottom to top, naming their rooms, with
    an arrow from each layer to every layer it imports, labelled with the count of importing
    and imported module pairs. Raises :class:`ImportCircle` on an import circle."""
    graph = module_imports(folders, root)
    check_no_circle(graph)
    bottom_up = list(reversed(layers))
    lines = [
        "digraph architecture {",
        "  rankdir=TB;",
        f'  node [shape=box, style="rounded,filled", fillcolor="#f5f5f5", fontname="{FONT}",'
        " fontsize=11];",
        f'  edge [fontname="{FONT}", fontsize=9, color="#888888"];',
    ]
    for index, layer in enumerate(bottom_up):
        rooms: dict[str, list[str]] = {}
        for module in layer:
            top, inside = place(module, folders, root)
            rooms.setdefault(top, [])
            if inside:
                rooms[top].append(inside)
        label = "\\n".join(f"{top} {' '.join(parts)}".rstrip() for top, parts in rooms.items())
        lines.append(f'  layer{index} [label="{label}"];')
    arrows: dict[tuple[int, int], int] = {}
    for importer, imported in graph.items():
        upper = _layer_of(importer, bottom_up)
        for module in imported:
            lower = _layer_of(module, bottom_up)
            if upper is not None and lower is not None and upper != lower:
                arrows[upper, lower] = arrows.get((upper, lower), 0) + 1
    for index in range(1, len(bottom_up)):  # the stack itself, each layer on its own rank
        lines.append(f"  layer{index} -> layer{index - 1} [style=invis, weight=10];")
    for (upper, lower), count in sorted(arrows.items(), reverse=True):
        lines.append(f'  layer{upper} -> layer{lower} [label="{count}"];')
    lines.append("}")
    return "\n".join(lines) + "\n"
