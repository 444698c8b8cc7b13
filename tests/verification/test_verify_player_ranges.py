"""``buckshot verify --rules FILE`` on rulesets whose player range is not 2-8 (issue 26).

A ruleset's ``players.min``/``players.max`` are the seat counts a game may be set up with
(R16): the run gives a verdict for exactly those counts, refuses a ``--players`` range
outside them, and plays the engine's lockstep games at those counts only. A task that fails
(an error, not a verdict) is reported with what finished, never as a traceback.
"""

from __future__ import annotations

import json
import pickle
import re
from importlib.resources import files
from pathlib import Path

import pytest
from typer.testing import CliRunner

from buckshot.cli.verify import app
from buckshot.spec.ruleset import load_ruleset
from buckshot.verification.model.config import make_config
from buckshot.verification.parallel import TaskFailed
from buckshot.verification.run import RunFailed, verify

RUNNER = CliRunner()
RANGES = [(2, 2), (3, 5), (4, 8), (6, 8)]
"""The player ranges of the issue: one count, a middle range, and ranges ending at 8."""


def ruleset_file(folder: Path, lo: int, hi: int) -> Path:
    """The default ruleset with players ``lo``-``hi``: its ``[players]`` table changed, and
    the shell loads of counts above ``hi`` left out (a load table is needed for each count of
    living players from 2 to players.max, R1, and none above it)."""
    text = files("buckshot.spec").joinpath("rulesets/default.toml").read_text(encoding="utf-8")
    text, changed = re.subn(
        r"\[players\]\nmin = \d+\nmax = \d+", f"[players]\nmin = {lo}\nmax = {hi}", text
    )
    assert changed == 1
    for count in range(hi + 1, 9):
        text, dropped = re.subn(
            rf"\[\[shells\.loads\]\]\nplayers = {count}\noptions = [^\n]*\n\n?", "", text
        )
        assert dropped == 1
    path = folder / f"players-{lo}-{hi}.toml"
    path.write_text(text, encoding="utf-8")
    ruleset = load_ruleset(path)  # a valid ruleset
    assert (ruleset.players.min, ruleset.players.max) == (lo, hi)
    return path


@pytest.mark.slow
@pytest.mark.parametrize(("lo", "hi"), RANGES, ids=[f"{lo}-{hi}" for lo, hi in RANGES])
def test_progress_is_proved_for_exactly_the_rulesets_counts(
    tmp_path: Path, lo: int, hi: int
) -> None:
    """P1 (no game gets stuck, S4.0, R21) holds for each count the ruleset allows; no
    verdict is given for a count it forbids, and the engine walks play those counts only."""
    rules, out = ruleset_file(tmp_path, lo, hi), tmp_path / "report.json"
    args = ["--rules", str(rules), "--only", "P1", "--depth", "0", "--no-vacuity"]
    args += ["--walk-steps", "60", "--jobs", "1", "--quiet", "--json", str(out)]
    args += ["--counterexamples", str(tmp_path / "cx")]
    result = RUNNER.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output
    data = json.loads(out.read_text(encoding="utf-8"))
    counts = list(range(lo, hi + 1))
    assert data["players"] == [lo, hi]
    [proof] = data["proofs"]
    assert [v["n"] for v in proof["per_n"]] == counts
    assert {v["verdict"] for v in proof["per_n"]} == {"proved"}
    assert {int(n) for n in data["engine"]["steps_by_players"]} <= set(counts)
    assert not (tmp_path / "cx").exists()  # no counterexample for a count it forbids


@pytest.mark.parametrize("players", ["2-5", "3-6", "8"])
def test_players_outside_the_rulesets_range_are_refused(tmp_path: Path, players: str) -> None:
    rules = ruleset_file(tmp_path, 3, 5)
    result = RUNNER.invoke(app, ["--rules", str(rules), "--players", players, "--depth", "0"])
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error [usage.players]: ")
    assert "3-5" in lines[0]


def test_a_task_failure_crosses_processes_as_text() -> None:
    failure = TaskFailed(["engine: GameError: [setup.invalid] 2 seats"])
    back = pickle.loads(pickle.dumps(failure))
    assert isinstance(back, TaskFailed) and back.failures == failure.failures


@pytest.mark.slow
def test_a_failing_task_keeps_the_proofs_that_finished(tmp_path: Path) -> None:
    """The engine cannot set up a game at a count the ruleset forbids (R16): asked to walk
    at 2 seats of a 3-5 ruleset in a worker process, that task fails, the run says which and
    why, and the proof that finished is kept."""
    ruleset = load_ruleset(ruleset_file(tmp_path, 3, 5))
    cfg = make_config(ruleset, (2, 3))
    with pytest.raises(RunFailed) as raised:
        verify(cfg, depth=0, vacuity=False, only=["P1"], jobs=2, walk_steps=30)
    [failure] = raised.value.failures
    assert failure.startswith("engine: [setup.invalid] ") and "3..5" in failure
    assert [p.id for p in raised.value.report.proofs] == ["P1"]


def test_verify_shows_what_finished_and_one_error_line_when_a_task_fails(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No verdict on the whole run, no report written, exit 2 with one error line last."""
    from buckshot.verification import run as command
    from buckshot.verification.model.config import Config
    from buckshot.verification.report import Report

    def failing(cfg: Config, **options: object) -> None:
        raise RunFailed(Report(cfg), ["engine: GameError: [setup.invalid] 2 seats"])

    monkeypatch.setattr(command, "verify", failing)
    out = tmp_path / "report.json"
    result = RUNNER.invoke(app, ["--depth", "0", "--json", str(out), "--quiet"])
    assert result.exit_code == 2, result.output
    last = result.output.strip().splitlines()[-1]
    assert last.startswith("error [verify.failed]: engine: GameError: [setup.invalid] 2 seats")
    assert "all checks passed" not in result.output and "FAILED" not in result.output
    assert not out.exists()
