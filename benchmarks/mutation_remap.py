"""Carry the judged mutants of one module over a change of its code.

    python benchmarks/mutation_remap.py MODULE --from REV [--judged FILE] [--write]

A judged mutant is keyed ``MODULE:LINE:OPERATOR:OCCURRENCE``, cosmic-ray's numbering of the
module as it was judged; a change to the module moves lines and renumbers occurrences, and
the judgements then name the wrong mutants. This lists every mutation point of the module at
``REV`` (``git show REV:MODULE``) and in the working tree with cosmic-ray's own operators,
pairs the points of each operator that stand on the same text (stripped), in order, and
rewrites each judged key of the module to its new line and occurrence. A judged mutant whose
code is gone is listed and, with ``--write``, dropped (with its entry when none is left; the
entry's reason is yours to reread). Without ``--write`` it prints what it would change.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import cosmic_ray.plugins
from cosmic_ray.ast import ast_nodes, get_ast_from_path
from results import ROOT

Point = tuple[str, int]
"""An operator's short name and the occurrence cosmic-ray gives it in the module."""


def mutation_points(path: Path) -> dict[Point, tuple[int, str]]:
    """Every mutation point of the Python file ``path``: its line and that line's text."""
    tree = get_ast_from_path(path)
    lines = path.read_text(encoding="utf-8").splitlines()
    found: dict[Point, tuple[int, str]] = {}
    for name in cosmic_ray.plugins.operator_names():
        operator = cosmic_ray.plugins.get_operator(name)
        if operator.arguments():
            continue
        short = name.split("/")[-1]
        positions = [p for node in ast_nodes(tree) for p in operator().mutation_positions(node)]
        for occurrence, (start, _end) in enumerate(positions):
            found[(short, occurrence)] = (start[0], lines[start[0] - 1].strip())
    return found


def key_map(
    module: str, old: dict[Point, tuple[int, str]], new: dict[Point, tuple[int, str]]
) -> dict[str, str | None]:
    """Each old key of ``module`` with its new key (None when its code is gone): the k-th
    old point of an operator on a given text is the k-th new one on the same text."""
    waiting: dict[tuple[str, str], list[tuple[int, int]]] = defaultdict(list)
    for (operator, occurrence), (line, text) in sorted(new.items()):
        waiting[(operator, text)].append((occurrence, line))
    taken: dict[tuple[str, str], int] = defaultdict(int)
    mapping: dict[str, str | None] = {}
    for (operator, occurrence), (line, text) in sorted(old.items()):
        rank = taken[(operator, text)]
        taken[(operator, text)] += 1
        after = waiting[(operator, text)]
        target = (
            f"{module}:{after[rank][1]}:{operator}:{after[rank][0]}" if rank < len(after) else None
        )
        mapping[f"{module}:{line}:{operator}:{occurrence}"] = target
    return mapping


def remap(judged: str, module: str, mapping: dict[str, str | None]) -> tuple[str, list[str]]:
    """The judgement file ``judged`` with the keys of ``module`` moved by ``mapping``, keys
    whose code is gone dropped (and entries left without a key), and those keys."""
    gone: list[str] = []

    def moved(match: re.Match[str]) -> str:
        key = match.group(1)
        if key not in mapping:
            raise KeyError(
                f"{key} is no mutation point of the module at the old revision "
                "(were its keys moved already?)"
            )
        target = mapping[key]
        if target is None:
            gone.append(key)
            return "\0"
        return f'"{target}"'

    text = re.sub(rf'"({re.escape(module)}:\d+:\w+:\d+)"', moved, judged)
    text = re.sub(r"\n[ \t]*\0,?[ \t]*(?=\n)", "", text)  # a key alone on its line
    text = re.sub(r"\0,? ?", "", text)  # a key inside a one-line list
    empty = re.compile(
        r'\[\[judged\]\]\nmutants = \[\s*\]\nreason = """.*?"""\n(kind = "\w+"\n)?\n?', re.S
    )
    return empty.sub("", text), gone


def main() -> int:
    """Print, or with ``--write`` make, the new keys of one module's judged mutants."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("module", help="the module's path in the checkout (reference/effects.py)")
    parser.add_argument("--from", dest="rev", required=True, help="the revision it was judged at")
    parser.add_argument("--judged", type=Path, default=ROOT / "benchmarks" / "mutation_judged.toml")
    parser.add_argument("--write", action="store_true", help="rewrite the judgement file")
    args = parser.parse_args()
    current = ROOT / args.module
    if not current.is_file():
        parser.error(f"{args.module} is no file of the checkout")
    shown = subprocess.run(
        ["git", "show", f"{args.rev}:{args.module}"], cwd=ROOT, capture_output=True, text=True
    )
    if shown.returncode != 0:
        parser.error(f"git show {args.rev}:{args.module}: {shown.stderr.strip()}")
    old_copy = ROOT / ".mutation-remap-old.py"
    try:
        old_copy.write_text(shown.stdout, encoding="utf-8")
        mapping = key_map(args.module, mutation_points(old_copy), mutation_points(current))
    finally:
        old_copy.unlink(missing_ok=True)
    judged = args.judged.read_text(encoding="utf-8")
    try:
        text, gone = remap(judged, args.module, mapping)
    except KeyError as error:
        parser.error(str(error))
    moves = [(k, v) for k, v in mapping.items() if v is not None and v != k and f'"{k}"' in judged]
    for old, new in moves:
        print(f"moved {old} -> {new}")
    for key in gone:
        print(f"gone  {key} (its code is no longer in the module)")
    if args.write and text != judged:
        args.judged.write_text(text, encoding="utf-8")
        print(f"wrote {args.judged}; reread the reasons of the entries that changed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
