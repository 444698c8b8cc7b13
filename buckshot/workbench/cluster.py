"""Where the games run: a Dask client on a local cluster (one worker process per core) or on
a running scheduler, connected before any work with a short timeout."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Final

from distributed import Client, LocalCluster

CONNECT_TIMEOUT: Final = "5s"
"""How long to wait for a scheduler given by ``--scheduler`` before refusing it."""


class ClusterError(RuntimeError):
    """The scheduler cannot be reached, or a local cluster cannot start."""


@contextmanager
def dask_client(scheduler: str | None, workers: int, *, processes: bool = True) -> Iterator[Client]:
    """A client of the scheduler at ``scheduler``, or of a new local cluster of ``workers``
    single-threaded workers (processes, or threads with ``processes=False``); closed after.

    Raises :class:`ClusterError` in one line when the scheduler does not answer in
    :data:`CONNECT_TIMEOUT`.
    """
    if scheduler is not None:
        try:
            client = Client(scheduler, timeout=CONNECT_TIMEOUT, set_as_default=False)
        except (OSError, TimeoutError, ValueError) as error:
            reason = " ".join(str(error).split()) or type(error).__name__
            raise ClusterError(f"cannot reach the Dask scheduler {scheduler}: {reason}") from None
        with client:
            yield client
        return
    try:
        cluster = LocalCluster(
            n_workers=workers,
            threads_per_worker=1,
            processes=processes,
            dashboard_address=":0",  # a free port: several clusters may run on one machine
            silence_logs=logging.ERROR,
        )
    except (OSError, RuntimeError) as error:
        reason = " ".join(str(error).split()) or type(error).__name__
        raise ClusterError(f"cannot start a local Dask cluster: {reason}") from None
    with cluster, Client(cluster, set_as_default=False) as client:
        yield client
