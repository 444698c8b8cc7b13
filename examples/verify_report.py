"""The verification as data: a run's JSON report read property by property.

    python examples/verify_report.py [--out DIR] [--players 2-8] [--only I4,L1] [--depth 12]

Runs ``buckshot verify`` (the properties ``--only`` names, or all of them, for the player
counts of ``--players``; bounded model checking to ``--depth``, 0 to skip it; no vacuity
check and no engine walks, which a full run adds) with ``--json``, then prints from the
report each property's statement, the clauses it rests on, its verdict for each player
count, and what bounded model checking did. Every counterexample the run finds is in the
report and in its own replayable file (``buckshot replay FILE``). See docs/verification.md.
"""

from __future__ import annotations

import argparse
import json
import textwrap
from pathlib import Path

from shell import buckshot, folder


def main() -> None:
    """Verify, then read the report."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=None, help="folder to write into")
    parser.add_argument("--players", default="2-8")
    parser.add_argument("--only", default=None, help="comma-separated property IDs")
    parser.add_argument("--depth", default="12", help="bounded model checking depth")
    args = parser.parse_args()
    out = folder(args.out, "verify")
    report = out / "report.json"
    only = ["--only", args.only] if args.only else []
    buckshot(
        "verify",
        "--players",
        args.players,
        *only,
        "--depth",
        args.depth,
        "--no-vacuity",
        "--walk-steps",
        "0",
        "--json",
        str(report),
        "--counterexamples",
        str(out / "counterexamples"),
        "--quiet",
        show=False,
    )
    data = json.loads(report.read_text(encoding="utf-8"))
    for proof in data["proofs"]:
        verdicts = ", ".join(f"N={n['n']} {n['verdict']}" for n in proof["per_n"])
        print(f"{proof['id']} ({proof['kind']}; {' '.join(proof['clauses'])}): {verdicts}")
        print(textwrap.indent(textwrap.fill(proof["statement"], 88), "    "))
    bmc = data["bmc"]
    searched = ", ".join(bmc["properties"]) or "nothing"
    print(f"bounded model checking: {bmc['status']} (searched {searched} to depth {bmc['depth']})")
    if data["assumed_not_proved"]:
        assumed = ", ".join(data["assumed_not_proved"])
        print(f"assumed by the proofs, not proved in this run: {assumed}")
    print(f"verdict: {data['verdict']}; the report is {report}")


if __name__ == "__main__":
    main()
