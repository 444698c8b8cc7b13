"""Benchmarks publish only a whole run (issue 26): the figures say whether the run was whole,
``--update`` refuses a partial one in one line, leaving the results file and the documents as
they were, a partial entry is never rendered into a document, and Ctrl-C stores nothing."""

from __future__ import annotations

import argparse
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from benchmark_helpers import ROOT, load_benchmark

mutation = load_benchmark("mutation")
import figures  # type: ignore[import-not-found]  # noqa: E402  (benchmarks/, put on the path above)
import results  # type: ignore[import-not-found]  # noqa: E402


def _session(path: Path, listed: int, run: int) -> Path:
    """A cosmic-ray session of ``listed`` mutants of which ``run`` have a result (the tables
    and columns ``benchmarks/mutation.py`` reads)."""
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE work_items (job_id TEXT PRIMARY KEY)")
        db.execute(
            "CREATE TABLE mutation_specs (module_path TEXT, operator_name TEXT, "
            "occurrence INTEGER, start_pos_row INTEGER, end_pos_row INTEGER, job_id TEXT)"
        )
        db.execute(
            "CREATE TABLE work_results (test_outcome TEXT, diff TEXT, job_id TEXT PRIMARY KEY)"
        )
        for job in range(listed):
            db.execute("INSERT INTO work_items VALUES (?)", (str(job),))
            db.execute(
                "INSERT INTO mutation_specs VALUES ('reference/toy.py', 'core/X', 0, 1, 1, ?)",
                (str(job),),
            )
        for job in range(run):
            db.execute("INSERT INTO work_results VALUES ('TestOutcome.KILLED', '', ?)", (str(job),))
    return path


def test_a_session_stopped_half_way_is_named_with_how_far_it_got(tmp_path: Path) -> None:
    whole = _session(tmp_path / "whole.sqlite", 3, 3)
    half = _session(tmp_path / "half.sqlite", 3, 1)
    empty = _session(tmp_path / "empty.sqlite", 0, 0)
    assert mutation.unfinished_sessions([whole]) == []
    assert mutation.unfinished_sessions([whole, half, empty]) == [
        "half.sqlite: 1 of 3 mutants run",
        "empty.sqlite: 0 of 0 mutants run",
    ]


def test_mutation_update_refuses_a_partial_run_before_any_work(tmp_path: Path) -> None:
    """The interrupted mutation run of the issue: its table must not replace the README's."""
    sessions = tmp_path / "sessions"
    sessions.mkdir()
    _session(sessions / "game.sqlite", 4, 4)
    _session(sessions / "effects.sqlite", 5, 2)
    stored = (ROOT / "benchmarks" / "results.json").read_bytes()
    readme = (ROOT / "README.md").read_bytes()
    done = subprocess.run(
        [sys.executable, "benchmarks/mutation.py", "--sessions", str(sessions), "--update"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        "error [results.incomplete]: mutation: a partial run (effects.sqlite: 2 of 5 mutants "
        "run); finish it (bash scripts/mutation.sh) before --update"
    ]
    assert (ROOT / "benchmarks" / "results.json").read_bytes() == stored
    assert (ROOT / "README.md").read_bytes() == readme


def _args(update: bool, results_file: Path | None = None) -> argparse.Namespace:
    return argparse.Namespace(update=update, results=results_file)


def test_publish_refuses_a_partial_run_and_writes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    kept = tmp_path / "results.json"
    kept.write_text('{"explore": {"seconds": 1}}\n', encoding="utf-8")
    monkeypatch.setattr(results, "RESULTS", kept)
    partial: dict[str, Any] = {"seconds": 2, "complete": False, "incomplete": "stopped"}
    with pytest.raises(SystemExit) as stopped:
        results.publish(_args(update=True), "explore", partial)
    assert stopped.value.code == 2
    [line] = capsys.readouterr().err.splitlines()
    assert line.startswith("error [results.incomplete]: explore: a partial run (stopped)")
    assert json.loads(kept.read_text(encoding="utf-8")) == {"explore": {"seconds": 1}}


def test_what_a_benchmark_stores_says_whether_the_run_was_whole(tmp_path: Path) -> None:
    own = tmp_path / "own.json"
    results.publish(_args(update=False, results_file=own), "explore", {"seconds": 1})
    results.publish(_args(False, own), "lockstep", {"steps": 9, "complete": False})
    stored = json.loads(own.read_text(encoding="utf-8"))
    assert stored["explore"]["complete"] is True
    assert stored["lockstep"]["complete"] is False  # kept in a file of one's own, marked


def test_a_partial_entry_is_never_rendered_as_figures() -> None:
    stored = {"mutation": {"complete": False, "killed": 1, "within_reach": 2, "modules": {}}}
    assert figures.render("mutation", stored) == figures.not_measured("mutation")


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads /proc for the processor time")
def test_a_benchmark_stopped_by_ctrl_c_stores_nothing_and_exits_130(tmp_path: Path) -> None:
    """A benchmark with no Ctrl-C handling of its own (lockstep: walks in this process)."""
    own = tmp_path / "own.json"
    process = subprocess.Popen(
        [sys.executable, "benchmarks/lockstep.py", "--steps", "10000000", "--results", str(own)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 120
        # its imports take some 0.7 s of processor time: at 2 s it is walking
        while _cpu_seconds(process.pid) < 2.0 and time.monotonic() < deadline:
            assert process.poll() is None
            time.sleep(0.2)
        os.killpg(process.pid, signal.SIGINT)
        _, err = process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    assert process.returncode == 130, err
    assert "Traceback" not in err
    assert err.splitlines() == ["lockstep.py: stopped by Ctrl-C; nothing stored"]
    assert not own.exists()


def _cpu_seconds(pid: int) -> float:
    """The processor time process ``pid`` has used so far, in seconds."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
