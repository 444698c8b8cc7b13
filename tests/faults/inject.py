"""``buckshot verify`` with deliberate bugs of the model switched on, for the tests of the command.

The command serves no fault: these tests run it in their own process (typer's test runner)
with the verification run it calls given the patch of the faults named
(:func:`faults.manifest.patch_of`). The report carries the patch, so the counterexamples the
command saves are read by the broken model too; the worker processes unpickle the patch from
``faults.*``, which they find as this process does (a spawned worker gets its parent's import
path).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from functools import partial
from unittest import mock

from buckshot.verification import run
from faults.manifest import patch_of


@contextmanager
def injected(*names: str) -> Iterator[None]:
    """Within the block, ``buckshot verify`` checks the model with the faults ``names``."""
    with mock.patch.object(run, "verify", partial(run.verify, patch=patch_of(*names))):
        yield
