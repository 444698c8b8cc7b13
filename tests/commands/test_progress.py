"""The commands' progress off a terminal: timestamped lines, at the start and end of a stage
and at most every ``every`` seconds between; ``quiet`` prints nothing."""

from __future__ import annotations

import io
import re
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from buckshot.cli.main import app
from buckshot.progress import CommandProgress
from buckshot.reference.agents import RandomAgent, play_out
from buckshot.reference.chance import SeededChance
from buckshot.reference.events import to_jsonl
from buckshot.reference.game import Game
from buckshot.spec.rulebook import Role

STAMP = r"\[\d\d:\d\d:\d\d \+\d+s\]"


def test_plain_lines_name_the_stage_and_the_count() -> None:
    stream = io.StringIO()
    with CommandProgress("simulate", stream=stream, every=3600) as progress:
        for done in range(1, 6):
            progress.update(done, 5, "games")
        progress.say("verification 1/2: proofs")
    lines = stream.getvalue().splitlines()
    # the first count, then (within the hour) only the last one, then the step told
    assert [re.sub(STAMP, "T", line) for line in lines] == [
        "T simulate games: 1/5",
        "T simulate games: 5/5",
        "T simulate: verification 1/2: proofs",
    ]
    assert progress.done_so_far() == "games 5/5"


def test_quiet_prints_nothing() -> None:
    stream = io.StringIO()
    with CommandProgress("simulate", quiet=True, stream=stream) as progress:
        progress.update(1, 2, "games")
        progress.say("a step")
    assert stream.getvalue() == ""


@pytest.mark.slow
def test_verify_trace_shows_its_progress_on_a_pipe(tmp_path: Path) -> None:
    """verify-trace runs long on a long log, so, like every long command, it shows how far it
    has got on standard error when that is a pipe, not a terminal: the events reached of the
    log's, at the start and the end; the verdict alone on standard output. (The start and the
    end lines are written whatever the log's length: a short two-seat game shows them.)"""
    seats = list(Role)[:2]
    game = Game.new(seats, chance=SeededChance(0))
    play_out(game, [RandomAgent(seat) for seat in range(len(seats))])
    log = tmp_path / "game.jsonl"
    log.write_text(to_jsonl(game.events), encoding="utf-8")
    total = len(game.events)
    assert total > 100
    command = [sys.executable, "-m", "buckshot", "verify-trace", str(log)]
    run = subprocess.run(command, capture_output=True, text=True, cwd=tmp_path, check=False)
    assert run.returncode == 0, run.stderr
    lines = [re.sub(STAMP, "T", line) for line in run.stderr.splitlines()]
    assert lines[0] == f"T verify-trace events: 0/{total}"
    assert lines[-1] == f"T verify-trace events: {total}/{total}"
    assert run.stdout.startswith(f"matched to the end of the game: {total}/{total} events")
    # --quiet, in this process (standard error captured, not a terminal either)
    quiet = CliRunner().invoke(app, ["verify-trace", str(log), "--quiet"])
    assert (quiet.exit_code, quiet.stderr) == (0, "")
