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
from collections.abc import Callable, Mapping, Sequence

from buckshot.closed_output import closed_output_ends_quietly
from buckshot.faults import contract, engine
from buckshot.faults.declare import Fault
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
    return serve_a_fault(
        "python -m buckshot.faults.adapter",
        __doc__.splitlines()[0],
        CATALOGUE,
        lambda fault: f"{fault.room}; breaks {', '.join(fault.breaks)}",
        argv,
    )


def serve_a_fault(
    prog: str,
    description: str,
    catalogue: Mapping[str, ServedFault],
    describe: Callable[[Fault], str],
    argv: Sequence[str] | None = None,
) -> int:
    """The command line of an adapter serving one fault of ``catalogue`` (``--fault NAME``)
    or listing them (``--list``, each with ``describe``'s words), ``description`` its help's
    first line; its exit status."""
    parser = argparse.ArgumentParser(prog=prog, description=description)
    which = parser.add_mutually_exclusive_group(required=True)
    which.add_argument("--fault", metavar="NAME", help="serve the adapter with this fault")
    which.add_argument("--list", action="store_true", help="list the faults and exit")
    args = parser.parse_args(argv)
    if args.list:
        for name, served in catalogue.items():
            print(f"{name}: {served.fault.summary} ({describe(served.fault)})")
        return 0
    if args.fault not in catalogue:
        print(
            f"error [usage]: {parser.prog}: unknown fault {args.fault!r} (see --list)",
            file=sys.stderr,
        )
        return 2
    run = catalogue[args.fault].apply()
    implementation = {**IMPLEMENTATION, "name": f"{IMPLEMENTATION['name']}+fault:{args.fault}"}
    return serve(sys.stdin, sys.stdout, implementation, run)


if __name__ == "__main__":
    # Serve from the importable module (the faults are declared once, by its imports).
    from buckshot.faults import adapter as importable

    with closed_output_ends_quietly():
        sys.exit(importable.main())
