"""An implementer's round: the conformance suite through an adapter, then a regression found.

    python examples/conformance_run.py [--out DIR] [--adapter COMMAND] [--filter F]...

Runs the cases ``--filter`` selects (the shot cases by default; ``--filter all`` for the
whole suite) through ``--adapter`` (by default ``reference``, the reference engine's
adapter; give your own command line, e.g. ``"node my-adapter.js"``), writing a JSON-lines
report and a JUnit report. Then it runs the same cases through a deliberately broken
adapter, written here: the reference one behind a filter that drops every ``hp_changed``
event from the traces it reports, as a buggy implementation might. That run lists the failing
cases with what differs, writes an explorer page per failing case (the expected trace
beside the broken one), and ``conformance diff`` names the regressions between the two
reports. A known-failures file then marks two of them as expected. The contract an adapter
follows is conformance/data/INTERPRETING.md; see docs/conformance.md.
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
from pathlib import Path

from shell import buckshot, folder

BROKEN_ADAPTER = '''"""The reference adapter, reporting its traces without hp_changed events."""
import json
import subprocess
import sys

engine = subprocess.Popen(
    [sys.executable, "-m", "buckshot.reference.adapter"],
    stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
)
for line in sys.stdin:  # one request a line: start, run ..., stop
    engine.stdin.write(line)
    engine.stdin.flush()
    if json.loads(line)["type"] == "stop":
        break
    reply = json.loads(engine.stdout.readline())  # one reply a line, in order
    if reply["type"] in ("result", "rejected"):
        reply["events"] = [e for e in reply["events"] if e["type"] != "hp_changed"]
    print(json.dumps(reply), flush=True)
engine.wait()
'''


def main() -> None:
    """Run the suite through the adapter, then through the broken one, and compare."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=None, help="folder to write into")
    parser.add_argument("--adapter", default="reference", help="the adapter's command line")
    parser.add_argument("--filter", action="append", default=None, help="cases to run")
    args = parser.parse_args()
    out = folder(args.out, "conformance")
    chosen = args.filter or ["area:shot"]
    filters = [] if chosen == ["all"] else [f"--filter={f}" for f in chosen]

    before = out / "before.jsonl"
    buckshot(
        "conformance",
        "run",
        "--adapter",
        args.adapter,
        *filters,
        "--report",
        str(before),
        "--junit",
        str(out / "before.xml"),
        "--no-tables",
        "--quiet",
    )

    broken = out / "broken_adapter.py"
    broken.write_text(BROKEN_ADAPTER, encoding="utf-8")
    command = shlex.join([sys.executable, str(broken)])
    after = out / "after.jsonl"
    buckshot(
        "conformance",
        "run",
        "--adapter",
        command,
        *filters,
        "--report",
        str(after),
        "--explore",
        str(out / "pages"),
        "--no-tables",
        "--quiet",
        expect=1,
    )
    buckshot("conformance", "diff", str(before), str(after), expect=1)

    failed = [
        line["id"]
        for line in map(json.loads, after.read_text(encoding="utf-8").splitlines())
        if line.get("type") == "case" and line.get("status") == "failed"
    ]
    known = out / "known-failures.txt"
    known.write_text(
        "".join(f"{case}  # hp_changed events not reported yet\n" for case in failed[:2]),
        encoding="utf-8",
    )
    buckshot(
        "conformance",
        "run",
        "--adapter",
        command,
        *filters,
        "--known-failures",
        str(known),
        "--no-tables",
        "--quiet",
        expect=1 if len(failed) > 2 else 0,
    )
    print(f"\nreports, pages and the known-failures file are in {out}")


if __name__ == "__main__":
    main()
