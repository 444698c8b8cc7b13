"""Where the games run: a Dask client on a local cluster or on a running scheduler.

A scheduler given by address is knocked on first (:func:`knock`) and refused in one line if it
does not answer. Local workers ignore Ctrl-C and print nothing; this process takes it and ends
them at once (:func:`_stop_at_once`).
"""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from typing import Final

from distributed import Client, LocalCluster, Nanny
from distributed.comm.addressing import parse_address, parse_host_port
from distributed.comm.core import connect

from buckshot.workers import bounded_workers

CONNECT_TIMEOUT: Final = 3.0
"""How long to wait for a scheduler given by ``--scheduler`` to answer before refusing it."""

START_TIMEOUT: Final = 120.0
"""How long the local cluster's workers may take to start (each imports the package)."""

CLOSE_TIMEOUT: Final = 10.0
"""A bound on closing the client after Ctrl-C (a timeout would leave it half-closed)."""

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
        try:
            remote = Client(scheduler, timeout=f"{CONNECT_TIMEOUT}s", set_as_default=False)
        except Exception as error:
            raise ClusterError(
                f"cannot reach the Dask scheduler {scheduler}: {_one_line(error)}"
            ) from None
        with remote:
            yield remote
        return
    count = bounded_workers(workers, "--workers")
    try:
        with _ctrl_c_held() as pressed:
            cluster = LocalCluster(
                n_workers=0,  # started below, where Ctrl-C can stop them
                threads_per_worker=1,
                processes=processes,
                dashboard_address=":0",  # a free port: several clusters may run on one machine
                silence_logs=logging.CRITICAL,  # a task's error reaches the client; logs: noise
                preload=[__name__] if processes else [],  # dask_setup: workers ignore Ctrl-C
            )
            # built whole too: a client that Ctrl-C left half-built closes itself as it is
            # collected at the exit, waiting for ever for a loop that is gone
            client = Client(cluster, set_as_default=False)
    except (OSError, RuntimeError) as error:
        raise ClusterError(f"cannot start a local Dask cluster: {_one_line(error)}") from None
    try:
        if pressed:
            raise KeyboardInterrupt
        with _workers_stderr_silenced(processes):
            cluster.scale(count)
            try:
                client.wait_for_workers(count, timeout=START_TIMEOUT)
            except TimeoutError:
                raise ClusterError(
                    f"cannot start a local Dask cluster: {count} workers did not start "
                    f"within {START_TIMEOUT:g} s"
                ) from None
        yield client
    except BaseException:
        _stop_at_once(cluster, client)
        raise
    client.close()
    cluster.close()


@contextmanager
def _ctrl_c_held() -> Iterator[list[bool]]:
    """Hold a Ctrl-C pressed inside (the list gets True): a half-built cluster would hang."""
    pressed: list[bool] = []
    if threading.current_thread() is not threading.main_thread():
        yield pressed  # Ctrl-C is the main thread's: nothing to hold here
        return

    def hold(signum: int, frame: object) -> None:
        pressed.append(True)

    previous = signal.signal(signal.SIGINT, hold)
    try:
        yield pressed
    finally:
        signal.signal(signal.SIGINT, previous)


def dask_setup(worker: object) -> None:
    """Run by each local worker as it starts (a Dask preload): the worker ignores Ctrl-C."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@contextmanager
def _workers_stderr_silenced(processes: bool) -> Iterator[None]:
    """While the workers start, their inherited standard error is the null device."""
    if not processes:
        yield
        return
    saved = os.dup(2)
    try:
        with open(os.devnull, "w", encoding="utf-8") as null:
            os.dup2(null.fileno(), 2)
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)


def _stop_at_once(cluster: LocalCluster, client: Client) -> None:
    """End the worker processes now, then close the client and cluster quietly."""
    logging.getLogger("distributed").setLevel(logging.CRITICAL + 1)
    for nanny in list(cluster.workers.values()):
        pid = getattr(nanny, "pid", None)
        if isinstance(nanny, Nanny):
            nanny.close_gracefully(reason="ctrl-c")  # its worker is not started again
        if isinstance(pid, int):
            with suppress(OSError):
                os.kill(pid, signal.SIGKILL)
    with suppress(Exception):
        # given the time it needs: a client left half-closed closes again as the
        # interpreter exits, and can wait there for a loop that is gone
        client.close(timeout=CLOSE_TIMEOUT)
        cluster.close(timeout=2)
