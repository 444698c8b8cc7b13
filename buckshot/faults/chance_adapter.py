"""The reference adapter serving one deliberate bug of free chance (:mod:`buckshot.faults.chance`).

Run as ``python -m buckshot.faults.chance_adapter --fault NAME``; ``--list`` lists the
faults with the chance-mode experiments that must catch each.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from buckshot.faults.chance import FAULTS
from buckshot.reference.adapter import IMPLEMENTATION, serve


def main(argv: Sequence[str] | None = None) -> int:
    """Serve the reference adapter with one chance fault, or list them."""
    parser = argparse.ArgumentParser(
        prog="python -m buckshot.faults.chance_adapter", description=__doc__.splitlines()[0]
    )
    which = parser.add_mutually_exclusive_group(required=True)
    which.add_argument("--fault", metavar="NAME", help="serve the adapter with this fault")
    which.add_argument("--list", action="store_true", help="list the faults and exit")
    args = parser.parse_args(argv)
    if args.list:
        for name, served in FAULTS.items():
            fault = served.fault
            print(f"{name}: {fault.summary} (caught by {', '.join(fault.caught_by)})")
        return 0
    if args.fault not in FAULTS:
        print(
            f"error [usage]: {parser.prog}: unknown fault {args.fault!r} (see --list)",
            file=sys.stderr,
        )
        return 2
    run = FAULTS[args.fault].apply()
    implementation = {**IMPLEMENTATION, "name": f"{IMPLEMENTATION['name']}+fault:{args.fault}"}
    return serve(sys.stdin, sys.stdout, implementation, run)


if __name__ == "__main__":
    sys.exit(main())
