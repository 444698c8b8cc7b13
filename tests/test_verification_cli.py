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


def test_the_table_and_json_give_a_verdict_per_player_count(tmp_path: Path) -> None:
    """An injected bug: the property it breaks is violated for each N, each with its own
    counterexample of that N; the others stay proved; BMC has a verdict per N."""
    out = tmp_path / "report.json"
    args = ["--players", "2-3", "--only", "I1,I3", "--depth", "2", "--no-vacuity"]
    result = RUNNER.invoke(app, [*args, "--inject", "cap_off_by_one", "--json", str(out)])
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


def test_one_job_and_two_jobs_give_the_same_verdicts(tmp_path: Path) -> None:
    """Worker processes change only the times."""
    verdicts = []
    for jobs in ("1", "2"):
        out = tmp_path / f"report{jobs}.json"
        args = ["--players", "2-3", "--only", "I2,L4", "--depth", "1", "--no-vacuity"]
        result = RUNNER.invoke(app, [*args, "--jobs", jobs, "--json", str(out)])
        assert result.exit_code == 0, result.output
        data = json.loads(out.read_text())
        assert data["jobs"] == int(jobs)
        verdicts.append(
            [(p["id"], [(v["n"], v["verdict"]) for v in p["per_n"]]) for p in data["proofs"]]
        )
    assert verdicts[0] == verdicts[1]
