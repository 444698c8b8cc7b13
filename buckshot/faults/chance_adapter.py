"""The reference adapter serving one deliberate bug of free chance (:mod:`buckshot.faults.chance`).

Run as ``python -m buckshot.faults.chance_adapter --fault NAME``; ``--list`` lists the
faults with the chance-mode experiments that must catch each.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from buckshot.closed_output import closed_output_ends_quietly
from buckshot.faults.adapter import serve_a_fault
from buckshot.faults.chance import FAULTS


def main(argv: Sequence[str] | None = None) -> int:
    """Serve the reference adapter with one chance fault, or list them."""
    return serve_a_fault(
        "python -m buckshot.faults.chance_adapter",
        __doc__.splitlines()[0],
        FAULTS,
        lambda fault: f"caught by {', '.join(fault.caught_by)}",
        argv,
    )


if __name__ == "__main__":
    with closed_output_ends_quietly():
        sys.exit(main())
