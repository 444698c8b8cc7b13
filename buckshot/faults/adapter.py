"""The reference adapter serving one deliberate bug of the engine or of its contract.

Run as ``python -m buckshot.faults.adapter --fault NAME``: it applies the fault in its own
process (:mod:`buckshot.faults.engine`, :mod:`buckshot.faults.contract`), then serves the
reference adapter (:func:`buckshot.reference.adapter.serve`) with the run class the fault
gives, its ``hello`` naming the fault. ``--list`` lists the faults with what each breaks.
:data:`CATALOGUE` is every such fault, for the tests and the benchmarks that run them
through the conformance suite.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from buckshot.faults import contract, engine
from buckshot.faults.served import ServedFault
from buckshot.reference.adapter import IMPLEMENTATION, Run, serve

CATALOGUE: dict[str, ServedFault] = {**engine.FAULTS, **contract.FAULTS}
"""Every fault the reference adapter can serve, by name: the engine's, then the contract's."""


def apply(name: str) -> type[Run]:
    """Break the engine in this process as the fault ``name`` says; the run class to serve
    with. ``KeyError`` naming the known faults when there is no such fault."""
    try:
        served = CATALOGUE[name]
    except KeyError:
        raise KeyError(f"unknown fault {name!r}; known: {', '.join(CATALOGUE)}") from None
    return served.apply()


def main(argv: Sequence[str] | None = None) -> int:
    """The entry point: serve the reference adapter with one fault, or list the faults."""
    parser = argparse.ArgumentParser(
        prog="python -m buckshot.faults.adapter", description=__doc__.splitlines()[0]
    )
    which = parser.add_mutually_exclusive_group(required=True)
    which.add_argument("--fault", metavar="NAME", help="serve the adapter with this fault")
    which.add_argument("--list", action="store_true", help="list the faults and exit")
    args = parser.parse_args(argv)
    if args.list:
        for name, served in CATALOGUE.items():
            fault = served.fault
            print(f"{name}: {fault.summary} ({fault.room}; breaks {', '.join(fault.breaks)})")
        return 0
    if args.fault not in CATALOGUE:
        print(
            f"error [usage]: {parser.prog}: unknown fault {args.fault!r} (see --list)",
            file=sys.stderr,
        )
        return 2
    run = apply(args.fault)
    implementation = {**IMPLEMENTATION, "name": f"{IMPLEMENTATION['name']}+fault:{args.fault}"}
    return serve(sys.stdin, sys.stdout, implementation, run)


if __name__ == "__main__":
    # Serve from the importable module (the faults are declared once, by its imports).
    from buckshot.faults import adapter as importable

    sys.exit(importable.main())
