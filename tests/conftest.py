"""What every room of the tests shares: the ``slow`` tier and a report of tests that belong in it.

The tests are grouped by the room they check (``spec``, ``reference``, ``verification``,
``conformance``, ``workbench``, ``diagrams``, ``commands``, ``docs``); the modules they share
(``engine_helpers``, ``chart_driver``, ...) stand beside this file, which pytest puts on the
import path, and so does the package of deliberate bugs, ``faults`` (``tests/faults/``: the
fault manifest, the breakers and patches, the adapter that serves one).
``bash scripts/test.sh --fast`` leaves out the tests marked ``slow`` (more than 5 s on 2 cores,
setup included). After a run, the tests that took longer without the mark are listed, as a note,
not a failure: a time measured on a busy machine is no verdict.
"""

from __future__ import annotations

import pytest

SLOW_SECONDS = 5.0
"""A test that takes longer than this (setup and call) belongs in the slow tier."""

_TAKEN: dict[str, float] = {}
_SLOW: set[str] = set()


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    """Add up the setup and call time of each test, and note the tests marked ``slow`` (from
    the report, which also reaches the main process when workers run the tests)."""
    if report.when in ("setup", "call"):
        _TAKEN[report.nodeid] = _TAKEN.get(report.nodeid, 0.0) + report.duration
    if "slow" in report.keywords:
        _SLOW.add(report.nodeid)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """List the tests that took more than :data:`SLOW_SECONDS` without the ``slow`` mark."""
    late = sorted(
        ((seconds, nodeid) for nodeid, seconds in _TAKEN.items() if nodeid not in _SLOW),
        reverse=True,
    )
    late = [(seconds, nodeid) for seconds, nodeid in late if seconds > SLOW_SECONDS]
    if not late:
        return
    terminalreporter.section("tests over 5 s without the slow mark")
    for seconds, nodeid in late:
        terminalreporter.write_line(f"{seconds:6.1f}s {nodeid}")
