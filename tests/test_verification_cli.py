"""``buckshot verify`` (the typer sub-application), through typer's test runner."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from buckshot.verification.cli import app, parse_players

RUNNER = CliRunner()


def test_players_ranges() -> None:
    assert parse_players("2-8") == (2, 8)
    assert parse_players("5") == (5, 5)


def test_selected_proofs_pass_and_write_json(tmp_path: Path) -> None:
    out = tmp_path / "report.json"
    result = RUNNER.invoke(
        app,
        ["--players", "2-3", "--only", "I1,I6", "--depth", "2", "--no-vacuity", "--json", str(out)],
    )
    assert result.exit_code == 0, result.output
    assert "I1" in result.output and "proved" in result.output
    data = json.loads(out.read_text())
    assert [p["id"] for p in data["proofs"]] == ["I1", "I6"]
    assert data["bmc"]["status"] == "ok" and len(data["bmc"]["seconds_per_depth"]) == 3
    assert data["failed"] is False


def test_a_violation_exits_non_zero_and_prints_the_counterexample(tmp_path: Path) -> None:
    out = tmp_path / "report.json"
    args = ["--players", "2", "--only", "I3", "--depth", "0", "--no-vacuity"]
    result = RUNNER.invoke(app, [*args, "--inject", "cap_off_by_one", "--json", str(out)])
    assert result.exit_code == 1, result.output
    assert "counterexample to induction" in result.output and "violated" in result.output
    proof = json.loads(out.read_text())["proofs"][0]
    assert proof["verdict"] == "violated" and proof["counterexample"]["confirmed"]


def test_a_bad_ruleset_is_refused_with_exit_2(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("[players]\nmin = 1\n", encoding="utf-8")
    result = RUNNER.invoke(app, ["--rules", str(bad), "--depth", "0"])
    assert result.exit_code == 2
    assert "ruleset" in result.output


def test_bad_player_range_is_refused() -> None:
    result = RUNNER.invoke(app, ["--players", "1-9"])
    assert result.exit_code == 2
