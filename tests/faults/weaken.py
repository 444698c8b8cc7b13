"""Does a fault's check in the suite fail when the check is weakened? One line per fault.

    python tests/faults/weaken.py NAME...

For a model or chart row, the suite's check (:func:`faults.mutants.run_ci_check`, asserted by
``tests/verification/test_verification_proofs.py``) is run three ways: as the suite runs it
(it must show the fault caught), with the property it names made vacuous (its state and step
parts always true: the check disabled) and without the fault's patch; the last two must not
show it caught. For an engine or contract row, the cases of its ``caught_by`` are run through
the adapter serving the fault (every one must fail, as
``tests/conformance/test_conformance_mutants.py`` asserts) and through the plain reference
adapter (none may fail); for a chance row, its experiments likewise. Exit 1 when a check
catches its fault weakened, or misses it whole.
"""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path
from typing import Any
from unittest import mock

HERE = Path(__file__).resolve().parent


def _caught(proof: Any) -> bool:
    from buckshot.verification.proofs.induction import VIOLATED

    cex = proof.counterexample
    return bool(proof.verdict == VIOLATED and cex is not None and cex.confirmed)


def model_row(name: str) -> tuple[bool, bool, bool]:
    """Caught as the suite runs it, with the property made vacuous, without the patch."""
    from buckshot.verification.model.patch import NO_PATCH
    from buckshot.verification.proofs import induction
    from faults import mutants

    whole = _caught(mutants.run_ci_check(name))
    prop = induction.property_by_id(mutants.ci_checks()[name].property)
    vacuous = replace(
        prop,
        state=None if prop.state is None else (lambda m, s: m.b.boolean(True)),
        step=None if prop.step is None else (lambda m, s, inp, r: m.b.boolean(True)),
        offer=None,
        progress=False,
    )
    original = induction.property_by_id
    with mock.patch.object(
        mutants, "property_by_id", lambda pid: vacuous if pid == prop.id else original(pid)
    ):
        weakened = _caught(mutants.run_ci_check(name))
    unpatched = _caught(mutants.run_ci_check(name, patch=NO_PATCH))
    return whole, weakened, unpatched


def served_row(name: str) -> tuple[bool, bool]:
    """Every named check fails through the fault's adapter; through the reference's."""
    from buckshot.conformance import RunOptions, run_suite
    from buckshot.conformance.bundled import CASES
    from buckshot.conformance.chance_mode import EXPERIMENTS, run_chance
    from faults.adapter import command
    from faults.manifest import row

    fault = row(name)

    def all_fail(adapter: str) -> bool:
        if fault.room == "chance":
            named = tuple(e for e in EXPERIMENTS if e.id in fault.caught_by)
            statuses = [result.status for result in run_chance(adapter, named).results]
        else:
            options = RunOptions(
                adapter=adapter, cases_dir=CASES, filters=list(fault.caught_by), timeout=30.0
            )
            statuses = [result.status for result in run_suite(options).results]
        return bool(statuses) and all(status == "failed" for status in statuses)

    reference = f"{sys.executable} -m buckshot.reference.adapter"
    return all_fail(command(name)), all_fail(reference)


def main(argv: list[str]) -> int:
    """Run each named fault's check whole and weakened; exit 1 when one does not hold."""
    sys.path.insert(0, str(HERE.parent))
    from faults.manifest import row

    bad = 0
    for name in argv:
        if row(name).served:
            whole, plain = served_row(name)
            ok = whole and not plain
            print(
                f"{name} ({row(name).room}): named checks fail with the fault {whole}, "
                f"without it {plain}: {'ok' if ok else 'WEAK'}",
                flush=True,
            )
        else:
            caught, vacuous, unpatched = model_row(name)
            ok = caught and not vacuous and not unpatched
            print(
                f"{name} ({row(name).batch or row(name).room}): caught {caught}, with its "
                f"property vacuous {vacuous}, without the patch {unpatched}: "
                f"{'ok' if ok else 'WEAK'}",
                flush=True,
            )
        bad += not ok
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
