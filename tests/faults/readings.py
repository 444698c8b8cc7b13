"""The table of plausible wrong readings: each ruling and MUST sentence, the faults that read
it otherwise, and the cases that catch each, generated from the fault manifest.

docs/conformance.md holds it between ``<!-- readings -->`` and ``<!-- /readings -->``;
``python tests/faults/readings.py`` rewrites that block from the engine and contract rows of
``manifest.json`` (the coverage computation, ``tests/faults/coverage.py``, takes the
faults as its input), and a test fails when the block differs from :func:`readings_table`
(tests/conformance/test_wrong_readings.py).
"""

from __future__ import annotations

import re
import sys
from collections.abc import Sequence
from pathlib import Path

from buckshot.command import one_line, write_atomic

PAGE = Path(__file__).resolve().parents[2] / "docs" / "conformance.md"
"""The page that holds the table."""

BLOCK = re.compile(r"<!-- readings -->\n.*?<!-- /readings -->", re.S)
"""The generated block of docs/conformance.md."""


def _reading(name: str, cases: Sequence[str]) -> str:
    return f"`{name}` ← " + ", ".join(f"`{case}`" for case in cases)


def readings_table() -> str:
    """The Markdown table: each sentence, the readings it asks, and each fault that reads it
    otherwise with the cases named to catch it; then the sentences that ask one reading only,
    with the reason."""
    from faults import coverage  # here: run as a script, tests/ is on the path late
    from faults.manifest import select

    faults = {row.name: row for row in select("engine", "contract")}
    declared = coverage.readings(
        {name: fault.breaks for name, fault in faults.items()}, dict.fromkeys(faults, True)
    )
    lines = [
        "| Sentence | Wanted | Wrong readings (fault ← the cases that catch it) |",
        "|---|---|---|",
    ]
    for sentence, names in declared.items():
        wanted = coverage.readings_wanted(sentence)
        if sentence in coverage.NOT_TESTABLE:
            lines.append(f"| {sentence} | 0 | not testable by a case |")
            continue
        cell = "<br>".join(_reading(name, faults[name].caught_by) for name in names)
        lines.append(f"| {sentence} | {wanted} | {cell or '—'} |")
    lines.append("")
    lines.append("One reading only, with the reason:")
    lines.append("")
    lines.extend(f"- {sentence}: {why}." for sentence, why in coverage.ONE_READING.items())
    return "\n".join(lines) + "\n"


def render_block() -> str:
    """The whole generated block, markers included."""
    return f"<!-- readings -->\n{readings_table()}<!-- /readings -->"


def _error(code: str, message: str) -> int:
    print(f"error [{code}]: {one_line(message)}", file=sys.stderr)
    return 2


def main(argv: Sequence[str] | None = None) -> int:
    """Rewrite the block of docs/conformance.md in this checkout; 2 with a one-line error when
    there is no block or an argument."""
    if list(sys.argv[1:] if argv is None else argv):
        return _error("usage", "python tests/faults/readings.py takes no arguments")
    page = PAGE
    text = page.read_text(encoding="utf-8")
    if not BLOCK.search(text):
        return _error("no-block", f"{page} has no <!-- readings --> block")
    write_atomic(page, BLOCK.sub(lambda _: render_block(), text, count=1))
    return 0


if __name__ == "__main__":
    sys.path[0] = str(Path(__file__).resolve().parents[1])  # tests/: the faults are faults.*
    raise SystemExit(main())
