"""Where each model fault's CI check proves its property: ``ci.json``, written by this script.

    python tests/faults/ci_plan.py [--jobs J] [--only NAME]...

The full judgement of a model row (``python benchmarks/faults.py``,
:func:`faults.mutants.judge_row`) proves the properties of its ``caught_by`` in order at every
player count and walks for evidence.
The suite's check of the row (``tests/verification/test_verification_proofs.py``) is the cheapest
piece of that which still shows the row caught: the property of ``caught_by`` whose proof fails
(the first that does, as the full judgement takes it), proved at one player count where it fails
with a confirmed counterexample, and of that proof only the piece where the counterexample lies
(the base case, or the one branch of the step it takes) when that piece alone fails so too. This
script finds all three: it proves the row's properties in order, each at one player count at a
time from the lowest the row's ``counts`` allow (the smallest table is the smallest model:
measured, every row's proof is cheapest there or within noise of it), keeps the first that
fails, and proves the piece of its counterexample alone. Rewrites ``ci.json`` (the rows not run
kept). A row added to the manifest needs ``--only NAME`` (a test checks that every model and
chart row has its check).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
CI = HERE / "ci.json"
"""The plan: for each model and chart row, the property, player count and piece of the proof of
its CI check."""


def plan_row(name: str) -> tuple[str, dict[str, object] | None]:
    """The catching property of the row ``name``, the lowest player count at which its proof
    alone fails with a confirmed counterexample, and the piece of that proof which alone fails
    so, when it is narrower than the proof (None when no property of ``caught_by`` fails so at
    any count of the row's ``counts``)."""
    from buckshot.spec.ruleset import load_ruleset
    from buckshot.verification.model.branches import branches
    from buckshot.verification.model.config import make_config
    from buckshot.verification.proofs.induction import (
        VIOLATED,
        ProofModel,
        ProofResult,
        property_by_id,
        prove_property,
    )
    from faults.manifest import patches, row

    def caught(proof: ProofResult) -> bool:
        cex = proof.counterexample
        return proof.verdict == VIOLATED and cex is not None and cex.confirmed

    fault, patch, ruleset = row(name), patches()[name], load_ruleset()
    lo, hi = fault.counts or (2, 8)
    for pid in fault.caught_by:
        prop = property_by_id(pid)
        for n in range(lo, hi + 1):
            cfg = make_config(ruleset, (n, n))
            started = time.process_time()
            model = ProofModel(cfg, patch)
            alone = prove_property(model, prop)
            seconds = time.process_time() - started
            cex = alone.counterexample
            if not caught(alone) or cex is None:
                continue
            found: dict[str, object] = {"property": pid, "players": n}
            part: str | None
            if prop.progress or prop.offer is not None:
                part = None  # a property of states alone: one query, nothing narrower
            elif cex.before is None or cex.input is None:
                part = "base"
            else:
                taken = branches(model.spec.sem, cex.before, cex.input)
                part = next(case.name for case in taken if case.cond)
            if part is not None:
                started = time.process_time()
                if caught(prove_property(ProofModel(cfg, patch), prop, part=part)):
                    found["part"] = part
                    seconds = time.process_time() - started
            found["cpu_seconds"] = round(seconds, 2)
            return name, found
    return name, None


def main(argv: list[str] | None = None) -> int:
    """Plan the rows, rewrite ``ci.json``; exit 1 when a row has no failing proof."""
    sys.path.insert(0, str(HERE.parent))
    from faults.manifest import select

    parser = argparse.ArgumentParser(prog="python tests/faults/ci_plan.py")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--only", action="append", default=[])
    args = parser.parse_args(argv)
    names = [r.name for r in select("model", "chart", batch=None, names=tuple(args.only))]
    plan = json.loads(CI.read_text(encoding="utf-8"))["faults"] if CI.exists() else {}
    missing = []
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for name, found in pool.map(plan_row, names):
            print(name, found, flush=True)
            if found is None:
                missing.append(name)
            else:
                plan[name] = found
    order = [r.name for r in select("model", "chart", batch=None)]
    about = (
        "Where the suite checks each model and chart row of manifest.json "
        "(tests/verification/test_verification_proofs.py): the property of its caught_by whose "
        "proof fails (the first that does at some player count), the lowest count at which it "
        "fails with a confirmed counterexample, the part of that proof where it fails so (the "
        "base case or one branch of the step; none: the whole proof), and that check's CPU "
        "seconds when planned. "
        "Written by python tests/faults/ci_plan.py."
    )
    lines = [f"  {json.dumps(name)}: {json.dumps(plan[name])}" for name in order if name in plan]
    text = "{\n" + f' "about": {json.dumps(about)},\n "faults": {{\n'
    text += ",\n".join(lines) + "\n }\n}\n"
    CI.write_text(text, encoding="utf-8")
    if missing:
        print("no failing proof: " + ", ".join(missing), file=sys.stderr)
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
