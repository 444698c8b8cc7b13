"""``buckshot verify`` (the typer sub-application), through typer's test runner."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from faults.inject import injected
from typer.testing import CliRunner

from buckshot.cli.main import app as top_app
from buckshot.cli.verify import app, parse_players

RUNNER = CliRunner()
QUIET = ["--walk-steps", "0"]
"""The engine walks have tests of their own; here they would only cost time."""


def _cx(tmp_path: Path) -> list[str]:
    """Counterexample files go to the test's folder, not the working directory's."""
    return ["--counterexamples", str(tmp_path / "cx")]


def test_players_ranges() -> None:
    assert parse_players("2-8") == (2, 8)
    assert parse_players("5") == (5, 5)


@pytest.mark.slow
def test_selected_proofs_pass_and_write_json(tmp_path: Path) -> None:
    out = tmp_path / "report.json"
    result = RUNNER.invoke(
        app,
        [
            *QUIET,
            "--players",
            "2-3",
            "--only",
            "I1,I6",
            "--depth",
            "2",
            "--no-vacuity",
            "--json",
            str(out),
        ],
    )
    assert result.exit_code == 0, result.output
    assert "I1" in result.output and "proved" in result.output
    data = json.loads(out.read_text())
    assert [p["id"] for p in data["proofs"]] == ["I1", "I6"]
    assert data["bmc"]["status"] == "ok" and len(data["bmc"]["seconds_per_depth"]) == 3
    assert data["verdict"] == "passed" and data["findings"] == []


@pytest.mark.slow
def test_a_violation_exits_non_zero_and_prints_the_counterexample(tmp_path: Path) -> None:
    out = tmp_path / "report.json"
    args = ["--players", "2", "--only", "I3", "--depth", "0", "--no-vacuity"]
    with injected("cap_off_by_one"):
        result = RUNNER.invoke(app, [*QUIET, *args, "--json", str(out), *_cx(tmp_path)])
    assert result.exit_code == 1, result.output
    assert "counterexample to induction" in result.output and "violated" in result.output
    proof = json.loads(out.read_text())["proofs"][0]
    assert proof["verdict"] == "violated" and proof["counterexample"]["confirmed"]


def test_a_bad_ruleset_is_refused_with_exit_2(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("[players]\nmin = 1\n", encoding="utf-8")
    result = RUNNER.invoke(app, [*QUIET, "--rules", str(bad), "--depth", "0"])
    assert result.exit_code == 2
    assert "ruleset" in result.output


def test_bad_player_range_is_refused() -> None:
    result = RUNNER.invoke(app, ["--players", "1-9"])
    assert result.exit_code == 2


@pytest.mark.slow
def test_the_table_and_json_give_a_verdict_per_player_count(tmp_path: Path) -> None:
    """An injected bug: the property it breaks is violated for each N, each with its own
    counterexample of that N; the others stay proved; BMC has a verdict per N."""
    out = tmp_path / "report.json"
    args = ["--players", "2-3", "--only", "I1,I3", "--depth", "2", "--no-vacuity"]
    with injected("cap_off_by_one"):
        result = RUNNER.invoke(app, [*QUIET, *args, "--json", str(out), *_cx(tmp_path)])
    assert result.exit_code == 1, result.output
    assert "N=2" in result.output and "N=3" in result.output and "N=4" not in result.output
    assert "counterexample to induction, N=2" in result.output
    data = json.loads(out.read_text())
    proofs = {p["id"]: p for p in data["proofs"]}
    assert [(v["n"], v["verdict"]) for v in proofs["I1"]["per_n"]] == [
        (2, "proved"),
        (3, "proved"),
    ]
    assert all("counterexample" not in v for v in proofs["I1"]["per_n"])
    i3 = proofs["I3"]
    assert i3["verdict"] == "violated" and i3["queries"] == 3
    for verdict in i3["per_n"]:
        assert verdict["verdict"] == "violated" and verdict["part"] == "step"
        cex = verdict["counterexample"]
        assert cex["confirmed"] and cex["before"]["n"] == verdict["n"]
    assert [(v["n"], v["status"], v["depth"]) for v in data["bmc"]["per_n"]] == [
        (2, "ok", 2),
        (3, "ok", 2),
    ]


@pytest.mark.slow
def test_one_job_and_two_jobs_give_the_same_verdicts(tmp_path: Path) -> None:
    """Worker processes change only the times."""
    verdicts = []
    for jobs in ("1", "2"):
        out = tmp_path / f"report{jobs}.json"
        args = ["--players", "2-3", "--only", "I2,L4", "--depth", "1", "--no-vacuity"]
        result = RUNNER.invoke(app, [*QUIET, *args, "--jobs", jobs, "--json", str(out)])
        assert result.exit_code == 0, result.output
        data = json.loads(out.read_text())
        assert data["jobs"] == int(jobs)
        verdicts.append(
            [(p["id"], [(v["n"], v["verdict"]) for v in p["per_n"]]) for p in data["proofs"]]
        )
    assert verdicts[0] == verdicts[1]


@pytest.mark.slow
def test_the_engine_walks_run_in_the_verification_and_agree(tmp_path: Path) -> None:
    out = tmp_path / "report.json"
    args = ["--players", "2-4", "--only", "I1", "--depth", "0", "--no-vacuity"]
    result = RUNNER.invoke(app, [*args, "--walk-steps", "600", "--json", str(out)])
    assert result.exit_code == 0, result.output
    assert "Engine against the model" in result.output and "agreed" in result.output
    engine = json.loads(out.read_text())["engine"]
    assert engine["steps"] >= 600 and engine["disagreements"] == []
    # games cycle through the --players range from its low end, and never leave it
    played = sorted(engine["steps_by_players"])
    assert played[0] == "2" and set(played) <= {"2", "3", "4"}


@pytest.mark.slow
def test_a_model_bug_saves_replayable_counterexamples_and_parts_the_walks(
    tmp_path: Path,
) -> None:
    out, folder = tmp_path / "report.json", tmp_path / "cx"
    args = ["--players", "3", "--only", "I4", "--depth", "6", "--no-vacuity", "--jobs", "1"]
    files = ["--json", str(out), "--counterexamples", str(folder)]
    with injected("poll_owner_first"):
        result = RUNNER.invoke(app, [*args, "--walk-steps", "300", *files])
    assert result.exit_code == 1, result.output
    assert sorted(p.name for p in folder.iterdir()) == [
        "I4-bmc-N3.json",
        "I4-induction-N3.json",
    ]
    engine = json.loads(out.read_text())["engine"]
    assert engine["disagreements"] and "fcursor" in " ".join(engine["disagreements"][0]["details"])
    for saved in folder.iterdir():
        replayed = CliRunner().invoke(top_app, ["replay", str(saved)])
        assert replayed.exit_code == 1, replayed.output
        assert "departs at step" in replayed.output
