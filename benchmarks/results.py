"""Where the benchmarks keep their figures, and the one way they are published.

A benchmark measures, prints its figures, and then (:func:`publish`):

- with ``--update``, stores them under its key in ``benchmarks/results.json`` (the other
  keys kept) and rewrites every generated block of README.md and docs/*.md from that file;
- with ``--results FILE``, stores them in FILE alone (the documents are left as they are);
- with neither, writes nothing, so that a measurement never changes the working tree.

A generated block is the text between ``<!-- figures:NAME -->`` and ``<!-- /figures -->``;
``figures.render(NAME, results)`` makes it. Nothing else in the documents is a figure.

Only a whole run is published: the figures say whether the run measured everything it is
meant to (``complete``, true unless the benchmark says otherwise), and ``--update`` refuses
a partial run in one line (exit 2), leaving ``benchmarks/results.json`` and the documents as
they were; ``--results FILE`` keeps it, marked partial. A benchmark stopped by Ctrl-C stores
nothing and exits 130 with one line (:func:`add_arguments` sets that up).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import sys
from pathlib import Path
from types import TracebackType
from typing import Any

from figures import COMPLETE, render  # benchmarks/figures.py

from buckshot.command import write_atomic
from buckshot.paths import SOURCE_ROOT

ROOT = SOURCE_ROOT
RESULTS = ROOT / "benchmarks" / "results.json"
BLOCK = re.compile(r"<!-- figures:(?P<name>[\w-]+) -->\n(?P<body>.*?)<!-- /figures -->", re.S)
"""A generated block of a document: its name, and the text the markers enclose."""


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


def load(path: Path | None = None) -> dict[str, Any]:
    """The figures stored in ``path`` (``benchmarks/results.json`` by default)."""
    stored: dict[str, Any] = json.loads((path or RESULTS).read_text(encoding="utf-8"))
    return stored


def documents(root: Path | None = None) -> list[Path]:
    """The documents that may hold generated blocks: README.md and docs/*.md."""
    base = root or ROOT
    return [base / "README.md", *sorted((base / "docs").glob("*.md"))]


def fill(text: str, results: dict[str, Any]) -> str:
    """``text`` with every generated block rewritten from ``results``."""

    def block(match: re.Match[str]) -> str:
        name = match.group("name")
        return f"<!-- figures:{name} -->\n{render(name, results).rstrip()}\n<!-- /figures -->"

    return BLOCK.sub(block, text)


def stale(results: dict[str, Any], root: Path | None = None) -> list[Path]:
    """The documents whose blocks do not say what ``results`` holds."""
    return [
        path
        for path in documents(root)
        if (text := path.read_text(encoding="utf-8")) != fill(text, results)
    ]


def write_documents(results: dict[str, Any], root: Path | None = None) -> list[Path]:
    """Rewrite the generated blocks of every document from ``results``; the documents changed."""
    changed = stale(results, root)
    for path in changed:
        write_atomic(path, fill(path.read_text(encoding="utf-8"), results))
    return changed


def _interrupted(
    kind: type[BaseException], error: BaseException, trace: TracebackType | None
) -> None:
    """The benchmark's last word on an error nothing caught: for Ctrl-C, one line and exit
    status 130 (nothing was stored: :func:`publish` comes last); any other, as Python says."""
    if not issubclass(kind, KeyboardInterrupt):
        sys.__excepthook__(kind, error, trace)
        return
    print(f"{Path(sys.argv[0]).name}: stopped by Ctrl-C; nothing stored", file=sys.stderr)
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(130)  # the blocks it left are unwound; 130, not a death by SIGINT


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """``--update`` and ``--results FILE``, the two ways a benchmark may keep its figures;
    and Ctrl-C, from now on, ends the benchmark with one line and exit status 130, without a
    traceback (a benchmark that catches it itself says its own line)."""
    sys.excepthook = _interrupted
    where = parser.add_mutually_exclusive_group()
    where.add_argument(
        "--update",
        action="store_true",
        help="store the figures in benchmarks/results.json and rewrite the generated "
        "blocks of README.md and docs/*.md (without it nothing is written)",
    )
    where.add_argument(
        "--results",
        type=Path,
        default=None,
        help="store the figures in this JSON file instead (the documents are left alone)",
    )


def check_arguments(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """Refuse, before the work, a results file the figures could not be stored in."""
    if args.update and (problem := results_problem(RESULTS)):
        parser.error(f"--update: {problem}")
    if args.results is not None and (problem := results_problem(args.results)):
        parser.error(f"--results: {problem}")


def publish(args: argparse.Namespace, key: str, figures: dict[str, Any]) -> None:
    """Keep ``figures`` under ``key`` as ``--update`` or ``--results`` ask (see the module):
    marked ``complete`` (true unless they say otherwise); a partial run is refused by
    ``--update`` with one line and exit status 2 (``SystemExit``), nothing written."""
    figures = {**figures, COMPLETE: figures.get(COMPLETE, True) is not False}
    if args.update and not figures[COMPLETE]:
        why = figures.get("incomplete") or "the run did not measure everything"
        print(
            f"error [results.incomplete]: {key}: a partial run ({why}); not stored: "
            f"{RESULTS} and the documents keep the last whole run",
            file=sys.stderr,
        )
        raise SystemExit(2)
    if args.update:
        store(RESULTS, key, figures)
        changed = write_documents(load(RESULTS))
        rewritten = ", ".join(str(path.relative_to(ROOT)) for path in changed) or "none changed"
        print(f"figures stored in {RESULTS}; generated blocks rewritten: {rewritten}")
    elif args.results is not None:
        store(args.results, key, figures)
        print(f"figures stored in {args.results}")
    else:
        print(
            "figures not stored: --update keeps them in benchmarks/results.json and the "
            "documents, --results FILE in a file of your own"
        )


def main(argv: list[str] | None = None) -> int:
    """Rewrite the generated blocks of README.md and docs/*.md from ``benchmarks/results.json``
    without measuring anything (``--check``: only list the documents whose blocks differ, exit
    1 if any); exit 2 with one line when the results file cannot be read."""
    parser = argparse.ArgumentParser(
        prog="python benchmarks/results.py",
        description="Rewrite every generated block of figures from benchmarks/results.json "
        "(nothing is measured).",
    )
    parser.add_argument(
        "--check", action="store_true", help="only list the documents whose blocks differ"
    )
    args = parser.parse_args(argv)
    try:
        stored = load()
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        print(f"error [results.unreadable]: {RESULTS}: {exc}", file=sys.stderr)
        return 2
    if args.check:
        differ = stale(stored)
        for path in differ:
            print(f"{path.relative_to(ROOT)}: blocks differ from {RESULTS.relative_to(ROOT)}")
        return 1 if differ else 0
    changed = write_documents(stored)
    rewritten = ", ".join(str(path.relative_to(ROOT)) for path in changed) or "none changed"
    print(f"generated blocks rewritten from {RESULTS.relative_to(ROOT)}: {rewritten}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
