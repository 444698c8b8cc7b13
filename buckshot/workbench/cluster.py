"""Where the games run: a Dask client on a local cluster or on a running scheduler, refused
in one line when it cannot be reached, ended at once by Ctrl-C (docs/workbench.md, "Dask")."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from typing import Final

from distributed import Client, LocalCluster, Nanny
from distributed.comm.addressing import parse_address, parse_host_port
from distributed.comm.core import connect
from distributed.gc import disable_gc_diagnosis

from buckshot.workers import bounded_workers, deaf_children

CONNECT_TIMEOUT: Final = 3.0
"""How long to wait for a scheduler given by ``--scheduler`` to answer before refusing it."""

START_TIMEOUT: Final = 120.0
"""How long the local cluster's workers may take to start (each imports the package)."""

SHORT_WAIT: Final = 0.2
"""The longest the main thread waits at once for the local workers to start."""

CLOSE_TIMEOUT: Final = 10.0
"""A bound on closing the client after Ctrl-C (a timeout would leave it half-closed)."""

CLOSE_WAIT: Final = 0.5
"""How long Ctrl-C waits for the local cluster to close before the command goes on to end
(closing a cluster whose workers are starting took 2 s)."""

DEFAULT_PORT: Final = 8786


class ClusterError(RuntimeError):
    """The scheduler cannot be reached, or a local cluster cannot start."""


def _one_line(error: BaseException) -> str:
    """The error's message on one line ("no message" when it has none)."""
    return " ".join(str(error).split()) or "no message"


def knock(address: str, seconds: float = CONNECT_TIMEOUT) -> None:
    """Refuse (:class:`ClusterError`, one line) a scheduler ``address`` that is malformed or
    does not answer Dask's handshake and ``identity`` request within ``seconds``.
    """
    try:
        scheme, location = parse_address(address)
        host, port = parse_host_port(location, default_port=DEFAULT_PORT)
    except (ValueError, TypeError) as error:
        raise ClusterError(
            f"--scheduler {address}: not a scheduler address (tcp://HOST:PORT): {_one_line(error)}"
        ) from None
    if scheme not in ("tcp", "tls"):
        raise ClusterError(f"--scheduler {address}: a tcp:// or tls:// address is needed")
    if not 0 < port < 65536:  # the socket layer would take 99999 as port 34463
        raise ClusterError(f"--scheduler {address}: the port must be 1 to 65535")
    try:
        with socket.create_connection((host, port), timeout=seconds):
            pass
    except TimeoutError:
        raise ClusterError(
            f"cannot reach the Dask scheduler {address}: no answer within {seconds:g} s"
        ) from None
    except (OSError, OverflowError) as error:
        reason = getattr(error, "strerror", None) or _one_line(error)
        raise ClusterError(f"cannot reach the Dask scheduler {address}: {reason}") from None
    try:
        kind = asyncio.run(asyncio.wait_for(_identity(address, seconds), seconds * 2))
    except Exception:  # whatever a stranger answers: the handshake did not happen
        raise ClusterError(
            f"cannot reach the Dask scheduler {address}: no Dask scheduler answers there"
        ) from None
    if kind != "Scheduler":
        raise ClusterError(f"--scheduler {address}: a Dask {kind or 'server'}, not a scheduler")


async def _identity(address: str, seconds: float) -> str:
    """The kind of Dask server at ``address`` (``Scheduler``, ``Worker``...), from its answer
    to an ``identity`` request."""
    comm = await connect(address, timeout=seconds)
    try:
        await comm.write({"op": "identity", "reply": True})
        answer = await comm.read()
    finally:
        comm.abort()
    return str(answer.get("type", "")) if isinstance(answer, dict) else ""


@contextmanager
def dask_client(scheduler: str | None, workers: int, *, processes: bool = True) -> Iterator[Client]:
    """A client of the scheduler at ``scheduler``, or of a new local cluster of ``workers``
    single-threaded workers (0: one per core; processes unless ``processes=False``); closed after.

    Raises :class:`ClusterError` in one line when it cannot connect or start; Ctrl-C ends the
    local workers at once and goes on up.
    """
    if scheduler is not None:
        knock(scheduler)
        remote: Client | None = None
        try:
            with deaf_children():  # its threads never take Ctrl-C; one pressed now is held
                remote = Client(scheduler, timeout=f"{CONNECT_TIMEOUT}s", set_as_default=False)
        except KeyboardInterrupt:
            if remote is not None:
                remote.close(timeout=CLOSE_TIMEOUT)
            raise
        except Exception as error:
            raise ClusterError(
                f"cannot reach the Dask scheduler {scheduler}: {_one_line(error)}"
            ) from None
        with remote:
            yield remote
        return
    count = bounded_workers(workers, "--workers")
    built: tuple[LocalCluster, Client] | None = None
    try:
        # the cluster's threads and worker processes start deaf to Ctrl-C (it is this
        # thread's), and a Ctrl-C while it is built is held till both are whole: a cluster
        # stopped half-built could not be closed, and a client left half-built closes itself
        # as it is collected at the exit, waiting for ever for a loop that is gone
        with deaf_children():
            cluster = LocalCluster(
                n_workers=0,  # started below, where Ctrl-C can stop them
                threads_per_worker=1,
                processes=processes,
                dashboard_address=":0",  # a free port: several clusters may run on one machine
                silence_logs=logging.CRITICAL,  # a task's error reaches the client; logs: noise
            )
            built = cluster, Client(cluster, set_as_default=False)
            disable_gc_diagnosis(force=True)  # the scheduler's: see below
    except (OSError, RuntimeError) as error:
        raise ClusterError(f"cannot start a local Dask cluster: {_one_line(error)}") from None
    except KeyboardInterrupt:  # held while it was built: raised as the building ended
        if built is not None:
            _stop_at_once(*built)
        raise
    cluster, client = built
    try:
        cluster.scale(count)
        _wait_for_workers(client, count)
        # Dask's garbage-collector callback, which a scheduler or worker in this process
        # turns on, is Python the collector runs anywhere: a Ctrl-C raised inside it was
        # swallowed ("Exception ignored in ... _gc_callback", a traceback) and the games ran on
        disable_gc_diagnosis(force=True)
        yield client
    except BaseException:
        _stop_at_once(cluster, client)
        raise
    client.close()
    cluster.close()


def _wait_for_workers(client: Client, count: int) -> None:
    """Wait for ``count`` workers, in short waits: a thread this process did not start (a
    library's native one) may take a Ctrl-C, which the main thread then sees only as a wait
    ends. :class:`ClusterError` when they are not up within :data:`START_TIMEOUT`."""
    deadline = time.monotonic() + START_TIMEOUT
    while True:
        try:
            client.wait_for_workers(count, timeout=SHORT_WAIT)
            return
        except TimeoutError:
            if time.monotonic() > deadline:
                raise ClusterError(
                    f"cannot start a local Dask cluster: {count} workers did not start "
                    f"within {START_TIMEOUT:g} s"
                ) from None


def _stop_at_once(cluster: LocalCluster, client: Client) -> None:
    """End the cluster's worker processes now (they are mid-game: nothing of theirs is kept),
    then close the client and the cluster, waiting at most :data:`CLOSE_WAIT`, with their
    logs silenced: the workers' deaths are expected."""
    logging.getLogger("distributed").setLevel(logging.CRITICAL + 1)
    for nanny in list(cluster.workers.values()):
        pid = getattr(nanny, "pid", None)
        if isinstance(nanny, Nanny):
            nanny.close_gracefully(reason="ctrl-c")  # its worker is not started again
        if isinstance(pid, int):
            with suppress(OSError):
                os.kill(pid, signal.SIGKILL)
    # closed whole (a client left half-closed closes again as the interpreter exits, and can
    # wait there for a loop that is gone) but not waited for past CLOSE_WAIT: the program
    # ends at once after Ctrl-C, with no such exit (buckshot.__main__)
    closing = threading.Thread(target=_close, args=(cluster, client), name="close", daemon=True)
    closing.start()
    closing.join(timeout=CLOSE_WAIT)


def _close(cluster: LocalCluster, client: Client) -> None:
    """Close ``client`` and ``cluster``, whatever fails as they close."""
    with suppress(Exception):
        client.close(timeout=CLOSE_TIMEOUT)
        cluster.close(timeout=2)
