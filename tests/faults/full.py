"""The fault checks the suite leaves to a full run, and the switch that runs them.

The suite checks every row of ``manifest.json`` by the cheapest check that shows it caught by
the check its row names (model rows: ``ci.json``; engine and contract rows: their cases;
chance rows: their experiments). What a row's full judgement adds (each property at every
player count, the seeded evidence walks at every count) is ``python benchmarks/faults.py``'s,
and the tests that claim it for every count are marked :data:`full_only`: skipped, saying how
to run them, unless ``BUCKSHOT_FAULTS_FULL=1`` is set.
"""

from __future__ import annotations

import os

import pytest

FULL_ENV = "BUCKSHOT_FAULTS_FULL"
"""Set to ``1`` to run the tests marked :data:`full_only`."""


def full_run() -> bool:
    """Whether this run checks every player count, walk, edit and experiment
    (``BUCKSHOT_FAULTS_FULL=1``)."""
    return os.environ.get(FULL_ENV) == "1"


full_only = pytest.mark.skipif(
    not full_run(),
    reason=f"every player count and walk: {FULL_ENV}=1 pytest ..., or python benchmarks/faults.py",
)
"""Skip a test of every player count and walk unless ``BUCKSHOT_FAULTS_FULL=1``."""
