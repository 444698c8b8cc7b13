"""Many faults served by one process: the adapter's imports are done once, then each adapter
start is a child forked from it.

A fresh ``python tests/faults/adapter.py --fault NAME`` spends most of its CPU importing the
engine and the faults, and the tests start one per fault (test_conformance_mutants.py: 119).
:func:`forked_faults` starts this module as a server that imports what :func:`.adapter.main`
imports, and gives the adapter command of each fault: a ``python -S`` client (:data:`CLIENT`)
that hands its standard streams to the server, whose forked child applies the fault and runs
:func:`.adapter.main` on them, as the fresh process would; the client exits with its status.
The fault is applied in the child only, so each child starts from the unbroken engine.
"""

from __future__ import annotations

import os
import shlex
import signal
import socket
import subprocess
import sys
import tempfile
import traceback
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

HERE = Path(__file__).resolve().parent

CLIENT = (
    "import socket, sys\n"
    "server = socket.socket(socket.AF_UNIX)\n"
    "server.connect(sys.argv[1])\n"
    "socket.send_fds(server, [sys.argv[2].encode()], [0, 1, 2])\n"
    "status = server.recv(1)\n"
    "sys.exit(status[0] if status else 1)\n"
)
"""The adapter command's program: its stdin, stdout and stderr to the server, with the fault's
name; its exit status is the forked child's."""


@contextmanager
def forked_faults() -> Iterator[Callable[[str], str]]:
    """A server of forked adapters, for the time of the block: the adapter command of a fault."""
    with tempfile.TemporaryDirectory(prefix="buckshot-faults-") as folder:
        path = os.path.join(folder, "server")
        server = subprocess.Popen(
            [sys.executable, str(HERE / "forked.py"), path],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            text=True,
        )
        try:
            assert server.stdout is not None and server.stdout.readline() == "ready\n"
            yield lambda name: shlex.join([sys.executable, "-S", "-c", CLIENT, path, name])
        finally:
            server.terminate()  # it waits for its children, each ending with its client
            try:
                server.wait(timeout=60)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()


def serve(path: str) -> None:
    """Listen on the socket ``path`` and fork a child to serve each client; on SIGTERM, wait
    for the children and exit (their CPU time counts in this process's children's)."""
    # what adapter.main imports (served: the reference adapter), done once here
    from faults import adapter, chance, contract, engine, served, stranger_3  # noqa: F401

    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    listener = socket.socket(socket.AF_UNIX)
    listener.bind(path)
    listener.listen(8)
    print("ready", flush=True)
    try:
        while True:
            client, _ = listener.accept()
            if os.fork() == 0:
                listener.close()
                _child(client, adapter.main)
            client.close()
            _reap(os.WNOHANG)
    finally:
        _reap(0)


def _reap(options: int) -> None:
    """Collect the children that have ended (every child, waiting, when ``options`` is 0)."""
    with suppress(ChildProcessError):  # none left
        while os.waitpid(-1, options)[0]:
            pass


def _child(client: socket.socket, main: Callable[[list[str]], int]) -> None:
    """Serve the fault the client names on its streams, as ``adapter.py`` run alone would;
    send the client the exit status, then exit."""
    from buckshot.interrupt import closed_output_ends_quietly

    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    message, fds, _, _ = socket.recv_fds(client, 1024, 3)
    for target, fd in enumerate(fds):
        os.dup2(fd, target)
        os.close(fd)
    try:
        with closed_output_ends_quietly():
            status = main(["--fault", message.decode()])
    except SystemExit as stop:
        status = stop.code if isinstance(stop.code, int) else 1
    except BaseException:
        traceback.print_exc()
        status = 1
    for stream in (sys.stdout, sys.stderr):
        with suppress(OSError):
            stream.flush()
    client.sendall(bytes([status & 0xFF]))
    os._exit(status)


if __name__ == "__main__":
    sys.path[0] = str(HERE.parent)  # tests/, not this folder: the faults are ``faults.*``
    serve(sys.argv[1])
