"""The proofs judged by bugs a stranger wrote: each bug of ``stranger_model_bugs.BUGS`` run
through the whole default property set, every player count, as ``buckshot verify`` runs it.

    python benchmarks/stranger_mutants.py [--batch 1|2] [--jobs J] [--only NAME]... [--depth D]
                                          [--update | --results FILE]

``--batch 2`` runs the second catalogue instead (``stranger_model_bugs_2.BUGS``, written by
another stranger, later), the first being the default.

For each bug the model is patched and every property is proved at every player count of the
ruleset (the solver bounded by its resource limit, :mod:`buckshot.verification.proofs.limits`;
the wall clock only as its safety net). A bug counts as caught only with real evidence: a
property's proof fails with a counterexample the executable spec confirms, *and* a seeded
random game of the executable spec with the bug, from an initial state, reaches a state or
step that breaks one of the failed properties (the search of
:func:`buckshot.verification.proofs.mutants.mutant_evidence`), or bounded model checking
(``--depth`` > 0, off by default: costly) finds a path from an initial state. A proof failure
no path shows is ``cti only``, counted apart; a bug no proof fails is ``missed``.

Prints one line per bug (its rule, its verdict, the properties that failed) and the score.
The score of a run of the whole catalogue is kept under ``stranger_mutants`` (the second
batch's under ``stranger_mutants_2``): ``--update``
stores it in ``benchmarks/results.json``, ``--results FILE`` in FILE; without either nothing
is written, and a run of part of the catalogue (``--only``) is never published as whole.
Exit 1 when a bug is missed.
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import stranger_model_bugs  # benchmarks/stranger_model_bugs.py
import stranger_model_bugs_2  # benchmarks/stranger_model_bugs_2.py
from results import add_arguments, check_arguments, machine, publish  # benchmarks/results.py
from stranger_model_bugs import StrangerBug

from buckshot.spec.ruleset import load_ruleset
from buckshot.verification.model.config import Config, make_config
from buckshot.verification.proofs.induction import VIOLATED
from buckshot.verification.proofs.mutants import Mutant, mutant_evidence
from buckshot.verification.run import verify

BATCHES: dict[int, tuple[str, tuple[StrangerBug, ...]]] = {
    1: ("stranger_mutants", stranger_model_bugs.BUGS),
    2: ("stranger_mutants_2", stranger_model_bugs_2.BUGS),
}
"""Each batch of bugs: the results key its whole run is kept under, and its catalogue."""
CAUGHT, CTI_ONLY, MISSED = "caught", "cti only", "missed"


@dataclass(frozen=True)
class Outcome:
    """What the proofs made of one bug."""

    bug: StrangerBug
    verdict: str
    failed: tuple[str, ...]
    """Properties whose proof failed with a confirmed counterexample (any player count)."""
    unknown: tuple[str, ...]
    """Properties the solver could not decide within its resource limit."""
    evidence: str
    """How the bug was shown reachable ("" when it was not)."""
    seconds: float


def judge_bug(cfg: Config, bug: StrangerBug, jobs: int, depth: int) -> Outcome:
    """Run every property against ``bug`` and decide whether it was caught with evidence."""
    started = time.perf_counter()
    report = verify(cfg, depth=depth, vacuity=False, patch=bug.patch, jobs=jobs, walk_steps=0)
    failed = tuple(
        proof.id
        for proof in report.proofs
        if proof.verdict == VIOLATED
        and proof.counterexample is not None
        and proof.counterexample.confirmed
    )
    unknown = tuple(p.id for p in report.proofs if p.verdict not in (VIOLATED, "proved"))
    evidence = ""
    if report.violations:
        first = report.violations[0]
        how = "walk" if first.witness.note.startswith("a seeded") else "bmc"
        evidence = f"{how}: {first.property_id} broken at depth {first.depth} (N={first.n})"
    elif failed:
        mutant = Mutant(bug.name, bug.sentence, failed, bug.patch)
        found = mutant_evidence(cfg, mutant)
        evidence = found.text() if found is not None else ""
    seen = tuple(dict.fromkeys(failed + tuple(v.property_id for v in report.violations)))
    verdict = CAUGHT if evidence else CTI_ONLY if seen else MISSED
    return Outcome(bug, verdict, seen, unknown, evidence, time.perf_counter() - started)


def line(outcome: Outcome) -> str:
    """One row of the table."""
    bug = outcome.bug
    by = ", ".join(outcome.failed) or "-"
    extra = f"  [unknown: {', '.join(outcome.unknown)}]" if outcome.unknown else ""
    return (
        f"{bug.name:32} {bug.rule:8} {outcome.verdict:9} {by}"
        f"{'  <- ' + outcome.evidence if outcome.evidence else ''}{extra}"
    )


def main(argv: list[str] | None = None) -> int:
    """Run the catalogue (or ``--only`` bugs), print the table and the score."""
    parser = argparse.ArgumentParser(
        prog="python benchmarks/stranger_mutants.py", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument(
        "--batch", type=int, choices=sorted(BATCHES), default=1, help="catalogue (default 1)"
    )
    parser.add_argument("--jobs", type=int, default=2, help="processes (default 2)")
    parser.add_argument("--only", action="append", default=[], help="run only this bug")
    parser.add_argument(
        "--depth", type=int, default=0, help="bounded model checking depth (default 0: none)"
    )
    add_arguments(parser)
    args = parser.parse_args(argv)
    key, bugs = BATCHES[args.batch]
    names = {bug.name for bug in bugs}
    unknown = [name for name in args.only if name not in names]
    if unknown:
        parser.error(f"--only: no bug {', '.join(unknown)} in batch {args.batch}")
    if args.jobs < 1 or args.depth < 0:
        parser.error("--jobs must be 1 or more and --depth 0 or more")
    check_arguments(parser, args)
    chosen = [bug for bug in bugs if not args.only or bug.name in args.only]
    cfg = make_config(load_ruleset())
    began = datetime.now(UTC)
    where = machine()
    outcomes: list[Outcome] = []
    for bug in chosen:
        outcome = judge_bug(cfg, bug, args.jobs, args.depth)
        outcomes.append(outcome)
        print(line(outcome), flush=True)
    caught = sum(o.verdict == CAUGHT for o in outcomes)
    cti = sum(o.verdict == CTI_ONLY for o in outcomes)
    print(
        f"score: {caught}/{len(outcomes)} caught with evidence, {cti} cti only, "
        f"{len(outcomes) - caught - cti} missed (players {cfg.players_lo}-{cfg.players_hi})"
    )
    figures: dict[str, Any] = {
        "measured": began.strftime("%Y-%m-%d %H:%M UTC"),
        "machine": where,
        "players": [cfg.players_lo, cfg.players_hi],
        "bmc_depth": args.depth,
        "bugs": len(outcomes),
        "caught": caught,
        "cti_only": cti,
        "missed": [o.bug.name for o in outcomes if o.verdict == MISSED],
        "per_bug": {
            o.bug.name: {"rule": o.bug.rule, "verdict": o.verdict, "failed": list(o.failed)}
            for o in outcomes
        },
        "complete": len(outcomes) == len(bugs),
        "incomplete": "" if len(outcomes) == len(bugs) else "--only ran part of the catalogue",
    }
    publish(args, key, figures)
    return 1 if any(o.verdict == MISSED for o in outcomes) else 0


if __name__ == "__main__":
    sys.exit(main())
