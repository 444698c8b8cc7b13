"""Ctrl-C stops every long command at once: its worker processes (or adapter) are ended,
what was done so far is printed, and the exit status is 130; one Ctrl-C is enough.

Each command runs as a real process in its own process group, and gets SIGINT the way a
terminal sends it: to the whole group, workers included. The bound on how long it may take to
stop is a generous safety net ("it stopped at all"), not a performance figure.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

STOPPED_WITHIN = 10.0
"""Seconds a command may take to exit after Ctrl-C before the test calls it hung."""


def _processes() -> list[tuple[int, int, int]]:
    """Every live (not zombie) process as (pid, parent pid, process group)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if fields[0] != "Z":
            found.append((int(entry.name), int(fields[1]), int(fields[2])))
    return found


def _group(pgid: int) -> list[int]:
    """The live processes of process group ``pgid``."""
    return [pid for pid, _, group in _processes() if group == pgid]


def _children(parent: int) -> list[int]:
    """The live child processes of ``parent`` (in any process group)."""
    return [pid for pid, ppid, _ in _processes() if ppid == parent]


def _cpu_seconds(pid: int) -> float:
    """The processor time process ``pid`` has used so far (user and system), in seconds."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _interrupt(
    args: list[str],
    tmp_path: Path,
    started: int = 1,
    ready: str | None = None,
    cpu: float | None = None,
    program: list[str] | None = None,
) -> tuple[int, str, str, float]:
    """Run ``buckshot ARGS`` (or ``program``); once it has ``started`` children (or, with
    ``ready``, once its error output shows that text; with ``cpu``, once it has used that much
    processor time: it is past its imports and working), wait a second, Ctrl-C its group
    once; its exit status, output, error output and the seconds it took to exit."""
    out, err = tmp_path / "out.txt", tmp_path / "err.txt"

    def waiting(process: subprocess.Popen[bytes]) -> bool:
        if cpu is not None:
            return _cpu_seconds(process.pid) < cpu
        if ready is not None:
            return ready not in err.read_text()
        return len(_children(process.pid)) < started

    with out.open("w") as stdout, err.open("w") as stderr:
        process = subprocess.Popen(
            program or [sys.executable, "-m", "buckshot", *args],
            stdout=stdout,
            stderr=stderr,
            stdin=subprocess.DEVNULL,
            cwd=tmp_path,
            start_new_session=True,
        )
        try:
            deadline = time.monotonic() + 120
            while waiting(process) and time.monotonic() < deadline:
                assert process.poll() is None, err.read_text()
                time.sleep(0.2)
            time.sleep(1.0)
            os.killpg(process.pid, signal.SIGINT)
            sent = time.monotonic()
            code = process.wait(timeout=STOPPED_WITHIN)
            took = time.monotonic() - sent
        finally:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
    deadline = time.monotonic() + 5
    while _group(process.pid) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert _group(process.pid) == [], "a worker process outlived the command"
    return code, out.read_text(), err.read_text(), took


@pytest.mark.slow
def test_simulate_stops_prints_the_games_so_far_and_exits_130(tmp_path: Path) -> None:
    json_out = tmp_path / "figures.json"
    args = ["simulate", "--games", "100000", "--jobs", "2", "--json", str(json_out)]
    code, out, err, took = _interrupt(args, tmp_path, started=2)
    assert code == 130, err
    assert took < STOPPED_WITHIN
    assert "Traceback" not in err + out
    assert "(interrupted)" in out and "win rate" in out
    assert "simulate: interrupted after " in err and "--json not written" in err
    assert not json_out.exists()


@pytest.mark.slow
def test_verify_stops_its_workers_and_exits_130(tmp_path: Path) -> None:
    args = ["verify", "--depth", "0", "--no-vacuity", "--walk-steps", "0", "--jobs", "1"]
    args += ["--json", str(tmp_path / "report.json")]
    code, out, err, took = _interrupt(args, tmp_path)
    assert code == 130, err
    assert took < STOPPED_WITHIN
    assert "Traceback" not in err + out
    assert "verify: interrupted (" in err and "nothing written" in err
    assert not (tmp_path / "report.json").exists()


@pytest.mark.slow
def test_conformance_run_kills_the_adapter_prints_the_summary_and_exits_130(
    tmp_path: Path,
) -> None:
    slow = tmp_path / "slow_adapter.py"
    slow.write_text(
        "import json, sys, time\n"
        "from buckshot.reference.adapter import IMPLEMENTATION, handle\n"
        "for line in sys.stdin:\n"
        "    message = json.loads(line)\n"
        "    if message['type'] == 'run':\n"
        "        time.sleep(0.2)\n"
        "    print(json.dumps(handle(message, IMPLEMENTATION)), flush=True)\n",
        encoding="utf-8",
    )
    report = tmp_path / "report.jsonl"
    args = ["conformance", "run", "--adapter", f"{sys.executable} {slow}"]
    args += ["--report", str(report), "--no-tables"]
    code, out, err, took = _interrupt(args, tmp_path)
    assert code == 130, err
    assert took < STOPPED_WITHIN
    assert "Traceback" not in err + out
    assert "conformance run: interrupted after " in err and "no report written" in err
    assert "INTERRUPTED: " in out and " cases through " in out  # the cases run so far
    assert not report.exists()


def _long_log(path: Path, events: int) -> None:
    """A log the reader accepts of at least ``events`` events: a six-seat bot game's
    ``game_started``, then the rest of its events repeated and renumbered."""
    import json

    from buckshot.reference.agents import HeuristicAgent, play_out
    from buckshot.reference.chance import SeededChance
    from buckshot.reference.events import to_jsonl
    from buckshot.reference.game import Game
    from buckshot.spec.rulebook import Role

    game = Game.new(list(Role), chance=SeededChance(3))
    play_out(game, [HeuristicAgent(seat) for seat in range(len(Role))])
    first, *rest = (json.loads(line) for line in to_jsonl(game.events).splitlines())
    lines = [json.dumps(first)]
    while len(lines) < events:
        lines += [json.dumps({**event, "seq": len(lines) + k}) for k, event in enumerate(rest)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


@pytest.mark.slow
@pytest.mark.skipif(not shutil.which("dot"), reason="Graphviz's dot is not installed")
def test_diagrams_trace_stops_while_drawing_and_exits_130(tmp_path: Path) -> None:
    log = tmp_path / "long.jsonl"
    _long_log(log, 5000)
    out = tmp_path / "drawn"
    args = ["diagrams", "trace", str(log), "--first", "5000", "--out", str(out)]
    code, stdout, err, took = _interrupt(args, tmp_path)  # its child: Graphviz's dot
    assert code == 130, err
    assert took < STOPPED_WITHIN
    assert "Traceback" not in err + stdout
    assert "stopped by Ctrl-C; nothing was written" in err
    assert not out.exists() or not [p for p in out.iterdir() if p.suffix != ".tmp"]


@pytest.fixture(autouse=True)
def _not_on_windows() -> None:
    if not Path("/proc").is_dir():
        pytest.skip("reads /proc to find the worker processes")


@pytest.mark.slow
def test_conformance_coverage_stops_and_exits_130(tmp_path: Path) -> None:
    """Ctrl-C while the cases are replayed on the model (its progress shown)."""
    args = ["conformance", "coverage"]
    code, out, err, took = _interrupt(args, tmp_path, ready="conformance coverage")
    assert code == 130, err
    assert took < STOPPED_WITHIN
    assert "Traceback" not in err + out
    assert "stopped by Ctrl-C; no coverage reported" in err


def _no_report(folder: Path) -> bool:
    """``folder`` holds no report: no file but the test's own output captures."""
    return sorted(p.name for p in folder.iterdir() if p.is_file()) == ["err.txt", "out.txt"]


DASK_COMMANDS = {
    "compare": ["compare", "default", "default", "--no-verify"],
    "sweep": ["sweep", "--param", "magician.cost=1..2:2"],
}
"""The commands that play their games on a Dask cluster (both through the workbench's
``_measure``, which ends the cluster on Ctrl-C)."""


@pytest.mark.slow
def test_dask_commands_end_their_workers_quietly_and_exit_130(tmp_path: Path) -> None:
    """Ctrl-C while the games run on a local Dask cluster: the workers (which ignore it) are
    ended by the command, none prints a traceback or a log line, nothing is written. (One
    command as a real process group: both share the cluster's path, and the test below checks
    each command's answer to Ctrl-C in this process.)"""
    args = [*DASK_COMMANDS["compare"], "--games", "200000", "--workers", "2"]
    args += ["--json", str(tmp_path / "report.json"), "--html", str(tmp_path / "report.html")]
    code, out, err, took = _interrupt(args, tmp_path, ready=" games: ")
    assert code == 130, err
    assert took < STOPPED_WITHIN
    assert "Traceback" not in err + out and "distributed" not in err
    assert "stopped by Ctrl-C; nothing was written" in err
    assert _no_report(tmp_path)


@pytest.mark.parametrize("name", sorted(DASK_COMMANDS))
def test_dask_commands_answer_ctrl_c_during_the_games_with_130_and_write_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    """Each Dask command, in this process: Ctrl-C while its games run (on a cluster stood in
    for) is one line, exit 130 and no report."""
    from contextlib import contextmanager

    from typer.testing import CliRunner

    from buckshot.cli.main import app
    from buckshot.workbench import cluster, measure

    @contextmanager
    def no_cluster(scheduler: str | None, workers: int) -> Iterator[object]:
        class Client:
            def scheduler_info(self, n_workers: int) -> dict[str, object]:
                return {"workers": {"w": {}}}

        yield Client()

    def pressed(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(cluster, "dask_client", no_cluster)
    monkeypatch.setattr(measure, "measure", pressed)
    report = [*("--json", str(tmp_path / "report.json")), *("--html", str(tmp_path / "r.html"))]
    result = CliRunner().invoke(app, [*DASK_COMMANDS[name], "--games", "9", *report])
    assert result.exit_code == 130, result.output
    assert "stopped by Ctrl-C; nothing was written" in result.output
    assert "Traceback" not in result.output
    assert list(tmp_path.iterdir()) == []


@pytest.mark.slow
def test_verify_trace_stops_without_a_verdict_and_exits_130(tmp_path: Path) -> None:
    """Ctrl-C while the log is checked against the model: no "mismatch" (Z3 would cancel the
    query it was in and give up, which the check reported as the log's fault), no report."""
    log = tmp_path / "long.jsonl"
    _long_log(log, 20_000)
    args = ["verify-trace", str(log), "--json", str(tmp_path / "result.json")]
    # the check ends (the log's game is over at about its 5,000th event) some 7 s of processor
    # time after the start, of which 2-2.5 s are imports: Ctrl-C at 3 s leaves it working
    code, out, err, took = _interrupt(args, tmp_path, cpu=3.0)
    assert code == 130, err
    assert took < STOPPED_WITHIN
    assert "Traceback" not in err + out
    assert "mismatch" not in (out + err).lower() and "matched" not in out
    assert "stopped by Ctrl-C; nothing was written" in err
    assert not (tmp_path / "result.json").exists()


@pytest.mark.slow
@pytest.mark.skipif(not shutil.which("dot"), reason="Graphviz's dot is not installed")
def test_explore_stops_while_drawing_and_exits_130(tmp_path: Path) -> None:
    log = tmp_path / "long.jsonl"
    _long_log(log, 60_000)
    page = tmp_path / "page.html"
    args = ["explore", str(log), "--out", str(page)]
    code, out, err, took = _interrupt(args, tmp_path, cpu=4.0)  # past its imports
    assert code == 130, err
    assert took < STOPPED_WITHIN
    assert "Traceback" not in err + out
    assert "stopped by Ctrl-C; nothing was written" in err
    assert not page.exists()


FAKE_BUCKSHOT = """#!{python}
import signal, sys, time
with open({calls!r}, "a") as calls:
    print(" ".join(sys.argv[1:]), file=calls)
if sys.argv[1] == "verify":
    try:
        time.sleep(600)
    except KeyboardInterrupt:
        sys.exit(130)  # as the real command does
"""


@pytest.mark.slow
def test_the_main_job_stops_at_the_first_ctrl_c(tmp_path: Path) -> None:
    """``scripts/main.sh`` goes on to its next step when one fails, but not when Ctrl-C
    stopped it: its exit status is 130 and no later step runs. Run with a stand-in
    ``buckshot`` (its own set-up left out) that records its calls."""
    scripts, bin_ = tmp_path / "scripts", tmp_path / "bin"
    scripts.mkdir()
    bin_.mkdir()
    shutil.copy(Path(__file__).parents[2] / "scripts" / "main.sh", scripts / "main.sh")
    (scripts / "bootstrap.sh").write_text(f'export PATH="{bin_}:$PATH"\n', encoding="utf-8")
    calls = tmp_path / "calls.txt"
    fake = bin_ / "buckshot"
    fake.write_text(FAKE_BUCKSHOT.format(python=sys.executable, calls=str(calls)))
    fake.chmod(0o755)
    program = ["bash", str(scripts / "main.sh"), "--depth", "4"]
    code, _, err, took = _interrupt([], tmp_path, started=1, program=program)
    assert code == 130, err
    assert took < STOPPED_WITHIN
    assert calls.read_text().splitlines() == ["verify --bmc-all --depth 4"]


def _blocks_ctrl_c(status: Path) -> bool:
    """The task or process whose ``status`` file this is blocks SIGINT (Ctrl-C)."""
    mask = next(line for line in status.read_text().splitlines() if line.startswith("SigBlk:"))
    return bool(int(mask.split()[1], 16) & (1 << (signal.SIGINT - 1)))


def test_threads_started_inside_deaf_children_never_take_ctrl_c() -> None:
    """The kernel gives a process's SIGINT to any thread not blocking it: one a helper thread
    took left the main thread asleep. A thread started inside blocks it; a Ctrl-C pressed
    inside is held, and raised once the block ends (not lost, as an ignored one was)."""
    from buckshot.workers import deaf_children

    seen: list[bool] = []
    thread = threading.Thread(
        target=lambda: seen.append(
            _blocks_ctrl_c(Path(f"/proc/self/task/{threading.get_native_id()}/status"))
        )
    )
    raised_inside = False
    with pytest.raises(KeyboardInterrupt):
        try:
            with deaf_children():
                thread.start()
                thread.join()
                os.kill(os.getpid(), signal.SIGINT)
                time.sleep(0.05)  # a signal handler would run here, were it not held
        except KeyboardInterrupt:
            raised_inside = thread.is_alive()  # only reached once the block has ended
            raise
    assert seen == [True] and not raised_inside
    assert not _blocks_ctrl_c(Path(f"/proc/self/task/{threading.get_native_id()}/status"))


@pytest.mark.slow
def test_a_local_cluster_leaves_ctrl_c_to_the_main_thread() -> None:
    """A local Dask cluster's threads and worker processes block Ctrl-C (so the main thread
    takes it), and no Python of Dask's runs inside the garbage collector, where a Ctrl-C was
    swallowed ("Exception ignored in ... _gc_callback") and the games went on (the CI flake of
    test_dask_commands_end_their_workers_quietly_and_exit_130)."""
    import gc

    from buckshot.workbench.cluster import dask_client

    with dask_client(None, 1) as client:
        assert client.scheduler_info(n_workers=-1)["workers"]
        helpers = [t for t in threading.enumerate() if t is not threading.main_thread()]
        assert helpers
        deaf = {
            t.name: _blocks_ctrl_c(Path(f"/proc/self/task/{t.native_id}/status")) for t in helpers
        }
        workers = _children(os.getpid())
        assert workers
        processes = {pid: _blocks_ctrl_c(Path(f"/proc/{pid}/status")) for pid in workers}
        callbacks = [c for c in gc.callbacks if "distributed" in getattr(c, "__module__", "")]
    assert all(deaf.values()), deaf
    # the resource tracker of multiprocessing handles Ctrl-C itself; every worker blocks it
    assert sum(processes.values()) >= len(processes) - 1, processes
    assert callbacks == []


@pytest.mark.slow
def test_ctrl_c_while_the_program_loads_is_130_without_a_traceback(tmp_path: Path) -> None:
    """Ctrl-C in the first second, while the program imports its commands, printed Python's
    KeyboardInterrupt traceback; it ends the program quietly with 130 (or, before Python
    has its handler, the signal's own ending, which a shell reports as 130 too)."""
    process = subprocess.Popen(
        [sys.executable, "-m", "buckshot", "compare", "default", "default", "--no-verify"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        cwd=tmp_path,
        start_new_session=True,
    )
    time.sleep(0.3)
    os.killpg(process.pid, signal.SIGINT)
    try:
        out, err = process.communicate(timeout=STOPPED_WITHIN)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    assert process.returncode in (130, -signal.SIGINT), err
    assert b"Traceback" not in out + err, err.decode()


DROPPED = """
import sys, time
from pathlib import Path
from buckshot.command import INTERRUPTED, command_group, fail, save
from buckshot.progress import CommandProgress

app = command_group()

class Finalised:  # like z3's Solver: its __del__ is where the main thread mostly is
    def __del__(self) -> None:
        deadline = time.process_time() + 0.05
        while time.process_time() < deadline:
            pass

@app.command()
def work(out: Path) -> None:
    try:
        with CommandProgress("work", quiet=True) as progress:
            for done in range(400):  # some 20 s, nearly all of it in finalisers
                Finalised()
                progress.update(done, 400)
    except KeyboardInterrupt:  # as every command that runs long says it
        fail("interrupted", "stopped by Ctrl-C; nothing was written", INTERRUPTED)
    save(out, "finished\\n")

@app.command()
def other() -> None:
    pass

sys.stderr.write("working\\n")
sys.stderr.flush()
app(prog_name="dropped")
"""


@pytest.mark.slow
def test_a_ctrl_c_a_finaliser_drops_still_stops_the_command(tmp_path: Path) -> None:
    """Python prints "Exception ignored" and drops a KeyboardInterrupt raised in a finaliser
    (z3's ``Solver.__del__`` in verify-trace): the command noticed it anyway, at its next
    progress step, and writes nothing."""
    script = tmp_path / "dropped.py"
    script.write_text(DROPPED, encoding="utf-8")
    out = tmp_path / "result.txt"
    program = [sys.executable, str(script), "work", str(out)]
    code, _, err, took = _interrupt([], tmp_path, ready="working", program=program)
    assert code == 130, err
    assert took < STOPPED_WITHIN
    assert err == "working\nerror [interrupted]: stopped by Ctrl-C; nothing was written\n"
    assert not out.exists()


def test_a_pool_torn_down_prints_no_traceback_of_its_manager_thread(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Under load, a process pool's manager thread, stopped by Ctrl-C's ``terminate`` while it
    works, can end with an exception (seen once in ``simulate --jobs 2``: "Exception in thread
    Thread-1" after the one-line message). Its traceback must not reach the user; another
    thread's still does."""
    from buckshot.workers import terminate

    printed: list[threading.Thread | None] = []  # the threads whose traceback is printed

    def hook(args: threading.ExceptHookArgs) -> None:
        printed.append(args.thread)

    monkeypatch.setattr(threading, "excepthook", hook)

    def fail_soon() -> None:
        time.sleep(0.2)
        raise OSError(9, "Bad file descriptor")

    class Pool:
        """What ``terminate`` reads of a ProcessPoolExecutor, with a manager that fails."""

        def __init__(self) -> None:
            self._processes: dict[int, object] = {}
            self._executor_manager_thread = threading.Thread(target=fail_soon)

        def shutdown(self, wait: bool, cancel_futures: bool) -> None:
            pass

    pool = Pool()
    pool._executor_manager_thread.start()
    terminate(pool)  # type: ignore[arg-type]
    other = threading.Thread(target=fail_soon)
    other.start()
    other.join()
    assert printed == [other]
    assert threading.excepthook is hook  # restored once the manager has ended
