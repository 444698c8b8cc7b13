"""What every room of the tests shares: the ``slow`` tier and a report of tests that belong in it.

The tests are grouped by the room they check (``spec``, ``reference``, ``verification``,
``conformance``, ``workbench``, ``diagrams``, ``commands``, ``docs``); the modules they share
(``engine_helpers``, ``chart_driver``, ...) stand beside this file, which pytest puts on the
import path, and so does the package of deliberate bugs, ``faults`` (``tests/faults/``: the
fault manifest, the breakers and patches, the adapter that serves one).
``bash scripts/test.sh --fast`` leaves out the tests marked ``slow`` (more than half a second
on 2 cores, setup included): the fast tier is the loop of a minute for your own work, the whole
suite runs in CI. After a run, the tests that took longer without the mark are listed, as a
note, not a failure: a time measured on a busy machine is no verdict.
"""

from __future__ import annotations

import fcntl
import functools
import hashlib
import os
import pickle
import signal
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
import typer.main
import typer.testing

if TYPE_CHECKING:
    from buckshot.conformance.suite import Suite
    from buckshot.spec.ruleset import Ruleset
    from buckshot.traceability import TraceMatrix
    from buckshot.verification.comparison import VerificationComparison

if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)
"""A shell that starts a job in the background (``bash .ci/run &``, nohup) lets it ignore
Ctrl-C, and every process it starts inherits that: the tests that press Ctrl-C in a command
would see it ignored. The tests' processes take Ctrl-C as a person's terminal gives it."""

os.environ.setdefault("BUCKSHOT_ENGINE", "plain")
"""The tests check the plain engine, whose functions the deliberate bugs substitute, even
when it is built with mypyc; tests/reference/test_engine_build.py runs the 200-game digest
on the built one (``BUCKSHOT_ENGINE=compiled pytest ...`` runs any test on it)."""

pytest.MonkeyPatch().setattr(typer.testing, "_get_command", functools.cache(typer.main.get_command))
"""``CliRunner.invoke`` turns its Typer app into a click command on every call (45 ms for the
``buckshot`` program: every command's signature read again); the tests' apps are complete once
imported, so each is turned once per process (for good: the patch is never undone, and fails
if typer renames the function)."""

SLOW_SECONDS = 0.5
"""A test that takes longer than this (setup and call) belongs in the slow tier."""

TWO_SEATS = (2, 2)
"""The player counts of the shared ruleset comparison (:func:`compared`)."""

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
    terminalreporter.section(f"tests over {SLOW_SECONDS} s without the slow mark")
    for seconds, nodeid in late:
        terminalreporter.write_line(f"{seconds:6.1f}s {nodeid}")


@pytest.fixture(scope="session", autouse=True)
def bundled_suite_once() -> Iterator[None]:
    """Every load of the bundled cases folder in a worker process (:func:`suite`, and the
    in-process ``buckshot conformance run``, ``check``, ``coverage`` and :func:`run_suite`
    without a suite) returns one :class:`Suite`, read and validated on the first (2 s of CPU
    each time otherwise); tests read it and never change it. A load of any other folder (the
    suite's root, a subfolder, a copy) reads its files as always."""
    from buckshot.conformance import runner
    from buckshot.conformance import suite as suites
    from buckshot.conformance.bundled import CASES

    load = suites.load_suite

    @functools.cache
    def bundled() -> Suite:
        return load(CASES)

    def load_once(cases_dir: Path) -> Suite:
        return bundled() if Path(cases_dir).resolve() == CASES else load(cases_dir)

    with pytest.MonkeyPatch.context() as patched:
        patched.setattr(suites, "load_suite", load_once)
        patched.setattr(runner, "load_suite", load_once)
        yield


@pytest.fixture(scope="session")
def suite() -> Suite:
    """The bundled conformance suite, loaded and validated once per worker process
    (:func:`bundled_suite_once`); tests read it and never change it."""
    from buckshot.conformance import suite as suites
    from buckshot.conformance.bundled import CASES

    return suites.load_suite(CASES)


@pytest.fixture(scope="session")
def exported(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The bundled suite as ``buckshot conformance export`` writes it for vendoring, once per
    worker process; tests read it and copy it before changing anything."""
    from typer.testing import CliRunner

    from buckshot.cli.conformance import app
    from buckshot.conformance.export import MANIFEST

    folder = tmp_path_factory.mktemp("vendored") / "suite"
    result = CliRunner().invoke(app, ["export", str(folder)])
    assert result.exit_code == 0, result.output
    assert (folder / MANIFEST).is_file() and (folder / "cases").is_dir()
    return folder


@pytest.fixture(scope="session")
def matrix() -> TraceMatrix:
    """The traceability matrix of the checkout (``build_matrix()``: the spec, the bundled
    cases, the tests), built once per worker process (a second or two); tests read it."""
    from buckshot.traceability import build_matrix

    return build_matrix()


@pytest.fixture(scope="session")
def run_folder(tmp_path_factory: pytest.TempPathFactory, worker_id: str) -> Path:
    """A folder shared by every worker process of this pytest run (and by no other run)."""
    base = tmp_path_factory.getbasetemp()
    return base if worker_id == "master" else base.parent


@pytest.fixture(scope="session")
def compared(run_folder: Path) -> Callable[[Ruleset, Ruleset], VerificationComparison]:
    """:func:`compare_verification` of two rulesets for two seats, computed once per run.

    The verdicts are deterministic and the comparison is the slowest thing the tests do (a
    minute of proofs), so every test that verifies the same pair (the function, ``buckshot
    compare`` and ``buckshot sweep --verify``) shares one computation, kept on disk for the
    run: the worker process that asks first computes it while the others wait on its lock.
    """
    from buckshot.verification.comparison import compare_verification

    def compare(old: Ruleset, new: Ruleset) -> VerificationComparison:
        key = hashlib.sha256(repr((old, new, TWO_SEATS)).encode()).hexdigest()[:16]
        stored = run_folder / f"comparison-{key}.pickle"
        with open(run_folder / f"comparison-{key}.lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            if not stored.exists():
                found = compare_verification(old, new, players=TWO_SEATS)
                stored.write_bytes(pickle.dumps(found))
            loaded: VerificationComparison = pickle.loads(stored.read_bytes())
            return loaded

    return compare
