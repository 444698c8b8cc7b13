"""Running a suite through an adapter, one case at a time (docs/conformance.md, 'Running it'):
a crash, a hang or a malformed line makes that case ``errored`` and the adapter is restarted."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from buckshot.command import InputError, read_input
from buckshot.conformance.compare import Divergence
from buckshot.conformance.judge import judge
from buckshot.conformance.leaks import compare, eligible, variant
from buckshot.conformance.protocol import (
    PROTOCOL_VERSION,
    PROTOCOLS,
    REPORT_FORMAT,
    VIEW_PROTOCOL,
    AdapterFailure,
    AdapterNotStarted,
    AdapterProcess,
    quote,
    run_message,
    split_command,
    start_message,
    undeclared,
)
from buckshot.conformance.schemas import ReplyChecker, SchemaSet
from buckshot.conformance.suite import Case, Suite, load_suite, select
from buckshot.spec import SPEC_VERSION

STATUSES = ("passed", "failed", "errored", "skipped", "xfail", "xpass")
"""Every status a case can end with, in report order."""


@dataclass
class RunOptions:
    """What to run and how: the adapter command, the cases, filters, limits, known failures."""

    adapter: str
    cases_dir: Path
    filters: list[str] = field(default_factory=list)
    timeout: float = 10.0
    """Seconds an adapter has to answer one case."""
    known_failures: dict[str, str] = field(default_factory=dict)
    known_failures_source: str | None = None
    strict_known_failures: bool = False
    """Count a marked case that passes (``xpass``) as unexpected."""
    exit_first: bool = False
    """Stop after the first case that makes the run fail (for mutation runs)."""
    start_attempts: int = 3
    """Consecutive failed starts after which the adapter is not started again."""


@dataclass
class CaseResult:
    """How one case went."""

    case: Case
    status: str
    duration_ms: float
    message: str | None = None
    divergence: Divergence | None = None
    known_failure: str | None = None
    events: tuple[dict[str, Any], ...] | None = None
    """The event trace the adapter reported (None when it sent no reply); kept for the
    explorer pages, not written to the report."""

    def to_json(self) -> dict[str, Any]:
        """The case's report line."""
        line: dict[str, Any] = {
            "type": "case",
            "id": self.case.id,
            "status": self.status,
            "clauses": list(self.case.clauses),
            "rulings": list(self.case.rulings),
            "features": list(self.case.features),
            "known_failure": self.known_failure,
            "duration_ms": round(self.duration_ms, 3),
        }
        if self.message is not None:
            line["message"] = self.message
        if self.divergence is not None:
            line["divergence"] = self.divergence.to_json()
        return line


@dataclass
class RunResult:
    """A whole run: what was selected, what the adapter said it is, and every case's result."""

    options: RunOptions
    suite: Suite
    hello: dict[str, Any] | None
    started: str
    results: list[CaseResult]
    restarts: int
    seconds: float
    interrupted: bool = False
    """Ctrl-C stopped the run: ``results`` holds the cases finished before it."""
    stopped_early: bool = False
    """``exit_first`` stopped the run at its first unexpected result, the last of ``results``."""

    def counts(self) -> dict[str, int]:
        """How many cases ended with each status."""
        counted = Counter(result.status for result in self.results)
        return {status: counted.get(status, 0) for status in STATUSES}

    def unexpected(self) -> list[CaseResult]:
        """The results that make the run fail."""
        return [result for result in self.results if _fails_the_run(result, self.options)]

    def stale_known_failures(self) -> list[str]:
        """Marked IDs that name no case of the suite."""
        ids = {case.id for case in self.suite.cases}
        return [case_id for case_id in self.options.known_failures if case_id not in ids]

    def header_json(self) -> dict[str, Any]:
        """The report's first line."""
        return {
            "type": "header",
            "format": REPORT_FORMAT,
            "protocol": PROTOCOL_VERSION,
            "spec_version": SPEC_VERSION,
            "adapter": self.options.adapter,
            "implementation": self.hello,
            "started": self.started,
            "cases": len(self.results),
            "filters": list(self.options.filters),
            "known_failures": self.options.known_failures_source,
        }

    def summary_json(self) -> dict[str, Any]:
        """The report's last line."""
        return {
            "type": "summary",
            "counts": self.counts(),
            "unexpected": len(self.unexpected()),
            "restarts": self.restarts,
            "seconds": round(self.seconds, 3),
            "stale_known_failures": self.stale_known_failures(),
        }


class Adapter:
    """The adapter across a run (of cases, or of chance mode's experiments): started on
    demand, restarted after a failure, its hello checked against the protocol schema.
    ``ValueError`` when the command is empty."""

    def __init__(
        self, command: str, timeout: float, schemas: SchemaSet, start_attempts: int = 3
    ) -> None:
        self.timeout = timeout
        self.start_attempts = start_attempts
        self.schemas = schemas
        self.replies = ReplyChecker(schemas)
        self.argv = split_command(command)
        self.process: AdapterProcess | None = None
        self.hello: dict[str, Any] | None = None
        self.failed_starts = 0
        self.started = 0
        self.last_error = ""
        self.runs = 0
        """Run messages sent so far (a case's second game too): the last one's ``seq``."""

    def ensure(self) -> str | None:
        """Start the adapter if it is not running; the reason when it cannot be."""
        if self.process is not None:
            return None
        if self.failed_starts >= self.start_attempts:
            return (
                f"the adapter was not started again after {self.failed_starts} failed starts; "
                f"the last: {self.last_error}"
            )
        try:
            process = AdapterProcess(self.argv)
        except AdapterFailure as failure:
            return self._start_failed(str(failure))
        try:
            hello = process.request(start_message(SPEC_VERSION), self.timeout)
        except AdapterFailure as failure:
            process.kill()
            return self._start_failed(f"{failure.kind}: {failure}")
        problem = self.schemas.problem("protocol", hello, "hello")
        if problem is None and hello.get("protocol") not in PROTOCOLS:
            spoken = " or ".join(map(str, PROTOCOLS))
            problem = f"protocol {hello.get('protocol')}, the runner speaks {spoken}"
        if problem:
            process.kill()
            return self._start_failed(f"bad hello ({problem}): {quote(process.last_line)}")
        self.process, self.hello, self.failed_starts = process, hello, 0
        self.started += 1
        return None

    def _start_failed(self, reason: str) -> str:
        self.failed_starts += 1
        self.last_error = f"the adapter did not start: {reason}"
        return self.last_error

    def discard(self) -> None:
        """Kill the running adapter; the next case starts a fresh one."""
        if self.process is not None:
            self.process.kill()
            self.process = None

    def close(self) -> None:
        """Stop the adapter at the end of the run."""
        if self.process is not None:
            self.process.close()
            self.process = None


def _skip_reason(case: Case, hello: dict[str, Any]) -> str | None:
    version = hello["spec_version"]
    if not case.applies_to(version):
        below = f" below {case.spec_below}" if case.spec_below else ""
        return f"applies to spec {case.spec_min}{below}; the implementation follows {version}"
    return undeclared(case.features, hello)


@dataclass(frozen=True)
class _Outcome:
    status: str
    message: str | None = None
    divergence: Divergence | None = None
    events: tuple[dict[str, Any], ...] | None = None


def _ask(
    adapter: Adapter,
    case: Case,
    setup: dict[str, Any],
    script: list[dict[str, Any]],
    views: bool,
) -> dict[str, Any] | _Outcome:
    """One run of ``case`` as given: the adapter's valid reply, or the outcome that ends the
    case (the adapter failed, or wrote a reply that breaks the protocol)."""
    process = adapter.process
    assert process is not None
    adapter.runs += 1
    seq = adapter.runs
    message = run_message(seq, case.id, setup, script, views)
    try:
        reply = process.request(message, adapter.timeout)
    except AdapterFailure as failure:
        adapter.discard()
        return _Outcome("errored", f"{failure.kind}: {failure}")
    problem = adapter.replies.problem(reply)
    if problem is None and (reply["seq"] != seq or reply["id"] != case.id):
        problem = f"a reply to seq {reply['seq']} ({reply['id']}), expected seq {seq} ({case.id})"
    if problem:
        adapter.discard()
        return _Outcome("errored", f"malformed reply ({problem}): {quote(process.last_line)}")
    return reply


def _second_game(adapter: Adapter, case: Case, reply: dict[str, Any]) -> _Outcome | None:
    """The leak check by a second game (:mod:`buckshot.conformance.leaks`): the
    failing outcome when a seat's events or views depend on the chamber's hidden order."""
    changed = variant(case)
    if changed is None or adapter.process is None:
        return None
    events = tuple(reply["events"])
    second = _ask(adapter, case, *changed, _viewing(adapter))
    if isinstance(second, _Outcome):
        return _Outcome(second.status, f"the second game (shells reordered): {second.message}")
    if second["type"] not in ("result", "rejected"):
        return _Outcome("errored", f"the second game (shells reordered) was {second['type']}")
    leak = compare(len(case.setup["seats"]), reply, second)
    if leak is None:
        return None
    return _Outcome("failed", f"{leak.path}: {leak.message}", leak, events)


def _viewing(adapter: Adapter) -> bool:
    """Does the adapter speak a protocol with views (every run then asks for them)?"""
    return adapter.hello is not None and adapter.hello["protocol"] >= VIEW_PROTOCOL


def _exchange(adapter: Adapter, case: Case) -> _Outcome:
    assert adapter.hello is not None
    viewing = _viewing(adapter)
    if "views" in case.expect and not viewing:
        spoken = adapter.hello["protocol"]
        needs = Divergence(
            "protocol",
            VIEW_PROTOCOL,
            spoken,
            f"needs protocol {VIEW_PROTOCOL}: the case checks seat views "
            f"(INTERPRETING.md 2.4), the adapter speaks protocol {spoken}",
        )
        return _Outcome("failed", f"{needs.path}: {needs.message}", needs)
    reply = _ask(adapter, case, case.setup, case.sent_script(), viewing)
    if isinstance(reply, _Outcome):
        return reply
    if reply["type"] == "skipped":
        return _Outcome("skipped", f"the adapter skipped it: {reply['message']}")
    if reply["type"] == "errored":
        return _Outcome("errored", f"the adapter reported an error: {reply['message']}")
    events = tuple(reply["events"])
    divergence = judge(case, reply, viewing)
    if divergence is not None:
        return _Outcome("failed", f"{divergence.path}: {divergence.message}", divergence, events)
    if eligible(case):
        return _second_game(adapter, case, reply) or _Outcome("passed", events=events)
    return _Outcome("passed", events=events)


def _run_case(adapter: Adapter, case: Case) -> _Outcome:
    if adapter.hello is not None:
        reason = _skip_reason(case, adapter.hello)
        if reason:
            return _Outcome("skipped", reason)
    if error := adapter.ensure():
        return _Outcome("errored", error)
    assert adapter.hello is not None
    reason = _skip_reason(case, adapter.hello)
    if reason:
        return _Outcome("skipped", reason)
    return _exchange(adapter, case)


def _fails_the_run(result: CaseResult, options: RunOptions) -> bool:
    bad = {"failed", "errored"} | ({"xpass"} if options.strict_known_failures else set())
    return result.status in bad


def _mark(status: str, marked: bool) -> str:
    if not marked:
        return status
    return {"passed": "xpass", "failed": "xfail", "errored": "xfail"}.get(status, status)


def run_suite(
    options: RunOptions,
    suite: Suite | None = None,
    on_result: Callable[[CaseResult], None] | None = None,
) -> RunResult:
    """Run the selected cases of ``suite`` (loaded from ``options.cases_dir`` when None).

    Raises :class:`~buckshot.conformance.suite.SuiteError` when the suite is broken,
    ``ValueError`` when the adapter command is empty, and :class:`AdapterNotStarted` when the
    adapter does not answer its hello before the first case; everything an adapter does
    later is recorded in the results instead. Ctrl-C ends the run early: the adapter is killed and
    the result, marked ``interrupted``, holds the cases finished until then. With
    ``options.exit_first`` the run ends after its first unexpected result.
    """
    suite = suite if suite is not None else load_suite(options.cases_dir)
    selected = select(suite.cases, options.filters)
    adapter = Adapter(options.adapter, options.timeout, suite.schemas, options.start_attempts)
    started = datetime.now(UTC).isoformat(timespec="seconds")
    begin = time.perf_counter()
    results: list[CaseResult] = []
    interrupted = stopped_early = False
    try:
        if selected and (error := adapter.ensure()) is not None:
            raise AdapterNotStarted(error)
        for case in selected:
            tick = time.perf_counter()
            outcome = _run_case(adapter, case)
            marked = options.known_failures.get(case.id)
            result = CaseResult(
                case,
                _mark(outcome.status, marked is not None),
                (time.perf_counter() - tick) * 1000,
                outcome.message,
                outcome.divergence,
                marked,
                outcome.events,
            )
            results.append(result)
            if on_result is not None:
                on_result(result)
            if options.exit_first and _fails_the_run(result, options):
                stopped_early = True
                break
    except KeyboardInterrupt:
        interrupted = True
        adapter.discard()  # killed at once: no stop message, no wait
    finally:
        adapter.close()
    return RunResult(
        options,
        suite,
        adapter.hello,
        started,
        results,
        max(0, adapter.started - 1),
        time.perf_counter() - begin,
        interrupted,
        stopped_early,
    )


# --- known failures -----------------------------------------------------------------------


class KnownFailuresError(Exception):
    """The file cannot be read or a line is not ``ID [reason]``; ``code`` is
    ``known_failures.unreadable`` (missing, a folder, no permission) or
    ``known_failures.invalid``."""

    def __init__(self, message: str, code: str = "known_failures.invalid") -> None:
        super().__init__(message)
        self.code = code


def parse_known_failures(text: str, source: str = "<text>") -> dict[str, str]:
    """Case ID -> reason (empty when none is given), in file order, from a known-failures
    file: the cases an implementation is known not to pass yet, one case ID per line,
    optionally followed by a reason; ``#`` starts a comment; blank lines are ignored::

        shot.a-kill-locks-shooting   the lock is not implemented yet (issue 12)
    """
    marked: dict[str, str] = {}
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        case_id, _, reason = line.partition(" ")
        if case_id in marked:
            raise KnownFailuresError(f"{source}:{number}: {case_id} is listed twice")
        marked[case_id] = reason.strip()
    return marked


def load_known_failures(path: Path) -> dict[str, str]:
    """The known failures listed in ``path``."""
    try:
        text = read_input(path, "known-failures list", "known_failures")
    except InputError as error:
        raise KnownFailuresError(str(error), error.code) from None
    return parse_known_failures(text, str(path))
