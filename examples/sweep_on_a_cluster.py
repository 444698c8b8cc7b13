"""A sweep on a Dask cluster: a scheduler and a worker started here, the games run on them.

    python examples/sweep_on_a_cluster.py [--games 1000] [--workers 1]

On a real cluster the scheduler runs on one machine and the workers on as many as you like
(each with this package installed, the same version); this example starts both on this
machine, as the same commands would there (``dask scheduler``, ``dask worker ADDRESS
--nthreads 1``), points ``buckshot sweep --scheduler`` at the scheduler, and stops both at
the end. See docs/workbench.md.
"""

from __future__ import annotations

import argparse
import socket
import subprocess
import sys

from shell import buckshot


def free_port() -> int:
    """A TCP port nothing listens on, for the scheduler."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def start(*command: str) -> subprocess.Popen[bytes]:
    """Start ``dask scheduler`` or ``dask worker`` (the ``dask`` program of this interpreter's
    environment), its dashboard off and its output hidden."""
    print(f"$ {' '.join(command)} --no-dashboard")
    module = f"distributed.cli.dask_{command[1]}"
    return subprocess.Popen(
        [sys.executable, "-m", module, *command[2:], "--no-dashboard"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def main() -> None:
    """Start the cluster, sweep on it, stop it."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="games per variant")
    parser.add_argument("--workers", type=int, default=1, help="worker processes to start")
    args = parser.parse_args()
    port = free_port()
    address = f"tcp://127.0.0.1:{port}"
    scheduler = start("dask", "scheduler", "--host", "127.0.0.1", "--port", str(port))
    worker = start("dask", "worker", address, "--nthreads", "1", "--nworkers", str(args.workers))
    try:
        buckshot(
            "sweep",
            "--scheduler",
            address,
            "--param",
            "magician.cost=1..3:3",
            "--games",
            str(args.games),
            "--quiet",
            columns=160,
        )
    finally:
        for process in (worker, scheduler):
            process.terminate()
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()


if __name__ == "__main__":
    main()
