"""Sane resources (issue 26): a number of workers beyond the cores is cut to them with one
warning, and a ``--scheduler`` that is not a Dask scheduler answering at once is refused in
one line, quickly (a connect timeout), with no traceback and no hang at exit."""

from __future__ import annotations

import io
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from buckshot import workers
from buckshot.workbench.cluster import ClusterError, knock


@pytest.fixture
def two_cores(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(workers, "available_cores", lambda: 2)


@pytest.mark.usefixtures("two_cores")
def test_more_workers_than_cores_are_cut_to_the_cores_with_one_warning() -> None:
    said = io.StringIO()
    assert workers.bounded_workers(64, "--workers", said) == 2
    [line] = said.getvalue().splitlines()
    assert line.startswith("warning: --workers 64: ") and "using 2" in line


@pytest.mark.usefixtures("two_cores")
@pytest.mark.parametrize(("asked", "used"), [(1, 1), (2, 2), (0, 2)])
def test_workers_within_the_cores_are_used_as_asked_silently(asked: int, used: int) -> None:
    said = io.StringIO()
    assert workers.bounded_workers(asked, "--jobs", said) == used
    assert said.getvalue() == ""


@pytest.fixture
def closed_port() -> int:
    """A local port nothing listens on (bound, then released)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


@pytest.fixture
def silent_listener() -> Iterator[int]:
    """A local port that accepts connections (the kernel's backlog) and never says a word:
    not a Dask scheduler."""
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen(4)
        yield server.getsockname()[1]


def test_a_refused_connection_is_refused_at_once(closed_port: int) -> None:
    with pytest.raises(ClusterError, match="Connection refused"):
        knock(f"tcp://127.0.0.1:{closed_port}")


@pytest.mark.slow
def test_a_listener_that_is_no_scheduler_is_refused(silent_listener: int) -> None:
    with pytest.raises(ClusterError, match="no Dask scheduler answers there"):
        knock(f"tcp://127.0.0.1:{silent_listener}", seconds=0.5)


@pytest.mark.parametrize("address", ["tcp://", "inproc://x", "tcp://127.0.0.1:99999"])
def test_an_address_that_cannot_be_a_scheduler_is_refused(address: str) -> None:
    with pytest.raises(ClusterError):
        knock(address)


def test_a_port_out_of_range_is_refused_before_any_connection(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Port 99999 is no port (the socket layer would wrap it to 34463, where another local
    Dask scheduler may well listen): refused as such, without connecting."""

    def connect(*args: object, **kwargs: object) -> None:
        raise AssertionError("connected")

    monkeypatch.setattr("buckshot.workbench.cluster.socket.create_connection", connect)
    with pytest.raises(ClusterError, match="port must be 1 to 65535"):
        knock("tcp://127.0.0.1:99999")


@pytest.mark.slow
def test_compare_refuses_a_silent_scheduler_in_one_line_and_exits(
    tmp_path: Path, silent_listener: int
) -> None:
    """The whole command, as a process: one error line, exit 2, and no traceback at its exit
    (Dask's client, left half-open, used to print one after a 10-second hang). The process
    waits half a second for the handshake, not CONNECT_TIMEOUT (twice 3 s, all waiting)."""
    address = f"tcp://127.0.0.1:{silent_listener}"
    quick = (
        "from buckshot.workbench import cluster; cluster.knock.__defaults__ = (0.5,); "
        "from buckshot.__main__ import main; main()"
    )
    done = subprocess.run(
        [
            *(sys.executable, "-c", quick, "compare", "default", "default"),
            *("--scheduler", address, "--games", "10", "--no-verify"),
        ],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=120,
    )
    assert done.returncode == 2, done.stderr
    assert [line for line in done.stderr.splitlines() if not line.startswith("[")] == [
        f"error [cluster.unreachable]: cannot reach the Dask scheduler {address}: "
        "no Dask scheduler answers there"
    ]
