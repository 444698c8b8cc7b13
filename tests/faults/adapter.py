"""The reference adapter serving one deliberate bug of the engine, its contract or free chance.

Run as ``python tests/faults/adapter.py --fault NAME`` (from anywhere: it puts ``tests/`` on
the import path itself): it applies the fault in its own process (:mod:`faults.engine`,
:mod:`faults.contract`, :mod:`faults.chance`), then serves the reference adapter
(:func:`buckshot.reference.adapter.serve`) with the run class the fault gives, its ``hello``
naming the fault. ``--list`` lists the faults with what each breaks and what must catch it
(their rows of ``manifest.json``). :data:`COMMAND` is the adapter command of one fault, for
the tests and ``benchmarks/faults.py``, which run it through the conformance suite.
"""

from __future__ import annotations

import argparse
import shlex
import sys
from collections.abc import Sequence
from pathlib import Path

HERE = Path(__file__).resolve().parent


def command(name: str) -> str:
    """The adapter command line serving the fault ``name`` (this interpreter, this file)."""
    return shlex.join([sys.executable, str(HERE / "adapter.py"), "--fault", name])


def main(argv: Sequence[str] | None = None) -> int:
    """Serve the reference adapter with one fault, or list the faults; the exit status."""
    from faults import chance, contract, engine, stranger_3  # first: they choose the plain engine
    from faults.served import apply

    # the breakers as faults.manifest.breakers() gives them, without importing the manifest's
    # reader (and with it the model and Z3) into every adapter a test starts
    catalogue = {**engine.BREAKERS, **contract.BREAKERS, **chance.BREAKERS, **stranger_3.BREAKERS}
    parser = argparse.ArgumentParser(
        prog="python tests/faults/adapter.py", description=__doc__.splitlines()[0]
    )
    which = parser.add_mutually_exclusive_group(required=True)
    which.add_argument("--fault", metavar="NAME", help="serve the adapter with this fault")
    which.add_argument("--list", action="store_true", help="list the faults and exit")
    args = parser.parse_args(argv)
    if args.list:
        from faults.manifest import row

        for name in catalogue:
            fault = row(name)
            print(
                f"{name}: {fault.summary} ({fault.room}; breaks {', '.join(fault.breaks)}; "
                f"caught by {', '.join(fault.caught_by)})"
            )
        return 0
    if args.fault not in catalogue:
        print(
            f"error [usage]: {parser.prog}: unknown fault {args.fault!r} (see --list)",
            file=sys.stderr,
        )
        return 2
    from buckshot.reference.adapter import IMPLEMENTATION, serve

    run = apply(catalogue[args.fault])
    implementation = {**IMPLEMENTATION, "name": f"{IMPLEMENTATION['name']}+fault:{args.fault}"}
    return serve(sys.stdin, sys.stdout, implementation, run)


if __name__ == "__main__":
    sys.path[0] = str(HERE.parent)  # tests/, not this folder: the faults are ``faults.*``
    from buckshot.interrupt import closed_output_ends_quietly

    with closed_output_ends_quietly():
        sys.exit(main())
