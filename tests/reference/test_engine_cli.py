"""The engine's commands: simulate, play (scripted keyboard) and replay."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from buckshot.cli.main import app
from buckshot.reference.simulate import simulate, wilson_interval
from buckshot.spec.ruleset import load_ruleset

runner = CliRunner()


def test_wilson_interval_matches_known_values() -> None:
    low, high = wilson_interval(50, 100)
    assert round(low, 4) == 0.4038 and round(high, 4) == 0.5962
    assert wilson_interval(0, 0) == (0.0, 1.0)
    low, high = wilson_interval(0, 10)
    assert low == 0.0 and 0.27 < high < 0.28


def test_simulation_is_deterministic_and_the_same_with_two_workers() -> None:
    rules = load_ruleset()
    one = simulate(rules, 60, 3, seed=7, agent="random", jobs=1).to_json()
    again = simulate(rules, 60, 3, seed=7, agent="random", jobs=1).to_json()
    two = simulate(rules, 60, 3, seed=7, agent="random", jobs=2).to_json()
    assert one == again == two
    assert one["games"] == 60
    assert sum(one["appearances"].values()) == 180
    assert sum(one["wins"].values()) == 60 - one["draws"]


def test_simulate_command_prints_figures_and_writes_json(tmp_path: Path) -> None:
    out = tmp_path / "figures.json"
    result = runner.invoke(
        app,
        ["simulate", "--games", "20", "--players", "3", "--agent", "random", "--json", str(out)],
    )
    assert result.exit_code == 0, result.output
    assert "win rate" in result.output and "deepest stack reached" in result.output
    assert "games/s (20 games in" in result.output
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["games"] == 20 and set(data["roles"]) >= {"magician", "dealer"}


def test_simulate_refuses_an_unknown_agent() -> None:
    result = runner.invoke(app, ["simulate", "--games", "2", "--agent", "genius"])
    assert result.exit_code == 2 and "usage.agent" in result.output


def test_play_then_replay(tmp_path: Path) -> None:
    log = tmp_path / "game.jsonl"
    keys = "1\n" * 400
    result = runner.invoke(
        app,
        ["play", "--roles", "magician,dealer", "--seed", "3", "--log", str(log)],
        input=keys,
    )
    assert result.exit_code == 0, result.output
    assert "choice>" in result.output and "A, main action:" in result.output
    assert "[main action]" in result.output  # narrative lines are not taken for markup
    replayed = runner.invoke(app, ["replay", str(log)])
    assert replayed.exit_code == 0
    assert replayed.output.startswith("The game starts: A (magician, 4 HP), B (dealer, 4 HP).")
    # the human at seat 0 never sees the Dealer's previews
    assert "foresees" not in runner.invoke(app, ["replay", str(log), "--seat", "0"]).output


def test_replay_refuses_a_file_that_is_not_a_log(tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"seq": 1}\n', encoding="utf-8")
    result = runner.invoke(app, ["replay", str(bad)])
    assert result.exit_code == 2 and "log.invalid" in result.output
