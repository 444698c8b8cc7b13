"""The adapter protocol (INTERPRETING.md, 'The protocol'): its constants, the runner's
messages, and one running adapter process they are exchanged with.

One JSON object per line each way: the runner writes ``start``, then one ``run`` per case,
then ``stop``; the adapter answers ``start`` with ``hello`` and each ``run`` with one of
``result``, ``rejected``, ``skipped`` or ``errored``. The process's lines are read with
timeouts (on a background thread, standard error drained on another), in its own process
group so that killing it ends anything it started.
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import shlex
import signal
import subprocess
import sys
import threading
from collections import deque
from collections.abc import Iterable, Iterator
from typing import IO, Any

from buckshot.command import json_problem

PROTOCOL_VERSION = 2
"""The newest protocol version this runner speaks, sent in ``start``."""

PROTOCOLS = (1, 2)
"""The protocol versions a hello may answer with; any other is refused."""

VIEW_PROTOCOL = 2
"""The first protocol version with seat views: a case that checks views needs it."""

REPORT_FORMAT = "buckshot-conformance-report/1"
"""The ``format`` of a report's header line."""

CHANCE_FORMAT = "buckshot-conformance-chance/1"
"""The ``format`` of a chance-mode report (``conformance chance --report``)."""

CASE_REPLIES = ("result", "rejected", "skipped", "errored")
"""The message types an adapter may answer a ``run`` with."""

SAMPLE_PROTOCOL = 2
"""The first protocol version with free chance (``sample``): chance mode needs it."""

SAMPLE_REPLIES = ("samples", "skipped", "errored")
"""The message types an adapter may answer a ``sample`` with."""

ALL_FEATURES = "*"
"""A hello's feature list ``["*"]`` declares every feature of the registry."""


def undeclared(features: Iterable[str], hello: dict[str, Any]) -> str | None:
    """Why a run needing ``features`` is skipped: those a hello does not declare (``["*"]``
    declares them all); None when it declares every one."""
    declared = hello.get("features")
    if not isinstance(declared, list) or ALL_FEATURES in declared:
        return None
    missing = [tag for tag in features if tag not in declared]
    return f"needs features the adapter does not declare: {', '.join(missing)}" if missing else None


def implementation_name(hello: Any) -> str:
    """The implementation's name and version that a hello gives; empty when it gives none."""
    found = hello.get("implementation") if isinstance(hello, dict) else None
    if not isinstance(found, dict) or not found.get("name"):
        return ""
    return f"{found['name']} {found.get('version', '')}".strip()


def encode(message: dict[str, Any]) -> str:
    """One protocol line: compact JSON, UTF-8 text, ending in a newline."""
    return json.dumps(message, ensure_ascii=False, separators=(",", ":")) + "\n"


def start_message(spec_version: str) -> dict[str, Any]:
    """The runner's first message."""
    return {"type": "start", "protocol": PROTOCOL_VERSION, "spec_version": spec_version}


def run_message(
    seq: int,
    case_id: str,
    setup: dict[str, Any],
    script: list[Any],
    views: bool = False,
) -> dict[str, Any]:
    """The request to run one case: its resolved setup, the script as sent and, with
    ``views`` (protocol 2), the request for every seat's view and the state at every
    checkpoint."""
    case: dict[str, Any] = {"id": case_id, "setup": setup, "script": script}
    if views:  # every seat's view and the state at every checkpoint
        case["views"] = "all"
    return {"type": "run", "seq": seq, "case": case}


def quote(line: str, limit: int = 400) -> str:
    """A line as it appears in an error message: repr-quoted and cut to ``limit`` characters."""
    text = line.rstrip("\n")
    if len(text) > limit:
        text = text[:limit] + f"... ({len(text)} characters)"
    return repr(text)


# --- one running adapter process -------------------------------------------------------

STDERR_LINES = 20
"""How many of the adapter's last standard-error lines an error message quotes."""


class AdapterNotStarted(RuntimeError):
    """The adapter did not answer its hello within the timeout, before the first case or
    experiment: nothing can run, so the run is refused, not a verdict."""


class AdapterFailure(Exception):
    """The adapter crashed, hung, or wrote a line that is not a protocol message.

    ``kind`` is ``"crash"``, ``"timeout"`` or ``"malformed"``; ``line`` the offending line.
    """

    def __init__(self, kind: str, message: str, line: str | None = None) -> None:
        super().__init__(message)
        self.kind = kind
        self.line = line


REFERENCE_ADAPTER = "reference"
"""The adapter command word that names the reference engine's adapter, run by this interpreter."""


def split_command(command: str) -> list[str]:
    """The adapter command as an argument list (POSIX shell quoting, no shell).

    A command whose first word is ``reference`` runs the reference adapter with the
    interpreter running the suite (any further words are passed on as its arguments).
    """
    argv = shlex.split(command)
    if not argv:
        raise ValueError("the adapter command is empty")
    if argv[0] == REFERENCE_ADAPTER:
        return [sys.executable, "-m", "buckshot.reference.adapter", *argv[1:]]
    return argv


def _lines(stream: IO[bytes]) -> Iterator[str]:
    """The lines of ``stream`` until its end, or until another thread closes it (a killed
    adapter's pipes are closed while a reader may be inside ``readline``, e.g. in the middle
    of a huge line with no newline: that ends the lines, it is not an error)."""
    while True:
        try:
            raw = stream.readline()
        except (ValueError, OSError):  # closed under us
            return
        if not raw:
            return
        yield raw.decode("utf-8", errors="replace")


def _pump(stream: IO[bytes], sink: queue.Queue[str | None]) -> None:
    for line in _lines(stream):
        sink.put(line)
    sink.put(None)


def _drain(stream: IO[bytes], tail: deque[str]) -> None:
    for line in _lines(stream):
        tail.append(line.rstrip("\n"))


class AdapterProcess:
    """A started adapter; use :meth:`request` for each exchange and :meth:`close` at the end."""

    def __init__(self, argv: list[str]) -> None:
        self.argv = argv
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._stderr: deque[str] = deque(maxlen=STDERR_LINES)
        self.last_line = ""
        """The last line read from the adapter's standard output."""
        try:
            self._process = subprocess.Popen(
                argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                start_new_session=True,
            )
        except OSError as error:
            reason = (error.strerror or "it cannot be run").lower()
            raise AdapterFailure("crash", f"cannot start {shlex.join(argv)}: {reason}") from None
        assert self._process.stdout is not None and self._process.stderr is not None
        self._readers = [
            threading.Thread(target=_pump, args=(self._process.stdout, self._lines), daemon=True),
            threading.Thread(target=_drain, args=(self._process.stderr, self._stderr), daemon=True),
        ]
        for reader in self._readers:
            reader.start()

    def _failure(self, kind: str, message: str, line: str | None = None) -> AdapterFailure:
        if tail := "\n".join(self._stderr):
            message += f"\n--- adapter stderr (last lines) ---\n{tail}"
        return AdapterFailure(kind, message, line)

    def send(self, message: dict[str, Any]) -> None:
        """Write one protocol line; :class:`AdapterFailure` if the adapter is gone."""
        stdin = self._process.stdin
        assert stdin is not None
        try:
            stdin.write(encode(message).encode("utf-8"))
            stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            raise self._failure("crash", self._exit_text("the adapter stopped reading")) from None

    def _exit_text(self, what: str) -> str:
        try:
            code = self._process.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            return what
        return f"{what} (exit status {code})"

    def receive(self, timeout: float) -> dict[str, Any]:
        """The next line as a JSON object; :class:`AdapterFailure` on EOF, timeout or bad JSON."""
        try:
            line = self._lines.get(timeout=timeout)
        except queue.Empty:
            raise self._failure("timeout", f"no reply within {timeout:g} s") from None
        if line is None:
            raise self._failure("crash", self._exit_text("the adapter exited"))
        self.last_line = line
        try:
            message = json.loads(line)
        except ValueError as error:
            raise self._failure(
                "malformed",
                f"{json_problem(error, False)}, not a message line: {quote(line)}",
                line,
            ) from None
        if not isinstance(message, dict):
            raise self._failure("malformed", f"not a JSON object: {quote(line)}", line)
        return message

    def request(self, message: dict[str, Any], timeout: float) -> dict[str, Any]:
        """Send ``message`` and return the adapter's one-line reply."""
        self.send(message)
        return self.receive(timeout)

    def kill(self) -> None:
        """End the adapter and its process group at once."""
        if self._process.poll() is None:
            try:
                os.killpg(self._process.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                self._process.kill()
        self._process.wait()
        for reader in self._readers:  # they end at the pipes' end, now that it is dead
            reader.join(timeout=1.0)
        for stream in (self._process.stdin, self._process.stdout, self._process.stderr):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()

    def close(self, timeout: float = 3.0) -> None:
        """Send ``stop`` and wait for the adapter to exit; kill it if it does not."""
        if self._process.poll() is None:
            try:
                self.send({"type": "stop"})
                if self._process.stdin is not None:
                    self._process.stdin.close()
                self._process.wait(timeout=timeout)
            except (AdapterFailure, subprocess.TimeoutExpired, OSError):
                pass
        self.kill()
